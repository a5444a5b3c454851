export default {
  hintIs: "ヒント: {d}", hintsBusy: "ソルバーはほかのヒントを計算中です。少し待ってから再試行します。",
};
