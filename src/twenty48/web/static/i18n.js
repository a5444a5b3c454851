// English, Japanese and Chinese. Elements name their text with data-i18n (content) and
// data-i18n-label (aria-label and title); placeholders look like {n}. English is built in; the other
// languages are modules of their own, fetched only for a player who reads them.

const STRINGS = {
  en: {
    history: "History", statistics: "Statistics", leaderboard: "Leaderboard",
    score: "Score", best: "Best", moves: "Moves", newGame: "New game", newShort: "New game", undo: "Undo", hint: "Hint",
    auto: "Auto-play", stop: "Stop", sound: "Sound", settings: "Settings", board: "Game board",
    directions: "Direction buttons", up: "Up", down: "Down", left: "Left", right: "Right",
    tile: "{n} tile", empty: "empty cell", win: "You win!", keepGoing: "Keep going", over: "Game over!",
    finalScore: "Final score: {n}", tryAgain: "Try again", cancel: "Cancel",
    music: "Music", effects: "Sound effects", volume: "Volume", theme: "Theme", system: "System",
    light: "Light", dark: "Dark", speed: "Auto-play speed", slow: "Slow", normal: "Normal", fast: "Fast",
    close: "Close", scoreIs: "Score {n}", hintIs: "Hint: {d}",
    goal: "Join the tiles, get to 2048!", contrast: "High-contrast tiles",
    helpKeys: "Arrow keys, WASD or hjkl move · U or Ctrl+Z undoes · N starts a new game",
    helpKeysMerge: "Arrow keys, WASD or hjkl move · U or Ctrl+Z undoes · N: new game · a drag that starts on a tile moves only that tile",
    helpSwipe: "Swipe on the board to move", helpSwipeMerge: "Swipe to move; a swipe that starts on a tile moves only that tile",
    gbest: "best", ggood: "good", ginaccuracy: "so-so", gmistake: "bad", gblunder: "blunder",
    offline: "Can't reach the server; retrying… ({n} waiting)", online: "Connected again.",
    changed: "This game changed in another tab; showing it as it is now.", refused: "The server refused: {d}",
    hintsBusy: "The solver is busy with other hints; trying again in a moment.",
    gameOverIs: "Game over. Final score {n}",
    mode: "Mode", classic: "Classic", merge: "Merge 2048", modeIs: "Mode: {m}", changeMode: "Mode: {m} — change",
  },
};

// Strings of parts of the page loaded later (views/strings.js), by language: kept apart because a
// language's own strings may not have been fetched yet when a view adds its own.
const EXTRA = {};

export const LANGUAGES = ["en", "ja", "zh"];

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
    const text = STRINGS[this.lang]?.[key] ?? EXTRA[this.lang]?.[key] ?? STRINGS.en[key] ?? EXTRA.en?.[key];
    return text.replace(/\{(\w+)\}/g, (_, name) => vars[name]);
  }

  // Strings of a part of the page loaded later (views/strings.js), in the same shape as STRINGS.
  extend(strings) {
    for (const [lang, texts] of Object.entries(strings)) EXTRA[lang] = { ...EXTRA[lang], ...texts };
  }

  // Shows the page in `lang`, fetching its strings the first time (until then, English stands in).
  async apply(lang) {
    STRINGS[lang] ??= (await import(`./i18n-${lang}.js`)).default;
    this.lang = lang;
    document.documentElement.lang = lang;
    this.translate(document);
  }

  // The texts of `root`'s elements (a view just built, or the whole page) in the current language.
  translate(root) {
    for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = this.t(el.dataset.i18n);
    for (const el of root.querySelectorAll("[data-i18n-label]")) {
      el.setAttribute("aria-label", this.t(el.dataset.i18nLabel));
      if (el.tagName === "BUTTON") el.title = el.getAttribute("aria-label");
    }
  }
}
