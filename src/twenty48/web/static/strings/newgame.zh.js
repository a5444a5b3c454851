export default {
  confirmTitle: "开始新游戏？", confirmText: "当前游戏将在此结束，并保留在历史记录中。",
  classicRules: "新方块是 2 或 4；每次移动都滑动整个棋盘。",
  mergeRules: "最大方块越大，新出现的方块可能越大；从方块开始的滑动只移动该方块。",
  boardSize: "棋盘大小",
};
