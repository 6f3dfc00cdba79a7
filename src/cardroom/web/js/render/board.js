/**
 * The playing area of a running round, drawn from the model and the UI state:
 * other players, the building piles, this seat's stock, discard piles and hand.
 * Every place a card can come from has data-src, every place it can go has data-dst, so the
 * click, drag and keyboard handlers (and the tests) share one vocabulary.
 */
import { t } from "../i18n.js";
import { h } from "../dom.js";
import { backEl, cardEl, cardLabel, describeCards, fanEl, slotEl } from "./cards.js";
import { backClass, badgeEl, badgesFor, modeOf } from "../badges.js";
import { sameSelection, targetKey } from "../moves.js";
import { ruleLink } from "../rule-link.js";

/** ui: {selection, targets: Set of target keys (assist), movable: Set of source keys, busy, peek} */
export function renderBoard(model, ui) {
  const v = model.view;
  const me = model.mySeat;
  const others = [];
  for (let i = 1; i <= v.players; i += 1) {
    const seat = me === null ? i - 1 : (me + i) % v.players;
    if (seat !== me) others.push(seat);
  }
  const board = h("section", {
    class: "board skip-board",
    id: "board",
    "aria-label": t("board.table"),
    "data-others": others.length,
    "data-sides": others.length >= SIDES_FROM,
    "data-my-turn": model.myTurn ? "true" : "false",
    "data-current": v.current,
    "data-legal": JSON.stringify(model.legal),
    "data-seq": model.seq ?? "",
    "data-selected": ui.selection ? JSON.stringify(ui.selection) : "",
  });
  const [left, top, right] = aroundTheTable(others);
  const group = (seats, where) => h("div", { class: `others-${where}` }, seats.map((s) => seatPanel(model, ui, s, others.indexOf(s))));
  board.append(
    h("div", { class: "others", role: "list", "aria-label": t("board.others") },
      group(left, "left"), group(top, "top"), group(right, "right")),
    centre(model, ui),
  );
  if (me !== null) board.append(myArea(model, ui, me), handRow(model, ui));
  if (ui.peek) board.append(peekPanel(model, ui.peek));
  return board;
}

const SIDES_FROM = 4; // other players from which the sides of the table are used (wide screens)

/**
 * Where the other players sit, in turn order from the one after you: up the left side, along
 * the top, down the right side (a wide screen shows the sides; a narrow one lists them all
 * above the middle, in the same order).
 */
export function aroundTheTable(others) {
  const k = others.length;
  const side = k >= 6 ? 2 : k >= SIDES_FROM ? 1 : 0;
  return [others.slice(0, side).reverse(), others.slice(side, k - side), others.slice(k - side)];
}

