export default {
  lastSeen: "この端末で最後に見た盤面です（最新とは限りません）",
};
