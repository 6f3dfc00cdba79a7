/** The side column of a Skyjo table: totals (lowest wins), what each grid shows, the log. */
import { h } from "../../dom.js";
import { visibleSum } from "./cards.js";

export function renderSide(model, describe) {
  return h("aside", { class: "side", "aria-label": "Scores and moves" }, scoreboard(model), moveLog(model, describe));
}

function scoreboard(model) {
  const v = model.view;
  if (!model.match || !v) return null;
  const rows = [];
  for (let seat = 0; seat < v.players; seat += 1) {
    rows.push(h("tr", { class: seat === v.current && !v.result ? "current" : "" },
      h("th", { scope: "row" }, model.name(seat), v.closer === seat ? " ⚑" : ""),
      h("td", {}, String(visibleSum(v.grids[seat]))),
      h("td", {}, String(model.scores[seat] ?? 0))));
  }
  return h("section", { class: "scores" },
    h("h2", {}, `Round ${model.round}`, h("small", {}, ` · to ${v.end_score ?? v.options?.end_score ?? 100}, lowest wins`)),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), h("th", { scope: "col", title: "sum of the face-up cards" }, "Shows"), h("th", { scope: "col" }, "Total"))),
      h("tbody", {}, rows)));
}

function moveLog(model, describe) {
  const lines = [];
  for (const event of model.log) {
    const text = describe(event);
    if (text && event.kind !== "turn" && event.kind !== "drew") lines.push(h("li", { class: `log-${event.kind}` }, text));
  }
  // A scrolling list: focusable, so the keyboard can scroll it too.
  const list = h("ul", { class: "log", "aria-label": "Moves so far", tabindex: "0" }, lines.slice(-40));
  const details = h("details", { class: "log-box", open: window.matchMedia("(width >= 900px)").matches },
    h("summary", {}, "Move log"), list);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return details;
}
