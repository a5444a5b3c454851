// The board sizes the page offers, as the server writes them ("3x4": 3 rows of 4), 4x4 the default,
// and a size as a player reads it ("3×4"). Loaded with the new-game dialog and the views, not with
// the first board, which reads its size off the board it is sent.

export const SIZES = ["2x4", "3x3", "3x4", "4x4", "5x5", "6x6"];
export const sizeName = (size) => size.replace("x", "×");
