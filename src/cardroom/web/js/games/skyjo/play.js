/**
 * How a Skyjo table is played here. A turn is two steps (S2): draw a card (or choose the
 * discard pile's top), then put it on one of your cards — or discard the drawn card and turn
 * a face-down one. Clicks, taps, drags and keys become `reveal`, `draw`, `take`, `exchange`
 * and `discard` actions; whether one is allowed is read from the server's `legal` list alone.
 *
 * The selection (kept by the table screen) is null, {pick: "take"} (the discard's top chosen)
 * or {pick: "toss"} (the drawn card is going to the discard pile).
 */
import { enableDrag } from "../../dnd.js";
import { fly, shake } from "../../anim.js";
import { renderBoard } from "./board.js";
import { t } from "../../i18n.js";
import { renderSide } from "./side.js";
import { matchResult, roundSummary } from "./overlays.js";
import { describe } from "./log.js";
import { skyjoCard } from "./cards.js";

const GRID_KEYS = ["qwer", "asdf", "zxcv"]; // rows 1-3, columns 1-4, as the cards lie

export class SkyjoPlay {
  constructor(screen) {
    this.screen = screen;
    this.zoomed = null; // the other seat whose grid is shown larger (a tap on a small grid)
    this.undrag = enableDrag(screen.root, {
      selectionOf: (el) => this.dragSelection(el),
      start: (sel) => (sel.pick === "take" ? this.screen.select(sel) : null),
      drop: (sel, target) => this.drop(sel, target),
    });
  }

  get model() {
    return this.screen.model;
  }

  destroy() {
    this.undrag?.();
  }

  // -- what can be done now -------------------------------------------------------------------

  legal(type, col = null, row = null) {
    return this.model.legal.some((a) => a.type === type && (col === null || (a.column === col && a.row === row)));
  }

  /** The action a click on my card at (col, row) means now, or a hint why it means nothing. */
  cellAction(col, row) {
    const v = this.model.view;
    const pick = this.screen.selection?.pick;
    const at = { column: col, row };
    if (v.phase === "reveal") return { action: { type: "reveal", ...at }, refuse: { rule: "S1.2", message: t("sk.refuse.face_down") } };
    if (!v.holding) {
      if (pick === "take") return { action: { type: "take", ...at }, refuse: { rule: "S2.1", message: t("sk.refuse.no_card") } };
      return { action: null, refuse: { rule: "S2", message: t("sk.refuse.draw_first") } };
    }
    if (pick === "toss") return { action: { type: "discard", ...at }, refuse: { rule: "S2.2", message: t("sk.refuse.already_up") } };
    return { action: { type: "exchange", ...at }, refuse: { rule: "S2.2", message: t("sk.refuse.no_card") } };
  }

  uiState() {
    const m = this.model;
    const v = m.view;
    const s = this.screen;
    const pick = s.selection?.pick;
    const ui = { selection: s.selection, refusal: s.refusal, cells: new Set(), buttons: [], prompt: "", cellHint: "",
      hint: hintSpots(s.currentHint?.()?.action, m.mySeat), zoomed: this.zoomed };
    const mine = m.myTurn;
    ui.canDraw = mine && this.legal("draw");
    ui.canTake = mine && !v.holding && this.legal("take");
    ui.canToss = mine && v.holding && this.legal("discard");
    if (mine) {
      for (const a of m.legal) {
        const wanted = v.phase === "reveal" ? "reveal" : !v.holding ? (pick === "take" ? "take" : null) : pick === "toss" ? "discard" : "exchange";
        if (a.type === wanted) ui.cells.add(`${a.column}-${a.row}`);
      }
    }
    const top = v.discard_top;
    if (v.result) ui.prompt = t("refusal.round_over");
    else if (!mine) {
      const name = m.name(v.current);
      ui.prompt = v.phase === "reveal" ? t("sk.prompt.reveal_other", { name })
        : t(v.holding ? "sk.prompt.playing_holding" : "sk.prompt.playing", { name });
    } else if (v.phase === "reveal") {
      const left = v.reveals_left?.[m.mySeat] ?? 0;
      ui.prompt = t("sk.prompt.reveal", { count: left });
      ui.cellHint = t("sk.hint.turn");
    } else if (!v.holding && pick === "take") {
      ui.prompt = t("sk.prompt.put", { card: top });
      ui.cellHint = t("sk.hint.exchange", { card: top });
      ui.buttons.push({ action: "cancel", label: t("common.cancel") });
    } else if (!v.holding) {
      ui.prompt = t("sk.prompt.draw_or_take");
      if (ui.canDraw) ui.buttons.push({ action: "draw", label: t("sk.button.draw"), primary: true });
      if (ui.canTake) ui.buttons.push({ action: "take", label: t("sk.button.take", { card: top }) });
    } else if (pick === "toss") {
      ui.prompt = t("sk.prompt.toss", { card: v.drawn });
      ui.cellHint = t("sk.hint.turn");
      ui.buttons.push({ action: "cancel", label: t("sk.button.keep") });
    } else {
      ui.prompt = t("sk.prompt.drew", { card: v.drawn });
      ui.cellHint = t("sk.hint.exchange", { card: v.drawn });
      if (ui.canToss) ui.buttons.push({ action: "toss", label: t("sk.button.toss") });
    }
    return ui;
  }

