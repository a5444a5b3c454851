// The replay viewer: one of the player's games (or, public, a leaderboard game of anyone) as it
// stood after move n, stepped, scrubbed or played back with the play view's own slide and pop
// animation (render.js's BoardView). Every position is the server's (positions.js); the page only
// shows them. Opened from a game review at a reviewed move, it draws the move played and the
// better one as arrows over the board at that position.

import { call } from "../api.js";
import { BoardView } from "../render.js";
import { element, errorText, gameTitle } from "./dom.js";
import { PAGE, Positions } from "./positions.js";

const SPEEDS = [1, 2, 5, 10, 25]; // moves per second
const DEFAULT_SPEED = 5;
const LEAP = 100; // moves skipped by Page Up / Page Down
const SVG = "http://www.w3.org/2000/svg";
// The player's buttons show signs, not words: one set for every language (their labels are words).
const ICONS = { play: "▶", pause: "❚❚", first: "|◀", back: "◀ 1", forward: "1 ▶", last: "▶|" };
// Arrow heads from the board's centre (a 100 x 100 box), per direction.
const HEADS = { up: [50, 18], down: [50, 82], left: [18, 50], right: [82, 50] };

// An empty board and its slide layer: BoardView fills the board with its cells, as many as the
// positions have.
function boardParts(i18n) {
  return {
    board: element("div", { class: "board", role: "group", "aria-label": i18n.t("board") }),
    fx: element("div", { class: "fx", "aria-hidden": "true" }),
  };
}

function typing(target) {
  return target instanceof HTMLElement && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName);
}

export class ReplayView {
  constructor(root, { i18n, hud }) {
    this.i18n = i18n;
    this.hud = hud;
    this.root = root;
    this.timer = 0;
    this.playing = false;
    this.speed = DEFAULT_SPEED;
  }

  t(key, vars) {
    return this.i18n.t(key, vars);
  }

  // Shows game `gameId` after move `move` (clamped to the game); `shared`: a public replay;
  // `marks` ({played, best}, from a review) are drawn while that position is shown. A null
  // `gameId`: the address named no game.
  async open(gameId, move, shared = false, marks = null) {
    this.close();
    this.shared = shared;
    if (gameId === null) return this.gone();
    this.marks = marks ? { ...marks, move } : null;
    this.positions = new Positions(gameId, shared);
    this.shown = null;
    this.target = null;
    this.build(gameId);
    await Promise.all([this.go(move), this.name(gameId)]);
  }

  // The title names the game as the player knows it: their own by when it began, its mode and its
  // score; a public one by who played it and its final score. Until then (or without it), "Replay".
  async name(gameId) {
    const shared = this.shared;
    let game;
    try {
      game = await call("GET", shared ? `/api/public/games/${gameId}` : `/api/games/${gameId}`);
    } catch {
      return; // the positions' own request says what is wrong
    }
    if (this.positions?.gameId !== gameId || this.shared !== shared) return;
    this.title.textContent = shared
      ? this.t("publicReplayOf", { name: game.name, n: game.score })
      : gameTitle(this.i18n, "replayOf", game);
    document.title = `${this.title.textContent} · 2048`;
  }

  close() {
    this.pause();
    this.positions = null;
  }

