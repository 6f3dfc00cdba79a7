/** The side column of a Skyjo table: totals (lowest wins), what each grid shows, the log. */
import { h } from "../../dom.js";
import { num, t } from "../../i18n.js";
import { visibleSum } from "./cards.js";
import { scoreSheet } from "./sheet.js";

export function renderSide(model, describe) {
  return h("aside", { class: "side", "aria-label": t("side.label") }, scoreboard(model), sheet(model), moveLog(model, describe));
}

function scoreboard(model) {
  const v = model.view;
  if (!model.match || !v) return null;
  const rows = [];
  for (let seat = 0; seat < v.players; seat += 1) {
    rows.push(h("tr", { class: seat === v.current && !v.result ? "current" : "" },
      h("th", { scope: "row" }, model.name(seat), v.closer === seat ? " ⚑" : ""),
      h("td", {}, num(visibleSum(v.grids[seat]))),
      h("td", {}, num(model.scores[seat] ?? 0))));
  }
  return h("section", { class: "scores" },
    h("h2", {}, t("side.round", { n: model.round }), h("small", {}, ` · ${t("sk.side.to", { end: v.end_score ?? v.options?.end_score ?? 100 })}`)),
    h("table", {},
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("keeper.player")), h("th", { scope: "col", title: t("sk.side.shows_title") }, t("sk.side.shows")), h("th", { scope: "col" }, t("keeper.total")))),
      h("tbody", {}, rows)));
}

/** Every round's points so far (open on a wide screen, a tap away on a phone). */
function sheet(model) {
  const table = scoreSheet(model, "side-sheet");
  if (!table) return null;
  return h("details", { class: "sheet-box", open: window.matchMedia("(width >= 900px)").matches },
    h("summary", {}, t("sk.sheet.title")), table);
}

function moveLog(model, describe) {
  const lines = [];
  for (const event of model.log) {
    const text = describe(event);
    if (text && event.kind !== "turn" && event.kind !== "drew") lines.push(h("li", { class: `log-${event.kind}` }, text));
  }
  // A scrolling list: focusable, so the keyboard can scroll it too.
  const list = h("ul", { class: "log", "aria-label": t("side.moves"), tabindex: "0" }, lines.slice(-40));
  const details = h("details", { class: "log-box", open: window.matchMedia("(width >= 900px)").matches },
    h("summary", {}, t("side.log")), list);
  requestAnimationFrame(() => { list.scrollTop = list.scrollHeight; });
  return details;
}
