// A yes-or-no question in the page's own dialog, built on first use: the warning before the first
// assisted action (undo, hint, auto-play) of a ranked game, and before the daily challenge takes the
// place of a game in progress. Nothing is remembered: each ranked game asks once, because its first
// assisted action unranks it.

import { stylesheet } from "./settings-ui.js";

const $ = (id) => document.getElementById(id);

const HTML = `
<dialog id="ask" aria-labelledby="ask-title" aria-describedby="ask-text">
  <h2 id="ask-title"></h2>
  <p id="ask-text"></p>
  <div class="row">
    <button id="ask-no" class="btn quiet"></button>
    <button id="ask-yes" class="btn" autofocus></button>
  </div>
</dialog>`;

// ask("assist") resolves true when the player says yes, false on Cancel or Escape.
export async function asker(i18n) {
  await Promise.all([stylesheet("dialog.css").catch(() => {}), i18n.load("ask")]); // unstyled, the question still reads
  document.body.insertAdjacentHTML("beforeend", HTML);
  const dialog = $("ask");
  $("ask-yes").addEventListener("click", () => dialog.close("yes"));
  $("ask-no").addEventListener("click", () => dialog.close());
  return (topic) =>
    new Promise((resolve) => {
      if (dialog.open) return resolve(false);
      $("ask-title").textContent = i18n.t(`${topic}Title`);
      $("ask-text").textContent = i18n.t(`${topic}Text`);
      $("ask-yes").textContent = i18n.t(`${topic}Yes`);
      $("ask-no").textContent = i18n.t("cancel");
      dialog.dataset.topic = topic;
      dialog.returnValue = "";
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
      dialog.showModal();
    });
}
