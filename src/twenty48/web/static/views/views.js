// The views beside play, loaded with import() the first time one is opened: the history, the
// statistics, the replay viewer, the game review and the leaderboards, each reached by an address
// that can be kept and shared:
//   #/history   #/stats (#/stats/merge, #/stats/merge/5x5)   #/replay/GAME (#/replay/GAME/MOVE: after
//   move MOVE)   #/review/GAME   #/replay/GAME/MOVE/PLAYED/BEST (a reviewed move: both moves drawn on
//   the board)   #/leaderboard (#/leaderboard/daily/DATE, #/leaderboard/all-time/VARIANT(/SIZE))
//   #/public/GAME (#/public/GAME/MOVE): a leaderboard game's public replay, anyone's
// While one is shown the play view is hidden and its keys are kept from it.

import { stylesheet } from "../settings-ui.js";
import { element } from "./dom.js";
import { HistoryView } from "./history.js";
import { LeaderboardView } from "./leaderboard.js";
import { ReplayView } from "./replay.js";
import { ReviewView } from "./review.js";
import { StatsView } from "./stats.js";

// A game id the page holds exactly (up to 15 digits: a Number is exact below 2**53); 0 and longer
// ones name no game.
const ID = /^[1-9]\d{0,14}$/;
// A reviewed move as the address names it: a direction, or "left@5" (a Merge 2048 tile move).
const DIRECTION = /^(up|down|left|right)(@\d{1,2})?$/;

// "#/replay/12/30" -> ["replay", "12", "30"]; anything unknown is the play view.
function parse(hash) {
  const [name, ...args] = hash.replace(/^#\/?/, "").split("/");
  if (name === "history" || name === "stats" || name === "leaderboard") return { name, args };
  const [id, move, played, best] = args;
  if (name === "review" && ID.test(id) && args.length === 1) return { name, args: [Number(id)] };
  if (name === "public" && ID.test(id) && (move === undefined || /^\d+$/.test(move)) && args.length <= 2) {
    return { name, args: [Number(id), Number(move ?? 0), true] };
  }
  if (name === "replay" && ID.test(id) && (move === undefined || /^\d+$/.test(move))) {
    const marks = DIRECTION.test(played) && DIRECTION.test(best) ? { played, best } : null;
    return { name, args: [Number(id), Number(move ?? 0), false, marks] };
  }
  // A replay address that names no game says so, as one naming an unknown game does.
  if (name === "replay" || name === "public") return { name, args: [null, 0, name === "public"] };
  return { name: "play", args: [] };
}

class Views {
  constructor({ i18n, hud, ask }) {
    this.i18n = i18n;
    this.play = document.querySelector("main.app");
    this.section = element("section", { id: "views", class: "views", hidden: "" });
    const nav = element("nav", { class: "views-nav", "aria-label": i18n.t("views") });
    for (const [href, key] of [["#/", "backToPlay"], ["#/history", "history"], ["#/stats", "statistics"], ["#/leaderboard", "leaderboard"]]) {
      nav.append(element("a", { href, class: "link", "data-i18n": key }, i18n.t(key)));
    }
    this.links = [...nav.children];
    this.main = element("div", { class: "view" });
    this.section.append(nav, this.main);
    this.play.after(this.section);
    const context = { i18n, hud, ask };
    this.views = {
      history: new HistoryView(this.main, context),
      stats: new StatsView(this.main, context),
      replay: new ReplayView(this.main, context),
      leaderboard: new LeaderboardView(this.main, context),
      review: new ReviewView(this.main, context),
    };
    // A public replay is the replay viewer on another player's game.
    this.views.public = this.views.replay;
    this.current = null;
    // Capturing on window runs before the play view's key handler on document, which never sees
    // a key while a view is open; the keys' own default actions (typing, Tab, Enter) still happen.
    addEventListener(
      "keydown",
      (event) => {
        if (!this.current) return;
        event.stopPropagation();
        if (!document.querySelector("dialog[open]")) this.current.onKey?.(event);
      },
      true,
    );
  }

  // Shows the view `hash` names; returns its name ("play" when the play view comes back).
  async route(hash) {
    const { name, args } = parse(hash);
    this.current?.close();
    this.current = this.views[name] ?? null;
    this.play.hidden = name !== "play";
    this.section.hidden = name === "play";
    this.section.dataset.view = name;
    for (const link of this.links) {
      if (link.getAttribute("href") === `#/${name}`) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    if (this.current) {
      const title = { stats: "statistics", public: "replay" }[name] ?? name;
      document.title = `${this.i18n.t(title)} · 2048`;
      await this.current.open(...args);
      // The new view's heading takes the focus, so a screen reader and the Tab key start there.
      const heading = this.main.querySelector("h2");
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
    } else {
      document.title = "2048";
    }
    return name;
  }
}

// The views, once their words and stylesheet are in (so nothing shows unstyled first).
export async function mount(context) {
  const styled = Promise.all([stylesheet("views/views.css"), stylesheet("dialog.css")]).catch(() => {}); // unstyled is still usable
  await Promise.all([styled, context.i18n.load("views")]);
  return new Views(context);
}
