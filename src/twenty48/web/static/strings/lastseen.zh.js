export default {
  lastSeen: "本设备上次看到的棋盘（可能不是最新）",
};