  keepSelectionValid() {
    const s = this.screen;
    const pick = s.selection?.pick;
    if (!pick) return;
    const v = this.model.view;
    if (!v || !this.model.myTurn) s.selection = null;
    else if (pick === "take" && (v.holding || !this.legal("take"))) s.selection = null;
    else if (pick === "toss" && !v.holding) s.selection = null;
  }

  // -- drawing --------------------------------------------------------------------------------

  board() {
    return renderBoard(this.model, this.uiState());
  }

  side() {
    return renderSide(this.model, (event) => this.describe(event));
  }

  roundSummary(detail, secondsLeft) {
    return roundSummary(this.model, detail, secondsLeft);
  }

  matchResult(detail, actions) {
    return matchResult(this.model, detail, actions, (event) => this.describe(event));
  }

  describe(event) {
    return describe(event, this.model);
  }

  sound(event) {
    return { took: "play", exchanged: "play", revealed: "play", discarded: "discard", column_removed: "complete" }[event.kind] || null;
  }

  beforeChange() {
    return null;
  }

  /** Cards fly from where they were (the `before` rects) to where they are; a cleared
   * column's three cards fly to the discard pile and fade; turned cards flip. */
  animate(events, before) {
    const root = this.screen.root;
    const q = (key) => root.querySelector(`[data-key="${key}"]`);
    const cellKey = (seat, d) => `cell-${seat}-${d.column}-${d.row}`;
    for (const event of events) {
      const d = event.detail || {};
      const seat = event.seat;
      if (event.kind === "took" || event.kind === "exchanged") {
        const to = q(cellKey(seat, d));
        if (to) fly(to, before.get(event.kind === "took" ? "sk-discard" : "sk-drawn") || before.get("sk-draw"), to);
        const pile = q("sk-discard")?.querySelector(".sk-card");
        if (pile) fly(pile, before.get(cellKey(seat, d)), pile);
      } else if (event.kind === "discarded") {
        const pile = q("sk-discard")?.querySelector(".sk-card");
        if (pile) fly(pile, before.get("sk-drawn") || before.get("sk-draw"), pile);
        flip(q(cellKey(seat, d)));
      } else if (event.kind === "revealed") {
        flip(q(cellKey(seat, d)));
      } else if (event.kind === "turned_up") {
        for (const el of root.querySelectorAll(`[data-seat="${seat}"] .sk-card[data-value]`)) flip(el);
      } else if (event.kind === "column_removed") {
        const pile = q("sk-discard");
        for (let row = 1; row <= 3; row += 1) vanish(d.card, before.get(`cell-${seat}-${d.column}-${row}`), pile);
      }
    }
  }

  refused(target) {
    if (target) shake(this.screen.root.querySelector(`[data-key="${target}"]`));
  }

  // -- clicks, drags, keys --------------------------------------------------------------------

  onClick(e) {
    const s = this.screen;
    const zoom = e.target.closest("[data-sk-zoom]");
    if (zoom) {
      const seat = Number(zoom.dataset.skZoom);
      this.zoomed = this.zoomed === seat ? null : seat;
      return s.render();
    }
    const button = e.target.closest("[data-sk-action]");
    if (button) return this.command(button.dataset.skAction);
    const el = e.target.closest("[data-sk]");
    if (!el || !this.model.myTurn) return;
    const role = el.dataset.sk;
    if (role === "draw") return this.command("draw");
    if (role === "discard") return this.command(this.model.view.holding ? "toss" : "take");
    if (role === "drawn") return s.select(null);
    if (role === "cell") return this.onCell(el);
  }

