// The sync engine: actions go to the server one at a time, in order, each naming the revision it was
// meant for; the server rules on them, and a refusal (a code) brings the game as it is now. Events:
// "idle" (queue done, or held behind the win banner), "halt" (a banner stops play).

import { api } from "./api.js";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// The banner a state calls for when it is shown without a move leading to it.
function overlayFor(state) {
  if (state.over) return "over";
  return state.won && !state.keep_playing ? "win" : null;
}

const SEND = {
  move: (state, action) => api.move(state, action.dir, action.cell, action.auto),
  undo: (state) => api.undo(state),
  keep: (state) => api.keepGoing(state),
  new: (state, action) => (action.daily ? api.daily() : api.newGame(action.variant, action.size)),
};

export class ActionQueue extends EventTarget {
  constructor(hud) {
    super();
    this.hud = hud;
    this.state = null; // the server's latest answer
    this.actions = []; // {type: "move", dir, cell?, auto?} | {type: "new", variant, size, daily?} | {type: "undo" | "keep"}
    this.pumping = false;
    this.overlay = null; // "win" holds the queue until the player chooses; "over" ends the game
    this.offline = false;
  }

  get busy() {
    return this.pumping || this.actions.length > 0;
  }

  // There is a game to lose by starting another.
  get inProgress() {
    return this.state && !this.state.over && (this.state.moves > 0 || this.actions.length > 0);
  }

  // The first state; until the server answers, `standIn` may show the last board seen here.
  async load(standIn) {
    for (let wait = 250; !this.state; wait = Math.min(wait * 2, 4000)) {
      try {
        this.adopt(await api.current());
        this.hud.hideNotice();
      } catch {
        this.hud.notice("offline", { n: this.actions.length });
        await Promise.all([standIn(), sleep(wait)]);
      }
    }
  }

  // ---- what the player does

  // `cell` (Merge 2048 swipes only): move just the tile on that cell.
  move(dir, repeat = false, cell = undefined) {
    if (this.overlay) return;
    // Holding a key repeats it: take a repeat only when everything before it is done, so the
    // queue never fills up behind a held key.
    if (repeat && (this.busy || this.hud.animating)) return;
    // At rest a whole-board move slides at once by the forecast for the board shown (bursts queue).
    const slides = !this.busy && cell === undefined && this.state?.forecast[dir]?.slides;
    if (slides) this.hud.view.slideAhead(this.state.board.flat(), slides);
    this.enqueue({ type: "move", dir, cell });
  }

  undo(repeat = false) {
    if (this.overlay || (repeat && this.busy)) return;
    if (this.undoable) this.enqueue({ type: "undo" });
  }

  // Like the disabled button: with nothing to take back and no move on its way, asking is pointless.
  get undoable() {
    return !!this.state?.can_undo || this.actions.some((a) => a.type === "move");
  }

  newGame(variant = this.state?.variant, size = this.state?.size, daily = false) {
    if (this.overlay === "win") this.actions.length = 0; // moves held behind the banner belonged to that game
    this.setOverlay(null);
    this.enqueue({ type: "new", variant, size, daily });
  }

  // Today's daily challenge (daily.js): the server starts it, or gives it back as it was left.
  daily() {
    this.newGame(undefined, undefined, true);
  }

  keepGoing() {
    // The winning move was also the last one: the banner gives way to game over.
    if (this.state.over) {
      this.setOverlay("over");
      this.hud.ending("over", this.state);
      return;
    }
    this.setOverlay(null);
    this.actions.unshift({ type: "keep" });
    this.pump();
  }

  // ---- the queue

  enqueue(action) {
    this.hud.clearHint();
    this.actions.push(action);
    // While the server is away the pump sleeps between tries (up to 4 s): count the new key now.
    if (this.offline) this.hud.notice("offline", { n: this.actions.length });
    this.pump();
  }

  drop(test) {
    this.actions = this.actions.filter((action) => !test(action));
  }