  build(gameId) {
    const parts = boardParts(this.i18n);
    const frame = element("div", { class: "frame replay-frame" });
    this.arrows = document.createElementNS(SVG, "svg");
    this.arrows.setAttribute("class", "arrows");
    this.arrows.setAttribute("viewBox", "0 0 100 100");
    this.arrows.setAttribute("aria-hidden", "true");
    frame.append(parts.board, parts.fx, this.arrows);
    this.legend = element("p", { class: "move-marks", "data-part": "marks", hidden: "" });
    // BoardView finds its board and slide layer by the play board's ids; this board hands over its
    // own. The replay never shows a hint, so BoardView's hint row (the play view's) is never touched.
    this.view = new BoardView({ querySelector: (id) => parts[id.slice(1)] }, (value) =>
      value ? this.t("tile", { n: String(value) }) : this.t("empty"),
    );
    this.score = element("output", { class: "value", "data-part": "score" }, "0");
    this.moveNumber = element("output", { class: "value", "data-part": "move" }, "0");
    this.scrubber = element("input", { type: "range", min: "0", max: "0", value: "0", class: "scrubber", "aria-label": this.t("scrubber") });
    this.scrubber.addEventListener("input", () => this.go(Number(this.scrubber.value)));
    this.message = element("p", { class: "message", role: "status" });

    const button = (part, key, act) => {
      const el = element("button", { class: "btn", "data-part": part, "aria-label": this.t(key), title: this.t(key) }, ICONS[key]);
      el.addEventListener("click", act);
      return el;
    };
    this.playButton = button("play", "play", () => this.toggle());
    this.playButton.setAttribute("aria-pressed", "false");
    const speed = element("select", { "data-part": "speed", "aria-label": this.t("replaySpeed") });
    for (const value of SPEEDS) speed.append(element("option", { value }, this.t("perSecond", { n: value })));
    speed.value = String(this.speed);
    speed.addEventListener("change", () => (this.speed = Number(speed.value)));
    const controls = element("div", { class: "controls" });
    controls.append(
      button("first", "first", () => this.go(0)),
      button("back", "back", () => this.step(-1)),
      this.playButton,
      button("forward", "forward", () => this.step(1)),
      button("last", "last", () => this.go(Infinity)),
    );

    const jump = element("form", { class: "jump" });
    const to = element("input", { type: "number", min: "0", step: "1", inputmode: "numeric", "data-part": "jump" });
    const label = element("label", {}, this.t("goToMove"));
    label.append(to);
    jump.append(speed, label, element("button", { class: "btn", type: "submit" }, this.t("go")));
    jump.addEventListener("submit", (event) => {
      event.preventDefault();
      if (to.value !== "") this.go(Number(to.value));
    });

    const numbers = element("div", { class: "numbers" });
    for (const [key, output] of [["score", this.score], ["moveNo", this.moveNumber]]) {
      const box = element("div", { class: "box" });
      box.append(element("span", { class: "label" }, this.t(key)), output);
      numbers.append(box);
    }
    const head = element("div", { class: "replay-head" });
    this.title = element("h2", {}, this.t("replay"));
    head.append(this.title, numbers);
    if (!this.shared) {
      head.append(element("a", { class: "btn quiet", href: `#/review/${gameId}`, "data-part": "to-review" }, this.t("review")));
    }
    this.root.replaceChildren(head, frame, this.legend, this.scrubber, controls, jump, this.message);
  }

  get last() {
    return this.positions.total === null ? Infinity : this.positions.total - 1;
  }

  step(delta) {
    this.pause();
    const from = this.target ?? 0;
    return this.go(from + delta, { animate: delta === 1 });
  }

  // Shows the position after move `n`. The scrubber and number follow at once; the board follows
  // when the position is here, unless a later request has overtaken this one meanwhile.
  async go(n, { animate = false } = {}) {
    const positions = this.positions;
    if (!positions) return false; // no game shown (gone)
    let position;
    try {
      // The game's end before its length is known: the first page tells it.
      if (n === Infinity && positions.total === null) await positions.get(0);
      n = Math.max(0, Math.min(Math.trunc(n) || 0, this.last));
      this.target = n;
      this.showNumber(n);
      position = await positions.get(n);
      if (position === undefined && positions.total) position = await positions.get(this.last);
    } catch (error) {
      if (this.positions === positions) this.failed(error);
      return false;
    }
    if (this.positions !== positions || this.target !== n) return false;
    if (position === undefined) return this.failed({ message: this.t("noPositions") });
    this.target = position.move;
    this.show(position, animate);
    positions.prefetch(position.move + PAGE / 2);
    return true;
  }

  show(position, animate) {
    const before = this.shown;
    if (animate && before && position.move === before.move + 1) {
      this.view.animate(before.board.flat(), {
        state: { board: position.board },
        slides: position.slides,
        merges: position.merges,
        spawn: position.spawn,
      });
    } else {
      this.view.draw(position.board);
    }
    this.shown = position;
    this.message.textContent = "";
    this.showNumber(position.move);
    this.score.textContent = this.i18n.number(position.score);
    this.root.dataset.move = position.move;
    const marked = this.marks && this.marks.move === position.move;
    this.drawMarks(marked ? this.marks : null);
    const suffix = marked ? `/${this.marks.played}/${this.marks.best}` : "";
    history.replaceState(null, "", `#/${this.shared ? "public" : "replay"}/${this.positions.gameId}/${position.move}${suffix}`);
  }

