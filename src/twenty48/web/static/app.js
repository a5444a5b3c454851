// The page's controller. Input becomes a queue of actions, sent to the server one at a time in the
// order they were made, each naming the revision it was meant for; the answers are drawn and
// animated. The server holds the game and its rules; this file only keeps the last state it sent.

import { api } from "./api.js";
import { Sound } from "./audio.js";
import { I18n, chooseLanguage } from "./i18n.js";
import { bindKeys, bindSwipe } from "./input.js";
import { BoardView, reducedMotion } from "./render.js";
import { Settings } from "./settings.js";

const $ = (id) => document.getElementById(id);
const settings = new Settings();
const i18n = new I18n(chooseLanguage(settings.get("lang")));
const t = (key, vars) => i18n.t(key, vars);
const view = new BoardView($("frame"), (value) => (value ? t("tile", { n: value }) : t("empty")));
const sound = new Sound(settings);
// Auto-play: [pause between moves, solver budget] in ms.
const SPEEDS = { slow: [600, 300], normal: [250, 150], fast: [40, 60] };
const HINT_MS = 300;

let state = null; // the server's latest answer
const queue = []; // {type: "move", dir, cell?, auto?} | {type: "new", variant} | {type: "undo" | "keep"}
let pumping = false;
let overlay = null; // "win" holds the queue until the player chooses; "over" ends the game
let offline = false;
let auto = false;
let autoTimer = 0;
let noticeTimer = 0;
const waiting = []; // callbacks for when the queue has been worked through

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function notice(text, ms = 0) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(noticeTimer);
  if (ms) noticeTimer = setTimeout(() => (box.hidden = true), ms);
}

function announce(text) {
  $("live").textContent = text;
}

function showScores() {
  $("score").textContent = state.score;
  $("best").textContent = state.best;
  $("moves").textContent = state.moves;
  $("undo").disabled = !state.can_undo;
  $("hint").disabled = state.over;
  $("final").textContent = t("finalScore", { n: state.score });
}

// The game's variant: the mode button in the header names it, the help line explains its swipes.
// A game keeps its variant, so this runs when a game is adopted or the language changes, not per move.
function showMode() {
  const mode = $("mode");
  const name = t(state.variant);
  mode.textContent = t("modeIs", { m: name });
  mode.dataset.variant = state.variant;
  mode.setAttribute("aria-label", t("changeMode", { m: name }));
  mode.title = mode.getAttribute("aria-label");
  $("help").dataset.i18n = state.variant === "merge" ? "helpMerge" : "help";
  $("help").textContent = t($("help").dataset.i18n);
}

function floatGain(points) {
  if (reducedMotion.matches) return;
  const plus = document.createElement("span");
  plus.className = "plus";
  plus.textContent = `+${points}`;
  plus.addEventListener("animationend", () => plus.remove());
  $("gain").append(plus);
}

function setOverlay(name) {
  overlay = name;
  $("win").hidden = name !== "win";
  $("over").hidden = name !== "over";
  if (name) setAuto(false);
  if (name === "over") {
    // Moves can no longer apply; a new game queued meanwhile still starts.
    queue.splice(0, queue.length, ...queue.filter((a) => a.type === "new"));
    announce(t("gameOverIs", { n: state.score }));
  }
  if (name) $(name === "win" ? "keep-going" : "again").focus({ preventScroll: true });
}

// The overlay a state calls for when it is shown without a move leading to it.
function overlayFor(s) {
  if (s.over) return "over";
  return s.won && !s.keep_playing ? "win" : null;
}

// Show a state that did not come from a move: a load, undo, new game, or a refused action.
function adopt(next, fresh = false) {
  state = next;
  view.clearHint();
  const values = next.board.flat();
  view.draw(values, fresh ? values.flatMap((v, i) => (v ? [i] : [])) : []);
  showScores();
  showMode();
  sound.gameOver(next.over);
  setOverlay(overlayFor(next));
}

