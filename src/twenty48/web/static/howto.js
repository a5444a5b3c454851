// How to play: the goal, the keys, swipes, undo and the hint, in a dialog opened from the footer's
// "?" and built then (the first board does without it).

import { UNDO_LIMIT } from "./facts.js";
import { stylesheet } from "./settings-ui.js";

const TOPICS = ["Goal", "Keys", "Swipe", "Undo", "Hint"];

const STRINGS = {
  en: {
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
  },
  ja: {
    howGoal: "目的",
    howGoalText: "タイルを滑らせます。同じ数のタイルがぶつかると合わさって1枚になり（8と8で16）、その数がスコアに加わります。2048のタイルを作ればクリアで、その後も続けられます。盤面が埋まり、隣り合う同じ数がなくなるとゲームオーバーです。",
    howKeys: "キー",
    howKeysText: "矢印キー、W A S D、h j k l で全タイルをその方向へ滑らせます（盤面の下の矢印も同じ）。そのたびに2か4のタイルが1枚現れます。Nで新しいゲーム、モードのボタンでクラシックかマージ2048を選べます。",
    howSwipe: "スワイプ",
    howSwipeText: "タッチ画面では盤面をスワイプします。マージ2048では、タイルから始めたスワイプはそのタイルだけを動かします。",
    howUndo: "戻す",
    howUndoText: `「戻す」（UかCtrl+Z）で直前の手を取り消せます（続けて${UNDO_LIMIT}手まで）。そのあと現れるタイルは同じです。`,
    howHint: "ヒント",
    howHintText: "「ヒント」は各手を最善から大悪手まで評価し、「自動プレイ」ではソルバーがプレイします。ランキング対象のゲームで戻す・ヒント・自動プレイを使うと、ランキングから外れます。",
  },
  zh: {
    howGoal: "目标",
    howGoalText: "滑动方块。两个相同数字的方块相遇时合并为一个，数字相加（两个 8 合成 16），并计入分数。合成 2048 方块即获胜，之后还可以继续。棋盘填满且相邻方块都不相同时，游戏结束。",
    howKeys: "按键",
    howKeysText: "方向键、W A S D 或 h j k l 让所有方块向该方向滑动（棋盘下方的箭头也一样），之后会出现一个新的 2 或 4。N 开始新游戏；模式按钮可选择经典或合并 2048。",
    howSwipe: "滑动",
    howSwipeText: "在触摸屏上，在棋盘上滑动即可。在合并 2048 中，从方块开始的滑动只移动该方块。",
    howUndo: "撤销",
    howUndoText: `“撤销”（U 或 Ctrl+Z）收回上一步，最多连续 ${UNDO_LIMIT} 步；之后出现的方块仍然相同。`,
    howHint: "提示",
    howHintText: "“提示”为每一步评分，从最佳到大错；“自动”让求解器来玩。排行游戏一旦使用撤销、提示或自动，就会退出排行榜。",
  },
};

const HTML = `
<dialog id="how-to-play" aria-labelledby="how-to-title">
  <h2 id="how-to-title" data-i18n="howTo"></h2>
  <dl class="how">${TOPICS.map((topic) => `<dt data-i18n="how${topic}"></dt><dd data-i18n="how${topic}Text"></dd>`).join("")}</dl>
  <div class="row"><button id="how-to-close" class="btn" data-i18n="close" autofocus></button></div>
</dialog>`;

export async function howToDialog(i18n) {
  await stylesheet("dialog.css").catch(() => {}); // unstyled, it still reads
  i18n.extend(STRINGS);
  document.body.insertAdjacentHTML("beforeend", HTML);
  const dialog = document.getElementById("how-to-play");
  i18n.translate(dialog);
  document.getElementById("how-to-close").addEventListener("click", () => dialog.close());
  return dialog;
}
