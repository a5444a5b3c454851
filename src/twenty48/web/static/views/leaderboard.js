// The leaderboards: today's (or another day's) daily challenge, or the all-time board of a variant
// and board size, a page at a time, the player's own row highlighted (and shown below the page when
// it is off it), each finished game linked to its public replay (today's daily games' once the day
// is over, which their row says). Names are people's own text: only ever textContent (element()
// sets nothing else).
//   #/leaderboard   #/leaderboard/all-time/merge   #/leaderboard/all-time/classic/3x3
//   #/leaderboard/daily/2026-12-01

import { call } from "../api.js";
import { DEFAULT_VARIANT, LEADERBOARD, VARIANTS } from "../facts.js";
import { SIZES } from "../sizes.js";
import { date, element, errorText, sizeSelect } from "./dom.js";

const PAGE_SIZE = 20;
const today = () => new Date().toISOString().slice(0, 10); // the daily boards' days are UTC days

// The daily challenge is a classic 4x4 game.
export function parseBoard(args) {
  const [board, second, third] = args;
  if (board === LEADERBOARD.DAILY) return { board, variant: DEFAULT_VARIANT, size: "4x4", date: /^\d{4}-\d{2}-\d{2}$/.test(second ?? "") ? second : "" };
  const size = SIZES.includes(third) ? third : "4x4";
  return { board: LEADERBOARD.ALL_TIME, variant: VARIANTS.includes(second) ? second : DEFAULT_VARIANT, size, date: "" };
}

export class LeaderboardView {
  constructor(root, { i18n, hud }) {
    this.root = root;
    this.i18n = i18n;
    this.hud = hud;
    this.offset = 0;
  }

  t(key, vars) {
    return this.i18n.t(key, vars);
  }

  async open(...args) {
    Object.assign(this, parseBoard(args));
    this.offset = 0;
    this.build();
    await this.load();
  }

  close() {}

  address() {
    if (this.board === LEADERBOARD.DAILY) return `#/leaderboard/daily${this.date ? `/${this.date}` : ""}`;
    return `#/leaderboard/all-time/${this.variant}${this.size === "4x4" ? "" : `/${this.size}`}`;
  }

  build() {
    const t = (key) => this.t(key);
    const filters = element("div", { class: "filters" });
    const field = (part, label, control) => {
      const wrap = element("label", { class: "field" });
      control.dataset.part = part;
      wrap.append(element("span", {}, label), control);
      filters.append(wrap);
      return control;
    };
    const board = field("board", t("boardKind"), element("select"));
    for (const b of Object.values(LEADERBOARD)) board.append(element("option", { value: b }, t(`board_${b}`)));
    board.value = this.board;
    const variant = field("variant", t("mode"), element("select"));
    for (const v of VARIANTS) variant.append(element("option", { value: v }, t(v)));
    variant.value = this.variant;
    const size = field("size", t("boardSize"), sizeSelect(this.size));
    const day = field("date", t("day"), element("input", { type: "date", max: today() }));
    day.value = this.date || today();
    // The daily challenge is a 4x4 game of the default variant; the all-time board has no day.
    const shown = () => {
      for (const control of [variant, size]) control.closest("label").hidden = this.board === LEADERBOARD.DAILY;
      day.closest("label").hidden = this.board !== LEADERBOARD.DAILY;
    };
    shown();
    const change = () => {
      this.board = board.value;
      this.variant = this.board === LEADERBOARD.DAILY ? DEFAULT_VARIANT : variant.value;
      this.size = this.board === LEADERBOARD.DAILY ? "4x4" : size.value;
      this.date = this.board === LEADERBOARD.DAILY && day.value && day.value !== today() ? day.value : "";
      this.offset = 0;
      shown();
      history.replaceState(null, "", this.address());
      this.load();
    };
    for (const control of [board, variant, size, day]) control.addEventListener("change", change);

    this.message = element("p", { class: "message", role: "status" });
    this.table = element("table", { class: "board-table" });
    const wrap = element("div", { class: "table-wrap" });
    wrap.append(this.table);
    this.mine = element("p", { class: "my-rank", "data-part": "me" });
    this.later = element("p", { class: "note", "data-part": "later-note", hidden: "" }, t("replayTomorrowNote"));
    this.pager = element("nav", { class: "pager", "aria-label": t("pages") });
    this.root.replaceChildren(element("h2", {}, t("leaderboard")), filters, this.message, wrap, this.later, this.mine, this.pager);
  }

