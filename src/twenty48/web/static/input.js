// Keyboard and swipe input, turned into calls on a handler object:
//   move(direction, repeat), undo(repeat), newGame(), key() -> true when the key was used up
//   (auto-play stops on any key).
// Letter keys are matched by position (event.code), so WASD and hjkl sit where the player expects
// on any keyboard layout, also with a Japanese or Chinese input method switched on.

const ARROW_KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
const LETTERS = {
  KeyW: "up", KeyS: "down", KeyA: "left", KeyD: "right",
  KeyK: "up", KeyJ: "down", KeyH: "left", KeyL: "right",
};
const SWIPE_PX = 25;

function typing(target) {
  return target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName));
}

export function bindKeys(handler) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.isComposing || typing(event.target)) return;
    if (document.querySelector("dialog[open]")) return;
    const command = event.ctrlKey || event.metaKey;
    if (command && !event.altKey && !event.shiftKey && event.code === "KeyZ") {
      event.preventDefault();
      if (!handler.key()) handler.undo(event.repeat);
      return;
    }
    if (handler.key()) return;
    // Shortcuts with modifiers belong to the browser and the system.
    if (command || event.altKey || event.shiftKey) return;
    const direction = ARROW_KEYS[event.key] || LETTERS[event.code];
    if (direction) {
      event.preventDefault();
      handler.move(direction, event.repeat);
    } else if (event.code === "KeyU") {
      handler.undo(event.repeat);
    } else if (event.code === "KeyN" && !event.repeat) {
      handler.newGame();
    }
  });
}

// A swipe: pointer down, pointer up at least 25 px away on one axis; the longer axis decides
// (|dy| >= |dx| is vertical). A second finger voids the gesture until every finger has lifted.
// onSwipe(direction, start) gets where the gesture began ({x, y}, viewport pixels).
export function bindSwipe(element, onSwipe) {
  const down = new Set();
  let start = null;
  element.addEventListener("pointerdown", (event) => {
    // A press on a control (the banner's buttons) is a click, not the start of a swipe.
    if ((event.pointerType === "mouse" && event.button !== 0) || event.target.closest("button")) return;
    down.add(event.pointerId);
    start = down.size === 1 ? { id: event.pointerId, x: event.clientX, y: event.clientY } : null;
    if (start) element.setPointerCapture(event.pointerId);
  });
  const lift = (event) => {
    if (!down.delete(event.pointerId)) return;
    const gesture = start;
    start = null;
    if (!gesture || gesture.id !== event.pointerId || event.type === "pointercancel") return;
    const dx = event.clientX - gesture.x;
    const dy = event.clientY - gesture.y;
    if (Math.max(Math.abs(dx), Math.abs(dy)) < SWIPE_PX) return;
    onSwipe(Math.abs(dy) >= Math.abs(dx) ? (dy > 0 ? "down" : "up") : dx > 0 ? "right" : "left", gesture);
  };
  element.addEventListener("pointerup", lift);
  element.addEventListener("pointercancel", lift);
}
