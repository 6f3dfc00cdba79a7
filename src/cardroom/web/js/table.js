/**
 * The table screen: connects the socket to the model, draws the board (or the waiting room),
 * and turns clicks, drags and keys into actions. The server's `legal` list is the only rule
 * book here; a refused move shows the engine's reason (rule id + message).
 */
import { api } from "./api.js";
import { $, h, mount, toast } from "./dom.js";
import { player, token } from "./identity.js";
import { TableModel } from "./model.js";
import { TableSocket } from "./socket.js";
import { actionFor, canPlay, legalTargets, sameSelection, targetKey } from "./moves.js";
import { renderBoard, sourceKey } from "./render/board.js";
import { renderSide } from "./render/side.js";
import { matchResult, roundSummary } from "./render/overlays.js";
import { renderWaiting } from "./render/waiting.js";
import { describe } from "./render/log.js";
import { enableDrag } from "./dnd.js";
import { bindKeys } from "./keys.js";
import { burst, finishAll, fly, shake, snapshot } from "./anim.js";
import { announce } from "./announce.js";
import * as sound from "./sound.js";

export class TableScreen {
  constructor(root, tableId, { levels, onExit }) {
    this.root = root;
    this.tableId = tableId;
    this.levels = levels;
    this.onExit = onExit;
    this.model = new TableModel(tableId);
    this.selection = null;
    this.refusal = null;
    this.pending = null;
    this.hideResult = false;
    this.summaryEnds = null;
    this.socket = null;
    this.viewCheck = null;
    this.banner = awardsBanner();
    this.tick = setInterval(() => this.updateClock(), 250);
    this.unbindKeys = bindKeys((key) => this.onKey(key));
    root.addEventListener("click", (this.clickHandler = (e) => this.onClick(e)));
    enableDrag(root, {
      selectionOf: (el) => (this.model.myTurn ? this.selectionFromEl(el) : null),
      start: (sel) => this.select(sel),
      drop: (sel, target) => (target ? this.moveTo(sel, target) : this.render()),
    });
  }

  async open() {
    mount(this.root, h("p", { class: "loading" }, "Opening the table…"));
    try {
      const { table } = await api.table(this.tableId);
      this.model.table = table;
    } catch (error) {
      mount(this.root, h("section", { class: "panel" }, h("h1", {}, "This table cannot be opened"), h("p", {}, error.message),
        h("button", { class: "btn", onclick: () => this.onExit() }, "Back to the lobby")));
      return;
    }
    this.connect();
    this.render();
  }

  connect() {
    const since = this.model.seq ?? null;
    this.socket = new TableSocket(this.tableId, token(), since);
    this.socket.addEventListener("message", (e) => this.onMessage(e.detail));
    this.socket.addEventListener("status", () => this.updateStatus());
    this.socket.addEventListener("fatal", (e) => {
      toast(e.detail.message);
      if (e.detail.code === 4404) this.exit();
    });
    this.socket.connect();
  }

  destroy() {
    clearInterval(this.tick);
    clearTimeout(this.viewCheck);
    this.banner.remove();
    this.unbindKeys();
    this.root.removeEventListener("click", this.clickHandler);
    this.socket?.close();
    finishAll();
  }

  exit() {
    this.onExit();
  }

  // -- messages -------------------------------------------------------------------------------

  onMessage(msg) {
    if (msg.type === "welcome") {
      this.model.apply(msg);
      // The server ends its hello reply with our view (the last replayed event, or a sync), so
      // a reloaded page needs no resync. Only if none came (an older server, a lost message)
      // while a match is on do we ask for the whole picture.
      clearTimeout(this.viewCheck);
      this.viewCheck = setTimeout(() => {
        if (!this.model.view && this.model.table?.status === "playing") this.socket?.resync();
      }, VIEW_GRACE_MS);
      return;
    }
    if (msg.type === "error") return this.onError(msg);
    if (msg.type === "ack") {
      if (this.pending?.id === msg.id) this.pending = null;
      return;
    }
    if (msg.type === "pong") return;
    this.lastClick = null; // a double click never spans a change of the table
    const before = snapshot(this.root);
    const handBefore = this.handRects();
    const wasMyTurn = this.model.myTurn;
    const events = this.model.apply(msg);
    if (msg.type === "table" && msg.table.status === "waiting") this.model.view = null;
    if (msg.ack && this.pending?.id === msg.ack) {
      this.pending = null;
      this.selection = null;
      this.refusal = null;
    }
    this.keepSelectionValid();
    for (const event of events) {
      if (event.kind === "round_summary") this.summaryEnds = performance.now() + (event.detail.next_round_in ?? 0) * 1000;
      if (event.kind === "match_started" || event.kind === "match_over") this.hideResult = false;
    }
    finishAll();
    this.render();
    this.animate(events, before, handBefore);
    this.narrate(events, wasMyTurn);
    this.showAwards(events);
  }

