// The daily challenge's entry in the header: the time left in the UTC day, the player's place on
// today's board (once their game there has scored: a place among games at 0 means nothing), and the
// button that starts (or resumes) today's game. Loaded once the board is up;
// the server says everything shown here (GET /api/daily), the page only counts the seconds down.

import { call } from "./api.js";
import { stylesheet } from "./settings-ui.js";

const $ = (id) => document.getElementById(id);
// The server is asked again this often, and whenever a daily game ends or starts.
const REFRESH_MS = 60_000;
// The entry stays hidden until it knows the day, and so until its look has come (or failed to).
const styled = stylesheet("daily.css").catch(() => {});

// The entry, once its words are in.
export async function dailyEntry(queue, i18n, ask) {
  await i18n.load("daily");
  return new DailyEntry(queue, i18n, ask);
}

class DailyEntry {
  constructor(queue, i18n, ask) {
    this.queue = queue;
    this.i18n = i18n;
    this.ask = ask;
    this.button = $("daily");
    this.info = null; // the server's last answer
    this.at = 0; // when it came (performance.now())
    this.button.addEventListener("click", () => this.play());
    queue.addEventListener("idle", () => this.seen());
    setInterval(() => this.render(), 30_000);
    setInterval(() => this.refresh(), REFRESH_MS);
    this.refresh();
  }

  async refresh() {
    try {
      [this.info] = await Promise.all([call("GET", "/api/daily"), styled]);
      this.at = performance.now();
    } catch {
      return; // the entry keeps what it showed; the next refresh tries again
    }
    this.render();
  }

  // After each batch of answers: today's game that just ended, began or first scored changes the place.
  seen() {
    const state = this.queue.state;
    const info = this.info;
    const ours = state && info && state.daily === info.date;
    if (ours && (state.over || info.game_id !== state.id || (info.rank && !info.score && state.score > 0))) this.refresh();
    else this.render();
  }

  render() {
    if (!this.info) return;
    const left = Math.max(0, this.info.seconds_left - Math.floor((performance.now() - this.at) / 1000));
    if (left === 0) return void this.refresh(); // a new day: ask for its challenge
    const minutes = Math.ceil(left / 60);
    const [h, m] = [Math.floor(minutes / 60), minutes % 60];
    const playing = this.queue.state?.daily === this.info.date;
    const when = [this.i18n.t(h ? "dailyLeft" : "dailyLeftM", { h, m })];
    if (this.info.rank && this.info.score > 0) when.push(this.i18n.t("dailyRank", { n: this.info.rank }));
    // Its name and the rest: one line, or two where the footer is short of room (daily.css).
    const span = (name, text) => Object.assign(document.createElement("span"), { className: name, textContent: text });
    this.button.replaceChildren(span("name", this.i18n.t("daily")), span("sep", " · "), span("when", when.join(" · ")));
    // Pressed while today's game is the one shown.
    this.button.setAttribute("aria-pressed", playing);
    this.button.hidden = false;
  }

  // Today's game: started or resumed by the server; leaving a game in progress is asked first.
  async play() {
    const state = this.queue.state;
    if (this.info && state?.daily === this.info.date) return;
    if (this.queue.inProgress && !(await this.ask("daily"))) return;
    this.queue.daily();
  }
}
