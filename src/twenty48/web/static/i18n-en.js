// English, fetched like the other languages for the player who reads it (see i18n.js).
export default {
  history: "History", statistics: "Statistics", leaderboard: "Leaderboard",
  score: "Score", best: "Best", moves: "Moves", newGame: "New game", newShort: "New game", undo: "Undo", hint: "Hint",
  auto: "Auto-play", stop: "Stop", sound: "Sound", settings: "Settings", board: "Game board",
  directions: "Direction buttons", up: "Up", down: "Down", left: "Left", right: "Right",
  tile: "{n} tile", empty: "empty cell", win: "You win!", keepGoing: "Keep going", over: "Game over!",
  finalScore: "Final score: {n}", tryAgain: "Try again", cancel: "Cancel",
  close: "Close", scoreIs: "Score {n}", howTo: "How to play", share: "Share",
  goal: "Join the tiles, get to 2048!",
  helpKeys: "Arrow keys, WASD or hjkl move · U or Ctrl+Z undoes · N starts a new game",
  helpKeysMerge: "Arrow keys, WASD or hjkl move · U or Ctrl+Z undoes · N: new game · a drag that starts on a tile moves only that tile",
  helpSwipe: "Swipe on the board to move", helpSwipeMerge: "Swipe to move; a swipe that starts on a tile moves only that tile",
  gbest: "best", ggood: "good", ginaccuracy: "so-so", gmistake: "bad", gblunder: "blunder",
  changed: "This game changed in another tab; showing it as it is now.", refused: "The server refused: {d}",
  gameOverIs: "Game over. Final score {n}",
  mode: "Mode", classic: "Classic", merge: "Merge 2048", changeMode: "Mode: {m} · {s} — change",
};
