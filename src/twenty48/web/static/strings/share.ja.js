export default {
  shareText: "2048で{n}点を取りました。最大のタイルは{tile}でした。",
  shareCopied: "クリップボードにコピーしました: {text}",
  shareFailed: "結果を共有もコピーもできませんでした。",
};
