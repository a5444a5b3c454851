// The settings dialog, the sound button and the language links, kept in step with the stored
// settings (the controls show a change whichever of them made it).

const $ = (id) => document.getElementById(id);

function applyTheme(settings) {
  const theme = settings.get("theme");
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

// `relabel` redraws what the page wrote itself (cell labels, scores, the mode) in the new language.
function applyLanguage(i18n, lang, relabel) {
  i18n.apply(lang);
  for (const button of document.querySelectorAll("[data-lang]")) button.setAttribute("aria-pressed", button.dataset.lang === lang);
  relabel();
}

export function bindSettings(settings, i18n, relabel) {
  applyTheme(settings);
  applyLanguage(i18n, i18n.lang, relabel);
  for (const control of document.querySelectorAll("[data-setting]")) {
    const key = control.dataset.setting;
    const show = () => {
      if (control.type === "checkbox") control.checked = settings.get(key);
      else control.value = settings.get(key);
    };
    show();
    settings.onChange((changed) => changed === key && show());
    control.addEventListener(control.type === "range" ? "input" : "change", () => {
      const value = control.type === "checkbox" ? control.checked : control.type === "range" ? Number(control.value) : control.value;
      settings.set(key, value);
    });
  }
  const soundButton = $("sound");
  const showSound = () => soundButton.setAttribute("aria-pressed", !settings.get("muted"));
  showSound();
  settings.onChange((key) => {
    if (key === "muted") showSound();
    if (key === "theme") applyTheme(settings);
  });
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
