/** A rating's history as an inline SVG chart in the page's own colours and words: the rating
 * players are ranked by (μ − 3σ) as a line over the band of the skill μ ± 3σ, match by match.
 * No library, no image: it follows the theme and the reader's language. */
import { num, t } from "/js/i18n.js";

const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const child of children) el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return el;
}

/** Round numbers between `low` and `high`, about five of them. */
function ticks(low, high) {
  const raw = (high - low) / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) || power * 10;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) out.push(Number(v.toFixed(6)));
  return out;
}

/** The chart of `points` ({match, mu, sigma, rating}, oldest first); a sentence when empty. */
export function ratingChart(points, modeName) {
  const label = t("profile.chart.label", { mode: modeName });
  if (!points.length) {
    const empty = document.createElement("p");
    empty.className = "note rating-chart-empty";
    empty.textContent = t("profile.chart.empty");
    return empty;
  }
  const W = 360, H = 200, left = 36, right = 10, top = 12, bottom = 34;
  const lows = points.map((p) => p.mu - 3 * p.sigma);
  const highs = points.map((p) => p.mu + 3 * p.sigma);
  let low = Math.min(...lows);
  let high = Math.max(...highs);
  if (high - low < 4) high = low + 4;
  const first = points[0].match;
  const last = points[points.length - 1].match;
  const span = Math.max(1, last - first);
  const x = (m) => left + ((m - first) / span) * (W - left - right);
  const y = (v) => top + (1 - (v - low) / (high - low)) * (H - top - bottom);
  const chart = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "rating-chart", role: "img", "aria-label": label });
  for (const v of ticks(low, high)) {
    chart.append(svg("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: "grid" }));
    chart.append(svg("text", { x: left - 5, y: y(v) + 4, class: "tick", "text-anchor": "end" }, num(v)));
  }
  for (const m of [first, last].filter((m, i, all) => all.indexOf(m) === i)) {
    chart.append(svg("text", { x: x(m), y: H - bottom + 14, class: "tick", "text-anchor": m === first ? "start" : "end" }, num(m)));
  }
  chart.append(svg("text", { x: (left + W - right) / 2, y: H - 4, class: "axis", "text-anchor": "middle" }, t("profile.chart.x")));
  const band = [...points.map((p, i) => `${x(p.match)},${y(highs[i])}`), ...points.map((p, i) => `${x(p.match)},${y(lows[i])}`).reverse()];
  chart.append(svg("polygon", { points: band.join(" "), class: "band" }));
  const line = (values, cls) => svg("polyline", { points: points.map((p, i) => `${x(p.match)},${y(values[i])}`).join(" "), class: cls });
  chart.append(line(points.map((p) => p.mu), "mu"), line(points.map((p) => p.rating), "rating"));
  const figure = document.createElement("figure");
  figure.className = "rating-figure";
  const caption = document.createElement("figcaption");
  caption.className = "note";
  caption.append(
    Object.assign(document.createElement("span"), { className: "key rating", textContent: t("profile.chart.rating") }), " ",
    Object.assign(document.createElement("span"), { className: "key mu", textContent: t("profile.chart.skill") }));
  figure.append(chart, caption);
  return figure;
}
