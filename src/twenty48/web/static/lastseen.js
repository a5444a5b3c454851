// The last board this browser saw: kept whenever the queue has been worked through and when the
// page is hidden; shown, marked as not current, when the page opens and the server does not answer.
// The server alone says what the game is: moves made on that board wait in the queue and go, in
// order, for the board they were made on, once it answers (a game moved on elsewhere refuses them).

import { api } from "./api.js";
import { stylesheet } from "./settings-ui.js";

const KEY = "twenty48.last";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function keep(queue) {
  const save = () => {
    if (!queue.state || queue.state.lastSeen) return;
    try {
      localStorage.setItem(KEY, JSON.stringify(queue.state));
    } catch {
      // Not kept (storage full or forbidden): opened offline, the page waits for the server.
    }
  };
  save();
  queue.addEventListener("idle", save);
  document.addEventListener("visibilitychange", save);
}

function read() {
  try {
    const state = JSON.parse(localStorage.getItem(KEY));
    return Array.isArray(state?.board) ? state : null;
  } catch {
    return null;
  }
}

// The queue's state until the server answers: the board kept here, if any, marked as not current
// until the queue holds an answer of the server's.
export async function standIn(queue, hud, i18n) {
  const saved = read();
  if (!saved || queue.state) return;
  await Promise.all([i18n.load("lastseen"), stylesheet("lastseen.css")]);
  const frame = document.getElementById("frame");
  const label = Object.assign(document.createElement("p"), { className: "last-seen", textContent: i18n.t("lastSeen") });
  label.dataset.i18n = "lastSeen";
  frame.append(label);
  frame.classList.add("stale");
  const current = () => {
    if (queue.state.lastSeen) return;
    frame.classList.remove("stale");
    label.remove();
  };
  queue.addEventListener("idle", current);
  queue.offline = true;
  queue.adopt({ ...saved, lastSeen: true });
  reconnect(queue, hud).then(current);
}

// Asks for the game until the server answers, unless queued moves are on their way: their answers
// say what is current.
async function reconnect(queue, hud) {
  for (let wait = 250; queue.state.lastSeen; wait = Math.min(wait * 2, 4000)) {
    await sleep(wait);
    if (queue.busy) continue;
    try {
      const now = await api.current();
      if (!queue.state.lastSeen || queue.busy) continue;
      queue.adopt(now);
      queue.offline = false;
      hud.notice("online", {}, 2000);
    } catch {
      // Still unreachable: the notice says so.
    }
  }
}