  async load() {
    const params = new URLSearchParams({ board: this.board, variant: this.variant, limit: PAGE_SIZE, offset: this.offset });
    if (this.board === LEADERBOARD.DAILY && this.date) params.set("date", this.date);
    if (this.board === LEADERBOARD.ALL_TIME) params.set("size", this.size);
    let answer;
    try {
      answer = await call("GET", `/api/leaderboard?${params}`);
    } catch (error) {
      if (error.retryable) this.hud.notice("offline", { n: 0 }, 3000);
      else this.message.textContent = errorText(this.i18n, error);
      return;
    }
    this.message.textContent = "";
    this.show(answer);
  }

  show(answer) {
    const t = (key, vars) => this.t(key, vars);
    const head = element("tr");
    for (const key of ["rankCol", "nameCol", "score", "tileCol", "moves", "finishedCol", "replay"]) {
      head.append(element("th", { scope: "col" }, t(key)));
    }
    const thead = element("thead");
    thead.append(head);
    const body = element("tbody");
    for (const entry of answer.entries) body.append(this.row(entry, answer, entry.game_id === answer.me?.game_id));
    if (!answer.entries.length) {
      const empty = element("tr");
      empty.append(element("td", { colspan: "7", class: "empty" }, t(answer.board === LEADERBOARD.DAILY ? "noDailyEntries" : "noEntries")));
      body.append(empty);
    }
    this.table.replaceChildren(thead, body);
    const me = answer.me;
    const onPage = me && answer.entries.some((e) => e.game_id === me.game_id);
    this.mine.textContent = me && !onPage ? t("yourRank", { rank: me.rank, score: me.score }) : "";
    // Today's finished games have no replay yet: the board says when they will.
    this.later.hidden = !answer.entries.some((entry) => entry.finished_at) || answer.board !== LEADERBOARD.DAILY || answer.date < today();
    this.mine.hidden = !me || onPage;
    this.pager.replaceChildren();
    const go = (key, offset, enabled) => {
      const button = element("button", { class: "btn", "data-part": key }, t(key));
      button.disabled = !enabled;
      button.addEventListener("click", () => {
        this.offset = offset;
        this.load();
      });
      this.pager.append(button);
    };
    go("higher", Math.max(0, this.offset - PAGE_SIZE), this.offset > 0);
    go("lower", this.offset + PAGE_SIZE, answer.entries.length === PAGE_SIZE);
  }

  row(entry, answer, mine) {
    const tr = element("tr", mine ? { class: "mine", "aria-current": "true" } : {});
    const number = (value) => this.i18n.number(value);
    // A past day's board closed at its midnight (UTC): a game unfinished then is listed as it stood.
    const closed = answer.board === LEADERBOARD.DAILY && answer.date < today();
    const finished = entry.finished_at ? date(this.i18n, entry.finished_at) : this.t(closed ? "unfinished" : "inProgress");
    for (const value of [number(entry.rank), entry.name, number(entry.score), String(entry.max_tile), number(entry.moves), finished]) {
      tr.append(element("td", {}, value));
    }
    tr.children[1].title = entry.name; // a long name is cut on a phone: the whole of it on hover
    const cell = element("td");
    // A daily game's replay is public once the game and its day are over.
    const open = entry.finished_at && (answer.board !== LEADERBOARD.DAILY || closed);
    if (open) {
      cell.append(element("a", { class: "link", href: `#/public/${entry.game_id}`, "aria-label": this.t("watchGame", { name: entry.name }) }, this.t("watch")));
    } else if (entry.finished_at) {
      cell.append(element("span", { class: "later", title: this.t("replayTomorrowNote"), "data-part": "later" }, this.t("replayTomorrow")));
    }
    tr.append(cell);
    return tr;
  }
}
