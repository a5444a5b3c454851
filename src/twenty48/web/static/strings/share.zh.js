export default {
  shareText: "我在 2048 中得了 {n} 分，最大方块是 {tile}。",
  shareCopied: "已复制到剪贴板：{text}",
  shareFailed: "无法分享或复制结果。",
};