  // Resolves once the actions queued so far have been answered (or are held behind the win banner).
  settled() {
    return new Promise((resolve) => {
      if (this.pumping || (this.actions.length && this.overlay !== "win")) this.addEventListener("idle", resolve, { once: true });
      else resolve();
    });
  }

  async pump() {
    if (this.pumping || !this.state) return;
    this.pumping = true;
    let wait = 250;
    while (this.actions.length && this.overlay !== "win") {
      const action = this.actions.shift();
      try {
        await this.perform(action);
        wait = 250;
        if (this.offline) {
          this.offline = false;
          this.hud.notice("online", {}, 2000);
        }
      } catch {
        // Unreachable or failing server: keep the action first in line and try again, later and later.
        this.actions.unshift({ ...action, retried: true });
        this.offline = true;
        this.hud.notice("offline", { n: this.actions.length });
        await sleep(wait);
        wait = Math.min(wait * 2, 4000);
      }
    }
    this.pumping = false;
    this.dispatchEvent(new Event("idle"));
  }

  async perform(action) {
    const before = this.state;
    try {
      const answer = await SEND[action.type](before, action);
      if (action.type === "move") await this.played(before, answer);
      else this.adopt(answer, action.type === "new");
    } catch (error) {
      if (error.retryable) throw error;
      await this.refused(error, action);
    } finally {
      this.hud.view.drop();
    }
  }

  // ---- the server's answers

  adopt(next, fresh = false) {
    this.state = next;
    this.hud.show(next, fresh);
    this.setOverlay(overlayFor(next));
  }

  async played(before, answer) {
    this.state = answer.state;
    const settled = this.hud.played(before, answer);
    if (!answer.changed || !(answer.won_now || answer.over)) return;
    await settled;
    const name = answer.won_now ? "win" : "over";
    this.setOverlay(name);
    this.hud.ending(name, this.state);
  }

  setOverlay(name) {
    this.overlay = name;
    this.hud.overlay(name, this.state);
    if (name) this.dispatchEvent(new Event("halt"));
    // Moves can no longer apply; a new game queued meanwhile still starts.
    if (name === "over") this.drop((action) => action.type !== "new");
  }

  // A refusal (of an action or a hint), by its code. A 409 carries the game as it is now. The codes
  // are fetched then: the first board has no room for them.
  async refused(error, action = {}) {
    const { ERROR } = await import("./facts.js");
    switch (error.code) {
      case ERROR.REJECTED: // not possible in this position: undo after a queued move that changed nothing
        return this.adopt(error.state);
      case ERROR.STALE_REVISION: {
        if (error.state.finished) return this.finished(error.state);
        const { lastSeen } = this.state;
        this.adopt(error.state);
        // A first try that met a newer revision: another tab moved; the keys queued here were meant
        // for the board as it was, so they are not applied to a different one. (A retried request
        // that finds its own move already applied is not news, unless made on a board last seen.)
        if (!action.retried || lastSeen) {
          this.actions.length = 0;
          this.offline = false; // this notice, not "connected again"
          this.hud.notice("changed", {}, 4000);
        }
        return;
      }
      case ERROR.GAME_FINISHED:
        return this.finished(error.state);
      case ERROR.NOT_FOUND:
        return this.reload();
      default:
        this.hud.notice("refused", { d: error.message }, 5000);
    }
  }

  // Over (shown as it ended), or replaced by a newer game that another tab started.
  async finished(game) {
    if (game.over && game.id === this.state.id) this.adopt(game);
    else await this.reload();
  }

  // This tab's game is no longer the player's current one: show the one that is.
  async reload() {
    this.actions.length = 0;
    this.adopt(await api.current());
    this.hud.notice("changed", {}, 4000);
  }

  // Another tab may have played meanwhile.
  async lookAgain() {
    if (!this.state || this.busy) return;
    try {
      const now = await api.current();
      if (now.id !== this.state.id || now.revision !== this.state.revision) this.adopt(now);
    } catch {
      // Nothing lost: the next action will report the problem.
    }
  }
}
