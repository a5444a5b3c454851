export default {
  assistTitle: "退出排行榜？",
  assistText: "这局游戏将不再计入排行榜。",
  assistYes: "继续",
  dailyTitle: "开始每日挑战？",
  dailyText: "当前游戏到此结束，并保留在历史记录中。",
  dailyYes: "开始",
};
