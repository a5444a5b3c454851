// A finished game's result to share: its score and largest tile and, when its replay is public (a
// leaderboard game), the replay's link; through the system's share sheet where the browser has one,
// else copied to the clipboard. Loaded on first use.

import { call } from "./api.js";

// The address of the game's public replay, or "" where it has none: the server knows whether it is
// on a board now (an unranked game never is, so it is not asked).
async function replayLink(state) {
  if (!state.ranked) return "";
  return call("GET", `/api/public/games/${state.id}`).then(
    () => new URL(`/public/${state.id}`, location.href).href,
    () => "",
  );
}

// share(state) shares the result of the game `state` shows.
export async function sharer(i18n, hud) {
  await i18n.load("share");
  return async (state) => {
    const text = i18n.t("shareText", { n: state.score, tile: String(state.max_tile) });
    const url = await replayLink(state);
    if (navigator.share) {
      try {
        await navigator.share(url ? { title: "2048", text, url } : { title: "2048", text });
      } catch (error) {
        if (error.name !== "AbortError") hud.notice("shareFailed", {}, 4000); // AbortError: the player closed the sheet
      }
      return;
    }
    const whole = url ? `${text} ${url}` : text;
    try {
      await navigator.clipboard.writeText(whole);
      hud.notice("shareCopied", { text: whole }, 4000);
    } catch {
      hud.notice("shareFailed", {}, 4000);
    }
  };
}
