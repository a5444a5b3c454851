// The game review (#/review/GAME): the solver's grade of every move of one game and the chance, from
// every position, of reaching the game's next tile, computed by the server in the background (POST,
// then GET until done; Cancel is DELETE). Shown: the accuracy and the count of each grade, the
// turning point (the move after which the chance fell most) as one sentence, a chart of the chance
// over the whole game with the turning point named above it and the mistakes and blunders ringed (a
// table of the same numbers behind it), the moves after which the chance fell most, and folded
// below them every move graded below good; each opens the replay viewer at the position it was
// played from, with the played and the better move drawn on the board
// (#/replay/GAME/MOVE/PLAYED/BEST). The grades are the hint's words (strings/play.*.js g*), from
// the one formula the server uses for both.

import { call } from "../api.js";
import { ERROR, GRADES } from "../facts.js";
import { lineChart } from "./chart.js";
import { element, errorText, gameTitle } from "./dom.js";

const POLL_MS = 700;
// GRADES is best first: the grades after "good" are below it, the last two ringed on the chart.
const BELOW_GOOD = new Set(GRADES.slice(GRADES.indexOf("good") + 1));
const RINGED = new Set(GRADES.slice(-2));
// The largest falls listed first, and the smallest fall listed (points of chance).
const FALLS = 5;
const LEAST_FALL = 1;
const ARROWS = { up: "↑", down: "↓", left: "←", right: "→" };

// The chance before the first move, then after each one.
const chances = (review) => [review.start_chance, ...review.moves.map((m) => m.chance)];
const percent = (value) => `${Math.round(value)} %`;

export class ReviewView {
  constructor(root, { i18n, hud, ask }) {
    this.i18n = i18n;
    this.hud = hud;
    this.ask = ask;
    this.root = root;
    this.timer = 0;
    // Bumped by every open and close: an answer for an earlier one is dropped.
    this.generation = 0;
  }

  t(key, vars) {
    return this.i18n.t(key, vars);
  }

  // "left" -> "← Left"; "left@5" -> "← Left @5" (a Merge 2048 single-tile move).
  move(text) {
    const [direction, cell] = text.split("@");
    const name = `${ARROWS[direction]} ${this.t(direction)}`;
    return cell === undefined ? name : `${name} @${cell}`;
  }

  async open(gameId) {
    this.close();
    this.gameId = gameId;
    const generation = this.generation;
    const head = element("div", { class: "replay-head" });
    const title = element("h2", {}, this.t("review"));
    head.append(
      title,
      element("a", { class: "btn quiet", href: `#/replay/${gameId}/0`, "data-part": "to-replay" }, this.t("replay")),
    );
    this.body = element("div", { class: "review-body", "aria-live": "polite" });
    this.root.replaceChildren(head, this.body);
    await Promise.all([this.refresh(generation), this.name(title, generation)]);
  }

  // Titled by the game's date, mode and score; "Review" until they come (or if they cannot).
  async name(title, generation) {
    const game = await call("GET", `/api/games/${this.gameId}`).catch(() => null);
    if (!game || generation !== this.generation) return;
    title.textContent = gameTitle(this.i18n, "reviewOf", game);
    document.title = `${title.textContent} · 2048`;
  }

  close() {
    clearTimeout(this.timer);
    this.generation += 1;
  }

  url() {
    return `/api/games/${this.gameId}/review`;
  }

  async refresh(generation) {
    let status;
    try {
      status = await call("GET", this.url());
    } catch (error) {
      if (generation !== this.generation) return;
      if (error.code === ERROR.NO_REVIEW) return this.offer(this.t("reviewOffer"));
      return this.failed(error);
    }
    if (generation === this.generation) this.showStatus(status);
  }

  async act(method) {
    const generation = this.generation;
    try {
      const status = await call(method, this.url());
      if (generation === this.generation) this.showStatus(status);
    } catch (error) {
      if (generation === this.generation) this.failed(error);
    }
  }

