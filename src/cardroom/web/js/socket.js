/**
 * One table's WebSocket (docs/protocol.md §4): hello first, then messages in `seq` order.
 * It reconnects by itself and asks only for what it missed (`hello` + `since`).
 *
 * The connection is watched, not trusted: a ping that gets no answer in PONG_WAIT_MS, the
 * browser going offline, or a tab coming back to the front with a dead socket all mean
 * "reconnecting" at once (status events), instead of a table that looks alive and is not.
 */
import { api } from "./api.js";
import { t } from "./i18n.js";
import { token as currentToken } from "./identity.js";
import { inviteQuery } from "./invites.js";

const FATAL = new Map([
  [4401, "socket.signed_out"], // catalog keys (web/i18n)
  [4404, "socket.no_table"],
  [4408, "socket.too_many_messages"],
  [4403, "socket.banned"],
  [4429, "socket.too_many_connections"],
]);

const PING_EVERY_MS = 15000;
const PONG_WAIT_MS = 4000;

let counter = 0;

export class TableSocket extends EventTarget {
  constructor(tableId, token, since = null) {
    super();
    this.tableId = tableId;
    this.token = token;
    this.seq = since;
    this.ws = null;
    this.closed = false;
    this.retries = 0;
    this.status = "connecting";
    this.pingTimer = null;
    this.pongTimer = null;
    this.retryTimer = null;
    this.onOffline = () => this.lost("offline");
    this.onOnline = () => this.reconnectNow();
    this.onVisible = () => {
      if (document.visibilityState !== "visible") return;
      if (this.ws?.readyState === WebSocket.OPEN) this.ping();
      else this.reconnectNow();
    };
    window.addEventListener("offline", this.onOffline);
    window.addEventListener("online", this.onOnline);
    document.addEventListener("visibilitychange", this.onVisible);
  }

  connect() {
    clearTimeout(this.retryTimer);
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${inviteQuery(this.tableId)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.setStatus("connecting");
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      // The newest token: a password change or "sign out other devices" hands out a new one,
      // and the sockets of the old one are closed to reconnect with it.
      const hello = { type: "hello", token: currentToken() || this.token };
      if (this.seq !== null && this.seq !== undefined) hello.since = this.seq;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (e) => ws === this.ws && this.receive(e.data));
    ws.addEventListener("close", (e) => ws === this.ws && this.onClose(e));
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    this.alive();
    if (msg.type === "welcome") {
      this.retries = 0;
      this.setStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.ping(), PING_EVERY_MS);
    }
    if (msg.type === "sync") this.seq = msg.seq;
    else if (typeof msg.seq === "number" && (msg.type === "event" || msg.type === "table")) {
      if (this.seq !== null && msg.seq <= this.seq) return; // already seen
      this.seq = msg.seq;
    }
    this.dispatchEvent(new CustomEvent("message", { detail: msg }));
  }

  /** A ping that must be answered soon, or the connection counts as lost. */
  ping() {
    if (this.ws?.readyState !== WebSocket.OPEN || this.pongTimer !== null) return;
    this.send({ type: "ping", id: `hb-${(counter++).toString(36)}` });
    this.pongTimer = setTimeout(() => this.lost("no answer"), PONG_WAIT_MS);
  }

  /** Anything from the server shows the connection is alive. */
  alive() {
    clearTimeout(this.pongTimer);
    this.pongTimer = null;
  }

  /** The connection is gone (or as good as): drop it and reconnect. */
  lost(reason) {
    if (this.closed) return;
    const ws = this.ws;
    this.ws = null;
    try {
      ws?.close(4000, reason);
    } catch {
      /* already closing */
    }
    this.onClose({ code: 4000, reason });
  }

  /** Try again at once (the browser is online again, or the tab came back to the front). */
  reconnectNow() {
    if (this.closed || this.ws?.readyState === WebSocket.OPEN || this.ws?.readyState === WebSocket.CONNECTING) return;
    this.retries = 0;
    this.connect();
  }

  onClose(event) {
    clearInterval(this.pingTimer);
    this.alive();
    if (this.closed) return;
    this.ws = null;
    if (FATAL.has(event.code)) {
      this.closed = true;
      this.setStatus("closed");
      this.dispatchEvent(new CustomEvent("fatal", { detail: { code: event.code, message: t(FATAL.get(event.code)) } }));
      // 4401 is also a missed hello: ask the lobby API, which forgets a refused token (api.js).
      if (event.code === 4401) api.me().catch(() => {});
      return;
    }
    const offline = navigator.onLine === false;
    this.setStatus(offline ? "offline" : "reconnecting");
    // Offline, the `online` event brings us back; a slow retry covers a browser that is wrong.
    const delay = offline ? 15000 : Math.min(8000, 400 * 2 ** this.retries++);
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => !this.closed && !this.ws && this.connect(), delay);
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  get open() {
    return this.status === "open" && this.ws?.readyState === WebSocket.OPEN;
  }

  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** A fresh action id (unique per player: a resend keeps its id, so it applies once). */
  static actionId() {
    return `a-${Date.now().toString(36)}-${(counter++).toString(36)}`;
  }

  /**
   * Send an action decided on the position of message `after` (its `seq`): the server refuses
   * it as `stale` if the game moved on since (presence news does not count). Resending the
   * same `id` after a reconnect is safe: a move already applied is only acknowledged.
   * Returns whether it went out (false when not connected).
   */
  act(action, after = null, id = TableSocket.actionId()) {
    const message = { type: "action", id, action };
    if (typeof after === "number") message.after = after;
    return this.open && this.send(message);
  }

  resync() {
    this.send({ type: "resync" });
  }

  /** Ask for a hint on this seat's turn (R7.6): answered with a `hint`, or an error about it. */
  hint() {
    return this.open && this.send({ type: "hint" });
  }

  /** "Continue": this player has read the round's summary (the next deal waits for everyone). */
  ready() {
    return this.open && this.send({ type: "ready" });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    clearTimeout(this.retryTimer);
    this.alive();
    window.removeEventListener("offline", this.onOffline);
    window.removeEventListener("online", this.onOnline);
    document.removeEventListener("visibilitychange", this.onVisible);
    this.ws?.close(1000);
  }
}
