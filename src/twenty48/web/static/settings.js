// The player's settings, kept in localStorage. Storage may be missing, full or forbidden (private
// windows, blocked cookies): then the settings live for this page only and play goes on.

import { LANGUAGES } from "./i18n.js";

const KEY = "twenty48.settings";
// Music starts off, as the original is silent; contrast "" follows the system (prefers-contrast).
const DEFAULTS = { music: false, effects: true, muted: false, volume: 60, theme: "system", lang: "", speed: "normal", contrast: "" };
const CHOICES = { theme: ["system", "light", "dark"], lang: ["", ...LANGUAGES], speed: ["slow", "normal", "fast"], contrast: ["", "on", "off"] };

function valid(key, value) {
  if (!(key in DEFAULTS) || typeof value !== typeof DEFAULTS[key]) return false;
  if (key === "volume") return Number.isInteger(value) && value >= 0 && value <= 100;
  return !CHOICES[key] || CHOICES[key].includes(value);
}

function read() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "{}");
    return Object.fromEntries(Object.entries(saved).filter(([key, value]) => valid(key, value)));
  } catch {
    return {};
  }
}

export class Settings {
  constructor() {
    this.values = { ...DEFAULTS, ...read() };
    this.listeners = [];
  }

  get(key) {
    return this.values[key];
  }

  set(key, value) {
    if (!valid(key, value) || this.values[key] === value) return;
    this.values[key] = value;
    try {
      localStorage.setItem(KEY, JSON.stringify(this.values));
    } catch {
      // Not saved; the setting still applies until the page closes.
    }
    for (const listener of this.listeners) listener(key, value);
  }

  onChange(listener) {
    this.listeners.push(listener);
  }
}
