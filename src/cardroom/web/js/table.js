/**
 * The table screen, for any game: connects the socket to the model, draws the waiting room or
 * the game's board, and hands clicks, drags and keys to the game's player kit (js/games/),
 * which turns them into actions. The server's `legal` list is the only rule book here; a
 * refused move shows the engine's reason (rule id + message).
 */
import { api } from "./api.js";
import { $, h, kept, mount, patch, toast } from "./dom.js";
import { date, t } from "./i18n.js";
import { refusalText } from "./refusal.js";
import { player, token } from "./identity.js";
import { LEAGUE_NEWS, TableModel } from "./model.js";
import { TableSocket } from "./socket.js";
import { renderWaiting } from "./render/waiting.js";
import { renderPresent } from "./render/present.js";
import { bindKeys, typing } from "./keys.js";
import { celebrate, finishAll, snapshot } from "./anim.js";
import { announce } from "./announce.js";
import { rematchControls } from "./render/overlays.js";
import { awardsSummary } from "./render/awards.js";
import { continueControl } from "./render/continue.js";
import { moveStatus, moveStatusLine, showTopStatus, updateClocks, updateMoveStatus } from "./render/status.js";
import { tableToolbar } from "./render/toolbar.js";
import { kitFor } from "./games/index.js";
import * as sound from "./sound.js";
import { callAttention, stopAttention } from "./attention.js";
import { followWalkthrough, leaveWalkthrough, walkthroughSaw } from "./walkthrough.js";
import { ChatPanel } from "./chat.js";
import { SeatRatings } from "./ratings.js";
import { forgetBadges } from "./badges.js";

/** What a moderator's word says, for the chat's note: a sanction (what, why, until when) or a
 * notice (a table closed by a moderator). */
function sanctionText(msg) {
  if (msg.type === "notice") return t("table.mod.closed", { reason: msg.message });
  const s = msg.sanction;
  if (s.lifted) return t("table.mod.lifted", { words: s.words });
  const timed = s.until && ["mute", "rank_ban", "ban"].includes(s.kind);
  const params = { words: s.words, reason: s.reason, until: timed ? date(s.until, { dateStyle: "medium", timeStyle: "short" }) : "" };
  return t(timed ? "table.mod.until" : "table.mod.said", params);
}

export class TableScreen {
  constructor(root, tableId, { levels, onExit }) {
    this.root = root;
    this.tableId = tableId;
    this.levels = levels;
    this.onExit = onExit;
    this.model = new TableModel(tableId);
    this.selection = null;
    this.refusal = null;
    this.pending = null; // a move sent and not yet answered: {id, action, target, after, since, resent}
    this.notice = null; // why the last click did nothing (not connected, a move on its way)
    this.hideResult = false;
    this.summaryEnds = null;
    this.socket = null;
    this.viewCheck = null;
    this.batch = null; // messages applied to the model, drawn at the next frame: {before, events, …}
    this.play = null; // the game's kit (js/games/), once the table says which game it is
    this.awardsDismissed = false; // the league's news of the last match, put away
    this.awardsOpen = false;
    this.claimable = false; // the toolbar shows "End X's turn"
    this.overlayShown = null; // the overlay that has had the focus since it appeared: "match-result", "round-summary"
    this.focusBack = null; // the data-key that had the focus before an overlay took it
    this.ratings = new SeatRatings(() => this.render());
    this.chat = new ChatPanel({
      lines: () => this.model.chat,
      send: (text) => this.socket?.send({ type: "chat", text }),
      people: () => (this.model.table?.seats || []).map((s) => s.player).filter((p) => p && p.id !== player()?.id),
      report: (body) => api.report({ ...body, table: this.tableId }),
    });
    this.tick = setInterval(() => this.tickClock(), 250);
    this.unbindKeys = bindKeys((key) => this.onKey(key));
    root.addEventListener("click", (this.clickHandler = (e) => this.onClick(e)));
    // Division badges and card backs arrive after the seats: draw them when they do.
    window.addEventListener("cardroom:badges", (this.onBadges = () => { if (this.model.table && this.root.isConnected) this.render(); }));
  }

