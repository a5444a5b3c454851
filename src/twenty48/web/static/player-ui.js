// The settings dialog's player section: the display name (checked by the server, whose reasons are
// shown in the page's language), hiding from the leaderboards, and moving to another device with a
// one-time code. Loaded with the settings dialog, whose words (strings/settings.*.js) are its too. A
// name is only ever set as textContent or value.

import { call } from "./api.js";
import { ERROR, NAME_INPUT_MAX_LENGTH, TRANSFER_CODE_MAX_LENGTH } from "./facts.js";

const HTML = `
<section class="player" aria-labelledby="player-title">
  <h3 id="player-title" data-i18n="player">Player</h3>
  <form class="name-form" data-part="name-form">
    <label for="display-name" data-i18n="displayName">Display name</label>
    <div class="line"><input id="display-name" name="name" maxlength="${NAME_INPUT_MAX_LENGTH}" autocomplete="nickname" spellcheck="false">
      <button class="btn" type="submit" data-i18n="saveName">Save</button></div>
    <p class="note" role="status" data-part="name-note"></p>
  </form>
  <label class="opt"><span data-i18n="hideMe">Hide me from the leaderboards</span><input type="checkbox" class="switch" data-part="hidden"></label>
  <h3 data-i18n="moveDevice">Move to another device</h3>
  <div class="line"><button class="btn" type="button" data-part="get-code" data-i18n="showCode">Get a code</button></div>
  <p class="note" role="status" data-part="code-note"></p>
  <output class="code" data-part="code"></output>
  <form class="claim-form" data-part="claim-form">
    <label for="claim-code" data-i18n="enterCode">Code from your other device</label>
    <div class="line"><input id="claim-code" name="code" maxlength="${TRANSFER_CODE_MAX_LENGTH}" autocomplete="off" autocapitalize="characters" spellcheck="false">
      <button class="btn" type="submit" data-i18n="useCode">Use code</button></div>
    <p class="note" role="status" data-part="claim-note"></p>
  </form>
</section>`;

// A refused character as the player typed it, then its Unicode name and code point: “🎮” (VIDEO GAME,
// U+1F3AE). One that draws nothing (a space, a joiner, a lone mark, a direction override) is only
// named: quoted, it would look like nothing, or reorder the sentence around it.
function character(i18n, { character: char = "", character_name: name }) {
  const code = `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;
  const about = name ? `${name}, ${code}` : code;
  return i18n.t(/^[\p{L}\p{N}\p{P}\p{S}]$/u.test(char) ? "charShown" : "charHidden", { ch: char, about });
}

// The message for a refusal: the page's own words for the server's code (a key of the settings'
// words, and of no other part's: tests/test_page_strings.py), else the server's sentence.
function refusal(i18n, error) {
  const c = error.code === ERROR.NAME_CHARACTER ? character(i18n, error.answer) : "";
  return i18n.t(error.code, { c }) || i18n.t("refused", { d: error.message });
}

export function playerSection(dialog, i18n) {
  dialog.querySelector(".row:last-child").insertAdjacentHTML("beforebegin", HTML);
  const part = (name) => dialog.querySelector(`[data-part="${name}"]`);
  const input = dialog.querySelector("#display-name");
  const nameNote = part("name-note");
  const hidden = part("hidden");
  // What the player typed before the first answer came stays typed.
  let typed = false;
  input.addEventListener("input", () => (typed = true));
  const show = (me) => {
    if (!typed) input.value = me.name ?? "";
    hidden.checked = me.hidden;
    hidden.disabled = !me.name;
    if (me.name && !me.on_boards && !me.hidden) nameNote.textContent = i18n.t("hostHidden");
  };
  // Without an answer the section stays as built: the player may still type and save.
  const load = () =>
    call("GET", "/api/me").then(
      (me) => {
        show(me);
        if (!me.name) nameNote.textContent = i18n.t("anonymousNote");
      },
      () => {},
    );
  part("name-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    // Only an empty field removes the name: one of spaces is a name the server refuses, in words.
    const name = input.value === "" ? null : input.value;
    try {
      const me = await call("PUT", "/api/me", { name });
      typed = false;
      show(me);
      nameNote.textContent = me.name ? i18n.t("nameSaved", { name: me.name }) : i18n.t("nameCleared");
    } catch (error) {
      nameNote.textContent = refusal(i18n, error);
    }
  });
  hidden.addEventListener("change", async () => {
    try {
      show(await call("PUT", "/api/me", { hidden: hidden.checked }));
    } catch (error) {
      nameNote.textContent = refusal(i18n, error);
    }
  });
  part("get-code").addEventListener("click", async () => {
    try {
      const answer = await call("POST", "/api/me/transfer");
      part("code-note").textContent = i18n.t("codeIs");
      part("code").textContent = answer.code;
      part("code").dataset.code = answer.code;
      // Below the fold of a short screen's dialog the code would appear unseen: bring it up.
      part("code").scrollIntoView({ block: "center" });
    } catch (error) {
      part("code-note").textContent = refusal(i18n, error);
    }
  });
  part("claim-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const code = dialog.querySelector("#claim-code").value;
    if (!code.trim()) return;
    try {
      await call("POST", "/api/me/claim", { code });
      part("claim-note").textContent = i18n.t("claimed");
      // The cookie now names that player: every view, the game included, is theirs.
      setTimeout(() => location.reload(), 1200);
    } catch (error) {
      part("claim-note").textContent = refusal(i18n, error);
    }
  });
  i18n.translate(dialog.querySelector(".player"));
  load();
}
