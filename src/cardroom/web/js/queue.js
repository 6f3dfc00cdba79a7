/**
 * The ranked queue (docs/protocol.md, "The ranked queue"): one WebSocket while waiting. The
 * server says how the search goes ("near 12.4 … ±3.0"), then where the match is; closing the
 * socket (Cancel, leaving the page) withdraws the ticket.
 */
import { h, mount } from "./dom.js";
import { token } from "./identity.js";
import { num, t } from "./i18n.js";
import { refusalText } from "./refusal.js";

export const QUEUE_MODES = [
  { id: "2p", label: "queue.mode.2p" }, // labels: catalog keys (web/i18n)
  { id: "3p+", label: "queue.mode.3p" },
  { id: "teams", label: "queue.mode.teams" },
];
export const BOT_WAITS = [
  { value: null, label: "queue.wait.never" },
  { value: 15, label: "queue.wait.seconds", params: { count: 15 } },
  { value: 30, label: "queue.wait.seconds", params: { count: 30 } },
  { value: 60, label: "queue.wait.minutes", params: { count: 1 } },
  { value: 120, label: "queue.wait.minutes", params: { count: 2 } },
  { value: 300, label: "queue.wait.minutes", params: { count: 5 } },
];

export class RankedQueue {
  constructor(statusEl, { onMatched, onEnd }) {
    this.statusEl = statusEl;
    this.onMatched = onMatched;
    this.onEnd = onEnd;
    this.ws = null;
  }

  get waiting() {
    return this.ws !== null;
  }

  start({ game, mode, botAfter, partner }) {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/queue`);
    this.ws = ws;
    this.say(t("queue.joining"));
    ws.addEventListener("open", () => {
      ws.send(JSON.stringify({ type: "hello", token: token() }));
      const wanted = { type: "queue", game, mode, bot_after: botAfter };
      if (partner) wanted.partner = partner;
      ws.send(JSON.stringify(wanted));
    });
    ws.addEventListener("message", (e) => this.heard(JSON.parse(e.data)));
    ws.addEventListener("close", () => {
      if (this.ws === ws) this.end();
    });
  }

  heard(m) {
    if (m.type === "queued" || m.type === "searching") {
      const one = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
      this.say(t("queue.looking", { near: num(m.near, one), gap: num(m.gap, one) }), t("queue.waited", { count: m.waited }));
    } else if (m.type === "partner_wait") {
      this.say(t("queue.partner_wait"), t("queue.partner_how"));
    } else if (m.type === "matched") {
      const ws = this.ws;
      this.ws = null;
      ws?.close();
      this.onMatched(m);
    } else if (m.type === "error") {
      this.say(t("queue.refused", { reason: refusalText(m) }));
    } else if (m.type === "left") {
      this.say(m.reason);
    }
  }

  cancel() {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "leave" }));
      ws.close();
    }
    this.end();
  }

  end() {
    this.ws = null;
    this.onEnd();
  }

  say(text, detail = "") {
    mount(this.statusEl, h("span", { class: "queue-line" }, h("span", { class: "queue-spinner", "aria-hidden": "true" }), text),
      detail ? h("small", { class: "muted" }, ` ${detail}`) : null);
  }
}