  /** The league's news after a match (achievements, rating changes): a banner on the table,
   * which is a polite live region, so screen readers hear it once. */
  showAwards(events) {
    for (const event of events) {
      if (event.kind !== "achievement" && event.kind !== "rating") continue;
      const mine = event.seat === this.model.mySeat;
      const item = h("div", { class: `award-toast ${event.kind}${mine ? " mine" : ""}`, "data-kind": event.kind },
        h("span", { class: "award-icon", "aria-hidden": "true" }, event.kind === "achievement" ? "🏆" : "📈"),
        h("span", {}, describe(event, this.model)));
      this.banner.append(item);
      setTimeout(() => item.remove(), AWARD_MS);
    }
  }

  onError(msg) {
    const mine = this.pending && msg.id === this.pending.id;
    const target = mine ? this.pending.target : null;
    if (mine) this.pending = null;
    if (msg.code === "stale" || msg.code === "no_match") this.socket.resync();
    this.refusal = { rule: msg.rule, code: msg.code, message: msg.message };
    sound.play("refuse");
    announce(`Refused: ${msg.rule ? `${msg.rule}, ` : ""}${msg.message}`);
    this.render();
    if (target) shake(this.root.querySelector(`[data-dst="${target.to}"][data-pile="${target.pile}"]`));
    if (!this.model.view) toast(msg.message);
  }

  keepSelectionValid() {
    const sel = this.selection;
    if (!sel) return;
    const v = this.model.view;
    if (!v || this.model.mySeat === null) this.selection = null;
    else if (sel.from === "hand" && v.hand?.[sel.index] !== sel.card) this.selection = null;
  }

  narrate(events, wasMyTurn) {
    for (const event of events) {
      const text = describe(event, this.model);
      // Achievements and ratings are read out by their banner (a live region) instead.
      if (!["turn", "achievement", "rating"].includes(event.kind)) announce(text);
      if (event.kind === "played") sound.play("play");
      if (event.kind === "discarded") sound.play("discard");
      if (event.kind === "completed") sound.play("complete");
      if (event.kind === "match_over" && (event.detail.winners || []).includes(this.model.mySeat)) sound.play("win");
    }
    if (!wasMyTurn && this.model.myTurn) {
      announce("Your turn");
      sound.play("turn");
    }
  }

  // -- drawing --------------------------------------------------------------------------------

  render() {
    const focusKey = document.activeElement?.closest?.("[data-key]")?.dataset.key;
    const m = this.model;
    this.updateStatus();
    if (!m.table) return;
    if (!m.view && m.table.status === "playing" && this.socket?.status !== "closed") {
      mount(this.root, this.toolbar(), h("p", { class: "loading" }, "Dealing you back in…"));
      return;
    }
    if (!m.view) {
      mount(this.root, this.toolbar(), renderWaiting(m, { levels: this.levels, me: player(), actions: this.lobbyActions() }));
      return;
    }
    const ui = this.uiState();
    const layout = h("div", { class: `table-layout${m.spectator ? " spectating" : ""}` },
      h("div", { class: "play-area" }, renderBoard(m, ui)), renderSide(m));
    const overlays = [];
    if (m.summary && !m.result) overlays.push(roundSummary(m, m.summary, this.summarySeconds()));
    if (m.result && !this.hideResult) {
      overlays.push(matchResult(m, m.result, {
        canRematch: !m.spectator,
        onRematch: () => this.call(() => api.rematch(this.tableId)),
        onLobby: () => this.exit(),
      }));
    }
    mount(this.root, this.toolbar(), layout, overlays.length ? h("div", { class: "overlay" }, overlays) : null);
    if (focusKey) this.root.querySelector(`[data-key="${focusKey}"]`)?.focus({ preventScroll: true });
    this.updateClock();
  }