async function played(before, answer) {
  state = answer.state;
  if (!answer.changed) {
    sound.effect("invalid");
    view.nudge();
    return;
  }
  view.clearHint();
  const settled = view.animate(before.board.flat(), answer);
  showScores();
  if (answer.points) {
    floatGain(answer.points);
    announce(t("scoreIs", { n: state.score }));
  }
  const after = state.board.flat();
  const merged = answer.merges.map((cell) => after[cell]);
  sound.effect(merged.length ? "merge" : "move", Math.max(0, ...merged));
  if (!answer.won_now && !answer.over) return;
  await settled;
  if (answer.won_now) {
    setOverlay("win");
    sound.effect("win");
    announce(t("win"));
  } else {
    setOverlay("over");
    sound.effect("over");
  }
  sound.gameOver(state.over);
}

async function perform(action) {
  try {
    if (action.type === "move") {
      if (!state.over) await played(state, await api.move(state, action.dir, action.cell));
    } else if (action.type === "undo") {
      if (state.can_undo) adopt(await api.undo(state));
    } else if (action.type === "keep") {
      if (state.won && !state.keep_playing && !state.over) adopt(await api.keepGoing(state));
    } else {
      adopt(await api.newGame(action.variant), true);
    }
  } catch (error) {
    if (error.retryable) throw error;
    await refused(error, action);
  }
}

async function refused(error, action) {
  if (error.state && !error.state.finished) {
    adopt(error.state);
    // A first try that met a newer revision: another tab moved; the keys queued here were meant for
    // the board as it was, so they are not applied to a different one. (A retried request that
    // finds its own move already applied is not news.)
    if (error.code === "stale_revision" && !action.retried) {
      queue.length = 0;
      notice(t("changed"), 4000);
    }
  } else if (error.state?.over && error.state.id === state.id) {
    adopt(error.state);
  } else if (error.state || error.status === 404) {
    // Replaced by a newer game (another tab started one) or gone: show the current game.
    queue.length = 0;
    adopt(await api.current());
    notice(t("changed"), 4000);
  } else {
    notice(t("refused", { d: error.message }), 5000);
  }
}

async function pump() {
  if (pumping || !state) return;
  pumping = true;
  let wait = 250;
  while (queue.length && overlay !== "win") {
    const action = queue.shift();
    try {
      await perform(action);
      wait = 250;
      if (offline) {
        offline = false;
        notice(t("online"), 2000);
      }
    } catch (error) {
      // Unreachable or failing server: keep the action first in line and try again, later and later.
      queue.unshift({ ...action, retried: true });
      offline = true;
      notice(t("offline", { n: queue.length }));
      await sleep(wait);
      wait = Math.min(wait * 2, 4000);
    }
  }
  pumping = false;
  for (const resolve of waiting.splice(0)) resolve();
  if (auto && !queue.length) scheduleAuto(SPEEDS[settings.get("speed")][0]);
}

// Resolves once the actions queued so far have been answered (or are held behind the win banner).
function settledQueue() {
  return new Promise((resolve) => (pumping || (queue.length && overlay !== "win") ? waiting.push(resolve) : resolve()));
}

function enqueue(action) {
  view.clearHint();
  queue.push(action);
  // While the server is away the pump sleeps between tries (up to 4 s): count the new key now.
  if (offline) notice(t("offline", { n: queue.length }));
  pump();
}

// ---- what the player does ------------------------------------------------------------------------

// `cell` (Merge 2048 swipes only): move just the tile on that cell.
function move(dir, repeat = false, cell = undefined) {
  if (overlay) return;
  // Holding a key repeats it: take a repeat only when everything before it is done, so the
  // queue never fills up behind a held key.
  if (repeat && (queue.length || pumping || view.busy)) return;
  enqueue({ type: "move", dir, cell });
}

// In Merge 2048 a swipe that starts on a tile moves only that tile (the one shown there when the
// finger went down); one that starts on an empty cell or a gap moves the whole board.
function tileUnder(start) {
  if (state?.variant !== "merge") return undefined;
  const cell = view.cellAt(start.x, start.y);
  return cell >= 0 && view.values[cell] ? cell : undefined;
}

