/** The totals by round as an inline SVG line chart, one line per player, with the game's end
 * (Skyjo's end score, Skip's match target) as a dashed line. No library, no network. */

import { t } from "/js/i18n.js";

const NS = "http://www.w3.org/2000/svg";
export const COLORS = ["#ffcf4a", "#5ec8ff", "#ff7a8a", "#7be0a8", "#c79bff", "#ff9f43", "#f3f1ea", "#3ddbd9"];

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

/** One line per entry of `lines` ({seat, name}: partners share one, their totals being
 * one); `results.rounds[i].totals` by name; `goal`: the end score or target (null: none),
 * drawn once a total comes within half of it, so early rounds are not flattened. */
export function totalsChart(lines, results, goal) {
  const W = 340, H = 190, left = 34, right = 10, top = 18, bottom = 24;
  const rounds = results.rounds;
  const series = lines.map((line) => [0, ...rounds.map((r) => r.totals[line.name])]);
  const values = series.flat();
  if (goal !== null && Math.max(...values) < goal / 2) goal = null;
  let low = Math.min(0, ...values);
  let high = Math.max(1, ...values, goal ?? 0);
  if (high - low < 10) high = low + 10;
  const n = Math.max(1, rounds.length);
  const x = (i) => left + (i / n) * (W - left - right);
  const y = (v) => top + (1 - (v - low) / (high - low)) * (H - top - bottom);
  const chart = svg("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": t("keeper.chart.label", { count: rounds.length }),
  });
  for (const v of ticks(low, high)) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: left - 5, y: y(v) + 4, class: "tick", "text-anchor": "end" }, v));
  }
  const step = Math.max(1, Math.ceil(n / 10));
  for (let i = 0; i <= n; i += step) {
    chart.append(svg("text", { x: x(i), y: H - 6, class: "tick", "text-anchor": "middle" }, i));
  }
  if (goal !== null && goal !== undefined) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(goal), y2: y(goal), class: "goal" }));
    chart.append(svg("text", { x: left + 4, y: y(goal) - 5, class: "tick goal-label", "text-anchor": "start" }, t("keeper.chart.goal", { goal })));
  }
  series.forEach((points, i) => {
    const color = COLORS[lines[i].seat % COLORS.length];
    const path = points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    chart.append(svg("polyline", { points: path, fill: "none", stroke: color, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    points.forEach((v, i) => {
      if (i) chart.append(svg("circle", { cx: x(i), cy: y(v), r: 3, fill: color }));
    });
  });
  return chart;
}

function ticks(low, high) {
  const span = high - low;
  const raw = span / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw);
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high; v += step) out.push(v);
  return out;
}
