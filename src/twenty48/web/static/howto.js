// How to play: the goal, the keys, swipes, undo and the hint, in a dialog opened from the footer's
// "?" and built then (the first board does without it).

import { stylesheet } from "./settings-ui.js";

const TOPICS = ["Goal", "Keys", "Swipe", "Undo", "Hint"];

const HTML = `
<dialog id="how-to-play" aria-labelledby="how-to-title">
  <h2 id="how-to-title" data-i18n="howTo"></h2>
  <dl class="how">${TOPICS.map((topic) => `<dt data-i18n="how${topic}"></dt><dd data-i18n="how${topic}Text"></dd>`).join("")}</dl>
  <div class="row"><button id="how-to-close" class="btn" data-i18n="close" autofocus></button></div>
</dialog>`;

export async function howToDialog(i18n) {
  await Promise.all([stylesheet("dialog.css").catch(() => {}), i18n.load("howto")]); // unstyled, it still reads
  document.body.insertAdjacentHTML("beforeend", HTML);
  const dialog = document.getElementById("how-to-play");
  i18n.translate(dialog);
  document.getElementById("how-to-close").addEventListener("click", () => dialog.close());
  return dialog;
}
