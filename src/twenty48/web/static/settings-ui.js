// The settings as the page applies them (theme, high-contrast tiles, language), the sound button, the
// language links, and the button that opens the settings dialog (settings-view.js, loaded then).

const $ = (id) => document.getElementById(id);

// Resolves once the stylesheet has loaded, so that a view never shows unstyled.
export const stylesheet = (name) =>
  new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/static/${name}` });
    link.onload = resolve;
    link.onerror = reject;
    document.head.append(link);
  });

const moreContrast = matchMedia("(prefers-contrast: more)");
// High-contrast tiles: chosen, or (not chosen either way) asked for by the system.
const highContrast = (settings) => ({ on: true, off: false })[settings.get("contrast")] ?? moreContrast.matches;

function applyLook(settings) {
  const theme = settings.get("theme");
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  document.documentElement.classList.toggle("hc", highContrast(settings));
}

// `relabel` redraws what the page wrote itself (cell labels, scores, the mode) in the new language.
async function applyLanguage(i18n, lang, relabel) {
  await i18n.apply(lang);
  for (const button of document.querySelectorAll("[data-lang]")) button.setAttribute("aria-pressed", button.dataset.lang === lang);
  relabel();
}

// Resolves once the page speaks its language.
export function bindSettings(settings, i18n, relabel) {
  applyLook(settings);
  const spoken = applyLanguage(i18n, i18n.lang, relabel);
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
      applyLanguage(i18n, button.dataset.lang, relabel);
    });
  }
  let dialog = null;
  $("open-settings").addEventListener("click", async () => {
    if (!dialog) {
      const [{ settingsDialog }] = await Promise.all([import("./settings-view.js"), stylesheet("settings-view.css")]);
      dialog = settingsDialog(settings, i18n, highContrast, moreContrast);
    }
    dialog.showModal();
  });
  return spoken;
}
