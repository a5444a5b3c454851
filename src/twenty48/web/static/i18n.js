// English, Japanese and Chinese. Elements name their text with data-i18n (content) and
// data-i18n-label (aria-label and title); placeholders look like {n}, numbers written by number();
// plural forms ({one, other}) follow {n}. Each language is a module, fetched for who reads it.

// Said even before (or without) a language's strings.
const CORE = {
  offline: "Can't reach the server; retrying… ({n} waiting)",
  online: "Connected again.",
  loadFailed: "This part of the page could not be loaded; check the connection and try again.",
};
const STRINGS = {};

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

  // Every number the page writes, one way per language ("3,476").
  number(value) {
    return new Intl.NumberFormat(this.lang).format(value);
  }

  t(key, vars = {}) {
    let text = STRINGS[this.lang]?.[key] ?? EXTRA[this.lang]?.[key] ?? STRINGS.en?.[key] ?? EXTRA.en?.[key] ?? CORE[key] ?? "";
    if (typeof text === "object") text = text[new Intl.PluralRules(this.lang).select(vars.n)] ?? text.other;
    return text.replace(/\{(\w+)\}/g, (_, name) => (typeof vars[name] === "number" ? this.number(vars[name]) : vars[name]));
  }

  // Strings of a part of the page loaded later (views/strings.js), in the same shape as STRINGS.
  extend(strings) {
    for (const [lang, texts] of Object.entries(strings)) EXTRA[lang] = { ...EXTRA[lang], ...texts };
  }

  // Shows the page in `lang`, fetching its strings the first time.
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
