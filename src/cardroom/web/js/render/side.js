/** The side column: scores and the move log. */
import { h } from "../dom.js";
import { describe } from "./log.js";

export function renderSide(model) {
  return h("aside", { class: "side", "aria-label": "Scores and moves" }, scoreboard(model), moveLog(model));
}

function scoreboard(model) {
  const match = model.match;
  const v = model.view;
  if (!match || !v) return null;
  const target = v.options.match_target;
  const rows = [];
  for (let seat = 0; seat < v.players; seat += 1) {
    rows.push(h("tr", { class: seat === v.current && !v.result ? "current" : "" },
      h("th", { scope: "row" }, model.name(seat), model.partner === seat ? " (partner)" : ""),
      h("td", {}, String(v.stock_counts[seat])),
      h("td", {}, String(model.scores[seat] ?? 0))));
  }
  return h("section", { class: "scores" },
    h("h2", {}, `Round ${model.round}`, h("small", {}, target ? ` · first to ${target}` : " · single round")),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Stock"), h("th", { scope: "col" }, "Points"))),
      h("tbody", {}, rows)));
}

function moveLog(model) {
  const lines = [];
  for (const event of model.log) {
    const text = describe(event, model);
    if (text && event.kind !== "turn") lines.push(h("li", { class: `log-${event.kind}` }, text));
  }
  // A scrolling list: focusable, so the keyboard can scroll it too.
  const list = h("ul", { class: "log", "aria-label": "Moves so far", tabindex: "0" }, lines.slice(-40));
  const details = h("details", { class: "log-box", open: window.matchMedia("(width >= 900px)").matches },
    h("summary", {}, "Move log"), list);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return details;
}
