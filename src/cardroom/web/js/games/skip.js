/**
 * How a Skip table is drawn and played: the board, the side column and the overlays of
 * js/render/, and clicks, drags and keys turned into `play`/`discard`/`pass` actions. The
 * server's `legal` list is the only rule book; the table screen (js/table.js) does the rest.
 */
import { t } from "../i18n.js";
import { enableDrag } from "../dnd.js";
import { burst, fly, shake } from "../anim.js";
import { actionFor, canPlay, legalTargets, sameSelection, targetKey } from "../moves.js";
import { renderBoard, sourceKey } from "../render/board.js";
import { renderSide } from "../render/side.js";
import { matchResult, roundSummary } from "../render/overlays.js";
import { describe } from "../render/log.js";

export class SkipPlay {
  constructor(screen) {
    this.screen = screen;
    this.lastClick = null;
    this.peek = null; // a long discard pile opened in full: {seat, pile}
    this.undrag = enableDrag(screen.root, {
      selectionOf: (el) => (this.model.myTurn ? this.selectionFromEl(el) : null),
      start: (sel) => this.select(sel),
      drop: (sel, target) => (target ? this.moveTo(sel, target) : screen.render()),
    });
  }

  get model() {
    return this.screen.model;
  }

  destroy() {
    this.undrag?.();
  }

  // -- drawing --------------------------------------------------------------------------------

  board() {
    return renderBoard(this.model, this.uiState());
  }

  side() {
    return renderSide(this.model);
  }

  roundSummary(detail, secondsLeft) {
    return roundSummary(this.model, detail, secondsLeft);
  }

  matchResult(detail, actions) {
    return matchResult(this.model, detail, actions);
  }

  describe(event) {
    return describe(event, this.model);
  }

  sound(event) {
    return { played: "play", discarded: "discard", completed: "complete" }[event.kind] || null;
  }

  uiState() {
    const m = this.model;
    const s = this.screen;
    const assist = !!m.view.options?.assist;
    const hint = s.currentHint?.();
    const ui = { selection: s.selection, refusal: s.refusal, targets: new Set(), movable: new Set(), peek: this.peek,
      hint: hint?.action ? hintSpots(hint.action, m.view.hand || []) : null };
    if (assist && m.myTurn) {
      if (s.selection) for (const t of legalTargets(s.selection, m.legal)) ui.targets.add(targetKey(t));
      for (const sel of this.allSources()) if (canPlay(sel, m.legal)) ui.movable.add(sourceKey(sel));
    }
    return ui;
  }

  allSources() {
    const v = this.model.view;
    const out = [{ from: "stock" }];
    (v.hand || []).forEach((card, index) => out.push({ from: "hand", card, index }));
    for (let pile = 1; pile <= 4; pile += 1) out.push({ from: "discard", pile });
    if (this.model.partner !== null) {
      out.push({ from: "partner_stock" });
      for (let pile = 1; pile <= 4; pile += 1) out.push({ from: "partner_discard", pile });
    }
    return out;
  }

  keepSelectionValid() {
    this.lastClick = null; // a double click never spans a change of the table
    const s = this.screen;
    const sel = s.selection;
    if (!sel) return;
    const v = this.model.view;
    if (!v || this.model.mySeat === null) s.selection = null;
    else if (sel.from === "hand" && v.hand?.[sel.index] !== sel.card) s.selection = null;
  }

  // -- animation ------------------------------------------------------------------------------

  /** Where the hand cards were before a change (cards move by value, not by key). */
  beforeChange() {
    return [...this.screen.root.querySelectorAll('[data-src="hand"]')].map((el) => ({ card: el.dataset.card, rect: el.getBoundingClientRect() }));
  }

  animate(events, before, handBefore) {
    const v = this.model.view;
    if (!v) return;
    const root = this.screen.root;
    const me = this.model.mySeat;
    const fromRect = (seat, source, pile, card) => {
      const partner = v.partners ? v.partners[seat] : null;
      if (source === "hand") {
        if (seat === me) return handBefore.find((x) => x.card === String(card))?.rect;
        return before.get(`hand-${seat}`);
      }
      if (source === "stock") return before.get(`stock-${seat}`);
      if (source === "discard") return before.get(`discard-${seat}-${pile}`);
      if (source === "partner_stock") return before.get(`stock-${partner}`);
      if (source === "partner_discard") return before.get(`discard-${partner}-${pile}`);
      return null;
    };
    for (const event of events) {
      const d = event.detail || {};
      if (event.kind === "played") {
        const to = root.querySelector(`[data-key="build-${d.to}"] .card, [data-key="build-${d.to}"] .slot`);
        const card = root.querySelector(`[data-key="build-${d.to}"] .card`);
        if (card && to) fly(card, fromRect(event.seat, d.source, d.pile, d.card), to);
      } else if (event.kind === "discarded") {
        const owner = d.owner ?? event.seat;
        const to = root.querySelector(`[data-key="discard-${owner}-${d.pile}"] .card:last-child`);
        if (to) fly(to, fromRect(event.seat, "hand", null, d.card), to);
      } else if (event.kind === "completed") {
        burst(root.querySelector(`[data-key="build-${d.to}"]`));
      }
    }
  }

  /** A refused move: shake the pile it was aimed at. */
  refused(target) {
    if (target) shake(this.screen.root.querySelector(`[data-dst="${target.to}"][data-pile="${target.pile}"]`));
  }

  // -- choosing and moving cards --------------------------------------------------------------

