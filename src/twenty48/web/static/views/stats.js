// The statistics of one variant and board size, with or without assisted games, as the server
// computes them: the figures, tile-reach rates and recent scores as charts (chart.js), first
// reaches as a table.
// The figures are over the games that ended; the abandoned ones (left for a new game before they
// ended) are counted apart, and in the figures only when the player includes them.

import { call } from "../api.js";
import { DEFAULT_VARIANT, VARIANTS } from "../facts.js";
import { SIZES } from "../sizes.js";
import { barChart, lineChart } from "./chart.js";
import { element, errorText, sizeSelect } from "./dom.js";

export class StatsView {
  constructor(root, { i18n, hud }) {
    this.root = root;
    this.i18n = i18n;
    this.hud = hud;
    this.variant = DEFAULT_VARIANT;
    this.size = "4x4";
    this.assisted = "include";
    this.abandoned = "exclude";
  }

  t(key, vars) {
    return this.i18n.t(key, vars);
  }

  // #/stats/merge/5x5: a variant and a size (the last ones chosen, else classic 4x4).
  async open(variant, size) {
    if (variant) this.variant = variant;
    if (SIZES.includes(size)) this.size = size;
    this.build();
    await this.load();
  }

  close() {}

  build() {
    const controls = element("div", { class: "filters" });
    const mode = element("label", { class: "field" });
    const variant = element("select", { "data-part": "variant" });
    for (const v of VARIANTS) variant.append(element("option", { value: v }, this.t(v)));
    variant.value = this.variant;
    variant.addEventListener("change", () => {
      this.variant = variant.value;
      this.load();
    });
    mode.append(element("span", {}, this.t("mode")), variant);
    const board = element("label", { class: "field" });
    const size = sizeSelect(this.size);
    size.addEventListener("change", () => {
      this.size = size.value;
      this.load();
    });
    board.append(element("span", {}, this.t("boardSize")), size);
    controls.append(mode, board, this.choice("assisted", "assistedGames"), this.choice("abandoned", "abandonedChoice"));
    this.body = element("div", { class: "stats-body" });
    this.message = element("p", { class: "message", role: "status" });
    this.root.replaceChildren(element("h2", {}, this.t("statistics")), controls, this.message, this.body);
  }

  // Include or leave out one kind of game (`this[name]`): a fieldset of two radio buttons.
  choice(name, legend) {
    const fieldset = element("fieldset", { class: "choice" });
    fieldset.append(element("legend", {}, this.t(legend)));
    for (const value of ["include", "exclude"]) {
      const label = element("label");
      const radio = element("input", { type: "radio", name, value, "data-part": `${name}-${value}` });
      radio.checked = value === this[name];
      radio.addEventListener("change", () => {
        this[name] = value;
        this.load();
      });
      label.append(radio, element("span", {}, this.t(`assisted_${value}`)));
      fieldset.append(label);
    }
    return fieldset;
  }

  async load() {
    const asked = `/api/stats?variant=${this.variant}&size=${this.size}&assisted=${this.assisted}&abandoned=${this.abandoned}`;
    this.asked = asked;
    let stats;
    try {
      stats = await call("GET", asked);
    } catch (error) {
      if (error.retryable) this.hud.notice("offline", { n: 0 }, 3000);
      else this.message.textContent = errorText(this.i18n, error);
      return;
    }
    if (this.asked !== asked) return;
    this.message.textContent = "";
    this.body.replaceChildren(...this.render(stats));
    this.root.dataset.loaded = asked;
  }

  render(stats) {
    const number = (value) => (value === null || value === undefined ? "–" : this.i18n.number(Math.round(value)));
    const percent = (value) => new Intl.NumberFormat(this.i18n.lang, { style: "percent", maximumFractionDigits: 1 }).format(value);
    const figures = element("dl", { class: "figures" });
    const rows = [
      ["games", number(stats.games)],
      ["endedGames", number(stats.ended)],
      ["abandonedGames", number(stats.abandoned_games)],
      ["best", number(stats.best)],
      ["meanScore", number(stats.mean)],
      ["medianScore", number(stats.median)],
      ["winRate", stats.counted ? percent(stats.win_rate) : "–"],
      ["streakNow", number(stats.streak.current)],
      ["streakBest", number(stats.streak.best)],
    ];
    for (const [key, value] of rows) {
      const item = figures.appendChild(element("div", { "data-figure": key }));
      item.append(element("dt", {}, this.t(key)), element("dd", {}, value));
    }
    const rule = element("p", { class: "count-rule" }, this.t(`countRule_${stats.abandoned}`));
    if (!stats.counted) return [figures, rule, element("p", { class: "empty" }, this.t("noFinished"))];

    const tiles = Object.keys(stats.reach).sort((a, b) => a - b);
    const reach = barChart({
      labels: tiles,
      values: tiles.map((tile) => stats.reach[tile]),
      top: 1,
      format: percent,
      text: { title: this.t("reachTitle"), table: this.t("showTable"), label: this.t("tileCol"), value: this.t("reachCol") },
    });
    const recent = lineChart({
      values: stats.recent,
      format: number,
      text: { title: this.t("recentTitle", { n: stats.recent.length }), table: this.t("showTable"), label: this.t("gameCol"), value: this.t("score") },
    });
    return [figures, rule, reach, this.firstReach(stats.first_reach, number), recent];
  }

  firstReach(firstReach, number) {
    const table = element("table", { class: "data first-reach" });
    table.append(element("caption", {}, this.t("firstReachTitle")));
    const head = element("tr");
    for (const key of ["tileCol", "medianMove", "bestMove"]) head.append(element("th", { scope: "col" }, this.t(key)));
    table.appendChild(element("thead")).append(head);
    const body = table.appendChild(element("tbody"));
    for (const tile of Object.keys(firstReach).sort((a, b) => a - b)) {
      const row = body.appendChild(element("tr"));
      row.append(element("th", { scope: "row" }, tile), element("td", {}, number(firstReach[tile].median)), element("td", {}, number(firstReach[tile].best)));
    }
    return table;
  }
}