  async open() {
    mount(this.root, h("p", { class: "loading" }, t("table.opening")));
    try {
      const { table } = await api.table(this.tableId);
      this.model.table = table;
      this.awaitingDeal = table.status === "waiting"; // a board that appears now is a deal
      this.play = kitFor(table.game, this);
      document.body.dataset.game = table.game || "skip";
      $("#rules-link")?.setAttribute("href", `/rules/${table.game || "skip"}`);
      if (table.game && table.game !== "skip") ({ levels: this.levels } = await api.levels(table.game));
    } catch (error) {
      mount(this.root, h("section", { class: "panel" }, h("h1", {}, t("table.cannot_open")), h("p", {}, error.text || error.message),
        h("button", { class: "btn", onclick: () => this.onExit() }, t("table.back_to_lobby"))));
      return;
    }
    this.connect();
    this.render();
  }

  connect() {
    const since = this.model.seq ?? null;
    this.socket = new TableSocket(this.tableId, token(), since);
    this.socket.addEventListener("message", (e) => this.onMessage(e.detail));
    this.socket.addEventListener("status", () => this.onConnection());
    this.socket.addEventListener("fatal", (e) => {
      toast(e.detail.message);
      if (e.detail.code === 4404) this.exit();
    });
    this.socket.connect();
  }

  /** The connection changed: "Reconnecting…", the board disabled or back. */
  onConnection() {
    const open = this.socket?.status === "open";
    if (open) this.notice = null;
    if (this.model.view) this.render();
    else this.updateStatus();
  }

