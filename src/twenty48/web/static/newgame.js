// The new-game dialog and the buttons that open it. A new game keeps the mode unless the dialog
// changes it; the dialog asks first only when there is a game to lose.

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
  $("win-new").addEventListener("click", request);
  // The mode button: the dialog, with the other mode chosen.
  $("mode").addEventListener("click", () => {
    auto.set(false);
    ask(queue.state?.variant === "merge" ? "classic" : "merge");
  });
  $("confirm-yes").addEventListener("click", () => dialog.close("yes"));
  $("confirm-no").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "yes") queue.newGame(dialog.querySelector("[name=variant]:checked").value);
  });
  return request;
}
