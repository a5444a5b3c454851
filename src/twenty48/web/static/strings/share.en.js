export default {
  shareText: "I scored {n} points in 2048; my largest tile was {tile}.",
  shareCopied: "Copied to the clipboard: {text}",
  shareFailed: "The result could not be shared or copied.",
};