function seatPanel(model, ui, seat, turnOrder) {
  const v = model.view;
  const info = model.seatInfo(seat);
  const isPartner = model.partner === seat;
  const current = v.current === seat && !v.result;
  const top = v.stock_tops[seat];
  const count = v.stock_counts[seat];
  const inHand = v.hand_counts[seat];
  const badges = [];
  if (isPartner) badges.push(h("span", { class: "badge partner" }, t("lobby.partner")));
  else if (v.partners && model.mySeat !== null) badges.push(h("span", { class: "badge" }, t("board.opponent")));
  else if (v.partners) badges.push(h("span", { class: "badge" }, t("board.team", { n: Math.min(seat, v.partners[seat]) + 1 })));
  if (info?.bot) badges.push(h("span", { class: "badge bot" }, t("board.bot")));
  if (info?.away) badges.push(h("span", { class: "badge warn" }, t("board.away")));
  if (info?.autopilot) badges.push(h("span", { class: "badge warn" }, t("board.autopilot")));
  if (info && !info.bot && !info.connected) badges.push(h("span", { class: "badge warn" }, t("board.offline")));

  const look = lookOf(model, seat);
  const stockAttrs = { class: `pile stock${backClass(look)}`, "data-key": `stock-${seat}` };
  const stockLabel = top === null ? t("board.stock", { count }) : t("board.stock_top", { count, top: cardLabel(top) });
  let stock;
  if (isPartner) {
    stock = h("button", { ...sourceAttrs(ui, { from: "partner_stock" }), ...stockAttrs, type: "button" },
      said(t("board.partners", { what: stockLabel })), under(count), top === null ? slotEl("") : cardEl(top), countBadge(count));
  } else {
    stock = h("div", { ...stockAttrs, role: "img", "aria-label": t("board.whose", { name: model.name(seat), what: stockLabel }) },
      under(count), top === null ? slotEl("") : cardEl(top), countBadge(count));
  }
  const discards = v.discards[seat].map((pile, index) => {
    const n = index + 1;
    const pileLabel = t("board.discard_pile", { n, cards: describeCards(pile) });
    const label = isPartner ? t("board.partners", { what: pileLabel }) : t("board.whose", { name: model.name(seat), what: pileLabel });
    const attrs = { class: "pile discard", "data-key": `discard-${seat}-${n}`, "data-pile": n };
    const long = pile.length >= LONG_PILE;
    if (!isPartner) return h("div", { ...attrs, role: "img", "aria-label": label }, fanEl(pile));
    const partnerTarget = model.view.options.team_discards;
    return h("div", { class: "discard-slot" },
      h("button", {
        ...attrs,
        ...sourceAttrs(ui, { from: "partner_discard", pile: n }),
        ...(partnerTarget ? targetAttrs(ui, { to: "partner_discard", pile: n }) : {}),
        type: "button",
      }, said(label), fanEl(pile)),
      long ? peekChip(ui, seat, n, pile.length, label) : null);
  });
  // Nobody plays from another player's piles: when one is long, pressing them opens them all.
  const anyLong = !isPartner && v.discards[seat].some((pile) => pile.length >= LONG_PILE);
  const body = anyLong
    ? h("button", { type: "button", class: "seat-body mini peekable", "data-peek": seat, "aria-expanded": String(ui.peek?.seat === seat) },
      said(t("board.piles_peek", { name: model.name(seat), stock: stockLabel, piles: v.discards[seat].map((p, i) => t("board.discard_pile", { n: i + 1, cards: describeCards(p) })).join("; ") })),
      stock, h("div", { class: "discards" }, discards))
    : h("div", { class: "seat-body mini" }, stock, h("div", { class: "discards" }, discards));
  return h("article", {
    class: `seat-panel${current ? " current" : ""}${isPartner ? " is-partner" : ""}`,
    role: "listitem",
    style: `--turn:${turnOrder}`,
    "data-seat": seat,
    "aria-label": t(current ? "board.seat_now" : "board.seat", { name: model.name(seat), stock: stockLabel, count: inHand }),
  },
  h("header", {},
    h("span", { class: "seat-name" }, model.name(seat)),
    badgeEl(look),
    badges,
    scoreBadge(model, seat),
    h("span", { class: "hand-count", "data-key": `hand-${seat}`, title: t("board.in_hand"), "aria-hidden": "true" },
      h("span", { class: "hand-icon" }), String(inHand)),
    current ? h("span", { class: "turn-dot", "aria-hidden": "true" }, "▶") : null,
    current ? h("span", { class: "timer", "data-timer": "" }) : null),
  body);
}

/** A discard pile at least this long is compressed on the table and can be opened in full. */
export const LONG_PILE = 6;

function peekChip(ui, seat, pile, count, label) {
  return h("button", { type: "button", class: "peek-chip", "data-peek": seat,
    "aria-expanded": String(ui.peek?.seat === seat) },
  said(t("board.peek", { label, count })), h("span", { "aria-hidden": "true" }, t("board.all", { count })));
}

