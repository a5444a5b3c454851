import { UNDO_LIMIT } from "../facts.js";

export default {
  howGoal: "Goal",
  howGoalText: "Slide the tiles. Two tiles of the same number that meet join into one, their sum (two 8s make a 16), which adds to your score. Make a 2048 tile to win, then keep going if you like. The game ends when the board is full and no two neighbours match.",
  howKeys: "Keys",
  howKeysText: "Arrow keys, W A S D or h j k l slide every tile that way, as do the arrows under the board; a new 2 or 4 then appears. N starts a new game; the mode button chooses Classic or Merge 2048.",
  howSwipe: "Swipes",
  howSwipeText: "On a touch screen, swipe across the board. In Merge 2048 a swipe that starts on a tile moves only that tile.",
  howUndo: "Undo",
  howUndoText: `Undo (U or Ctrl+Z) takes back the last move, up to ${UNDO_LIMIT} in a row; the same tile appears again after it.`,
  howHint: "Hint",
  howHintText: "Hint grades each move, from best to blunder; Auto-play lets the solver play. A ranked game that uses undo, a hint or auto-play leaves the leaderboard.",
};
