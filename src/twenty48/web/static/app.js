// A minimal page: it sends directions and draws what the server answers. The server holds the rules.
const $ = (id) => document.getElementById(id);
const KEYS = {
  ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
  w: "up", s: "down", a: "left", d: "right", k: "up", j: "down", h: "left", l: "right",
};
let state = null;
// Actions run one at a time in the order pressed; each carries the revision it was meant for.
const queue = [];
let busy = false;

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, data: await response.json() };
}

function draw(message = "") {
  const board = $("board");
  board.replaceChildren();
  for (const value of state.board.flat()) {
    const cell = document.createElement("div");
    cell.className = "cell" + (value ? (value > 2048 ? " big" : ` v${value}`) : "");
    cell.textContent = value || "";
    cell.setAttribute("role", "gridcell");
    cell.setAttribute("aria-label", value ? `${value} tile` : "empty cell");
    board.append(cell);
  }
  $("score").textContent = state.score;
  $("best").textContent = state.best;
  $("undo").disabled = !state.can_undo;
  const banner = state.won && !state.keep_playing;
  $("keep-going").hidden = !banner || state.over;
  if (!message) {
    if (state.over) message = "Game over! Press New game to try again.";
    else if (banner) message = "You win! Keep going or start a new game.";
  }
  $("message").textContent = message;
}

async function perform(action) {
  const id = state.id;
  let answer;
  if (action === "new") answer = await api("POST", "/api/games");
  else if (action === "undo" || action === "keep-going")
    answer = await api("POST", `/api/games/${id}/${action}`, { revision: state.revision });
  else answer = await api("POST", `/api/games/${id}/move`, { direction: action, revision: state.revision });
  const { status, data } = answer;
  if (status === 200 || status === 201) state = data.state ?? data;
  else if (data.state) state = data.state;
  if (status === 409) queue.length = 0; // the game changed elsewhere: stale key presses are dropped
  draw(status >= 400 ? data.detail : "");
}

async function pump() {
  if (busy) return;
  busy = true;
  try {
    while (queue.length) await perform(queue.shift());
  } catch (error) {
    queue.length = 0;
    $("message").textContent = `Connection problem: ${error.message}`;
  } finally {
    busy = false;
  }
}

function press(action) {
  if (!state) return;
  queue.push(action);
  pump();
}

async function hint() {
  if (!state || state.over) return;
  const { status, data } = await api("GET", `/api/games/${state.id}/hint`);
  $("message").textContent = status === 200 ? `Hint: ${data.best}` : data.detail;
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const direction = KEYS[event.key] ?? KEYS[event.key.toLowerCase()];
  if (direction) {
    event.preventDefault();
    press(direction);
  } else if (event.key.toLowerCase() === "n") press("new");
  else if (event.key.toLowerCase() === "u") press("undo");
});
for (const button of document.querySelectorAll("[data-direction]"))
  button.addEventListener("click", () => press(button.dataset.direction));
$("new").addEventListener("click", () => press("new"));
$("undo").addEventListener("click", () => press("undo"));
$("keep-going").addEventListener("click", () => press("keep-going"));
$("hint").addEventListener("click", hint);

api("GET", "/api/game").then(({ data }) => {
  state = data;
  draw();
});
