// Building the views' elements, and the words for a refusal.

// `attrs` become attributes (an empty string for a bare one such as hidden); `text` the content.
export function element(tag, attrs = {}, text = "") {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  if (text !== "") el.textContent = text;
  return el;
}

// The server's own sentence when it gave one (its errors carry a detail), else the status.
export function errorText(i18n, error) {
  return i18n.t("refused", { d: error.message });
}
