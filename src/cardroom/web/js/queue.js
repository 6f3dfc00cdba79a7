/**
 * The ranked queue (docs/protocol.md, "The ranked queue"): one WebSocket while waiting. The
 * server says how the search goes ("near 12.4 … ±3.0"), then where the match is; closing the
 * socket (Cancel, leaving the page) withdraws the ticket.
 */
import { h, mount } from "./dom.js";
import { token } from "./identity.js";

export const QUEUE_MODES = [
  { id: "2p", label: "2 players" },
  { id: "3p+", label: "3–4 players" },
  { id: "teams", label: "Teams of two" },
];
export const BOT_WAITS = [
  { value: null, label: "never: keep looking" },
  { value: 15, label: "after 15 s" },
  { value: 30, label: "after 30 s" },
  { value: 60, label: "after 1 min" },
  { value: 120, label: "after 2 min" },
  { value: 300, label: "after 5 min" },
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
    this.say("Joining the queue…");
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
      const near = m.near.toLocaleString(undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
      this.say(`Looking for players near ${near} … ±${m.gap.toFixed(1)}`, `waited ${m.waited} s · ranked`);
    } else if (m.type === "partner_wait") {
      this.say("Waiting for your partner to queue with you…", `they choose Teams and enter your id`);
    } else if (m.type === "matched") {
      const ws = this.ws;
      this.ws = null;
      ws?.close();
      this.onMatched(m);
    } else if (m.type === "error") {
      this.say(`Not queued: ${m.message}`);
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