/** A player's discard piles shown in full, bottom card first (on demand; Esc closes it). */
function peekPanel(model, peek) {
  const piles = model.view.discards[peek.seat];
  if (!piles) return null;
  const title = peek.seat === model.mySeat ? t("board.peek_title_me") : t("board.peek_title", { name: model.name(peek.seat) });
  return h("div", { class: "peek", id: "peek", role: "dialog", "aria-modal": "false", "aria-labelledby": "peek-title" },
    h("div", { class: "peek-head" },
      h("h2", { id: "peek-title" }, title),
      h("button", { type: "button", class: "btn small", "data-peek-close": "" }, t("common.close"))),
    piles.map((pile, index) => h("div", { class: "peek-pile", "data-pile": index + 1 },
      h("span", { class: "peek-label" }, `${index + 1} · ${pile.length}`),
      h("ol", { class: "peek-cards", "aria-label": t("board.discard_pile", { n: index + 1, cards: describeCards(pile) }) },
        pile.map((card) => h("li", {}, cardEl(card)))))));
}

function centre(model, ui) {
  const v = model.view;
  const builds = v.building.map((pile, index) => {
    const n = index + 1;
    const top = pile.cards.at(-1);
    const needs = pile.next;
    const label = top === undefined ? t("board.build_empty", { n })
      : t("board.build", { n, card: top === "W" ? t("log.wild_as", { card: cardLabel(top), value: pile.value }) : cardLabel(top), needs });
    return h("button", {
      type: "button",
      class: "pile build",
      "data-key": `build-${n}`,
      ...targetAttrs(ui, { to: "build", pile: n }),
    },
    said(label),
    top === undefined ? slotEl(t("board.slot_build")) : cardEl(top, { as: pile.value }),
    h("span", { class: "needs", "aria-hidden": "true" }, h("small", {}, `${t("board.next")} `), h("b", {}, needs)));
  });
  return h("div", { class: "centre", "aria-label": t("board.middle") },
    h("div", { class: "pile draw", "data-key": "draw", "aria-label": t("sk.draw_pile", { count: v.draw_count }) },
      backEl("SKIP"), h("span", { class: "caption" }, t("board.draw_caption", { count: v.draw_count }))),
    h("div", { class: "builds", role: "group", "aria-label": t("board.builds") }, builds),
    h("div", { class: "pile completed", "aria-label": t("board.completed", { count: v.completed_count }) },
      v.completed_count ? backEl("✓") : slotEl(""), h("span", { class: "caption" }, t("board.done_caption", { count: v.completed_count }))));
}

function myArea(model, ui, me) {
  const v = model.view;
  const top = v.stock_tops[me];
  const count = v.stock_counts[me];
  const handChosen = ui.selection?.from === "hand";
  const stock = h("button", {
    type: "button",
    class: `pile stock mine${backClass(lookOf(model, me))}`,
    "data-key": `stock-${me}`,
    ...sourceAttrs(ui, { from: "stock" }),
  }, said(t("board.your", { what: top === null ? t("board.stock", { count }) : t("board.stock_top", { count, top: cardLabel(top) }) })),
  under(count), top === null ? slotEl(t("board.empty")) : cardEl(top), countBadge(count));
  const discards = v.discards[me].map((pile, index) => {
    const n = index + 1;
    const label = t("board.your", { what: t("board.discard_pile", { n, cards: describeCards(pile) }) });
    return h("div", { class: "discard-slot" },
      h("button", {
        type: "button",
        class: `pile discard mine${handChosen ? " ends-turn" : ""}`,
        "data-key": `discard-${me}-${n}`,
        "data-pile": n,
        ...sourceAttrs(ui, { from: "discard", pile: n }),
        ...targetAttrs(ui, { to: "discard", pile: n }),
      }, said(handChosen ? t("board.discard_here", { label }) : label), fanEl(pile), handChosen ? h("span", { class: "end-mark", "aria-hidden": "true" }, "⏎") : null),
      handChosen ? null
        : pile.length >= LONG_PILE ? peekChip(ui, me, n, pile.length, label)
          : h("span", { class: "caption", "aria-hidden": "true" }, t("board.discard_caption", { n })));
  });
  return h("div", { class: `mine-area${model.myTurn ? " my-turn" : ""}`, "aria-label": t("board.your_piles") },
    h("div", { class: "stock-wrap" }, stock, h("span", { class: "caption" }, t("board.stock_caption")), scoreBadge(model, me)),
    h("div", { class: "discard-area" },
      h("div", { class: "my-discards", role: "group", "aria-label": t("board.your_discards") }, discards),
      handChosen ? h("p", { class: "end-hint", id: "end-hint" }, `⚠ ${t("board.ends_turn")}`) : null));
}

