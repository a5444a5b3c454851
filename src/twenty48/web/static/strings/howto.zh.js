import { UNDO_LIMIT } from "../facts.js";

export default {
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
};