  selectionFromEl(el) {
    const src = el.dataset.src;
    if (!src) return null;
    const v = this.model.view;
    const me = this.model.mySeat;
    if (!v || me === null) return null;
    const pile = Number(el.dataset.pile);
    if (src === "hand") return { from: "hand", card: parseCard(el.dataset.card), index: Number(el.dataset.index) };
    if (src === "stock") return v.stock_tops[me] === null ? null : { from: "stock" };
    if (src === "discard") return v.discards[me][pile - 1].length ? { from: "discard", pile } : null;
    const partner = this.model.partner;
    if (partner === null) return null;
    if (src === "partner_stock") return v.stock_tops[partner] === null ? null : { from: "partner_stock" };
    if (src === "partner_discard") return v.discards[partner][pile - 1].length ? { from: "partner_discard", pile } : null;
    return null;
  }

  select(sel) {
    this.screen.selection = sel;
    this.screen.refusal = null;
    this.screen.render();
  }

  /** Opening and closing a long pile in full: for players and spectators alike. */
  onPeekClick(e) {
    const opener = e.target.closest("[data-peek]");
    if (opener) {
      const seat = Number(opener.dataset.peek);
      this.peek = this.peek?.seat === seat ? null : { seat };
      this.screen.render();
      return true;
    }
    if (this.peek && (e.target.closest("[data-peek-close]") || !e.target.closest("#peek"))) {
      this.peek = null;
      this.screen.render();
      return !!e.target.closest("[data-peek-close]");
    }
    return !!e.target.closest("#peek");
  }

  onWatchClick(e) {
    this.onPeekClick(e);
  }

  onClick(e) {
    if (this.onPeekClick(e)) return;
    const s = this.screen;
    const action = e.target.closest("[data-action]");
    if (action?.dataset.action === "pass") return s.send({ type: "pass" }, null);
    const el = e.target.closest("[data-src], [data-dst]");
    if (!el || !this.model.view || this.model.mySeat === null) return;
    const sel = s.selection;
    const dst = el.dataset.dst;
    if (!(dst && sel?.from === "hand") && this.quickPlay(el)) return;
    // A table's rule of thumb: with a hand card chosen, a discard pile is where it goes (and
    // the turn ends); without one, a discard pile is where a card comes from.
    const asTarget = dst && sel && (dst === "build" || sel.from === "hand");
    if (asTarget) return this.moveTo(sel, el);
    const picked = this.selectionFromEl(el);
    if (picked) return this.select(sameSelection(picked, sel) ? null : picked);
    if (dst === "build") {
      s.refusal = { rule: null, code: "hint", message: t("skip.choose_first") };
      s.render();
    }
  }

  /**
   * A second click (or tap) on the same card soon after the first plays it on the first
   * building pile the legal list allows. (A native dblclick cannot be used: the first click
   * re-renders the board, so the two clicks land on different elements.)
   */
  quickPlay(el) {
    const now = performance.now();
    const key = el.dataset.src ? el.dataset.key : null;
    const last = this.lastClick;
    this.lastClick = { key, at: now };
    if (!key || !last || last.key !== key || now - last.at > 450 || !this.model.myTurn) return false;
    const sel = this.selectionFromEl(el);
    const build = sel && legalTargets(sel, this.model.legal).find((t) => t.to === "build");
    if (!build) return false;
    this.lastClick = null;
    this.screen.selection = sel;
    this.screen.send(actionFor(sel, build), build);
    return true;
  }

  moveTo(sel, targetEl) {
    const s = this.screen;
    const target = { to: targetEl.dataset.dst, pile: Number(targetEl.dataset.pile) };
    const action = actionFor(sel, target);
    s.selection = sel;
    if (!action) {
      s.refusal = { rule: "R4.4", code: "hint", message: t("skip.hand_only") };
      s.render();
      shake(targetEl);
      return;
    }
    s.send(action, target);
  }

  /** Where the keyboard's focus goes when the element it was on is gone: your stock. */
  focusHome() {
    return this.screen.root.querySelector('.mine-area [data-src="stock"]');
  }

  onKey(key) {
    if (key === "escape") this.lastClick = null;
    if (key === "escape" && this.peek) {
      this.peek = null;
      this.screen.render();
      return true;
    }
    const root = this.screen.root;
    const q = (selector) => root.querySelector(selector);
    const hand = "12345".indexOf(key);
    const build = "qwer".indexOf(key);
    const discard = "zxcv".indexOf(key);
    let el = null;
    if (hand >= 0) el = q(`[data-src="hand"][data-index="${hand}"]`);
    else if (build >= 0) el = q(`[data-dst="build"][data-pile="${build + 1}"]`);
    else if (discard >= 0) el = q(`.mine-area [data-pile="${discard + 1}"]`);
    else if (key === "s") el = q('[data-src="stock"]');
    else if (key === "p") el = q('[data-src="partner_stock"]');
    if (!el) return false;
    el.click();
    this.lastClick = null; // a key is not the first half of a double click
    el.focus({ preventScroll: true });
    return true;
  }
}

/** Where a hint's action is shown: the source key of the card it moves and the target key of
 * the pile it goes to (a hand card: the first one of that value). */
function hintSpots(action, hand) {
  const card = action.card;
  const from = action.type === "discard" || action.from === "hand"
    ? { from: "hand", card, index: hand.findIndex((c) => String(c) === String(card)) }
    : { from: action.from, pile: action.pile };
  const to = action.type === "discard" ? { to: "discard", pile: action.pile } : { to: "build", pile: action.to };
  return { from: sourceKey(from), to: targetKey(to) };
}

function parseCard(text) {
  return text === "W" ? "W" : Number(text);
}
