export default {
  daily: "デイリーチャレンジ", dailyLeft: "残り{h}時間{m}分", dailyLeftM: "残り{m}分", dailyRank: "今日{n}位",
};