  destroy() {
    clearInterval(this.tick);
    clearTimeout(this.viewCheck);
    if (this.batch) {
      cancelAnimationFrame(this.batch.frame);
      clearTimeout(this.batch.timer);
      this.batch = null;
    }
    stopAttention();
    this.unbindKeys();
    this.play?.destroy();
    leaveWalkthrough();
    delete document.body.dataset.game;
    $("#rules-link")?.setAttribute("href", "/rules/skip");
    this.root.removeEventListener("click", this.clickHandler);
    window.removeEventListener("cardroom:badges", this.onBadges);
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
      // A move that was on its way when the connection went: sent again with the same id,
      // so it is played once (or acknowledged as played), or refused with the reason.
      if (this.pending) {
        this.pending.resent = true;
        this.socket.act(this.pending.action, this.pending.after, this.pending.id);
      }
      // The server ends its hello reply with our view (the last replayed event, or a sync), so
      // a reloaded page needs no resync. Only if none came (an older server, a lost message)
      // while a match is on do we ask for the whole picture.
      clearTimeout(this.viewCheck);
      this.viewCheck = setTimeout(() => {
        if (!this.model.view && this.model.table?.status === "playing") this.socket?.resync();
      }, VIEW_GRACE_MS);
      return;
    }
    if (msg.type === "error" && msg.about === "chat") return this.chat.refused(msg);
    if (msg.type === "sanction" || msg.type === "notice") return this.chat.refused({ message: sanctionText(msg) });
    if (msg.type === "hint" || (msg.type === "error" && msg.about === "hint")) return this.showHint(msg);
    if (msg.type === "error") return this.onError(msg);
    if (msg.type === "chat") {
      this.model.apply(msg);
      this.chat.update();
      return;
    }
    if (msg.type === "ack") {
      if (this.pending?.id === msg.id) {
        this.pending = null; // a resent move that had been played already
        this.notice = null;
        this.render();
      }
      return;
    }
    if (msg.type === "pong") return;
    // Messages that arrive together (a bot's move right after ours, a replay) are drawn once,
    // at the next frame; a hidden tab, which has no frames, is drawn after a short while.
    if (!this.batch) {
      const flush = () => this.flush();
      this.batch = { before: snapshot(this.root), handBefore: this.play?.beforeChange?.() ?? null, wasMyTurn: this.model.myTurn,
        events: [], frame: requestAnimationFrame(flush), timer: setTimeout(flush, FLUSH_LATEST_MS) };
    }
    const events = this.model.apply(msg);
    this.batch.events.push(...events);
    if (msg.type === "table" && msg.table.status === "waiting") this.model.view = null;
    if (msg.ack && this.pending?.id === msg.ack) {
      this.pending = null;
      this.notice = null;
      this.selection = null;
      this.refusal = null;
    }
    this.keepSelectionValid();
    for (const event of events) {
      if (event.kind === "round_summary") this.summaryEnds = performance.now() + (event.detail.next_round_in ?? 0) * 1000;
      if (event.kind === "match_started" || event.kind === "match_over") this.hideResult = false;
      // A rematch proposed by someone else brings the result (where it is answered) back.
      if (event.kind === "rematch_proposed" && event.detail.by !== player()?.id) this.hideResult = false;
    }
  }

  /** Draw what the messages since the last frame changed, then animate and narrate it. */
  flush() {
    const batch = this.batch;
    if (!batch) return;
    this.batch = null;
    cancelAnimationFrame(batch.frame);
    clearTimeout(batch.timer);
    finishAll();
    walkthroughSaw(this.model, batch.events);
    this.render();
    this.animate(batch.events, batch.before, batch.handBefore);
    // Leaving the waiting room for a board is a deal, even when the deal reached us as the
    // reply to our hello (a start clicked while the socket was still saying hello).
    const dealt = this.awaitingDeal && this.model.view && !batch.events.some((event) => event.kind === "round_started");
    this.awaitingDeal = !this.model.view && (this.model.table?.status === "waiting" || this.awaitingDeal);
    if (dealt) sound.play("shuffle");
    this.narrate(batch.events, batch.wasMyTurn);
    this.showAwards(batch.events);
  }

  /** The league's news after a match (achievements, rating changes): the match result lists
   * it; the toolbar shows one summary of it when the result is put away (never over the play
   * or the result); screen readers hear it once, as one sentence. */
  showAwards(events) {
    const news = events.filter((event) => LEAGUE_NEWS.includes(event.kind));
    if (!news.length) return;
    if (news.some((event) => event.kind === "rating" || event.kind === "division")) {
      this.ratings.forget(); // the side panel's ratings and badges are read again
      forgetBadges();
    }
    this.awardsDismissed = false;
    announce(t("table.league_news", { news: news.map((event) => this.describe(event)).join(". ") }));
    this.render();
  }

  awardsSummary() {
    const m = this.model;
    if (this.awardsDismissed || (m.result && !this.hideResult)) return null;
    return awardsSummary(m, {
      open: this.awardsOpen,
      describe: (event) => this.describe(event),
      onToggle: () => {
        this.awardsOpen = !this.awardsOpen;
        this.render();
      },
      onDismiss: () => {
        this.awardsDismissed = true;
        this.awardsOpen = false;
        this.render();
      },
    });
  }

  onError(msg) {
    const mine = this.pending && msg.id === this.pending.id;
    const target = mine ? this.pending.target : null;
    const resent = mine && this.pending.resent;
    if (mine) this.pending = null;
    if (msg.code === "stale" || msg.code === "no_match") this.socket.resync();
    const message = resent && msg.code === "stale" ? t("table.moved_on") : refusalText(msg);
    this.refusal = { rule: msg.rule, code: msg.code, message };
    sound.play("refuse");
    announce(t(msg.rule ? "table.refused_rule" : "table.refused", { rule: msg.rule, reason: message }));
    this.render();
    this.play?.refused(target);
    if (!this.model.view) toast(message);
  }

  keepSelectionValid() {
    this.play?.keepSelectionValid();
  }

  /** An event as a sentence (the log, the announcements, the awards banner). */
  describe(event) {
    return this.play ? this.play.describe(event) : null;
  }

  narrate(events, wasMyTurn) {
    for (const event of events) {
      const text = this.describe(event);
      // Achievements and ratings are read out by their banner (a live region) instead.
      if (text && !["turn", ...LEAGUE_NEWS].includes(event.kind)) announce(text);
      const effect = this.play?.sound(event);
      if (effect) sound.play(effect);
      if (event.kind === "round_started") sound.play("shuffle");
      if (event.kind === "match_over" && (event.detail.winners || []).includes(this.model.mySeat)) {
        sound.play("win");
        celebrate();
      }
    }
    if (!wasMyTurn && this.model.myTurn) {
      announce(t("table.your_turn"));
      sound.play("turn");
      callAttention(t("table.your_turn"));
    } else if (wasMyTurn && !this.model.myTurn) {
      stopAttention();
    }
  }

  // -- drawing --------------------------------------------------------------------------------

  /** Draw the table, then let the walkthrough follow it (offered, moved on, put in place). */
  render() {
    this.draw();
    followWalkthrough(this);
  }

  draw() {
    const focusKey = document.activeElement?.closest?.("[data-key]")?.dataset.key;
    const m = this.model;
    this.updateStatus();
    if (!m.table) return;
    if (!m.view && m.table.status === "playing" && this.socket?.status !== "closed") {
      patch(this.root, this.toolbar(), h("p", { class: "loading" }, t("table.dealing_back")));
      return;
    }
    if (!m.view) {
      patch(this.root, this.toolbar(), renderWaiting(m, { levels: this.levels, me: player(), actions: this.lobbyActions() }),
        h("div", { class: "waiting-chat" }, renderPresent(m.table, player(), this.ratings.now(m.table)), this.chat.element()));
      return;
    }
    const connection = this.socket?.status === "open" || !this.socket ? "open" : this.socket.status;
    const layout = h("div", { class: `table-layout game-${m.table.game || "skip"}${m.spectator ? " spectating" : ""}`, "data-connection": connection },
      h("div", { class: "play-area", "aria-busy": connection === "open" ? "false" : "true" },
        this.play.board(), this.hintLine(), moveStatusLine(this.moveStatus())),
      h("div", { class: "side-col" }, this.play.side(), renderPresent(m.table, player(), this.ratings.now(m.table)), this.chat.element()));
    const overlays = [];
    if (m.summary && !m.result) {
      const summary = this.play.roundSummary(m.summary, this.summarySeconds());
      summary.append(continueControl(m, () => this.sayReady()) || "");
      overlays.push(summary);
    }
    if (m.result && !this.hideResult) {
      overlays.push(this.play.matchResult(m.result, {
        rematch: this.rematchControls(),
        onLobby: () => this.exit(),
        onClose: () => {
          this.hideResult = true;
          this.render();
        },
      }));
    }
    patch(this.root, this.toolbar(), layout, overlays.length ? h("div", { class: "overlay" }, overlays) : null);
    this.placeFocus(focusKey);
    this.updateMoveStatus();
    this.updateClock();
  }

  /**
   * The keyboard's place after a redraw. An overlay (the match result, a round summary) takes
   * the focus when it appears, once per showing, so its heading is read and its buttons are a
   * Tab away (a summary not while the player is typing); when it goes, the focus goes back where
   * it was. A focused element the redraw removed, or made unable to take the focus (a pile that
   * stopped being a button), hands it to the game's `focusHome()`: never to <body>.
   */
  placeFocus(focusKey) {
    const overlay = this.root.querySelector("#match-result") ?? this.root.querySelector("#round-summary");
    overlay?.setAttribute("tabindex", "-1");
    const shown = overlay?.id ?? null;
    const before = this.overlayShown;
    const lost = () => !document.activeElement || document.activeElement === document.body;
    const focus = (el) => el?.focus({ preventScroll: true });
    if (overlay && shown !== before && (shown === "match-result" || !typing(document.activeElement))) {
      if (!before) this.focusBack = focusKey ?? null;
      focus(overlay);
    } else if (focusKey) focus(this.root.querySelector(`[data-key="${focusKey}"]`));
    if (lost() && overlay) focus(overlay);
    else if (lost() && before && this.focusBack) focus(this.root.querySelector(`[data-key="${this.focusBack}"]`));
    if (lost() && !overlay && (before || focusKey)) focus(this.play?.focusHome?.());
    this.overlayShown = shown;
  }

  rematchControls() {
    return rematchControls(this.model.table, player(), {
      propose: () => this.call(() => api.rematch(this.tableId)),
      decline: () => this.call(() => api.declineRematch(this.tableId)),
    });
  }

  toolbar() {
    const m = this.model;
    const me = player();
    this.claimable = m.canClaim(me);
    return tableToolbar(m, {
      seated: m.table?.seats?.some((s) => s.player?.id === me?.id),
      awards: this.awardsSummary(),
      claimable: this.claimable,
      hint: this.hintsHere() ? { waiting: Boolean(this.hint?.waiting) } : null,
      resultHidden: Boolean(m.result && this.hideResult),
      onSkip: () => this.call(() => api.skip(this.tableId)),
      onHint: () => this.askHint(),
      onResult: () => {
        this.hideResult = false;
        this.render();
      },
      onLeave: () => this.leave(),
      onLobby: () => this.exit(),
    });
  }

  updateStatus() {
    const el = $("#topbar-status");
    if (!el) return;
    showTopStatus(el, this.model, this.socket?.status);
    this.updateClock();
  }

  /** Every quarter second: the clocks, and the turn of someone who is not there becoming
   * skippable as time passes. */
  tickClock() {
    if (this.model.canClaim(player()) !== this.claimable) this.render();
    else this.updateClock();
    this.updateMoveStatus();
  }

  /** A move on its way (after a moment, or while the connection is down), or why a click did
   * nothing: never a silent board. */
  updateMoveStatus() {
    updateMoveStatus(this.root, this.moveStatus(), this.pending);
  }

  moveStatus() {
    return moveStatus(this.pending, this.notice, this.socket);
  }

  updateClock() {
    updateClocks(this.root, this.model, () => this.summarySeconds());
  }

  /** "Continue" under a round summary: said once per round (the next deal clears it). */
  sayReady() {
    if (this.socket?.ready()) this.model.saidReady = true;
    this.render();
  }

  summarySeconds() {
    return this.summaryEnds === null ? null : Math.max(0, (this.summaryEnds - performance.now()) / 1000);
  }

  animate(events, before, handBefore) {
    // Nothing flies over a round summary or a result: they have the player's attention.
    if (this.model.summary || (this.model.result && !this.hideResult)) return;
    this.play?.animate(events, before, handBefore);
  }

  // -- moves ---------------------------------------------------------------------------------

  onClick(e) {
    if (!this.play || !this.model.view) return;
    if (this.socket && this.socket.status !== "open" && e.target.closest("#board")) {
      this.notice = t("table.not_connected");
      this.updateMoveStatus();
      return;
    }
    if (this.model.mySeat === null) this.play.onWatchClick?.(e);
    else this.play.onClick(e);
  }

  send(action, target) {
    if (this.pending) {
      this.notice = t("table.one_at_a_time");
      this.updateMoveStatus();
      return;
    }
    if (!this.socket?.open) {
      this.notice = t("table.not_sent");
      this.render();
      return;
    }
    // `after`: the position this move was chosen on; presence news never makes it stale.
    const id = TableSocket.actionId();
    this.pending = { id, action, target, after: this.model.viewSeq, since: performance.now(), resent: false };
    this.socket.act(action, this.pending.after, id);
    this.refusal = null;
    this.notice = null;
  }

  onKey(key) {
    if (!this.model.view) return false;
    if (this.socket && this.socket.status !== "open" && key !== "escape" && key !== "l") {
      this.notice = t("table.not_connected");
      this.updateMoveStatus();
      return false;
    }
    if (key === "escape" && this.play?.onKey("escape")) return true;
    if (key === "escape") {
      this.select(null);
      return true;
    }
    if (key === "h" && this.hintsHere()) {
      this.askHint();
      return true;
    }
    if (key === "l") {
      const lines = this.model.log.map((ev) => this.describe(ev)).filter(Boolean).slice(-3);
      announce(lines.join(". ") || t("table.no_moves"));
      return true;
    }
    return this.play?.onKey(key) ?? false;
  }

  // -- hints (R7.6) -----------------------------------------------------------------------------

  /** Whether this player may ask for hints here: seated in a casual match whose house rules
   * keep hints on (the server refuses the rest with its reason anyway). */
  hintsHere() {
    const m = this.model;
    const t = m.table;
    return !!(m.view && !m.result && !m.spectator && m.playing && m.mySeat !== null && t && !t.ranked
      && m.view.options?.hints !== false);
  }

  askHint() {
    if (!this.model.myTurn) {
      this.hint = { error: t("table.hint_own_turn"), seq: this.model.viewSeq };
    } else if (this.socket?.hint()) {
      this.hint = { waiting: true, seq: this.model.viewSeq };
    }
    this.render();
  }

  showHint(msg) {
    this.hint = msg.type === "hint" ? msg : { error: refusalText(msg), seq: this.model.viewSeq };
    this.render();
  }

  /** The hint for the position on screen, or null once the game has moved on. */
  currentHint() {
    const hint = this.hint;
    if (!hint || hint.waiting || this.model.result) return null;
    if (hint.error) return hint.seq === this.model.viewSeq ? hint : null;
    return hint.seq >= (this.model.viewSeq ?? 0) && this.model.myTurn ? hint : null;
  }

  hintLine() {
    const hint = this.currentHint();
    if (!hint) return null;
    return h("p", { class: `hint-line${hint.error ? " refused" : ""}`, id: "hint", role: "status" },
      h("b", {}, t(hint.error ? "table.no_hint" : "table.hint")), " ", hint.error || `${hint.reason}.`);
  }

  select(sel) {
    this.selection = sel;
    this.refusal = null;
    this.render();
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
      declineRematch: () => this.call(() => api.declineRematch(id)),
      leave: () => this.leave(),
      saveRules: (body) => this.call(() => api.update(id, body)),
    };
  }

  async call(fn, reconnect = false) {
    try {
      const out = await fn();
      if (out?.table) {
        this.model.table = out.table;
        if (out.table.status === "waiting" && !this.model.view) this.awaitingDeal = true;
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
const FLUSH_LATEST_MS = 100; // a hidden tab has no animation frames; its table is drawn anyway
