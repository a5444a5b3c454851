// The new-game dialog. A new game keeps the mode and the board's size unless the player
// changes them in the dialog; the dialog asks first only when there is a game to lose. Under the
// modes, a line says what the one selected does.

import { DEFAULT_VARIANT, VARIANTS } from "./facts.js";
import { stylesheet } from "./settings-ui.js";
import { SIZES, sizeName } from "./sizes.js";

const $ = (id) => document.getElementById(id);

const HTML = `
<dialog id="confirm" aria-labelledby="confirm-title">
  <h2 id="confirm-title" data-i18n="confirmTitle">Start a new game?</h2>
  <p id="confirm-text" data-i18n="confirmText">The current game ends here and stays in your history.</p>
  <fieldset class="modes">
    <legend data-i18n="mode">Mode</legend>
    ${VARIANTS.map((v) => `<label><input type="radio" name="variant" value="${v}"${v === DEFAULT_VARIANT ? " checked" : ""}><span data-i18n="${v}"></span></label>`).join("\n    ")}
    <p class="note" id="mode-rules" data-i18n="${DEFAULT_VARIANT}Rules"></p>
  </fieldset>
  <label class="size-choice"><span data-i18n="boardSize">Board</span><select id="size" name="size"></select></label>
  <div class="row">
    <button id="confirm-no" class="btn quiet" data-i18n="cancel">Cancel</button>
    <button id="confirm-yes" class="btn" data-i18n="newGame" autofocus>New game</button>
  </div>
</dialog>`;

// What New game (the button and the N key) and the mode button do. Built on first use (app.js), as
// the settings dialog is: the first board does not need it.
export async function newGameDialog(queue, auto, i18n) {
  // Unstyled choices are better than no dialog when the stylesheet cannot be fetched.
  const styled = Promise.all([stylesheet("dialog.css"), stylesheet("newgame.css")]).catch(() => {});
  await Promise.all([styled, i18n.load("newgame")]);
  document.body.insertAdjacentHTML("beforeend", HTML);
  const dialog = $("confirm");
  const radios = [...dialog.querySelectorAll("[name=variant]")];
  // Named by data-i18n, so a change of language rewrites it too.
  const describe = () => {
    const rules = $("mode-rules");
    rules.dataset.i18n = `${radios.find((radio) => radio.checked).value}Rules`;
    rules.textContent = i18n.t(rules.dataset.i18n);
  };
  for (const radio of radios) radio.addEventListener("change", describe);
  const sizes = $("size");
  const offer = (size) => sizes.append(Object.assign(document.createElement("option"), { value: size, textContent: sizeName(size) }));
  SIZES.forEach(offer);
  i18n.translate(dialog);
  const ask = (variant = DEFAULT_VARIANT, size = "4x4") => {
    for (const radio of radios) radio.checked = radio.value === variant;
    // A game of a size the page does not offer (one started through the API) keeps it unless changed.
    if (![...sizes.options].some((option) => option.value === size)) offer(size);
    sizes.value = size;
    describe();
    $("confirm-text").hidden = !queue.inProgress;
    dialog.returnValue = "";
    dialog.showModal();
  };
  $("confirm-yes").addEventListener("click", () => dialog.close("yes"));
  $("confirm-no").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "yes") queue.newGame(dialog.querySelector("[name=variant]:checked").value, sizes.value);
  });
  return {
    request() {
      auto.set(false);
      if (queue.inProgress) ask(queue.state.variant, queue.state.size);
      else queue.newGame();
    },
    // The dialog on the current mode, its radio focused, so changing it is a choice the player
    // makes (Enter alone does nothing there).
    mode() {
      auto.set(false);
      ask(queue.state?.variant, queue.state?.size);
      dialog.querySelector("[name=variant]:checked").focus();
    },
  };
}
