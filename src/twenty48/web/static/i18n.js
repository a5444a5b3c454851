// English, Japanese and Chinese: each part of the page has its words in strings/PART.LANG.js, fetched
// by load(PART) in the reader's language and English (the fallback); the first board's ("play") in
// the first only. Elements name their text with data-i18n (content) and data-i18n-label (aria-label
// and title); placeholders look like {n}, numbers by number(); plurals ({one, other}) follow {n}.

// Said even before (or without) a language's strings.
const CORE = {
  offline: "Can't reach the server; retrying… ({n} waiting)",
  online: "Connected again.",
  loadFailed: "This part of the page could not be loaded; check the connection and try again.",
};
const STRINGS = {};
const PARTS = new Set(["play"]);
let again = ""; // see lazy() in app.js
const fetchPart = async (part, lang) => Object.assign((STRINGS[lang] ??= {}), (await import(`./strings/${part}.${lang}.js${again}`).catch((e) => { again += "?"; throw e; })).default);

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
    let text = STRINGS[this.lang]?.[key] ?? STRINGS.en?.[key] ?? CORE[key] ?? "";
    if (typeof text === "object") text = text[new Intl.PluralRules(this.lang).select(vars.n)] ?? text.other;
    return text.replace(/\{(\w+)\}/g, (_, name) => (typeof vars[name] === "number" ? this.number(vars[name]) : vars[name]));
  }

  // Again if the language changed meanwhile; apply() knows it once in.
  async load(part) {
    for (let lang; lang !== this.lang; ) await Promise.all([fetchPart(part, (lang = this.lang)), fetchPart(part, "en")]);
    PARTS.add(part);
  }

  // Shows the page in `lang`, with every part's words (also one added meanwhile).
  async apply(lang) {
    for (let parts = []; parts.length < PARTS.size; ) await Promise.all((parts = [...PARTS]).map((p) => fetchPart(p, lang)));
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
