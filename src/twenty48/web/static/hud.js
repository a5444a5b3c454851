// The actuator: shows what the server's answers say (board, scores, the mode, the win and game-over
// banners, notices, and the live region a screen reader reads out). It decides nothing about the game.

import { reducedMotion } from "./render.js";

const $ = (id) => document.getElementById(id);

export class Hud {
  constructor(view, sound, i18n) {
    this.view = view;
    this.sound = sound;
    this.i18n = i18n;
    this.noticeTimer = 0;
    this.spoken = null;
  }

  t(key, vars) {
    return this.i18n.t(key, vars);
  }

  // A passing message; `ms` hides it again, 0 keeps it until the next one.
  notice(key, vars, ms = 0) {
    const box = $("notice");
    box.textContent = this.t(key, vars);
    box.hidden = false;
    clearTimeout(this.noticeTimer);
    if (ms) this.noticeTimer = setTimeout(() => (box.hidden = true), ms);
  }

  hideNotice() {
    clearTimeout(this.noticeTimer);
    $("notice").textContent = "";
    $("notice").hidden = true;
  }

  // Kept to be said again once the page's language comes (a game may load before it).
  announce(key, vars) {
    this.spoken = { key, vars };
    $("live").textContent = this.t(key, vars);
  }

  get animating() {
    return this.view.busy;
  }

  get hintShown() {
    return this.view.hintShown;
  }

  clearHint() {
    this.view.clearHint();
  }

  scores(state) {
    for (const name of ["score", "best"]) {
      $(name).textContent = this.i18n.number(state[name]);
      // Seven digits and more take a smaller size to fit a 360 px header.
      $(name).classList.toggle("long", state[name] >= 1e6);
    }
    $("moves").textContent = this.i18n.number(state.moves);
    $("undo").disabled = !state.can_undo;
    for (const button of [$("hint"), $("auto"), ...document.querySelectorAll(".pad .btn")]) button.disabled = state.over;
    $("final").textContent = this.t("finalScore", { n: state.score });
  }

  // The mode button names the variant and size, the help line its swipes: per game, not move.
  mode(state) {
    const mode = $("mode");
    const vars = { m: this.t(state.variant), s: `${state.board.length}×${state.board[0].length}` };
    mode.textContent = `${vars.m} · ${vars.s}`;
    mode.dataset.variant = state.variant;
    mode.setAttribute("aria-label", this.t("changeMode", vars));
    mode.title = mode.getAttribute("aria-label");
    // What applies to this device: keys where there is a keyboard (a fine pointer), swipes on touch.
    const merge = state.variant === "merge" ? "Merge" : "";
    const help = [];
    if (matchMedia("(any-pointer: fine)").matches) help.push(this.t("helpKeys" + merge));
    if (matchMedia("(any-pointer: coarse)").matches || !help.length) help.push(this.t("helpSwipe" + merge));
    $("help").textContent = help.join(" · ");
  }

  // After a language change; `state` is null before the first answer.
  relabel(state) {
    this.view.relabel();
    if (this.spoken) this.announce(this.spoken.key, this.spoken.vars);
    if (!state) return;
    this.scores(state);
    this.mode(state);
  }

  // A state that did not come from a move: a load, undo, new game, or a refused action.
  show(state, fresh) {
    this.view.clearHint();
    const tiles = fresh ? state.board.flat().flatMap((v, i) => (v ? [i] : [])) : [];
    this.view.draw(state.board, tiles);
    this.scores(state);
    this.mode(state);
    this.sound.gameOver(state.over);
  }

  // A move's answer, animated from the board `before` it; resolves once the board has settled.
  played(before, answer) {
    if (!answer.changed) {
      this.sound.effect("invalid");
      this.view.nudge();
      return Promise.resolve();
    }
    const state = answer.state;
    this.view.clearHint();
    const settled = this.view.animate(before.board.flat(), answer);
    this.scores(state);
    if (answer.points) {
      this.gain(answer.points);
      this.announce("scoreIs", { n: state.score });
    }
    const after = state.board.flat();
    const merged = answer.merges.map((cell) => after[cell]);
    this.sound.effect(merged.length ? "merge" : "move", Math.max(0, ...merged));
    return settled;
  }

  gain(points) {
    if (reducedMotion.matches) return;
    const plus = document.createElement("span");
    plus.className = "plus";
    plus.textContent = `+${points}`;
    plus.addEventListener("animationend", () => plus.remove());
    $("gain").append(plus);
  }

  // `name`: "win", "over" or null (neither).
  overlay(name, state) {
    $("win").hidden = name !== "win";
    $("over").hidden = name !== "over";
    if (name === "over") this.announce("gameOverIs", { n: state.score });
    if (name) $(name === "win" ? "keep-going" : "again").focus({ preventScroll: true });
  }

  // The moment a move (or keeping going after a winning last move) wins or ends the game.
  ending(name, state) {
    this.sound.effect(name);
    if (name === "win") this.announce("win");
    this.sound.gameOver(state.over);
  }
}
