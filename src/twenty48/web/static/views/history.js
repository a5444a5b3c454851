// The history: the player's games a page at a time, sorted and filtered by the server, each with a
// replay link, its export file (where the server gives it) and a delete button; the whole
// history's export and an import.

import { ApiError, call } from "../api.js";
import { ERROR, SORTS, VARIANTS } from "../facts.js";
import { sizeName } from "../sizes.js";
import { date as when, element, errorText } from "./dom.js";

const PAGE_SIZE = 20;
const FINISHED = ["", "true", "false"];
// The columns; on a phone each cell carries its column's name (data-label), the header being hidden.
const COLUMNS = ["started", "mode", "sizeCol", "score", "largest", "moves", "statusCol", "assisted"];

function select(part, label, options) {
  const wrap = element("label", { class: "field" });
  const el = element("select", { "data-part": part });
  for (const [value, text] of options) el.append(element("option", { value }, text));
  wrap.append(element("span", {}, label), el);
  return [wrap, el];
}

export class HistoryView {
  constructor(root, { i18n, hud }) {
    this.root = root;
    this.i18n = i18n;
    this.hud = hud;
    this.filters = { sort: "date", variant: "", finished: "" };
    this.cursors = [null]; // the `before` of each page seen so far; the last one's is the next page's
    this.page = 0;
  }

  t(key, vars) {
    return this.i18n.t(key, vars);
  }

  async open() {
    this.build();
    await this.load();
  }

  close() {
    this.dialog?.close();
  }

  build() {
    const t = (key) => this.t(key);
    const filters = element("div", { class: "filters" });
    const choices = {
      sort: SORTS.map((s) => [s, t(`sort_${s}`)]),
      variant: ["", ...VARIANTS].map((v) => [v, v ? t(v) : t("allModes")]),
      finished: FINISHED.map((f) => [f, t(`finished_${f || "all"}`)]),
    };
    for (const [key, label] of [["sort", "sortBy"], ["variant", "mode"], ["finished", "finishedFilter"]]) {
      const [wrap, el] = select(key, t(label), choices[key]);
      el.value = this.filters[key];
      el.addEventListener("change", () => {
        this.filters[key] = el.value;
        this.cursors = [null];
        this.page = 0;
        this.load();
      });
      filters.append(wrap);
    }

    const transfer = element("div", { class: "transfer" });
    const exportAll = element("a", { class: "btn", href: "/api/export", download: "twenty48-history.json", "data-part": "export-all" }, t("exportAll"));
    const file = element("input", { type: "file", accept: ".json,application/json", class: "sr-only", "data-part": "import" });
    const importLabel = element("label", { class: "btn" }, t("importFile"));
    importLabel.append(file);
    file.addEventListener("change", () => this.import(file));
    transfer.append(exportAll, importLabel);

    this.table = element("table", { class: "games" });
    const head = element("tr");
    for (const key of COLUMNS) head.append(element("th", { scope: "col" }, t(key)));
    // The actions stand on a line of their own under each game's numbers, not in a column.
    head.append(element("th", { scope: "col", class: "sr-only" }, t("actions")));
    this.table.append(element("caption", { class: "sr-only" }, t("history")));
    this.table.appendChild(element("thead")).append(head);
    this.rows = this.table.appendChild(element("tbody"));

    this.newer = element("button", { class: "btn", "data-part": "newer" }, t("newer"));
    this.older = element("button", { class: "btn", "data-part": "older" }, t("older"));
    this.newer.addEventListener("click", () => this.turn(-1));
    this.older.addEventListener("click", () => this.turn(1));
    this.pageNumber = element("span", { class: "page-number" });
    const pager = element("nav", { class: "pager", "aria-label": t("pages") });
    pager.append(this.newer, this.pageNumber, this.older);
    this.message = element("p", { class: "message", role: "status" });
    const wrap = element("div", { class: "table-wrap" });
    wrap.append(this.table);
    this.root.replaceChildren(element("h2", {}, t("history")), filters, transfer, this.message, wrap, pager);
  }

  turn(delta) {
    this.page += delta;
    this.load();
  }

  query() {
    const params = new URLSearchParams({ limit: PAGE_SIZE });
    const before = this.cursors[this.page];
    if (before !== null) params.set("before", before);
    for (const [key, value] of Object.entries(this.filters)) if (value) params.set(key, value);
    return `/api/games?${params}`;
  }

  async load() {
    const asked = this.query();
    this.asked = asked;
    let answer;
    try {
      answer = await call("GET", asked);
    } catch (error) {
      return this.failed(error);
    }
    if (this.asked !== asked) return; // the filters changed meanwhile
    this.cursors[this.page + 1] = answer.next_before;
    this.rows.replaceChildren(...answer.games.map((game) => this.row(game)));
    if (!answer.games.length) {
      const empty = this.rows.appendChild(element("tr")).appendChild(element("td", { colspan: 9 }, this.t("noGames")));
      empty.className = "empty";
    }
    this.newer.disabled = this.page === 0;
    this.older.disabled = answer.next_before === null;
    this.pageNumber.textContent = this.t("pageN", { n: this.page + 1 });
    this.root.dataset.loaded = asked;
  }