  // A sentence and the button that asks for a review.
  offer(text) {
    const start = element("button", { class: "btn", "data-part": "start-review" }, this.t("reviewStart"));
    start.addEventListener("click", () => this.start());
    this.body.replaceChildren(element("p", { class: "message" }, text), start);
  }

  // The solver's view of a ranked game still being played helps it on, so the server unranks the
  // game it reviews, as a hint does: the player is asked first, with the same question.
  async start() {
    const generation = this.generation;
    const game = await call("GET", `/api/games/${this.gameId}`).catch(() => null);
    if (generation !== this.generation) return;
    if (game?.ranked && !game.over && !(await this.ask("assist"))) return;
    if (generation === this.generation) this.act("POST");
  }

  showStatus(status) {
    clearTimeout(this.timer);
    this.root.dataset.state = status.state;
    if (status.state === "queued" || status.state === "running") return this.progress(status);
    if (status.state === "done") return this.result(status);
    this.offer(this.t(status.state === "cancelled" ? "reviewCancelled" : "reviewFailed"));
  }

  progress(status) {
    const bar = element("progress", { max: String(Math.max(1, status.total)), value: String(status.done), "aria-label": this.t("reviewing") });
    const text = status.state === "queued" ? this.t("reviewQueued") : this.t("reviewProgress", { done: status.done, n: status.total });
    const cancel = element("button", { class: "btn quiet", "data-part": "cancel-review" }, this.t("cancel"));
    cancel.addEventListener("click", () => this.act("DELETE"));
    this.body.replaceChildren(element("p", { "data-part": "progress" }, text), bar, cancel);
    const generation = this.generation;
    this.timer = setTimeout(() => this.refresh(generation), POLL_MS);
  }

  // A done job's status carries the review's own fields. One made before reviews had chances (an
  // older setting, so never current) is offered again instead.
  result(review) {
    if (review.target === undefined) return this.offer(this.t("reviewOutdated"));
    const parts = [this.summary(review)];
    if (!review.current) {
      const again = element("button", { class: "btn quiet", "data-part": "start-review" }, this.t("reviewAgain"));
      again.addEventListener("click", () => this.act("POST"));
      parts.push(element("p", { class: "message" }, this.t("reviewCovers", { n: review.covers })), again);
    }
    parts.push(this.chart(review), this.mistakes(review));
    this.body.replaceChildren(...parts);
  }

  summary(review) {
    const figures = element("dl", { class: "figures" });
    const figure = (label, value, part) => {
      const box = figures.appendChild(element("div", part ? { "data-part": part } : {}));
      box.append(element("dt", {}, label), element("dd", {}, value));
    };
    figure(this.t("accuracy"), review.accuracy === null ? "–" : `${review.accuracy.toFixed(1)} %`, "accuracy");
    figure(this.t("startChance", { tile: String(review.target) }), percent(review.start_chance), "start-chance");
    for (const grade of GRADES) figure(this.t(`g${grade}`), String(review.grades[grade]), `grade-${grade}`);
    const turn = review.turning_point;
    const line = element("p", { "data-part": "turning-point" });
    if (!turn) line.textContent = this.t("noTurningPoint");
    else line.append(`${this.t("turningPoint")}: `, this.story(review, review.moves[turn.n - 1]));
    const wrap = element("div", { class: "review-summary" });
    wrap.append(figures, line);
    return wrap;
  }

  // The chance before the first move and after each one; the turning point named above it, the
  // mistakes and blunders ringed.
  chart(review) {
    const values = chances(review);
    const marks = review.moves.filter((m) => RINGED.has(m.grade)).map((m) => ({ index: m.n, kind: m.grade }));
    const turn = review.turning_point;
    return lineChart({
      values,
      top: 100,
      labels: values.map((_, i) => String(i)),
      marks,
      flag: turn ? { index: turn.n, label: this.t("moveN", { n: turn.n }) } : null,
      format: (v) => `${Math.round(v)}`,
      text: {
        title: this.t("chanceTitle", { tile: String(review.target) }),
        table: this.t("showTable"),
        label: this.t("moveNo"),
        value: this.t("chance"),
      },
    });
  }

