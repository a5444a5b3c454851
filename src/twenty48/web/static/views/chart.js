// Small SVG charts drawn by the page itself (no library, nothing fetched). Each chart is a <figure>:
// the picture, hidden from screen readers, and a table of the same numbers behind it, which a
// screen reader reads and anyone can open. Colours come from views.css, so both themes apply.

import { element } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320;
const HEIGHT = 160;
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };

function svg(tag, attrs = {}, text = "") {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
  if (text) el.textContent = text;
  return el;
}

// rows: [[label, value text], ...] under the two headings.
function dataTable(caption, headings, rows) {
  const table = element("table", { class: "data" });
  table.append(element("caption", {}, caption));
  const head = element("tr");
  for (const heading of headings) head.append(element("th", { scope: "col" }, heading));
  table.appendChild(element("thead")).append(head);
  const body = table.appendChild(element("tbody"));
  for (const [label, value] of rows) {
    const row = body.appendChild(element("tr"));
    row.append(element("th", { scope: "row" }, label), element("td", {}, value));
  }
  return table;
}

function figure(kind, title, picture, table, tableLabel) {
  const fig = element("figure", { class: `chart ${kind}` });
  fig.append(element("figcaption", {}, title), picture);
  const details = fig.appendChild(element("details"));
  details.append(element("summary", {}, tableLabel), table);
  return fig;
}

// A y axis from 0 to `top` with three grid lines, labelled by `format`.
function axis(plot, top, format) {
  const inner = HEIGHT - PAD.top - PAD.bottom;
  for (const share of [0, 0.5, 1]) {
    const y = PAD.top + inner * (1 - share);
    plot.append(svg("line", { class: "grid", x1: PAD.left, x2: WIDTH - PAD.right, y1: y, y2: y }));
    plot.append(svg("text", { class: "tick", x: PAD.left - 4, y: y + 4, "text-anchor": "end" }, format(top * share)));
  }
}

function canvas() {
  return svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, "aria-hidden": "true", focusable: "false" });
}

/**
 * Bars, one per label. `values` are numbers; `format` writes a value for the axis and the table;
 * `top` fixes the axis maximum (a rate's 1), otherwise the largest value sets it.
 * `text` = {title, table, label, value}: the caption, the table's summary and its two headings.
 */
export function barChart({ labels, values, format, top, text }) {
  const plot = canvas();
  const max = top ?? Math.max(1, ...values);
  axis(plot, max, format);
  const inner = HEIGHT - PAD.top - PAD.bottom;
  const slot = (WIDTH - PAD.left - PAD.right) / Math.max(1, labels.length);
  labels.forEach((label, i) => {
    const height = (inner * values[i]) / max;
    const x = PAD.left + slot * i + slot * 0.15;
    plot.append(svg("rect", { class: "bar", x, y: PAD.top + inner - height, width: slot * 0.7, height }));
    plot.append(svg("text", { class: "tick", x: x + slot * 0.35, y: HEIGHT - 6, "text-anchor": "middle" }, label));
  });
  const rows = labels.map((label, i) => [label, format(values[i])]);
  return figure("bars", text.title, plot, dataTable(text.title, [text.label, text.value], rows), text.table);
}

// Room above the plot for a flag's name.
const FLAG_ROOM = 12;

// A point of note named above it: a dashed line from above the plot down to the point, the name at
// its top, in room the picture gains above the plot (kept inside it sideways).
function flagPoint(plot, point, label) {
  const [x, y] = point.split(",").map(Number);
  plot.setAttribute("viewBox", `0 ${-FLAG_ROOM} ${WIDTH} ${HEIGHT + FLAG_ROOM}`);
  plot.append(svg("line", { class: "flag", x1: x, x2: x, y1: PAD.top - FLAG_ROOM + 2, y2: y }));
  plot.append(svg("circle", { class: "flag-point", cx: x, cy: y, r: 2.5 }));
  const room = (WIDTH - PAD.left - PAD.right) / 4;
  const anchor = x < PAD.left + room ? "start" : x > WIDTH - PAD.right - room ? "end" : "middle";
  const shift = anchor === "start" ? 3 : anchor === "end" ? -3 : 0;
  const top = PAD.top - FLAG_ROOM + 1;
  plot.append(svg("text", { class: "flag-label", x: x + shift, y: top, "text-anchor": anchor }, label));
}

/**
 * A line through `values` in order (oldest first), for the recent scores and a review's chance;
 * `text` as for barChart. Optional: `top` fixes the axis maximum, `labels` name the points in the
 * table (1, 2, ... otherwise), `marks` ([{index, kind}]) ring points of note (a review's mistakes),
 * `flag` ({index, label}) marks one point and names it above it (a review's turning point).
 */
export function lineChart({ values, format, text, top, labels, marks = [], flag = null }) {
  const plot = canvas();
  const max = top ?? Math.max(1, ...values);
  axis(plot, max, format);
  const inner = HEIGHT - PAD.top - PAD.bottom;
  const step = (WIDTH - PAD.left - PAD.right) / Math.max(1, values.length - 1);
  const points = values.map((value, i) => `${PAD.left + step * i},${PAD.top + inner * (1 - value / max)}`);
  if (values.length > 1) plot.append(svg("polyline", { class: "line", points: points.join(" ") }));
  for (const point of values.length === 1 ? points : []) {
    const [cx, cy] = point.split(",");
    plot.append(svg("circle", { class: "dot", cx, cy, r: 3 }));
  }
  // The flag first, so that a ring on the same point stays in sight.
  if (flag) flagPoint(plot, points[flag.index], flag.label);
  for (const { index, kind } of marks) {
    const [cx, cy] = points[index].split(",");
    plot.append(svg("circle", { class: `mark ${kind}`, cx, cy, r: 3.5 }));
  }
  const rows = values.map((value, i) => [labels ? labels[i] : String(i + 1), format(value)]);
  return figure("line", text.title, plot, dataTable(text.title, [text.label, text.value], rows), text.table);
}