  uiState() {
    const m = this.model;
    const assist = !!m.view.options?.assist;
    const ui = { selection: this.selection, refusal: this.refusal, targets: new Set(), movable: new Set() };
    if (assist && m.myTurn) {
      if (this.selection) for (const t of legalTargets(this.selection, m.legal)) ui.targets.add(targetKey(t));
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

  toolbar() {
    const m = this.model;
    const t = m.table;
    const me = player();
    const isOwner = t?.owner?.id === me?.id;
    const seated = t?.seats?.some((s) => s.player?.id === me?.id);
    return h("div", { class: "table-toolbar" },
      h("span", { class: "table-title" }, t?.name ? `“${t.name}”` : "Table", m.spectator && m.view ? h("span", { class: "badge" }, "Watching") : null),
      h("span", { class: "spacer" }),
      isOwner && m.playing && t.status === "playing" && !m.myTurn && !m.seatInfo(m.view.current)?.bot
        ? h("button", { type: "button", class: "btn small", title: "Skip the current turn (owner)", onclick: () => this.call(() => api.skip(this.tableId)) }, "Skip turn") : null,
      m.result && this.hideResult ? h("button", { type: "button", class: "btn small primary", onclick: () => { this.hideResult = false; this.render(); } }, "Result") : null,
      seated && m.playing ? h("button", { type: "button", class: "btn small", onclick: () => this.leave() }, "Leave table") : null,
      h("button", { type: "button", class: "btn small", onclick: () => this.exit() }, "Lobby"));
  }

  updateStatus() {
    const el = $("#topbar-status");
    if (!el) return;
    const m = this.model;
    const conn = this.socket?.status;
    let text = "";
    let cls = "";
    if (conn === "reconnecting" || conn === "connecting") {
      text = conn === "connecting" ? "Connecting…" : "Reconnecting…";
      cls = "warn";
    } else if (m.view && m.result) text = "Match over";
    else if (m.view && m.view.result) text = "Round over";
    else if (m.view) {
      text = m.myTurn ? "Your turn" : `${m.name(m.view.current)}'s turn`;
      cls = m.myTurn ? "mine" : "";
    } else if (m.table) text = m.table.status === "finished" ? "Match over" : "Waiting to start";
    mount(el, h("span", { class: `turn-status ${cls}`, id: "turn-status" }, text), h("span", { class: "timer big", "data-timer": "" }));
    this.updateClock();
  }

  updateClock() {
    const left = this.model.secondsLeft();
    for (const el of this.root.ownerDocument.querySelectorAll("[data-timer]")) {
      if (left === null || !this.model.view || this.model.view.result) {
        el.textContent = "";
        continue;
      }
      el.textContent = `${Math.ceil(left)} s`;
      el.classList.toggle("low", left < 10);
    }
    const next = this.root.querySelector("[data-next-round]");
    if (next) next.textContent = `${Math.ceil(this.summarySeconds() ?? 0)} s`;
  }

  summarySeconds() {
    return this.summaryEnds === null ? null : Math.max(0, (this.summaryEnds - performance.now()) / 1000);
  }

  handRects() {
    return [...this.root.querySelectorAll('[data-src="hand"]')].map((el) => ({ card: el.dataset.card, rect: el.getBoundingClientRect() }));
  }

  animate(events, before, handBefore) {
    const v = this.model.view;
    if (!v) return;
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
        const to = this.root.querySelector(`[data-key="build-${d.to}"] .card, [data-key="build-${d.to}"] .slot`);
        const card = this.root.querySelector(`[data-key="build-${d.to}"] .card`);
        if (card && to) fly(card, fromRect(event.seat, d.source, d.pile, d.card), to);
      } else if (event.kind === "discarded") {
        const owner = d.owner ?? event.seat;
        const to = this.root.querySelector(`[data-key="discard-${owner}-${d.pile}"] .card:last-child`);
        if (to) fly(to, fromRect(event.seat, "hand", null, d.card), to);
      } else if (event.kind === "completed") {
        burst(this.root.querySelector(`[data-key="build-${d.to}"]`));
      }
    }
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
    this.selection = sel;
    this.refusal = null;
    this.render();
  }

