/**
 * One table's WebSocket (docs/protocol.md §4): hello first, then messages in `seq` order.
 * It reconnects by itself and asks only for what it missed (`hello` + `since`).
 */
import { api } from "./api.js";
import { token as currentToken } from "./identity.js";
import { inviteQuery } from "./invites.js";

const FATAL = new Map([
  [4401, "Your sign-in has ended or was not accepted; choose a name or sign in again."],
  [4404, "This table does not exist any more."],
  [4408, "Too many messages; the connection was closed."],
  [4429, "Too many connections to this table (yours, or everyone's); close another tab or try later."],
]);

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
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const url = `${scheme}://${location.host}/ws/tables/${encodeURIComponent(this.tableId)}${inviteQuery(this.tableId)}`;
    const ws = new WebSocket(url);
    this.ws = ws;
    this.setStatus("connecting");
    ws.addEventListener("open", () => {
      // The newest token: a password change or "sign out other devices" hands out a new one,
      // and the sockets of the old one are closed to reconnect with it.
      const hello = { type: "hello", token: currentToken() || this.token };
      if (this.seq !== null && this.seq !== undefined) hello.since = this.seq;
      ws.send(JSON.stringify(hello));
    });
    ws.addEventListener("message", (e) => this.receive(e.data));
    ws.addEventListener("close", (e) => this.onClose(e));
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.type === "welcome") {
      this.retries = 0;
      this.setStatus("open");
      clearInterval(this.pingTimer);
      this.pingTimer = setInterval(() => this.send({ type: "ping", id: "keepalive" }), 25000);
    }
    if (msg.type === "sync") this.seq = msg.seq;
    else if (typeof msg.seq === "number" && (msg.type === "event" || msg.type === "table")) {
      if (this.seq !== null && msg.seq <= this.seq) return; // already seen
      this.seq = msg.seq;
    }
    this.dispatchEvent(new CustomEvent("message", { detail: msg }));
  }

  onClose(event) {
    clearInterval(this.pingTimer);
    if (this.closed) return;
    if (FATAL.has(event.code)) {
      this.closed = true;
      this.setStatus("closed");
      this.dispatchEvent(new CustomEvent("fatal", { detail: { code: event.code, message: FATAL.get(event.code) } }));
      // 4401 is also a missed hello: ask the lobby API, which forgets a refused token (api.js).
      if (event.code === 4401) api.me().catch(() => {});
      return;
    }
    this.setStatus("reconnecting");
    const delay = Math.min(8000, 400 * 2 ** this.retries++);
    setTimeout(() => !this.closed && this.connect(), delay);
  }

  setStatus(status) {
    this.status = status;
    this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  send(message) {
    if (this.ws?.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /**
   * Send an action decided on the position of message `after` (its `seq`): the server refuses
   * it as `stale` if the game moved on since (presence news does not count). Returns its id
   * (for matching the ack or error), or null when offline.
   */
  act(action, after = null) {
    const id = `a-${Date.now().toString(36)}-${(counter++).toString(36)}`;
    const message = { type: "action", id, action };
    if (typeof after === "number") message.after = after;
    return this.send(message) ? id : null;
  }

  resync() {
    this.send({ type: "resync" });
  }

  close() {
    this.closed = true;
    clearInterval(this.pingTimer);
    this.ws?.close(1000);
  }
}
