export default {
  assistTitle: "ランキングから外れますか？",
  assistText: "このゲームはランキングに数えられなくなります。",
  assistYes: "続ける",
  dailyTitle: "デイリーチャレンジを遊びますか？",
  dailyText: "今のゲームはここで終わり、履歴に残ります。",
  dailyYes: "遊ぶ",
};
