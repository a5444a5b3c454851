// The settings as the page applies them (theme, high-contrast tiles, language), the sound button and
// the language links.

const $ = (id) => document.getElementById(id);

// Resolves once the stylesheet has loaded, so that a view never shows unstyled.
export const stylesheet = (name) =>
  new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/static/${name}` });
    link.onload = resolve;
    link.onerror = reject;
    document.head.append(link);
  });

export const moreContrast = matchMedia("(prefers-contrast: more)");
// High-contrast tiles: chosen, or (not chosen either way) asked for by the system.
export const highContrast = (settings) => ({ on: true, off: false })[settings.get("contrast")] ?? moreContrast.matches;

function applyLook(settings) {
  const theme = settings.get("theme");
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  document.documentElement.classList.toggle("hc", highContrast(settings));
}

// `relabel` redraws what the page wrote itself (cell labels, scores, the mode) in the new language;
// `failed` says its strings could not be fetched.
async function applyLanguage(i18n, lang, relabel, failed) {
  try {
    await i18n.apply(lang);
  } catch {
    return failed();
  }
  for (const button of document.querySelectorAll("[data-lang]")) button.setAttribute("aria-pressed", button.dataset.lang === lang);
  relabel();
}

// Resolves once the page speaks its language (or tried to).
export function bindSettings(settings, i18n, relabel, failed) {
  applyLook(settings);
  const spoken = applyLanguage(i18n, i18n.lang, relabel, failed);
  const soundButton = $("sound");
  const showSound = () => soundButton.setAttribute("aria-pressed", !settings.get("muted"));
  showSound();
  settings.onChange((key) => {
    if (key === "muted") showSound();
    if (key === "theme" || key === "contrast") applyLook(settings);
  });
  moreContrast.addEventListener("change", () => applyLook(settings));
  soundButton.addEventListener("click", () => settings.set("muted", !settings.get("muted")));
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => {
      settings.set("lang", button.dataset.lang);
      // A chosen language replaces one forced by the address.
      const url = new URL(location.href);
      if (url.searchParams.has("lang")) {
        url.searchParams.delete("lang");
        history.replaceState(null, "", url);
      }
      applyLanguage(i18n, button.dataset.lang, relabel, failed);
    });
  }
  return spoken;
}
