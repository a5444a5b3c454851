// Draws the board the server describes and animates what a move did: tiles slide from source to
// destination (the server's slides), then merged tiles grow and the new tile pops in. Nothing here
// decides a move; the cells always hold the server's latest board in data-value.

const SLIDE_MS = 100;
// A gap (and the border) in cells' widths: the frame's --gap in style.css.
const GAP = 3 / 21.25;
export const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

// The board sizes the page offers (the server says which it takes), 4x4 the default.
export const SIZES = ["2x4", "3x3", "3x4", "4x4", "5x5", "6x6"];
// A board's size as the server writes it ("3x4": 3 rows of 4), read off the board it sent.
export const sizeOf = (board) => `${board.length}x${board[0].length}`;
// A size as the player reads it: "3×4".
export const sizeName = (size) => size.replace("x", "×");

// A tile's digits size its text (style.css), so that a long number fits its cell on any board.
function tile(value, effect) {
  const el = document.createElement("span");
  el.className = effect ? `tile ${effect}` : "tile";
  el.dataset.v = value;
  el.dataset.d = String(value).length;
  el.textContent = value;
  return el;
}

export class BoardView {
  constructor(frame, label) {
    this.board = frame.querySelector("#board");
    this.fx = frame.querySelector("#fx");
    this.hints = document.getElementById("hints");
    this.label = label; // value -> the cell's aria-label
    this.settle = null; // ends the running slide early
    this.ahead = null; // a slide started from a forecast, waiting for its answer
    // Empty until the first board comes, in the default size.
    this.shape(4, 4);
  }

  // `rows` x `cols` empty cells, unless the board has that size already. The frame's --rows and
  // --cols lay them out (style.css); a slide's steps are in the frame's width (cqw).
  shape(rows, cols) {
    if (rows === this.rows && cols === this.cols) return;
    this.finish();
    Object.assign(this, { rows, cols });
    this.pitch = 100 / (cols + (cols + 1) * GAP);
    const frame = this.board.parentElement;
    frame?.style.setProperty("--rows", rows);
    frame?.style.setProperty("--cols", cols);
    this.values = Array(rows * cols).fill(0);
    this.cells = this.values.map(() => {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.setAttribute("role", "img");
      cell.dataset.value = 0;
      return cell;
    });
    this.board.replaceChildren(...this.cells);
    this.relabel();
  }

  // Where the tile of `cell` (row-major) stands: the border, then a cell and a gap per step.
  at(cell) {
    const step = (n) => `${(GAP + n * (1 + GAP)) * this.pitch}cqw`;
    return `translate(${step(cell % this.cols)}, ${step(Math.floor(cell / this.cols))})`;
  }

  get busy() {
    return this.settle !== null;
  }

  // Show `board` (its rows) at once; `pop` cells (row-major) appear with the new-tile animation.
  draw(board, pop = []) {
    this.finish();
    this.shape(board.length, board[0].length);
    this.paint(board.flat(), pop, []);
  }

  paint(values, pop, grow) {
    values.forEach((value, i) => {
      const effect = pop.includes(i) ? "pop" : grow.includes(i) ? "grow" : "";
      if (value === this.values[i] && !effect) return;
      const cell = this.cells[i];
      this.values[i] = value;
      cell.dataset.value = value;
      cell.setAttribute("aria-label", this.label(value));
      cell.replaceChildren(...(value ? [tile(value, effect)] : []));
    });
  }

  // The cell whose slot holds the viewport point (x, y), or -1 (a gap, the border, elsewhere).
  cellAt(x, y) {
    return this.cells.findIndex((cell) => {
      const r = cell.getBoundingClientRect();
      return x >= r.left && x < r.right && y >= r.top && y < r.bottom;
    });
  }

  relabel() {
    this.cells.forEach((cell, i) => cell.setAttribute("aria-label", this.label(this.values[i])));
  }

  // Slide by the server's forecast of a move, before its answer comes.
  slideAhead(before, slides) {
    if (reducedMotion.matches) return;
    this.finish();
    this.slide(before, slides);
    this.ahead = `${slides}`;
    this.settle = () => this.end();
  }

  slide(before, slides) {
    this.board.classList.add("sliding");
    this.start = performance.now();
    for (const [from, to] of slides) {
      const ghost = tile(before[from], "ghost");
      this.fx.append(ghost);
      ghost.animate([{ transform: this.at(from) }, { transform: this.at(to) }], {
        duration: SLIDE_MS,
        easing: "ease-in-out",
        fill: "forwards",
      });
    }
  }

  end() {
    this.settle = this.ahead = null;
    this.fx.replaceChildren();
    this.board.classList.remove("sliding");
  }

  // Animate a legal move from `before` to the answer's board; resolves once the board has settled.
  // A slide started ahead runs on if its slides are the answer's, else gives way to them.
  animate(before, answer) {
    const ahead = this.ahead === `${answer.slides}`;
    this.ahead = null;
    if (!ahead) this.finish();
    const after = answer.state.board.flat();
    const pop = answer.spawn ? [answer.spawn.cell] : [];
    if (reducedMotion.matches) {
      this.paint(after, [], []);
      return Promise.resolve();
    }
    if (!ahead) this.slide(before, answer.slides);
    this.paint(after, [], []);
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.finish(), SLIDE_MS + this.start - performance.now());
      this.settle = () => {
        clearTimeout(timer);
        this.end();
        this.paint(after, pop, answer.merges);
        resolve();
      };
    });
  }

  // A slide started ahead that no answer took up (refused, unreachable): back to the board.
  drop() {
    if (this.ahead) this.finish();
  }

  // Jump to the end of a running slide (the next answer arrived first).
  finish() {
    if (this.settle) this.settle();
  }

  // A refused move: a small shake instead of silence.
  nudge() {
    if (reducedMotion.matches) return;
    // Scripted rather than a CSS class: restarting a class animation needs a forced layout.
    this.board.animate(
      { transform: ["none", "translateX(-4px)", "translateX(4px)", "none"], offset: [0, 0.25, 0.75, 1], easing: "ease" },
      160,
    );
  }

  // The solver's advice under the board (autoplay.js draws it) goes with the position it was for.
  clearHint() {
    this.hints.hidden = true;
  }

  get hintShown() {
    return !this.hints.hidden;
  }
}
