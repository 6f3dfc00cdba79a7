/**
 * A Skyjo round on screen: every other player's grid (small), the draw pile, the drawn card and
 * the discard pile in the middle, this seat's grid (large), a line saying what to do now and,
 * after someone has turned their last card, the "last turns" banner (S4.1).
 * Places that take a click carry data-sk ("draw", "discard", "drawn", "cell"); the click, drag,
 * keyboard handlers (play.js) and the browser tests share that vocabulary.
 */
import { h } from "../../dom.js";
import { num, t } from "../../i18n.js";
import { ruleLink } from "../../rule-link.js";
import { HIDDEN, cellLabel, hiddenCount, skyjoCard, visibleSum } from "./cards.js";

/** ui: {selection, refusal, cells: Set of "col-row" a click may act on now, prompt, buttons} */
export function renderBoard(model, ui) {
  const v = model.view;
  const me = model.mySeat;
  const others = [];
  for (let i = 1; i <= v.players; i += 1) {
    const seat = me === null ? i - 1 : (me + i) % v.players;
    if (seat !== me) others.push(seat);
  }
  const board = h("section", {
    class: `board sk-board others-${others.length}`,
    id: "board",
    "aria-label": t("table.unnamed", { game: "Skyjo" }),
    "data-game": "skyjo",
    "data-my-turn": model.myTurn ? "true" : "false",
    "data-current": v.current,
    "data-phase": v.phase,
    "data-holding": v.holding ? "true" : "false",
    "data-legal": JSON.stringify(model.legal),
    "data-seq": model.seq ?? "",
    "data-selected": ui.selection ? JSON.stringify(ui.selection) : "",
  });
  const banner = lastTurns(model);
  if (banner) board.append(banner);
  board.append(
    h("div", { class: "sk-others", role: "list", "aria-label": t("board.others") }, others.map((s) => seatGrid(model, ui, s, false))),
    centre(model, ui));
  if (me !== null) board.append(prompt(model, ui), seatGrid(model, ui, me, true));
  board.append(h("p", { class: "refusal", id: "refusal", role: "alert", hidden: !ui.refusal },
    ui.refusal ? [h("b", {}, ui.refusal.rule ? ruleLink(ui.refusal.rule) : t("board.hint")), " ", ui.refusal.message] : null));
  return board;
}

function lastTurns(model) {
  const v = model.view;
  if (v.closer === null || v.closer === undefined || v.result) return null;
  const who = model.name(v.closer);
  const text = v.closer === model.mySeat ? t("sk.last.me")
    : t(model.mySeat === null ? "sk.last.watching" : "sk.last.you_play", { name: who });
  return h("p", { class: "sk-banner last-turns", id: "last-turns", role: "status" }, "⚑ ", text);
}

function seatGrid(model, ui, seat, mine) {
  const v = model.view;
  const info = model.seatInfo(seat);
  const grid = v.grids[seat];
  const current = v.current === seat && !v.result;
  const badges = [];
  if (!mine && info?.bot) badges.push(h("span", { class: "badge bot" }, t("board.bot")));
  if (info?.away) badges.push(h("span", { class: "badge warn" }, t("board.away")));
  if (info?.autopilot) badges.push(h("span", { class: "badge warn" }, t("board.autopilot")));
  if (info && !info.bot && !info.connected && !mine) badges.push(h("span", { class: "badge warn" }, t("board.offline")));
  if (v.closer === seat) badges.push(h("span", { class: "badge closer", title: t("sk.closed_title") }, t("sk.closed")));
  const shows = visibleSum(grid);
  const down = hiddenCount(grid);
  const total = model.scores[seat] ?? 0;
  const cells = [];
  for (let row = 0; row < 3; row += 1) {
    for (let col = 0; col < 4; col += 1) cells.push(cell(model, ui, seat, col, row, mine));
  }
  const holdingHere = current && v.holding && !mine;
  // Small grids (three others or more) grow on a tap, one at a time: the name is the button.
  const zoomable = !mine && v.players > 3;
  const zoomed = zoomable && ui.zoomed === seat;
  const name = mine ? t("common.you") : model.name(seat);
  return h(mine ? "section" : "article", {
    class: `sk-seat${mine ? " mine" : ""}${current ? " current" : ""}${zoomed ? " zoomed" : ""}`,
    role: mine ? null : "listitem",
    "data-seat": seat,
    "data-sk-zoom": zoomable ? seat : null,
    "aria-label": t(current ? "sk.grid_label_now" : "sk.grid_label", { name: mine ? t("sk.your_grid") : model.name(seat), shows, down, total }),
  },
  h("header", {},
    h("span", { class: "sk-who" },
      zoomable
        ? h("button", { type: "button", class: "seat-name sk-zoom", "data-key": `zoom-${seat}`, "aria-pressed": String(zoomed),
          "aria-label": t("sk.zoom_in", { name }), title: t(zoomed ? "sk.zoom_out" : "sk.zoom_in", { name }) }, name)
        : h("span", { class: "seat-name" }, name),
      badges),
    h("span", { class: "sk-line" },
      h("span", { class: "sk-shows", title: t("sk.side.shows_title") }, t("sk.shows", { sum: num(shows) })),
      h("span", { class: "score", title: t("sk.total_title") }, t("sk.seat_total", { count: num(total) })),
      current ? h("span", { class: "turn-dot", "aria-hidden": "true" }, "▶") : null,
      current ? h("span", { class: "timer", "data-timer": "" }) : null,
      holdingHere ? h("span", { class: "sk-holding", "data-key": `holding-${seat}`, title: t("sk.holding_title") }, skyjoCard(HIDDEN), ` ${t("sk.drew_short")}`) : null)),
  h("div", { class: "sk-grid", role: mine ? "group" : null, "aria-label": mine ? t("sk.your_cards") : null }, cells));
}

