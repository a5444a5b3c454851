// Draws the board the server describes and animates what a move did: tiles slide from source to
// destination (the server's slides), then merged tiles grow and the new tile pops in. Nothing here
// decides a move; the cells always hold the server's latest board in data-value.

const SLIDE_MS = 100;
export const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

function tile(value, effect) {
  const el = document.createElement("span");
  el.className = effect ? `tile ${effect}` : "tile";
  el.dataset.v = value;
  el.style.setProperty("--d", String(value).length); // sizes the text
  if (value > 99999) el.classList.add("huge");
  el.textContent = value;
  return el;
}

// A tile's place in tile widths: the border, then a slot and a gap a step (--gap).
const at = (cell, cols) => `translate(${14.12 + (cell % cols) * 114.12}%, ${14.12 + Math.floor(cell / cols) * 114.12}%)`;

export class BoardView {
  constructor(frame, label) {
    this.board = frame.querySelector("#board");
    this.fx = frame.querySelector("#fx");
    this.hints = document.getElementById("hints");
    this.label = label; // value -> the cell's aria-label
    this.settle = null; // ends the running slide early
    this.ahead = null; // a slide started from a forecast, waiting for its answer
    this.shape(4, 4); // till a board comes
  }

  // R x C empty cells (the frame's --rows, --cols).
  shape(rows, cols) {
    if (cols === this.cols && rows * cols === this.values.length) return;
    Object.assign(this, { cols, values: Array(rows * cols).fill(0) });
    this.board.parentElement.style.cssText = `--rows:${rows};--cols:${cols}`;
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

  get busy() {
    return this.settle !== null;
  }

  // Show `board` (rows) at once; `pop` cells (row-major) appear with the new-tile animation.
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
      ghost.animate([{ transform: at(from, this.cols) }, { transform: at(to, this.cols) }], {
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