function undo(repeat = false) {
  if (overlay || (repeat && (queue.length || pumping))) return;
  if (state?.can_undo || queue.some((a) => a.type === "move")) enqueue({ type: "undo" });
}

const inProgress = () => state && !state.over && (state.moves > 0 || queue.length > 0);

// New game keeps the mode; it asks first only when there is a game to lose.
function requestNewGame() {
  setAuto(false);
  if (inProgress()) askNewGame(state.variant);
  else startNewGame();
}

// The mode button: the new-game dialog, with the other mode chosen.
function chooseMode() {
  setAuto(false);
  askNewGame(state?.variant === "merge" ? "classic" : "merge");
}

function askNewGame(variant) {
  const dialog = $("confirm");
  for (const radio of dialog.querySelectorAll("[name=variant]")) radio.checked = radio.value === variant;
  $("confirm-text").hidden = !inProgress();
  dialog.returnValue = "";
  dialog.showModal();
}

function startNewGame(variant = state?.variant) {
  if (overlay === "win") queue.length = 0; // moves held behind the banner belonged to that game
  setOverlay(null);
  enqueue({ type: "new", variant });
}

function keepGoing() {
  // The winning move was also the last one: the banner gives way to game over.
  if (state.over) {
    setOverlay("over");
    sound.effect("over");
    return;
  }
  setOverlay(null);
  queue.unshift({ type: "keep" });
  pump();
}

// ---- solver --------------------------------------------------------------------------------------

async function hint() {
  if (view.hintShown) return view.clearHint();
  await settledQueue(); // advice for the position after the moves already made
  if (!state || state.over) return;
  try {
    const answer = await api.hint(state, HINT_MS);
    // Revisions restart with each game, and another tab may have moved: only the exact position counts.
    if (answer.game_id !== state.id || answer.revision !== state.revision) return;
    const values = Object.fromEntries(answer.moves.map((m) => [m.direction, m.value]));
    view.showHint(answer.best, values, (v) => i18n.number(v));
    announce(t("hintIs", { d: t(answer.best) }));
  } catch (error) {
    if (error.retryable) notice(t("offline", { n: queue.length }), 3000);
    else await refused(error, {});
  }
}

function setAuto(on) {
  if (on === auto) return;
  auto = on;
  clearTimeout(autoTimer);
  $("auto").setAttribute("aria-pressed", on);
  $("auto").dataset.i18n = on ? "stop" : "auto";
  $("auto").textContent = t($("auto").dataset.i18n);
  // Moves the solver chose but that were not sent yet are the solver's, not the player's.
  if (!on) queue.splice(0, queue.length, ...queue.filter((a) => !a.auto));
  else scheduleAuto(0);
}

function scheduleAuto(ms) {
  clearTimeout(autoTimer);
  autoTimer = setTimeout(autoStep, ms);
}

async function autoStep() {
  if (!auto || !state || pumping || queue.length) return;
  if (state.over) return setAuto(false);
  // Compared with the state this tab holds, not the answer's revision: a move aimed at a position
  // another tab has changed is still sent, and its 409 brings this tab up to date.
  const seen = state;
  try {
    const answer = await api.hint(state, SPEEDS[settings.get("speed")][1]);
    if (!auto) return;
    if (state === seen && !queue.length) enqueue({ type: "move", dir: answer.best, auto: true });
    // The tab adopted another position meanwhile (it came back into view): think again, or auto-play
    // would stall with its button still saying Stop.
    else scheduleAuto(0);
  } catch (error) {
    if (!auto) return;
    if (error.retryable) {
      notice(t("offline", { n: queue.length }), 3000);
      scheduleAuto(1000);
    } else {
      await refused(error, {});
      if (state.over) setAuto(false);
      else scheduleAuto(0);
    }
  }
}

// ---- settings, language, theme -------------------------------------------------------------------

