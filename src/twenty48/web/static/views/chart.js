// Small SVG charts drawn by the page itself (no library, nothing fetched). Each chart is a <figure>:
// the picture, hidden from screen readers, and a table of the same numbers behind it, which a
// screen reader reads and anyone can open. Colours come from views.css, so both themes apply.
// A chart is drawn at its figure's own width, in CSS pixels (and again when that width changes), so
// it takes the content's width while its text and marks keep their size; its axis climbs in round
// steps, and marks or labels that would overlap at that width are merged or left out.

import { element } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 320; // until the figure has a width of its own
const HEIGHT = 160;
const PAD = { left: 44, right: 8, top: 10, bottom: 22 };
const MARK_R = 3.5;
// A label's width per character at the ticks' 9 px (digits are narrower; this errs on the wide side).
const CHAR_PX = 6;
// Marks of one kind outrank another's where they merge.
const SEVERITY = { blunder: 2, mistake: 1 };

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

// `draw(plot, width)` fills an empty picture `width` pixels wide.
function figure(kind, title, draw, table, tableLabel) {
  const fig = element("figure", { class: `chart ${kind}` });
  const picture = (width) => {
    const plot = svg("svg", { viewBox: `0 0 ${width} ${HEIGHT}`, "aria-hidden": "true", focusable: "false", "data-width": width });
    draw(plot, width);
    return plot;
  };
  let shown = picture(WIDTH);
  fig.append(element("figcaption", {}, title), shown);
  const details = fig.appendChild(element("details"));
  details.append(element("summary", {}, tableLabel), table);
  new ResizeObserver(([entry]) => {
    const width = Math.round(entry.contentRect.width);
    if (width <= PAD.left + PAD.right || String(width) === shown.dataset.width) return;
    const next = picture(width);
    shown.replaceWith(next);
    shown = next;
  }).observe(fig);
  return fig;
}

// From 0 in round steps (1, 2 or 5 times a power of ten, whole numbers for whole values) to the
// first step at or above `max`, in four steps or fewer.
function scale(max, whole) {
  const rough = Math.max(max, Number.MIN_VALUE) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(whole ? 1 : 0, [1, 2, 5, 10].map((k) => k * power).find((s) => s >= rough));
  return { step, top: Math.max(step, Math.ceil(max / step - 1e-9) * step) };
}

// The y axis of `scaled` with a grid line per step, labelled by `format`.
function axis(plot, width, { step, top }, format) {
  const inner = HEIGHT - PAD.top - PAD.bottom;
  for (let i = 0; i * step <= top + 1e-9; i += 1) {
    const y = PAD.top + inner * (1 - (i * step) / top);
    plot.append(svg("line", { class: "grid", x1: PAD.left, x2: width - PAD.right, y1: y, y2: y }));
    plot.append(svg("text", { class: "tick", x: PAD.left - 4, y: y + 4, "text-anchor": "end" }, format(i * step)));
  }
}

const whole = (values) => values.every(Number.isInteger);

// Room above the plot for a flag's name.
const FLAG_ROOM = 12;

// A point of note named above it: a dashed line from above the plot down to the point, the name at
// its top, in room the picture gains above the plot (kept inside it sideways).
function flagPoint(plot, width, { x, y }, label) {
  plot.setAttribute("viewBox", `0 ${-FLAG_ROOM} ${width} ${HEIGHT + FLAG_ROOM}`);
  plot.append(svg("line", { class: "flag", x1: x, x2: x, y1: PAD.top - FLAG_ROOM + 2, y2: y }));
  plot.append(svg("circle", { class: "flag-point", cx: x, cy: y, r: 2.5 }));
  const room = (width - PAD.left - PAD.right) / 4;
  const anchor = x < PAD.left + room ? "start" : x > width - PAD.right - room ? "end" : "middle";
  const shift = anchor === "start" ? 3 : anchor === "end" ? -3 : 0;
  const top = PAD.top - FLAG_ROOM + 1;
  plot.append(svg("text", { class: "flag-label", x: x + shift, y: top, "text-anchor": anchor }, label));
}