function handRow(model, ui) {
  const hand = model.view.hand || [];
  const pass = model.legal.some((a) => a.type === "pass");
  return h("div", { class: "hand-row" },
    h("div", { class: "hand", role: "group", "aria-label": t("board.hand", { cards: describeCards(hand) }) },
      hand.map((card, index) => h("button", {
        type: "button",
        class: "hand-card",
        "data-key": `hand-me-${index}`,
        ...sourceAttrs(ui, { from: "hand", card, index }),
      }, said(t("board.hand_card", { n: index + 1, card: cardLabel(card) })), cardEl(card)))),
    pass ? h("button", { type: "button", class: "btn primary", "data-action": "pass" }, t("board.pass")) : null,
    h("p", { class: "refusal", id: "refusal", role: "alert", hidden: !ui.refusal },
      ui.refusal ? [h("b", {}, ui.refusal.rule ? ruleLink(ui.refusal.rule) : ui.refusal.code), " ", ui.refusal.message] : null));
}

/**
 * A control's name, said by hidden words rather than an aria-label, so what shows (a card's
 * number, "next 4") and what is said never disagree (axe: label-content-name-mismatch).
 */
function said(text) {
  return h("span", { class: "sr-only" }, text);
}

function sourceAttrs(ui, sel) {
  const attrs = { "data-src": sel.from };
  if (sel.card !== undefined) attrs["data-card"] = String(sel.card);
  if (sel.index !== undefined) attrs["data-index"] = sel.index;
  if (sel.pile !== undefined) attrs["data-pile"] = sel.pile;
  const classes = [];
  if (sameSelection(ui.selection, sel)) {
    classes.push("selected");
    attrs["aria-pressed"] = "true";
  }
  if (ui.movable?.has(sourceKey(sel))) classes.push("can-move");
  if (classes.length) attrs["data-state"] = classes.join(" ");
  if (ui.hint?.from === sourceKey(sel)) attrs["data-hint"] = "from";
  return attrs;
}

function targetAttrs(ui, target) {
  const attrs = { "data-dst": target.to, "data-pile": target.pile };
  if (ui.targets?.has(targetKey(target))) attrs["data-legal-target"] = "true";
  if (ui.hint?.to === targetKey(target)) attrs["data-hint"] = "to";
  return attrs;
}

export function sourceKey(sel) {
  return sel.from === "hand" ? `hand-${sel.index}` : `${sel.from}-${sel.pile ?? 0}`;
}

function countBadge(count) {
  return h("span", { class: "count", "aria-hidden": "true" }, String(count));
}

function scoreBadge(model, seat) {
  const scores = model.scores;
  if (scores[seat] === undefined) return null;
  return h("span", { class: "score", title: t("board.match_points") }, t("sk.points", { count: scores[seat] }));
}

/** A seat's division badge and card back (js/badges.js), once read. */
function lookOf(model, seat) {
  const table = model.table;
  const id = model.seatInfo(seat)?.player?.id;
  if (!table || !id) return null;
  return badgesFor(table.game || "skip", modeOf(table), table.seats.map((s) => s.player?.id))[id] || null;
}

/** The stock under its top card: a card back in the owner's chosen design. */
function under(count) {
  return count > 1 ? h("span", { class: "card back stock-under", "aria-hidden": "true" }) : null;
}
