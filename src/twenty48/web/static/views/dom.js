// Building the views' elements (a choice of board size too), dates and a game's name in the page's
// words, and the words for a refusal.

import { SIZES, sizeName } from "../sizes.js";

// `attrs` become attributes (an empty string for a bare one such as hidden); `text` the content.
export function element(tag, attrs = {}, text = "") {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  if (text !== "") el.textContent = text;
  return el;
}

// A choice of the board sizes the page offers, `size` chosen.
export function sizeSelect(size) {
  const select = element("select", { "data-part": "size" });
  for (const value of SIZES) select.append(element("option", { value }, sizeName(value)));
  select.value = size;
  return select;
}

// The server's own sentence when it gave one (its errors carry a detail), else the status.
export function errorText(i18n, error) {
  return i18n.t("refused", { d: error.message });
}

// Every moment the views write (an ISO time from the server), one way per language.
export function date(i18n, iso) {
  return new Intl.DateTimeFormat(i18n.lang, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));
}

// A game as the player can place it: when it began, its mode, its score (`key`: a title around
// them, such as "Replay: {mode} game of {date}, {n} points"). Its id means nothing to a player.
export function gameTitle(i18n, key, game) {
  return i18n.t(key, { mode: i18n.t(game.variant), date: date(i18n, game.created_at), n: game.score });
}
