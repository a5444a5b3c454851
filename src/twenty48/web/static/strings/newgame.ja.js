export default {
  confirmTitle: "新しいゲームを始めますか？", confirmText: "今のゲームはここで終わり、履歴に残ります。",
  classicRules: "新しいタイルは2か4です。どの操作でも盤面全体が動きます。",
  mergeRules: "最大のタイルが大きくなるほど新しいタイルも大きくなり得ます。タイルから始めたスワイプはそのタイルだけを動かします。",
  boardSize: "盤面サイズ",
};
