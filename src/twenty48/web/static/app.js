// The page, wired as the original 2048's GameManager: input.js reads the player, queue.js keeps the
// game in step with the server (which holds the rules), hud.js and render.js show it, settings.js
// keeps the player's choices. The rest (autoplay.js, dialogs, views/) loads after the first board.

import { Hud } from "./hud.js";
import { I18n, chooseLanguage } from "./i18n.js";
import { bindKeys, bindSwipe } from "./input.js";
import { ActionQueue } from "./queue.js";
import { BoardView } from "./render.js";
import { Settings } from "./settings.js";
import { bindSettings } from "./settings-ui.js";

const $ = (id) => document.getElementById(id);
const settings = new Settings();
const i18n = new I18n(chooseLanguage(settings.get("lang")));
const view = new BoardView($("frame"), (value) => (value ? i18n.t("tile", { n: String(value) }) : i18n.t("empty")));
// Sound (audio.js) loads once the board is up: nothing plays before the first gesture anyway, and
// the first board saves its 4 KB. Until then a call only keeps the game-over state.
const sound = {
  real: null,
  over: false,
  unlock() { this.real?.unlock(); },
  effect(name, tile) { this.real?.effect(name, tile); },
  gameOver(over) { this.over = over; this.real?.gameOver(over); },
  start(real) { this.real = real; real.gameOver(this.over); },
};
const hud = new Hud(view, sound, i18n);
const queue = new ActionQueue(hud);
// A module loaded on first use, once (again after a failure, at a new address each time: Chromium
// keeps a failed module failed): get() its promise; value once there.
function lazy(load) {
  const it = { q: "", get: () => (it.promise ??= load(it.q).then((v) => (it.value = v), (e) => ((it.promise = null), (it.q += "?"), Promise.reject(e)))) };
  return it;
}
const unloaded = () => hud.notice("loadFailed", {}, 5000);
const use = (part, act) => part.get().then(act, unloaded);
const solver = lazy((q) => import("./autoplay.js" + q).then((m) => m.autoPlayer(queue, hud, settings)));
const auto = {
  stop: () => solver.value?.stop() ?? false,
  set: (on) => solver.value?.set(on),
  hint: () => use(solver, (s) => s.hint()),
  toggle: () => use(solver, (s) => s.toggle()),
};
const dialog = lazy((q) => import("./newgame.js" + q).then((m) => m.newGameDialog(queue, auto, i18n)));
const newGame = () => use(dialog, (d) => d.request());
// A question that cannot be asked is not a yes.
const asker = lazy((q) => import("./ask.js" + q).then((m) => m.asker(i18n)));
const ask = (topic) => use(asker, (a) => a(topic)).then((yes) => yes === true);
const daily = lazy((q) => import("./daily.js" + q).then((m) => m.dailyEntry(queue, i18n, ask)));
const audio = lazy((q) => import("./audio.js" + q).then(({ Sound }) => sound.start(new Sound(settings))));
// Fetched once the board is up (after answers until then): the first Hint or New game is quick.
const prefetch = () => [solver, dialog, daily, audio].forEach((part) => part.value || part.get().catch(() => {}));
// No server at the start: the last board seen here (lastseen.js), if at hand.
const standIn = () => import("./lastseen.js").then((m) => m.standIn(queue, hud, i18n), () => {});

// Undo, a hint or auto-play unranks a ranked game for good: the page asks first (the server's answer
// then says it is unranked). `agreed` names the position the player said yes on, until then.
const assisted = (() => {
  let agreed = null;
  return async (act) => {
    const state = queue.state;
    const here = state && `${state.id}@${state.revision}`;
    if (state?.ranked && !state.over && agreed !== here) {
      if (!(await ask("assist"))) return;
      agreed = here;
    }
    act();
  };
})();

