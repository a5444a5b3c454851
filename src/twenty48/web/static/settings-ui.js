// The settings dialog, the sound button and the language links, kept in step with the stored
// settings (the controls show a change whichever of them made it).

const $ = (id) => document.getElementById(id);

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
function applyLanguage(i18n, lang, relabel) {
  i18n.apply(lang);
  for (const button of document.querySelectorAll("[data-lang]")) button.setAttribute("aria-pressed", button.dataset.lang === lang);
  relabel();
}

export function bindSettings(settings, i18n, relabel) {
  applyLook(settings);
  applyLanguage(i18n, i18n.lang, relabel);
  for (const control of document.querySelectorAll("[data-setting]")) {
    const key = control.dataset.setting;
    const contrast = key === "contrast"; // a switch over "on" / "off", showing what applies now
    const show = () => {
      if (control.type === "checkbox") control.checked = contrast ? highContrast(settings) : settings.get(key);
      else control.value = settings.get(key);
    };
    show();
    settings.onChange((changed) => changed === key && show());
    moreContrast.addEventListener("change", show);
    control.addEventListener(control.type === "range" ? "input" : "change", () => {
      const { type, checked, value } = control;
      settings.set(key, type === "checkbox" ? (contrast ? (checked ? "on" : "off") : checked) : type === "range" ? Number(value) : value);
    });
  }
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
  $("open-settings").addEventListener("click", () => $("settings").showModal());
  $("close-settings").addEventListener("click", () => $("settings").close());
}
