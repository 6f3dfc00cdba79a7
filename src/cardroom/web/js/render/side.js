/** The side column: scores and the move log. */
import { h } from "../dom.js";
import { num, t } from "../i18n.js";
import { describe } from "./log.js";

export function renderSide(model) {
  return h("aside", { class: "side", "aria-label": t("side.label") }, scoreboard(model), moveLog(model));
}

function scoreboard(model) {
  const match = model.match;
  const v = model.view;
  if (!match || !v) return null;
  const target = v.options.match_target;
  const rows = [];
  for (let seat = 0; seat < v.players; seat += 1) {
    rows.push(h("tr", { class: seat === v.current && !v.result ? "current" : "" },
      h("th", { scope: "row" }, model.partner === seat ? t("side.partner", { name: model.name(seat) }) : model.name(seat)),
      h("td", {}, String(v.stock_counts[seat])),
      h("td", {}, num(model.scores[seat] ?? 0))));
  }
  return h("section", { class: "scores" },
    h("h2", {}, t("side.round", { n: model.round }), h("small", {}, ` · ${target ? t("side.first_to", { target }) : t("side.single")}`)),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("keeper.player")), h("th", { scope: "col" }, t("side.stock")), h("th", { scope: "col" }, t("side.points")))),
      h("tbody", {}, rows)));
}

function moveLog(model) {
  const lines = [];
  for (const event of model.log) {
    const text = describe(event, model);
    if (text && event.kind !== "turn") lines.push(h("li", { class: `log-${event.kind}` }, text));
  }
  // A scrolling list: focusable, so the keyboard can scroll it too.
  const list = h("ul", { class: "log", "aria-label": t("side.moves"), tabindex: "0" }, lines.slice(-40));
  const details = h("details", { class: "log-box", open: window.matchMedia("(width >= 900px)").matches },
    h("summary", {}, t("side.log")), list);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return details;
}