  onClick(e) {
    const action = e.target.closest("[data-action]");
    if (action?.dataset.action === "pass") return this.send({ type: "pass" }, null);
    const el = e.target.closest("[data-src], [data-dst]");
    if (!el || !this.model.view || this.model.mySeat === null) return;
    const sel = this.selection;
    const dst = el.dataset.dst;
    if (!(dst && sel?.from === "hand") && this.quickPlay(el)) return;
    // A table's rule of thumb: with a hand card chosen, a discard pile is where it goes (and
    // the turn ends); without one, a discard pile is where a card comes from.
    const asTarget = dst && sel && (dst === "build" || sel.from === "hand");
    if (asTarget) return this.moveTo(sel, el);
    const picked = this.selectionFromEl(el);
    if (picked) return this.select(sameSelection(picked, sel) ? null : picked);
    if (dst === "build") {
      this.refusal = { rule: null, code: "hint", message: "Choose a card first: from your hand, your stock or a discard pile." };
      this.render();
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
    this.selection = sel;
    this.send(actionFor(sel, build), build);
    return true;
  }

  moveTo(sel, targetEl) {
    const target = { to: targetEl.dataset.dst, pile: Number(targetEl.dataset.pile) };
    const action = actionFor(sel, target);
    if (!action) {
      this.selection = sel;
      this.refusal = { rule: "R4.4", code: "hint", message: "Only a card from your hand can be discarded." };
      this.render();
      shake(targetEl);
      return;
    }
    this.selection = sel;
    this.send(action, target);
  }

  send(action, target) {
    this.lastClick = null;
    if (this.pending) return;
    // `after`: the position this move was chosen on; presence news never makes it stale.
    const id = this.socket?.act(action, this.model.viewSeq);
    if (!id) {
      toast("Not connected: the move was not sent. Reconnecting…");
      return;
    }
    this.pending = { id, action, target };
    this.refusal = null;
  }

  onKey(key) {
    if (!this.model.view) return false;
    const q = (selector) => this.root.querySelector(selector);
    const hand = "12345".indexOf(key);
    const build = "qwer".indexOf(key);
    const discard = "zxcv".indexOf(key);
    let el = null;
    if (hand >= 0) el = q(`[data-src="hand"][data-index="${hand}"]`);
    else if (build >= 0) el = q(`[data-dst="build"][data-pile="${build + 1}"]`);
    else if (discard >= 0) el = q(`.mine-area [data-pile="${discard + 1}"]`);
    else if (key === "s") el = q('[data-src="stock"]');
    else if (key === "p") el = q('[data-src="partner_stock"]');
    else if (key === "escape") {
      this.select(null);
      return true;
    } else if (key === "l") {
      const lines = this.model.log.map((ev) => describe(ev, this.model)).filter(Boolean).slice(-3);
      announce(lines.join(". ") || "No moves yet");
      return true;
    }
    if (!el) return false;
    el.click();
    el.focus({ preventScroll: true });
    return true;
  }

  // -- lobby-side actions at the table -------------------------------------------------------

  lobbyActions() {
    const id = this.tableId;
    return {
      join: (seat) => this.call(() => api.join(id, seat), true),
      addBot: (seat, level) => this.call(() => api.addBot(id, level, seat)),
      remove: (seat) => this.call(() => api.removeSeat(id, seat)),
      start: () => this.call(() => api.start(id)),
      rematch: () => this.call(() => api.rematch(id)),
      leave: () => this.leave(),
      saveRules: (body) => this.call(() => api.update(id, body)),
    };
  }

  async call(fn, reconnect = false) {
    try {
      const out = await fn();
      if (out?.table) {
        this.model.table = out.table;
        this.render();
      }
      if (reconnect) {
        // A new seat: the socket must say hello again to play it.
        this.socket?.close();
        this.model.view = null;
        this.model.seq = null;
        this.connect();
      }
      return out;
    } catch (error) {
      toast(error.text || error.message);
      return null;
    }
  }

  async leave() {
    const out = await this.call(() => api.leave(this.tableId));
    if (out) this.exit();
  }
}

const VIEW_GRACE_MS = 3000;
const AWARD_MS = 8000;

/** The live region for the league's news, outside the re-rendered table (one per screen). */
function awardsBanner() {
  const el = h("div", { class: "awards-banner", id: "awards-banner", role: "status", "aria-live": "polite" });
  document.body.append(el);
  return el;
}

function parseCard(text) {
  return text === "W" ? "W" : Number(text);
}
