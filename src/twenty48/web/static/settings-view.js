// The settings dialog, built the first time it opens (the first board does not need it), its controls
// kept in step with the stored settings whichever control made a change; the player's name and
// device transfer are player-ui.js's.

import { playerSection } from "./player-ui.js";
import { highContrast, moreContrast as system, stylesheet } from "./settings-ui.js";

const HTML = `
<dialog id="settings" aria-labelledby="settings-title">
  <h2 id="settings-title" data-i18n="settings">Settings</h2>
  <label class="opt"><span data-i18n="music">Music</span><input type="checkbox" class="switch" data-setting="music"></label>
  <label class="opt"><span data-i18n="effects">Sound effects</span><input type="checkbox" class="switch" data-setting="effects"></label>
  <label class="opt"><span data-i18n="volume">Volume</span><input type="range" min="0" max="100" step="5" data-setting="volume"></label>
  <label class="opt"><span data-i18n="contrast">High-contrast tiles</span><input type="checkbox" class="switch" data-setting="contrast"></label>
  <label class="opt"><span data-i18n="theme">Theme</span>
    <select data-setting="theme">
      <option value="system" data-i18n="system">System</option>
      <option value="light" data-i18n="light">Light</option>
      <option value="dark" data-i18n="dark">Dark</option>
    </select></label>
  <label class="opt"><span data-i18n="speed">Auto-play speed</span>
    <select data-setting="speed">
      <option value="slow" data-i18n="slow">Slow</option>
      <option value="normal" data-i18n="normal">Normal</option>
      <option value="fast" data-i18n="fast">Fast</option>
    </select></label>
  <div class="row"><button id="close-settings" class="btn" data-i18n="close">Close</button></div>
</dialog>`;

// `highContrast(settings)`: whether the tiles are high-contrast now; `system`: the media query that
// turns them on when the player did not choose.
export async function settingsDialog(settings, i18n) {
  // The player section's words (player-ui.js) come with the dialog's: one part, one fetch.
  await Promise.all([stylesheet("dialog.css"), stylesheet("settings-view.css"), i18n.load("settings")]);
  document.body.insertAdjacentHTML("beforeend", HTML);
  const dialog = document.getElementById("settings");
  i18n.translate(dialog);
  for (const control of dialog.querySelectorAll("[data-setting]")) {
    const key = control.dataset.setting;
    const contrast = key === "contrast"; // a switch over "on" / "off", showing what applies now
    const show = () => {
      if (control.type === "checkbox") control.checked = contrast ? highContrast(settings) : settings.get(key);
      else control.value = settings.get(key);
    };
    show();
    settings.onChange((changed) => changed === key && show());
    system.addEventListener("change", show);
    control.addEventListener(control.type === "range" ? "input" : "change", () => {
      const { type, checked, value } = control;
      settings.set(key, type === "checkbox" ? (contrast ? (checked ? "on" : "off") : checked) : type === "range" ? Number(value) : value);
    });
  }
  document.getElementById("close-settings").addEventListener("click", () => dialog.close());
  playerSection(dialog, i18n);
  return dialog;
}
