// The server's JSON API. Every action names the revision it was meant for, so the server refuses
// (409, with the current state) anything aimed at a position that has changed meanwhile.

export class ApiError extends Error {
  constructor(status, body) {
    super(body.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body.error || "";
    // A 409 carries the game as it is now.
    this.state = body.state || null;
    this.answer = body;
  }

  // The server could not be reached or could not answer: the same request may simply be sent again.
  get retryable() {
    return this.status === 0 || this.status >= 500;
  }
}

// Also the history views' (views/), which add their own requests on the same terms.
export async function call(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      headers: body ? { "Content-Type": "application/json" } : undefined,
      body: body ? JSON.stringify(body) : undefined,
      cache: "no-store",
    });
  } catch (error) {
    throw new ApiError(0, { error: "unreachable", detail: error.message });
  }
  let data = {};
  try {
    data = await response.json();
  } catch {
    // A proxy's or a dying server's page: the status says enough.
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const game = (state, action) => `/api/games/${state.id}/${action}`;

export const api = {
  current: () => call("GET", "/api/game"),
  newGame: (variant, size) => call("POST", "/api/games", { variant, size }),
  // Today's daily challenge: started, or resumed as it was left.
  daily: () => call("POST", "/api/games", { daily: true }),
  // `cell` (Merge 2048): move only the tile on that cell; undefined leaves it out: the whole board.
  // `auto`: the solver chose the move (the game counts it as assisted).
  move: (state, direction, cell, auto) =>
    call("POST", game(state, "move"), { direction, cell, revision: state.revision, auto: auto || undefined }),
  undo: (state) => call("POST", game(state, "undo"), { revision: state.revision }),
  keepGoing: (state) => call("POST", game(state, "keep-going"), { revision: state.revision }),
  // The player's hint takes the server's default budget; auto-play's (`auto`: counted as the move it
  // then plays, not as a hint) takes its own.
  hint: (state, auto) => call("POST", game(state, auto ? `hint?time_ms=${auto.ms}&auto=true` : "hint")),
};
