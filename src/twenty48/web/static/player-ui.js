// The settings dialog's player section: the display name (checked by the server, whose reasons are
// shown in the page's language), hiding from the leaderboards, and moving to another device with a
// one-time code. Loaded with the settings dialog. A name is only ever set as textContent or value.

import { call } from "./api.js";
import { ERROR, NAME_INPUT_MAX_LENGTH, NAME_MAX_LENGTH, TRANSFER_CODE_MAX_LENGTH } from "./facts.js";

const STRINGS = {
  en: {
    player: "Player", displayName: "Display name", saveName: "Save", nameSaved: "Saved: you are {name}. A daily challenge counts under the name you had when you started it.",
    nameCleared: "Your name is removed: you are anonymous, off the leaderboards.",
    anonymousNote: "Without a name you play anonymously and are not on the leaderboards.",
    hideMe: "Hide me from the leaderboards", hostHidden: "The host has hidden you from the leaderboards.",
    name_empty: "A name needs at least one character.", name_too_long: `A name has at most ${NAME_MAX_LENGTH} characters.`,
    name_no_letter: "A name needs at least one letter or digit.",
    name_spaces: "No space at the start or end, and never two in a row.",
    name_character: "A name cannot hold {c}: only letters, digits, single spaces and _ - . are allowed.",
    charShown: "“{ch}” ({about})", charHidden: "an invisible character ({about})",
    name_taken: "Someone else has that name.", invalid_request: "That name cannot be used.",
    moveDevice: "Move to another device", showCode: "Get a code",
    codeIs: "On the other device, enter this code within 15 minutes (it works once):",
    enterCode: "Code from your other device", useCode: "Use code", claimed: "This device is now that player.",
    code_unknown: "There is no such code.", code_expired: "That code has expired; get a new one.",
    code_used: "That code was used already; get a new one.", too_many_claims: "Too many tries; wait a minute.",
  },
  ja: {
    player: "プレイヤー", displayName: "表示名", saveName: "保存", nameSaved: "保存しました: {name}。デイリーチャレンジは、始めたときの名前で記録されます。",
    nameCleared: "名前を消しました。匿名になり、ランキングには載りません。",
    anonymousNote: "名前がないと匿名でプレイし、ランキングには載りません。",
    hideMe: "ランキングに表示しない", hostHidden: "ホストによりランキングから非表示にされています。",
    name_empty: "名前は1文字以上にしてください。", name_too_long: `名前は${NAME_MAX_LENGTH}文字までです。`,
    name_no_letter: "名前には文字か数字を1つ以上入れてください。",
    name_spaces: "先頭・末尾の空白や、連続した空白は使えません。",
    name_character: "{c}は名前に使えません。使えるのは文字・数字・単独の空白・_ - . だけです。",
    charShown: "「{ch}」（{about}）", charHidden: "見えない文字（{about}）",
    name_taken: "その名前はほかの人が使っています。", invalid_request: "その名前は使えません。",
    moveDevice: "別の端末に移る", showCode: "コードを取得",
    codeIs: "別の端末で15分以内にこのコードを入力してください（1回だけ使えます）:",
    enterCode: "別の端末のコード", useCode: "コードを使う", claimed: "この端末はそのプレイヤーになりました。",
    code_unknown: "そのコードはありません。", code_expired: "コードの期限が切れました。新しく取得してください。",
    code_used: "そのコードは使用済みです。新しく取得してください。", too_many_claims: "試行が多すぎます。1分待ってください。",
  },
  zh: {
    player: "玩家", displayName: "显示名称", saveName: "保存", nameSaved: "已保存：你是 {name}。每日挑战记在你开始它时所用的名称下。",
    nameCleared: "名称已删除：你现在是匿名玩家，不在排行榜上。",
    anonymousNote: "没有名称时你以匿名方式游戏，不会出现在排行榜上。",
    hideMe: "不在排行榜上显示我", hostHidden: "主持人已将你从排行榜上隐藏。",
    name_empty: "名称至少需要一个字符。", name_too_long: `名称最多 ${NAME_MAX_LENGTH} 个字符。`,
    name_no_letter: "名称至少需要一个字母或数字。",
    name_spaces: "开头和结尾不能有空格，也不能连续两个空格。",
    name_character: "名称中不能有{c}：只能使用字母、数字、单个空格和 _ - .。",
    charShown: "“{ch}”（{about}）", charHidden: "不可见字符（{about}）",
    name_taken: "这个名称已被别人使用。", invalid_request: "这个名称不能使用。",
    moveDevice: "转移到另一台设备", showCode: "获取代码",
    codeIs: "请在 15 分钟内在另一台设备上输入此代码（只能用一次）：",
    enterCode: "另一台设备上的代码", useCode: "使用代码", claimed: "此设备现在就是那位玩家。",
    code_unknown: "没有这个代码。", code_expired: "代码已过期，请重新获取。",
    code_used: "代码已被使用，请重新获取。", too_many_claims: "尝试次数过多，请等一分钟。",
  },
};

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

// The message for a refusal: the page's own words for the server's code (its key in STRINGS), else
// the server's sentence.
function refusal(i18n, error) {
  if (!Object.hasOwn(STRINGS.en, error.code)) return i18n.t("refused", { d: error.message });
  return i18n.t(error.code, { c: error.code === ERROR.NAME_CHARACTER ? character(i18n, error.answer) : "" });
}

export function playerSection(dialog, i18n) {
  i18n.extend(STRINGS);
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
