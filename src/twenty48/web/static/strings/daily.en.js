export default {
  daily: "Daily challenge", dailyLeft: "{h}h {m}m left", dailyLeftM: "{m}m left", dailyRank: "#{n} today",
};
