export default {
  assistTitle: "Leave the leaderboard?",
  assistText: "This game will no longer count for the leaderboard.",
  assistYes: "Go ahead",
  dailyTitle: "Play the daily challenge?",
  dailyText: "The current game ends here and stays in your history.",
  dailyYes: "Play it",
};
