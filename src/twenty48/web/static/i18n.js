// English, Japanese and Chinese. Elements name their text with data-i18n (content) and
// data-i18n-label (aria-label and title); placeholders look like {n}.

const STRINGS = {
  en: {
    score: "Score", best: "Best", moves: "Moves", newGame: "New game", newShort: "New game", undo: "Undo", hint: "Hint",
    auto: "Auto-play", stop: "Stop", sound: "Sound", settings: "Settings", board: "Game board",
    directions: "Direction buttons", up: "Up", down: "Down", left: "Left", right: "Right",
    tile: "{n} tile", empty: "empty cell", win: "You win!", keepGoing: "Keep going", over: "Game over!",
    finalScore: "Final score: {n}", tryAgain: "Try again", confirmTitle: "Start a new game?",
    confirmText: "The current game ends here and stays in your history.", cancel: "Cancel",
    music: "Music", effects: "Sound effects", volume: "Volume", theme: "Theme", system: "System",
    light: "Light", dark: "Dark", speed: "Auto-play speed", slow: "Slow", normal: "Normal", fast: "Fast",
    close: "Close", scoreIs: "Score {n}", hintIs: "Hint: {d}",
    help: "Arrow keys, WASD or hjkl move · U or Ctrl+Z undoes · N starts a new game · swipe on the board",
    offline: "Can't reach the server; retrying… ({n} waiting)", online: "Connected again.",
    changed: "This game changed in another tab; showing it as it is now.", refused: "The server refused: {d}",
    hintsBusy: "The solver is busy with other hints; trying again in a moment.",
    gameOverIs: "Game over. Final score {n}",
    mode: "Mode", classic: "Classic", merge: "Merge 2048", modeIs: "Mode: {m}", changeMode: "Mode: {m} — change",
    mergeRules: "New tiles can be bigger as your largest tile grows; a swipe that starts on a tile moves only that tile.",
    helpMerge: "Arrow keys, WASD or hjkl move · U or Ctrl+Z undoes · N starts a new game · swipe on the board; a swipe that starts on a tile moves only that tile",
  },
  ja: {
    score: "スコア", best: "ベスト", moves: "手数", newGame: "新しいゲーム", newShort: "新しい\u200bゲーム", undo: "戻す",
    hint: "ヒント", auto: "自動\u200bプレイ", stop: "停止", sound: "サウンド", settings: "設定", board: "盤面",
    directions: "方向ボタン", up: "上", down: "下", left: "左", right: "右",
    tile: "{n}のタイル", empty: "空きマス", win: "クリア！", keepGoing: "続ける", over: "ゲームオーバー",
    finalScore: "最終スコア: {n}", tryAgain: "もう一度", confirmTitle: "新しいゲームを始めますか？",
    confirmText: "今のゲームはここで終わり、履歴に残ります。", cancel: "キャンセル",
    music: "BGM", effects: "効果音", volume: "音量", theme: "テーマ", system: "システム",
    light: "ライト", dark: "ダーク", speed: "自動プレイの速さ", slow: "遅い", normal: "普通", fast: "速い",
    close: "閉じる", scoreIs: "スコア {n}", hintIs: "ヒント: {d}",
    help: "矢印キー・WASD・hjklで移動 · UかCtrl+Zで戻す · Nで新しいゲーム · 盤面をスワイプ",
    offline: "サーバーに接続できません。再試行中…（{n}件待機中）", online: "再接続しました。",
    changed: "別のタブでゲームが進みました。最新の状態を表示します。", refused: "サーバーが拒否しました: {d}",
    hintsBusy: "ソルバーはほかのヒントを計算中です。少し待ってから再試行します。",
    gameOverIs: "ゲームオーバー。最終スコア {n}",
    mode: "モード", classic: "クラシック", merge: "マージ2048", modeIs: "モード: {m}", changeMode: "モード: {m}（変更）",
    mergeRules: "最大のタイルが大きくなるほど新しいタイルも大きくなり得ます。タイルから始めたスワイプはそのタイルだけを動かします。",
    helpMerge: "矢印キー・WASD・hjklで移動 · UかCtrl+Zで戻す · Nで新しいゲーム · 盤面をスワイプ（タイルから始めるとそのタイルだけが動く）",
  },
  zh: {
    score: "分数", best: "最高分", moves: "步数", newGame: "新游戏", newShort: "新游戏", undo: "撤销", hint: "提示",
    auto: "自动", stop: "停止", sound: "声音", settings: "设置", board: "棋盘",
    directions: "方向按钮", up: "上", down: "下", left: "左", right: "右",
    tile: "{n} 方块", empty: "空格", win: "你赢了！", keepGoing: "继续", over: "游戏结束",
    finalScore: "最终分数：{n}", tryAgain: "再试一次", confirmTitle: "开始新游戏？",
    confirmText: "当前游戏将在此结束，并保留在历史记录中。", cancel: "取消",
    music: "音乐", effects: "音效", volume: "音量", theme: "主题", system: "跟随系统",
    light: "浅色", dark: "深色", speed: "自动速度", slow: "慢", normal: "中", fast: "快",
    close: "关闭", scoreIs: "分数 {n}", hintIs: "提示：{d}",
    help: "方向键、WASD 或 hjkl 移动 · U 或 Ctrl+Z 撤销 · N 新游戏 · 在棋盘上滑动",
    offline: "无法连接服务器，正在重试…（{n} 个操作等待中）", online: "已重新连接。",
    changed: "此游戏已在另一个标签页中改变，现显示最新状态。", refused: "服务器拒绝：{d}",
    hintsBusy: "求解器正忙于其他提示，稍后将重试。",
    gameOverIs: "游戏结束。最终分数 {n}",
    mode: "模式", classic: "经典", merge: "合并 2048", modeIs: "模式：{m}", changeMode: "模式：{m}（更改）",
    mergeRules: "最大方块越大，新出现的方块可能越大；从方块开始的滑动只移动该方块。",
    helpMerge: "方向键、WASD 或 hjkl 移动 · U 或 Ctrl+Z 撤销 · N 新游戏 · 在棋盘上滑动（从方块开始滑动只移动该方块）",
  },
};

export const LANGUAGES = Object.keys(STRINGS);

// ?lang= forces a language; otherwise the remembered choice, then the browser's preferences.
export function chooseLanguage(saved) {
  const forced = new URLSearchParams(location.search).get("lang");
  if (LANGUAGES.includes(forced)) return forced;
  if (LANGUAGES.includes(saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = tag.toLowerCase().split("-")[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return "en";
}

export class I18n {
  constructor(lang) {
    this.lang = lang;
  }

  t(key, vars = {}) {
    const text = STRINGS[this.lang][key] ?? STRINGS.en[key];
    return text.replace(/\{(\w+)\}/g, (_, name) => vars[name]);
  }

  number(value) {
    return new Intl.NumberFormat(this.lang, { notation: "compact", maximumFractionDigits: 1 }).format(value);
  }

  apply(lang) {
    this.lang = lang;
    document.documentElement.lang = lang;
    for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = this.t(el.dataset.i18n);
    for (const el of document.querySelectorAll("[data-i18n-label]")) {
      el.setAttribute("aria-label", this.t(el.dataset.i18nLabel));
      if (el.tagName === "BUTTON") el.title = el.getAttribute("aria-label");
    }
  }
}