/**
 * Bars, one per label. `values` are numbers; `format` writes a value for the axis and the table;
 * `top` fixes the axis maximum (a rate's 1), otherwise the largest value sets it.
 * `text` = {title, table, label, value}: the caption, the table's summary and its two headings.
 */
export function barChart({ labels, values, format, top, text }) {
  const scaled = scale(top ?? Math.max(1, ...values), whole(values));
  const draw = (plot, width) => {
    axis(plot, width, scaled, format);
    const inner = HEIGHT - PAD.top - PAD.bottom;
    const slot = (width - PAD.left - PAD.right) / Math.max(1, labels.length);
    const names = [];
    labels.forEach((label, i) => {
      const height = (inner * values[i]) / scaled.top;
      const x = PAD.left + slot * i + slot * 0.15;
      plot.append(svg("rect", { class: "bar", x, y: PAD.top + inner - height, width: slot * 0.7, height }));
      names.push({ x: x + slot * 0.35, label });
    });
    // Every bar keeps its label where the labels fit side by side; where they do not, every other
    // bar, every third, and so on (the table has them all).
    const room = (name) => name.label.length * CHAR_PX + 4;
    const fits = (list) => list.every((name, i) => i === 0 || name.x - room(name) / 2 >= list[i - 1].x + room(list[i - 1]) / 2);
    let every = 1;
    const shown = () => names.filter((_, i) => i % every === 0);
    while (!fits(shown())) every += 1;
    for (const { x, label } of shown()) {
      plot.append(svg("text", { class: "tick", x, y: HEIGHT - 6, "text-anchor": "middle" }, label));
    }
  };
  const rows = labels.map((label, i) => [label, format(values[i])]);
  return figure("bars", text.title, draw, dataTable(text.title, [text.label, text.value], rows), text.table);
}

/**
 * A line through `values` in order (oldest first), for the recent scores and a review's chance;
 * `text` as for barChart. Optional: `top` fixes the axis maximum, `labels` name the points in the
 * table (1, 2, ... otherwise), `marks` ([{index, kind}]) ring points of note (a review's mistakes):
 * rings that would overlap merge into one, of the most severe kind among them; `flag` ({index,
 * label}) marks one point and names it above it (a review's turning point).
 */
export function lineChart({ values, format, text, top, labels, marks = [], flag = null }) {
  const scaled = scale(top ?? Math.max(1, ...values), whole(values));
  const draw = (plot, width) => {
    axis(plot, width, scaled, format);
    const inner = HEIGHT - PAD.top - PAD.bottom;
    const step = (width - PAD.left - PAD.right) / Math.max(1, values.length - 1);
    const point = (i) => ({ x: PAD.left + step * i, y: PAD.top + inner * (1 - values[i] / scaled.top) });
    const points = values.map((_, i) => point(i));
    if (values.length > 1) plot.append(svg("polyline", { class: "line", points: points.map(({ x, y }) => `${x},${y}`).join(" ") }));
    if (values.length === 1) plot.append(svg("circle", { class: "dot", cx: points[0].x, cy: points[0].y, r: 3 }));
    // The flag first, so that a ring on the same point stays in sight.
    if (flag) flagPoint(plot, width, points[flag.index], flag.label);
    // The most severe first, so that of a crowd the kept ring is its worst.
    const ringed = marks
      .map(({ index, kind }) => ({ ...points[index], kind }))
      .sort((a, b) => (SEVERITY[b.kind] ?? 0) - (SEVERITY[a.kind] ?? 0) || a.x - b.x);
    const kept = [];
    for (const mark of ringed) {
      if (kept.every((other) => Math.hypot(mark.x - other.x, mark.y - other.y) >= 2 * MARK_R + 1)) kept.push(mark);
    }
    for (const { x, y, kind } of kept) plot.append(svg("circle", { class: `mark ${kind}`, cx: x, cy: y, r: MARK_R }));
  };
  const rows = values.map((value, i) => [labels ? labels[i] : String(i + 1), format(value)]);
  return figure("line", text.title, draw, dataTable(text.title, [text.label, text.value], rows), text.table);
}
