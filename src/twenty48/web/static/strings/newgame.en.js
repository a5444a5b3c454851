export default {
  confirmTitle: "Start a new game?", confirmText: "The current game ends here and stays in your history.",
  classicRules: "New tiles are 2s and 4s; every move slides the whole board.",
  mergeRules: "New tiles can be bigger as your largest tile grows; a swipe that starts on a tile moves only that tile.",
  boardSize: "Board size",
};