  // The moves after which the chance fell most, each one sentence with its grade; then, folded,
  // every move graded below good in the order played.
  mistakes(review) {
    const section = element("section", { class: "mistakes" });
    section.append(element("h3", {}, this.t("fallsTitle")));
    const before = chances(review);
    const falls = review.moves
      .map((m) => ({ m, fall: before[m.n - 1] - m.chance }))
      .filter(({ fall }) => fall >= LEAST_FALL)
      .sort((a, b) => b.fall - a.fall || a.m.n - b.m.n)
      .slice(0, FALLS);
    if (!falls.length) section.append(element("p", {}, this.t("noFalls")));
    else {
      const list = section.appendChild(element("ol", { class: "fall-list" }));
      for (const { m } of falls) list.append(this.item(this.story(review, m), m));
    }
    const below = review.moves.filter((m) => BELOW_GOOD.has(m.grade));
    if (!below.length) {
      section.append(element("p", { "data-part": "no-mistakes" }, this.t("noMistakes")));
      return section;
    }
    const folded = section.appendChild(element("details", { class: "below-good" }));
    // English says "the 1 move" (a plural form); Japanese and Chinese have one form.
    folded.append(element("summary", {}, this.t("belowGood", { n: below.length })));
    const list = folded.appendChild(element("ol", { class: "mistake-list" }));
    for (const m of below) {
      const text = this.t("mistakeItem", { n: m.n, played: this.move(m.played), best: this.move(m.best), loss: m.loss });
      list.append(this.item(this.link(m, text), m));
    }
    return section;
  }

  // A list item: `content`, then move `m`'s grade when it is below good.
  item(content, m) {
    const item = element("li", m.grade ? { "data-grade": m.grade } : {});
    item.append(content);
    if (BELOW_GOOD.has(m.grade)) item.append(" ", element("span", { class: `grade ${m.grade}` }, this.t(`g${m.grade}`)));
    return item;
  }

  // "move 212: ↓ Down, better ← Left — your chance of reaching 512 fell from 81 % to 34 %", a link
  // to the replay at the position the move was played from.
  story(review, m) {
    const before = m.n === 1 ? review.start_chance : review.moves[m.n - 2].chance;
    const better = m.best && m.best !== m.played;
    const vars = {
      n: m.n,
      played: this.move(m.played),
      best: better ? this.move(m.best) : "",
      tile: String(review.target), // a tile by its name, as written on it
      from: Math.round(before),
      to: Math.round(m.chance),
    };
    return this.link(m, this.t(better ? "fell" : "fellBest", vars));
  }

  // A link to the replay at the position move `m` was played from, the played and better move drawn.
  link(m, text) {
    const href = m.best && m.best !== m.played
      ? `#/replay/${this.gameId}/${m.n - 1}/${m.played}/${m.best}`
      : `#/replay/${this.gameId}/${m.n - 1}`;
    return element("a", { href, class: "link", "data-move": String(m.n) }, text);
  }

  failed(error) {
    if (error.retryable && error.status === 0) this.hud.notice("offline", { n: 0 }, 3000);
    if (error.status === 404) {
      // Not this player's game (or gone): nothing to offer.
      this.body.replaceChildren(element("p", { class: "message" }, this.t("gameGone")));
      return;
    }
    const key = { [ERROR.REVIEWS_BUSY]: "reviewsBusy", [ERROR.REVIEW_IN_PROGRESS]: "reviewInProgress" }[error.code];
    this.offer(key ? this.t(key) : errorText(this.i18n, error));
  }
}