// In Merge 2048 a swipe that starts on a tile moves only that tile (the one shown there when the
// finger went down); one that starts on an empty cell or a gap moves the whole board.
function tileUnder(start) {
  if (queue.state?.variant !== "merge") return undefined;
  const cell = view.cellAt(start.x, start.y);
  return cell >= 0 && view.values[cell] ? cell : undefined;
}

// The player taking over stops auto-play (a key does so through `key` above).
const byHand = (act) => (...args) => {
  auto.set(false);
  act(...args);
};

function bind() {
  bindKeys({
    key: () => auto.stop(),
    move: (dir, repeat) => queue.move(dir, repeat),
    undo: (repeat) => queue.undoable && assisted(() => queue.undo(repeat)),
    newGame,
  });
  bindSwipe($("frame"), byHand((dir, start) => queue.move(dir, false, tileUnder(start))));
  for (const button of document.querySelectorAll(".pad [data-dir]")) {
    button.addEventListener("click", byHand(() => queue.move(button.dataset.dir)));
  }
  $("new").addEventListener("click", newGame);
  $("mode").addEventListener("click", () => use(dialog, (d) => d.mode()));
  // The banners' buttons are the player's choice already: no second question.
  $("again").addEventListener("click", () => queue.newGame());
  $("win-new").addEventListener("click", () => queue.newGame());
  $("undo").addEventListener("click", byHand(() => assisted(() => queue.undo())));
  $("keep-going").addEventListener("click", () => queue.keepGoing());
  // Parts behind a button, fetched when it is first pressed.
  for (const [id, load, act] of [
    ["open-settings", (q) => import("./settings-view.js" + q).then((m) => m.settingsDialog(settings, i18n)), (d) => d.showModal()],
    ["how-to", (q) => import("./howto.js" + q).then((m) => m.howToDialog(i18n)), (d) => d.showModal()],
    ["share", (q) => import("./share.js" + q).then((m) => m.sharer(i18n, hud)), (share) => share(queue.state)],
  ]) {
    const part = lazy(load);
    $(id).addEventListener("click", () => use(part, act));
  }
  // A second press hides the hint, and one on Stop stops: neither is a new assist.
  $("hint").addEventListener("click", () => (hud.hintShown ? auto.hint() : assisted(auto.hint)));
  $("auto").addEventListener("click", () => (solver.value?.on ? auto.toggle() : assisted(auto.toggle)));
  $("history").addEventListener("click", () => (location.hash = "#/history"));
  $("stats").addEventListener("click", () => (location.hash = "#/stats"));
  $("leaderboard").addEventListener("click", () => (location.hash = "#/leaderboard"));
  addEventListener("hashchange", route);
  // Browsers allow sound only after a gesture; any of these counts.
  for (const type of ["keydown", "pointerdown"]) document.addEventListener(type, () => sound.unlock(), { capture: true });
  // Another tab may have played meanwhile: look again when this one comes back.
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) queue.lookAgain();
  });
}

// History, statistics and replays load on first use (views/): the first board stays small; back in
// play, this tab looks again at a game another view may have changed.
const views = lazy((q) => import("./views/views.js" + q).then((module) => module.mount({ i18n, hud, ask })));
async function route() {
  if (!views.promise && !location.hash.startsWith("#/")) return;
  auto.stop();
  const shown = await views.get().catch(unloaded);
  // The play view stays, and so does its address, so that asking again tries again.
  if (!shown) return history.replaceState(null, "", location.pathname + location.search);
  if ((await shown.route(location.hash)) === "play") queue.lookAgain();
}

async function start() {
  const spoken = bindSettings(settings, i18n, () => {
    hud.relabel(queue.state);
    daily.value?.render();
  }, unloaded);
  bind();
  await Promise.all([spoken, queue.load(standIn)]);
  performance.mark("twenty48:ready");
  document.body.dataset.ready = "true";
  queue.pump();
  prefetch();
  queue.addEventListener("idle", prefetch);
  import("./lastseen.js").then((m) => m.keep(queue));
  import("./installable.js").then((m) => m.install());
  route();
}

start();
