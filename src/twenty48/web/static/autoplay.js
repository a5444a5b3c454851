// The solver on the page: a hint for the player, drawn under the board, and auto-play, which asks for
// a hint and plays its best move through the same queue as the player's keys, again and again until
// stopped.

import { api } from "./api.js";
import { ERROR } from "./facts.js";
import { stylesheet } from "./settings-ui.js";

// The server's refusals of a hint while its solver is taken (503, and 429 for this player's own).
const BUSY = new Set([ERROR.HINTS_BUSY, ERROR.HINT_IN_PROGRESS]);

// Auto-play: [pause between moves, solver budget] in ms.
const SPEEDS = { slow: [600, 300], normal: [250, 150], fast: [40, 60] };

const ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };
// The hint's look comes with this module, not with the first board; unstyled, a hint still reads.
const styled = stylesheet("hint.css").catch(() => {});

// Each legal move's standing as a word (the raw values mean nothing to a player), "–" where a move
// is not legal, the best one also in the round badge.
function showHint(hud, answer) {
  const hints = document.getElementById("hints");
  const grades = Object.fromEntries(answer.moves.map((m) => [m.direction, m.grade]));
  for (const chip of hints.querySelectorAll(".chip")) {
    const grade = grades[chip.dataset.dir] ?? "";
    chip.dataset.g = grade;
    chip.textContent = `${ARROWS[chip.dataset.dir]} ${grade ? hud.t("g" + grade) : "–"}`;
    chip.classList.toggle("best", chip.dataset.dir === answer.best);
  }
  hints.querySelector(".arrow").textContent = ARROWS[answer.best];
  hints.hidden = false;
  hud.announce("hintIs", { d: hud.t(answer.best) });
}

// Auto-play and the hint, once their words are in.
export async function autoPlayer(queue, hud, settings) {
  await hud.i18n.load("autoplay");
  return new AutoPlay(queue, hud, settings);
}

class AutoPlay {
  constructor(queue, hud, settings) {
    this.queue = queue;
    this.hud = hud;
    this.settings = settings;
    this.button = document.getElementById("auto");
    this.on = false;
    this.timer = 0;
    queue.addEventListener("idle", () => {
      if (this.on && !queue.actions.length) this.schedule(this.speed[0]);
    });
    queue.addEventListener("halt", () => this.set(false));
  }

  get speed() {
    return SPEEDS[this.settings.get("speed")];
  }

  // Behind a banner or at game over there is nothing to play.
  toggle() {
    const { state, overlay } = this.queue;
    this.set(!this.on && !!state && !state.over && !overlay);
  }

  // True when auto-play was running: the key that stopped it does nothing else.
  stop() {
    const was = this.on;
    this.set(false);
    return was;
  }

  set(on) {
    if (on === this.on) return;
    this.on = on;
    clearTimeout(this.timer);
    this.button.setAttribute("aria-pressed", on);
    this.button.dataset.i18n = on ? "stop" : "auto";
    this.button.textContent = this.hud.t(this.button.dataset.i18n);
    // Moves the solver chose but that were not sent yet are the solver's, not the player's.
    if (!on) this.queue.drop((action) => action.auto);
    else this.schedule(0);
  }

  schedule(ms) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.step(), ms);
  }

  async step() {
    const queue = this.queue;
    if (!this.on || !queue.state || queue.busy) return;
    if (queue.state.over) return this.set(false);
    // Compared with the state this tab holds, not the answer's revision: a move aimed at a position
    // another tab has changed is still sent, and its 409 brings this tab up to date.
    const seen = queue.state;
    try {
      const answer = await api.hint(seen, { ms: this.speed[1] });
      if (!this.on) return;
      if (queue.state === seen && !queue.actions.length) queue.enqueue({ type: "move", dir: answer.best, auto: true });
      // The tab adopted another position meanwhile (it came back into view): think again, or auto-play
      // would stall with its button still saying Stop.
      else this.schedule(0);
    } catch (error) {
      if (!this.on) return;
      if (BUSY.has(error.code)) {
        // The server's solver is taken (hints run one at a time): not offline, just wait a turn.
        this.hud.notice("hintsBusy", {}, 3000);
        this.schedule(1000);
      } else if (error.retryable) {
        this.hud.notice("offline", { n: queue.actions.length }, 3000);
        this.schedule(1000);
      } else {
        await queue.refused(error);
        if (queue.state.over) this.set(false);
        else this.schedule(0);
      }
    }
  }

  // The player's hint: a second press hides it.
  async hint() {
    const { queue, hud } = this;
    if (hud.hintShown) return hud.clearHint();
    await queue.settled(); // advice for the position after the moves already made
    const state = queue.state;
    if (!state || state.over) return;
    try {
      const answer = await api.hint(state);
      await styled;
      // Revisions restart with each game, another tab may have moved, and a new game may replace an
      // unplayed one under the same id: only the position asked about, still shown, counts.
      const same = (a, b) => a.game_id === b.id && a.revision === b.revision;
      if (!same(answer, state) || !same(answer, queue.state)) return;
      showHint(hud, answer);
    } catch (error) {
      if (BUSY.has(error.code)) hud.notice("hintsBusy", {}, 3000);
      else if (error.retryable) hud.notice("offline", { n: queue.actions.length }, 3000);
      else await queue.refused(error);
    }
  }
}