function cell(model, ui, seat, col, row, mine) {
  const value = model.view.grids[seat][col][row];
  const key = `cell-${seat}-${col + 1}-${row + 1}`;
  const place = t("sk.at", { column: col + 1, row: row + 1 });
  if (!mine) return skyjoCard(value, { attrs: { "data-key": key, "data-col": col + 1, "data-row": row + 1, title: `${place}: ${cellLabel(value)}` } });
  if (value === null) return skyjoCard(null, { attrs: { "data-key": key, "data-col": col + 1, "data-row": row + 1, role: "img", "aria-label": `${place}: ${t("sk.removed")}` } });
  const live = ui.cells.has(`${col + 1}-${row + 1}`);
  return skyjoCard(value, {
    tag: "button",
    classes: live ? "live" : "",
    attrs: {
      type: "button",
      "data-hint": hinted(ui, key),
      "data-sk": "cell",
      "data-dst": "cell",
      "data-key": key,
      "data-col": col + 1,
      "data-row": row + 1,
    },
    said: `${place}: ${cellLabel(value)}${live && ui.cellHint ? `. ${ui.cellHint}` : ""}`,
  });
}

function centre(model, ui) {
  const v = model.view;
  const mineHolding = v.drawn !== null && v.drawn !== undefined;
  const canDraw = ui.canDraw;
  const selected = ui.selection?.pick;
  const draw = h(canDraw ? "button" : "div", {
    type: canDraw ? "button" : null,
    class: `sk-pile draw${canDraw ? " live" : ""}`,
    "data-sk": "draw",
    "data-key": "sk-draw",
    "data-hint": hinted(ui, "sk-draw"),
    id: "sk-draw",
  }, h("span", { class: "sr-only" }, t(canDraw ? "sk.draw_pile_live" : "sk.draw_pile", { count: v.draw_count })), skyjoCard(HIDDEN), h("span", { class: "count", "aria-hidden": "true" }, String(v.draw_count)), h("span", { class: "caption", "aria-hidden": "true" }, t("sk.caption.draw")));
  let drawn = null;
  const tossing = mineHolding && selected === "toss";
  if (tossing) {
    // On its way to the discard pile: shown there, its place here left empty.
    drawn = h("div", { class: "sk-drawn", id: "sk-drawn" },
      skyjoCard(null, { attrs: { "data-key": "sk-drawn" } }),
      h("span", { class: "caption" }, t("sk.caption.you_drew")));
  } else if (mineHolding) {
    drawn = h("div", { class: "sk-drawn", id: "sk-drawn" },
      skyjoCard(v.drawn, {
        tag: "button",
        classes: selected === "toss" ? "" : "selected",
        attrs: { type: "button", "data-sk": "drawn", "data-src": "drawn", "data-key": "sk-drawn", "data-hint": hinted(ui, "sk-drawn") },
        said: t("sk.drawn_said", { card: v.drawn }),
      }),
      h("span", { class: "caption" }, t("sk.caption.you_drew")));
  } else if (v.holding) {
    drawn = h("div", { class: "sk-drawn other", "aria-label": t("sk.holds", { name: model.name(v.current) }) },
      skyjoCard(HIDDEN, { attrs: { "data-key": "sk-drawn" } }), h("span", { class: "caption" }, t("sk.caption.drew", { name: model.name(v.current) })));
  }
  const canTake = ui.canTake;
  const canToss = ui.canToss;
  const live = canTake || canToss;
  const top = tossing ? v.drawn : v.discard_top;
  const discard = h(live ? "button" : "div", {
    type: live ? "button" : null,
    class: `sk-pile discard${live ? " live" : ""}${selected === "take" || selected === "toss" ? " selected" : ""}`,
    "data-sk": "discard",
    "data-src": canTake ? "discard" : null,
    "data-dst": canToss ? "discard" : null,
    "data-key": "sk-discard",
    "data-hint": hinted(ui, "sk-discard"),
    id: "sk-discard",
    "aria-pressed": live ? String(selected === "take" || selected === "toss") : null,
  }, h("span", { class: "sr-only" }, [t(top === null ? "sk.discard_empty" : "sk.discard_top", { top, count: v.discard_count }), canTake ? t("sk.discard_take") : canToss ? t("sk.discard_toss") : ""].join("")),
  top === null ? skyjoCard(null) : skyjoCard(top), h("span", { class: "count", "aria-hidden": "true" }, String(v.discard_count)),
  h("span", { class: "caption", "aria-hidden": "true" }, t(selected === "toss" ? "sk.caption.discarding" : selected === "take" ? "sk.caption.taking" : "sk.caption.discard")));
  return h("div", { class: "sk-centre", "aria-label": t("board.middle") }, draw, drawn, discard);
}

/** "from" or "to" where a hint (R7.6) marks this place, else null. */
function hinted(ui, key) {
  if (ui.hint?.to === key) return "to";
  return ui.hint?.from === key ? "from" : null;
}

function prompt(model, ui) {
  return h("div", { class: `sk-prompt${model.myTurn ? " my-turn" : ""}`, id: "sk-prompt", role: "status" },
    h("span", { class: "sk-say" }, ui.prompt),
    ui.buttons.map((b) => h("button", { type: "button", class: `btn small${b.primary ? " primary" : ""}`, "data-sk-action": b.action }, b.label)));
}