  command(name) {
    const s = this.screen;
    const pick = s.selection?.pick;
    if (name === "cancel") return s.select(null);
    if (name === "draw") {
      if (this.legal("draw")) return s.send({ type: "draw" }, "sk-draw");
      return this.hint("sk-draw", { rule: "S2", message: t(this.model.view.holding ? "sk.refuse.holding" : "sk.refuse.cannot_draw") });
    }
    if (name === "take") {
      if (this.legal("take")) return s.select(pick === "take" ? null : { pick: "take" });
      return this.hint("sk-discard", { rule: "S2.1", message: t("sk.refuse.cannot_take") });
    }
    if (name === "toss") {
      if (this.legal("discard")) return s.select(pick === "toss" ? null : { pick: "toss" });
      return this.hint("sk-discard", { rule: "S2.2", message: t("sk.refuse.none_down") });
    }
    return undefined;
  }

  onCell(el) {
    const col = Number(el.dataset.col);
    const row = Number(el.dataset.row);
    const { action, refuse } = this.cellAction(col, row);
    if (action && this.legal(action.type, col, row)) return this.screen.send(action, el.dataset.key);
    return this.hint(el.dataset.key, refuse);
  }

  hint(key, refusal) {
    const s = this.screen;
    s.refusal = { code: "hint", ...refusal };
    s.render();
    shake(s.root.querySelector(`[data-key="${key}"]`));
  }

  dragSelection(el) {
    if (!this.model.myTurn) return null;
    if (el.dataset.src === "discard" && this.legal("take")) return { pick: "take" };
    if (el.dataset.src === "drawn") return { pick: "drawn" };
    return null;
  }

  drop(sel, target) {
    const s = this.screen;
    if (!target) return s.render();
    if (target.dataset.dst === "discard" && sel.pick === "drawn") return this.command("toss");
    if (target.dataset.dst !== "cell") return s.render();
    s.selection = sel.pick === "take" ? sel : null;
    return this.onCell(target);
  }

  /** Where the keyboard's focus goes when the element it was on is gone (the draw pile once a
   * card is drawn, a removed column): the card drawn, else the draw pile, else your grid. */
  focusHome() {
    const root = this.screen.root;
    return root.querySelector('button[data-sk="drawn"]') ?? root.querySelector('button[data-sk="draw"]')
      ?? root.querySelector('.sk-seat.mine button[data-sk="cell"]');
  }

  onKey(key) {
    const row = GRID_KEYS.findIndex((keys) => keys.includes(key));
    let el = null;
    const root = this.screen.root;
    if (row >= 0) el = root.querySelector(`.sk-seat.mine [data-col="${GRID_KEYS[row].indexOf(key) + 1}"][data-row="${row + 1}"]`);
    else if (key === "n") el = root.querySelector('[data-sk="draw"]');
    else if (key === "b") el = root.querySelector('[data-sk="discard"]');
    if (!el) return false;
    el.click();
    el.focus?.({ preventScroll: true });
    return true;
  }
}

function reduced() {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** A card turning face up. */
function flip(el) {
  if (!el || reduced()) return;
  el.animate([{ transform: "rotateY(90deg)", filter: "brightness(.6)" }, { transform: "none", filter: "none" }], { duration: 260, easing: "ease-out" });
}

/** A removed card leaving its place for the discard pile (S3.1). */
function vanish(value, from, toEl) {
  if (!from || !toEl || reduced()) return;
  const end = toEl.getBoundingClientRect();
  const ghost = skyjoCard(value, { classes: "flying sk-vanish" });
  Object.assign(ghost.style, { position: "fixed", left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px`, margin: 0, zIndex: 50, pointerEvents: "none" });
  document.body.append(ghost);
  const dx = end.left - from.left;
  const dy = end.top - from.top;
  const anim = ghost.animate([
    { transform: "none", opacity: 1, boxShadow: "0 0 0 4px #ffcf4a" },
    { transform: "scale(1.15)", opacity: 1, offset: 0.35, boxShadow: "0 0 18px 6px #ffcf4a" },
    { transform: `translate(${dx}px, ${dy}px) scale(.6)`, opacity: 0 },
  ], { duration: 700, easing: "ease-in" });
  anim.onfinish = anim.oncancel = () => ghost.remove();
}


/** Where a hint's action is shown (R7.6): the pile or card it takes (`from`) and the place of
 * the grid it goes to (`to`), as board keys. */
function hintSpots(action, seat) {
  if (!action || seat === null) return null;
  const cell = action.column ? `cell-${seat}-${action.column}-${action.row}` : null;
  const from = { draw: "sk-draw", take: "sk-discard", exchange: "sk-drawn", discard: "sk-drawn" }[action.type] ?? null;
  return { from, to: cell };
}