  // The played move (and the better one) as arrows from the board's centre, and in words below it.
  drawMarks(marks) {
    this.arrows.replaceChildren();
    this.legend.hidden = !marks;
    if (!marks) return;
    for (const [kind, move] of [["played", marks.played], ["better", marks.best]]) {
      const [x2, y2] = HEADS[move.split("@")[0]];
      const line = document.createElementNS(SVG, "line");
      for (const [name, value] of Object.entries({ x1: 50, y1: 50, x2, y2, class: `arrow ${kind}`, "marker-end": `url(#head-${kind})` })) {
        line.setAttribute(name, value);
      }
      const marker = document.createElementNS(SVG, "marker");
      for (const [name, value] of Object.entries({ id: `head-${kind}`, viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" })) {
        marker.setAttribute(name, value);
      }
      const tip = document.createElementNS(SVG, "path");
      tip.setAttribute("d", "M 0 0 L 10 5 L 0 10 z");
      tip.setAttribute("class", `head ${kind}`);
      marker.append(tip);
      this.arrows.append(marker, line);
    }
    const name = (move) => this.t(move.split("@")[0]);
    this.legend.textContent = this.t("marksLegend", { played: name(marks.played), best: name(marks.best) });
  }

  showNumber(n) {
    const last = this.last;
    if (last !== Infinity) this.scrubber.max = last;
    this.scrubber.value = n;
    this.moveNumber.textContent = last === Infinity ? this.i18n.number(n) : this.t("ofMoves", { n, total: last });
  }

  failed(error) {
    this.pause();
    if (error.retryable) this.hud.notice("offline", { n: 0 }, 3000);
    else if (error.status === 404) return this.gone();
    else this.message.textContent = errorText(this.i18n, error);
    return false;
  }

  // No such game (or none public): the words and a way back, no board or controls to try.
  gone() {
    this.close();
    delete this.root.dataset.move;
    const [href, key] = this.shared ? ["#/leaderboard", "leaderboard"] : ["#/history", "history"];
    this.root.replaceChildren(
      element("h2", {}, this.t("replay")),
      element("p", { class: "message", role: "status" }, this.t(this.shared ? "notPublic" : "gameGone")),
      element("a", { class: "btn back", href, "data-part": "back" }, this.t(key)),
    );
    return false;
  }

  // ---- playing back -------------------------------------------------------------------------------

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  play() {
    if (this.playing || !this.positions) return;
    if (this.target >= this.last) this.go(0);
    this.playing = true;
    this.playButton.setAttribute("aria-pressed", "true");
    this.playButton.textContent = ICONS.pause;
    this.playButton.setAttribute("aria-label", this.t("pause"));
    this.tick();
  }

  pause() {
    clearTimeout(this.timer);
    if (!this.playing) return;
    this.playing = false;
    this.playButton.setAttribute("aria-pressed", "false");
    this.playButton.textContent = ICONS.play;
    this.playButton.setAttribute("aria-label", this.t("play"));
  }

  // One move forward per beat; a page still on its way holds the beat instead of skipping moves.
  async tick() {
    const started = performance.now();
    const moved = await this.go((this.target ?? 0) + 1, { animate: true });
    if (!this.playing) return;
    if (!moved || this.target >= this.last) return this.pause();
    const wait = Math.max(0, 1000 / this.speed - (performance.now() - started));
    this.timer = setTimeout(() => this.tick(), wait);
  }

  // ---- keys ---------------------------------------------------------------------------------------

  onKey(event) {
    if (event.isComposing || typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
    const keys = {
      ArrowRight: () => this.step(1),
      ArrowLeft: () => this.step(-1),
      Home: () => (this.pause(), this.go(0)),
      End: () => (this.pause(), this.go(Infinity)),
      PageDown: () => (this.pause(), this.go(this.target + LEAP)),
      PageUp: () => (this.pause(), this.go(this.target - LEAP)),
    };
    // Space on a focused button presses that button.
    if (event.key === " " && !(event.target instanceof HTMLButtonElement)) keys[" "] = () => this.toggle();
    const act = keys[event.key];
    if (!act) return;
    event.preventDefault();
    act();
  }
}
