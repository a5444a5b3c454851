// A finished game's result to share: its score and largest tile and, when its replay is public (a
// leaderboard game), the replay's link; through the system's share sheet where the browser has one,
// else copied to the clipboard. Loaded on first use.

import { call } from "./api.js";

const STRINGS = {
  en: {
    shareText: "I scored {n} points in 2048; my largest tile was {tile}.",
    shareCopied: "Copied to the clipboard: {text}",
    shareFailed: "The result could not be shared or copied.",
  },
  ja: {
    shareText: "2048で{n}点を取りました。最大のタイルは{tile}でした。",
    shareCopied: "クリップボードにコピーしました: {text}",
    shareFailed: "結果を共有もコピーもできませんでした。",
  },
  zh: {
    shareText: "我在 2048 中得了 {n} 分，最大方块是 {tile}。",
    shareCopied: "已复制到剪贴板：{text}",
    shareFailed: "无法分享或复制结果。",
  },
};

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
export function sharer(i18n, hud) {
  i18n.extend(STRINGS);
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
