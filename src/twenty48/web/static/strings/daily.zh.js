export default {
  daily: "每日挑战", dailyLeft: "剩余{h}小时{m}分", dailyLeftM: "剩余{m}分钟", dailyRank: "今日第{n}名",
};