  row(game) {
    const number = (value) => this.i18n.number(value);
    // A game is named by when it began: its id means nothing to the player.
    const date = when(this.i18n, game.created_at);
    const tr = element("tr", { "data-game": game.id });
    const cells = [
      date,
      this.t(game.variant),
      sizeName(game.size),
      number(game.score),
      String(game.max_tile),
      number(game.moves),
      this.t(`status_${game.status}`),
      this.assisted(game),
    ];
    cells.forEach((text, i) => tr.append(element("td", { "data-label": this.t(COLUMNS[i]) }, String(text))));
    const actions = tr.appendChild(element("td", { class: "actions" }));
    const label = (key) => this.t(key, { date });
    actions.append(
      element("a", { class: "btn", href: `#/replay/${game.id}/0`, "aria-label": label("replayGame"), "data-part": "replay" }, this.t("replay")),
      element("a", { class: "btn quiet", href: `#/review/${game.id}`, "aria-label": label("reviewGame"), "data-part": "review" }, this.t("review")),
    );
    if (game.exportable) {
      const save = element("button", { class: "btn quiet", "aria-label": label("exportGame"), "data-part": "export" }, this.t("export"));
      save.addEventListener("click", () => this.export(game, date));
      actions.append(save);
    }
    const remove = element("button", { class: "btn quiet", "aria-label": label("deleteGame"), "data-part": "delete" }, this.t("delete"));
    remove.addEventListener("click", () => this.confirmDelete(game, date));
    actions.append(remove);
    return tr;
  }

  // Counted from when the store began to count, or as an imported game's file says; unknown (null)
  // otherwise, and so are the hints of a browser game auto-played before auto-play's moves stopped
  // counting as hints.
  assisted(counts) {
    if (counts.assisted === null) return this.t("unknown");
    const parts = [["hints", "hintsN"], ["auto_moves", "autoN"], ["undos", "undosN"]].filter(([key]) => counts[key] > 0);
    const said = parts.map(([key, text]) => this.t(text, { n: counts[key] }));
    if (counts.assisted && counts.hints === null) said.push(this.t("hintsUnknown"));
    return said.length ? said.join(" · ") : this.t("no");
  }

  // `date`: the game's name in the page's words (when it began).
  confirmDelete(game, date) {
    this.dialog?.remove();
    const dialog = element("dialog", { class: "confirm-delete", "aria-labelledby": "delete-title" });
    dialog.append(element("h2", { id: "delete-title" }, this.t("deleteTitle", { date })), element("p", {}, this.t("deleteText")));
    const row = dialog.appendChild(element("div", { class: "row" }));
    const no = element("button", { class: "btn quiet" }, this.t("cancel"));
    const yes = element("button", { class: "btn", "data-part": "confirm-delete" }, this.t("delete"));
    no.addEventListener("click", () => dialog.close());
    yes.addEventListener("click", async () => {
      dialog.close();
      await this.delete(game, date);
    });
    row.append(no, yes);
    this.root.append(dialog);
    this.dialog = dialog;
    dialog.showModal();
    no.focus();
  }

  async delete(game, date) {
    try {
      await call("DELETE", `/api/games/${game.id}`);
    } catch (error) {
      return this.failed(error);
    }
    this.message.textContent = this.t("deleted", { date });
    await this.load();
  }

  // Fetched, not linked: a download link says nothing when the server refuses the file.
  async export(game, date) {
    let response;
    try {
      response = await fetch(`/api/games/${game.id}/export`, { cache: "no-store" });
    } catch (error) {
      return this.failed(new ApiError(0, { detail: error.message }));
    }
    if (!response.ok) {
      const error = new ApiError(response.status, await response.json().catch(() => ({})));
      if (error.retryable) return this.failed(error);
      const why = { [ERROR.GAME_IN_PROGRESS]: "exportInProgress", [ERROR.NOT_FOUND]: "gameGone" }[error.code];
      this.message.textContent = this.t(why ?? "exportRefused", { date, d: error.message });
      return;
    }
    const url = URL.createObjectURL(await response.blob());
    element("a", { href: url, download: `twenty48-game-${game.id}.json` }).click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  async import(input) {
    const file = input.files[0];
    input.value = ""; // the same file may be chosen again after fixing it
    if (!file) return;
    let data;
    try {
      data = JSON.parse(await file.text());
    } catch {
      this.message.textContent = this.t("notJson", { name: file.name });
      return;
    }
    try {
      const answer = await call("POST", "/api/import", data);
      this.message.textContent = this.t("imported", { n: answer.imported.length, skipped: answer.skipped });
    } catch (error) {
      if (error.retryable) return this.failed(error);
      this.message.textContent = this.t("importRefused", { d: error.message });
      return;
    }
    this.cursors = [null];
    this.page = 0;
    await this.load();
  }

  failed(error) {
    if (error.retryable) this.hud.notice("offline", { n: 0 }, 3000);
    else this.message.textContent = errorText(this.i18n, error);
  }
}