function applyTheme() {
  const theme = settings.get("theme");
  if (theme === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function applyLanguage(lang) {
  i18n.apply(lang);
  for (const button of document.querySelectorAll("[data-lang]")) button.setAttribute("aria-pressed", button.dataset.lang === lang);
  view.relabel();
  if (state) {
    showScores();
    showMode();
  }
}

function bindSettings() {
  for (const control of document.querySelectorAll("[data-setting]")) {
    const key = control.dataset.setting;
    const show = () => {
      if (control.type === "checkbox") control.checked = settings.get(key);
      else control.value = settings.get(key);
    };
    show();
    settings.onChange((changed) => changed === key && show());
    control.addEventListener(control.type === "range" ? "input" : "change", () => {
      const value = control.type === "checkbox" ? control.checked : control.type === "range" ? Number(control.value) : control.value;
      settings.set(key, value);
    });
  }
  const soundButton = $("sound");
  const showSound = () => soundButton.setAttribute("aria-pressed", !settings.get("muted"));
  showSound();
  settings.onChange((key) => {
    if (key === "muted") showSound();
    if (key === "theme") applyTheme();
  });
  soundButton.addEventListener("click", () => settings.set("muted", !settings.get("muted")));
  for (const button of document.querySelectorAll("[data-lang]")) {
    button.addEventListener("click", () => {
      settings.set("lang", button.dataset.lang);
      // A chosen language replaces one forced by the address.
      const url = new URL(location.href);
      if (url.searchParams.has("lang")) {
        url.searchParams.delete("lang");
        history.replaceState(null, "", url);
      }
      applyLanguage(button.dataset.lang);
    });
  }
}

// ---- wiring --------------------------------------------------------------------------------------

function bind() {
  bindKeys({
    key: () => {
      if (!auto) return false;
      setAuto(false);
      return true;
    },
    move,
    undo,
    newGame: requestNewGame,
  });
  bindSwipe($("frame"), (dir, start) => {
    setAuto(false);
    move(dir, false, tileUnder(start));
  });
  for (const button of document.querySelectorAll(".pad [data-dir]")) {
    button.addEventListener("click", () => {
      setAuto(false);
      move(button.dataset.dir);
    });
  }
  $("new").addEventListener("click", requestNewGame);
  $("win-new").addEventListener("click", requestNewGame);
  $("again").addEventListener("click", () => startNewGame());
  $("mode").addEventListener("click", chooseMode);
  $("undo").addEventListener("click", () => {
    setAuto(false);
    undo();
  });
  $("keep-going").addEventListener("click", keepGoing);
  $("hint").addEventListener("click", hint);
  $("auto").addEventListener("click", () => setAuto(!auto && !!state && !state.over && !overlay));
  $("confirm-yes").addEventListener("click", () => $("confirm").close("yes"));
  $("confirm-no").addEventListener("click", () => $("confirm").close());
  $("confirm").addEventListener("close", () => {
    if ($("confirm").returnValue === "yes") startNewGame($("confirm").querySelector("[name=variant]:checked").value);
  });
  $("open-settings").addEventListener("click", () => $("settings").showModal());
  $("close-settings").addEventListener("click", () => $("settings").close());
  // Browsers allow sound only after a gesture; any of these counts.
  for (const type of ["keydown", "pointerdown"]) document.addEventListener(type, () => sound.unlock(), { capture: true });
  // Another tab may have played meanwhile: look again when this one comes back.
  document.addEventListener("visibilitychange", async () => {
    if (document.hidden || !state || pumping || queue.length) return;
    try {
      const now = await api.current();
      if (now.id !== state.id || now.revision !== state.revision) adopt(now);
    } catch {
      // Nothing lost: the next action will report the problem.
    }
  });
}

async function start() {
  applyTheme();
  applyLanguage(i18n.lang);
  bindSettings();
  bind();
  for (let wait = 250; !state; wait = Math.min(wait * 2, 4000)) {
    try {
      adopt(await api.current());
    } catch {
      notice(t("offline", { n: queue.length }));
      await sleep(wait);
    }
  }
  notice("");
  performance.mark("twenty48:ready");
  document.body.dataset.ready = "true";
  pump();
}

start();
