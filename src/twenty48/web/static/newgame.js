// The new-game dialog and the buttons that open it. A new game keeps the mode unless the player
// changes it in the dialog; the dialog asks first only when there is a game to lose.

const $ = (id) => document.getElementById(id);

// Returns what the N key does.
export function bindNewGame(queue, auto) {
  const dialog = $("confirm");
  const ask = (variant) => {
    for (const radio of dialog.querySelectorAll("[name=variant]")) radio.checked = radio.value === variant;
    $("confirm-text").hidden = !queue.inProgress;
    dialog.returnValue = "";
    dialog.showModal();
  };
  const request = () => {
    auto.set(false);
    if (queue.inProgress) ask(queue.state.variant);
    else queue.newGame();
  };
  $("new").addEventListener("click", request);
  // The banner's button is the player's choice already: no second question.
  $("win-new").addEventListener("click", () => queue.newGame());
  // The mode button: the dialog on the current mode, its radio focused, so changing it is a choice
  // the player makes (Enter alone does nothing there).
  $("mode").addEventListener("click", () => {
    auto.set(false);
    ask(queue.state?.variant);
    dialog.querySelector("[name=variant]:checked").focus();
  });
  $("confirm-yes").addEventListener("click", () => dialog.close("yes"));
  $("confirm-no").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "yes") queue.newGame(dialog.querySelector("[name=variant]:checked").value);
  });
  return request;
}
