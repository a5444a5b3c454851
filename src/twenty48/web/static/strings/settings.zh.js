import { NAME_MAX_LENGTH } from "../facts.js";

export default {
  music: "音乐", effects: "音效", volume: "音量", contrast: "高对比度方块", theme: "主题", system: "跟随系统",
  light: "浅色", dark: "深色", speed: "自动速度", slow: "慢", normal: "中", fast: "快",
  // The player section (player-ui.js).
  player: "玩家", displayName: "显示名称", saveName: "保存", nameSaved: "已保存：你是 {name}。每日挑战记在你开始它时所用的名称下。",
  nameCleared: "名称已删除：你现在是匿名玩家，不在排行榜上。",
  anonymousNote: "没有名称时你以匿名方式游戏，不会出现在排行榜上。",
  hideMe: "不在排行榜上显示我", hostHidden: "主持人已将你从排行榜上隐藏。",
  name_empty: "名称至少需要一个字符。", name_too_long: `名称最多 ${NAME_MAX_LENGTH} 个字符。`,
  name_no_letter: "名称至少需要一个字母或数字。",
  name_spaces: "开头和结尾不能有空格，也不能连续两个空格。",
  name_character: "名称中不能有{c}：只能使用字母、数字、单个空格和 _ - .。",
  charShown: "“{ch}”（{about}）", charHidden: "不可见字符（{about}）",
  name_taken: "这个名称已被别人使用。", invalid_request: "这个名称不能使用。",
  moveDevice: "转移到另一台设备", showCode: "获取代码",
  codeIs: "请在 15 分钟内在另一台设备上输入此代码（只能用一次）：",
  enterCode: "另一台设备上的代码", useCode: "使用代码", claimed: "此设备现在就是那位玩家。",
  code_unknown: "没有这个代码。", code_expired: "代码已过期，请重新获取。",
  code_used: "代码已被使用，请重新获取。", too_many_claims: "尝试次数过多，请等一分钟。",
};
