/**
 * The kept games on this device and the entries waiting to be sent (localStorage).
 *
 * Every entry gets its id when it is made and is written down before it is sent; it leaves
 * the queue only when the server has answered. A page reloaded, or a connection lost, in the
 * middle sends the same entry again, and the server applies an entry id once: no entry is
 * lost, none counts twice. Corrections and undos carry the revision the person saw (the
 * server's, plus this device's entries before them), so one made on an old picture is refused
 * rather than applied to a game that changed elsewhere.
 */
import { player } from "/js/identity.js";
import { keeperApi } from "./api.js";
import { scoreSheet } from "./score.js";

const STORE = "cardroom.keeper.v1";
const RETRY_MS = 4000;

export function entryId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return "e-" + [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const DEFAULTS = {
  skyjo: (o) => ({ end_score: o.end_score ?? 100 }),
  skip: (o) => ({ match_target: o.match_target ?? 500, stock_size: o.stock_size ?? null, teams: o.teams || [] }),
};

export class Book {
  constructor() {
    this.games = {};
    this.offline = !navigator.onLine;
    this.listeners = new Set();
    this.syncing = null;
    this.load();
    window.addEventListener("online", () => this.sync());
    window.addEventListener("offline", () => { this.offline = true; this.emit(); });
    window.addEventListener("storage", (e) => { if (e.key === STORE) { this.load(); this.emit(); } });
    setInterval(() => { if (this.waiting()) this.sync(); }, RETRY_MS);
  }

  load() {
    try {
      this.games = JSON.parse(localStorage.getItem(STORE) || "{}").games || {};
    } catch {
      this.games = {};
    }
  }

  save() {
    localStorage.setItem(STORE, JSON.stringify({ games: this.games }));
  }

  on(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event = { type: "change" }) {
    for (const listener of this.listeners) listener(event);
  }

  /** Entries not yet on the server, on all games. */
  waiting() {
    return this.mine().reduce((n, g) => n + g.pending.length, 0);
  }

  /** This player's games (a shared phone may have kept games under other names). */
  mine() {
    const me = player()?.id;
    return Object.values(this.games).filter((g) => !g.player || g.player === me);
  }

  list() {
    return this.mine().sort((a, b) => b.updated - a.updated);
  }

  find(keyOrId) {
    return this.games[keyOrId] || Object.values(this.games).find((g) => g.id === keyOrId) || null;
  }

  // -- making entries ------------------------------------------------------------------------

  /** A new game: kept here at once, created on the server when it can be reached. */
  create(setup) {
    const key = "local-" + entryId().slice(2, 14);
    const entry = entryId();
    this.games[key] = {
      key, id: null, code: null, kept: null, setup, updated: Date.now(), player: player()?.id,
      pending: [{ kind: "create", entry, body: { ...setup, entry } }],
    };
    this.commit(this.games[key]);
    return key;
  }

  addRound(key, round) {
    this.enqueue(key, { kind: "round", round });
  }

  editRound(key, number, round) {
    this.enqueue(key, { kind: "edit", number, round });
  }

  undo(key) {
    this.enqueue(key, { kind: "undo" });
  }

  reorder(key, players) {
    this.enqueue(key, { kind: "order", players });
  }

  enqueue(key, op) {
    const g = this.games[key];
    g.pending.push({ ...op, entry: entryId(), basedOn: this.view(key).revision });
    this.commit(g);
  }

  commit(g) {
    g.updated = Date.now();
    this.save(); // written down before it is sent
    this.emit();
    this.sync();
  }

  forget(key) {
    delete this.games[key];
    this.save();
    this.emit();
  }

  // -- what the page shows -------------------------------------------------------------------

  /** The game as the server last said, with this device's waiting entries applied. */
  view(key) {
    const g = this.games[key];
    if (!g) return null;
    const base = g.kept?.sheet;
    const game = base?.game ?? g.setup?.game ?? g.summary?.game;
    let players = [...(base?.players ?? g.setup?.players ?? g.summary?.players ?? [])];
    const options = base?.options ?? DEFAULTS[game](g.setup?.options || {});
    const rounds = [...(base?.rounds ?? [])];
    const waiting = new Set();
    let changes = 0;
    for (const op of g.pending) {
      if (op.kind === "create") continue;
      changes += 1;
      if (op.kind === "round") {
        rounds.push(op.round);
        waiting.add(rounds.length);
      } else if (op.kind === "edit" && op.number <= rounds.length) {
        rounds[op.number - 1] = op.round;
        waiting.add(op.number);
      } else if (op.kind === "undo") {
        waiting.delete(rounds.length);
        rounds.pop();
      } else if (op.kind === "order") {
        players = [...op.players];
      }
    }
    const loaded = Boolean(g.kept) || Boolean(g.setup);
    const results = changes || !base ? scoreSheet(game, players, options, rounds) : base.results;
    return {
      key, id: g.id, code: g.kept?.code ?? null, game, players, options, rounds, results, loaded,
      notes: !changes && base ? base.results.rounds.map((r) => r.note) : null,
      waiting, pending: g.pending.length,
      revision: (g.kept?.revision ?? 1) + changes,
      status: g.kept?.status === "closed" ? "closed" : results.over ? "over" : "playing",
      owner: g.kept?.owner ?? null,
      missing: Boolean(g.missing),
    };
  }

  // -- the server ----------------------------------------------------------------------------

  accept(g, kept) {
    g.kept = kept;
    g.id = kept.id;
    g.code = kept.code;
    delete g.summary;
    delete g.missing;
  }

  /** Games kept on the server by this player that this device has not seen yet. */
  merge(summaries) {
    for (const s of summaries) {
      const known = this.find(s.id);
      if (known) {
        if (!known.kept || known.kept.revision < s.revision) known.stale = true;
        continue;
      }
      this.games[s.id] = { key: s.id, id: s.id, code: s.code, kept: null, summary: s, pending: [], updated: Date.parse(s.updated_at) || 0, stale: true, player: player()?.id };
    }
    this.save();
    this.emit();
  }

  /** The server's newest picture of a game (nothing waiting: the local picture is not lost). */
  async refresh(key) {
    const g = this.games[key];
    if (!g?.id) return;
    try {
      const { kept } = await keeperApi.get(g.id);
      if (g.pending.length) return;
      this.accept(g, kept);
      delete g.stale;
      this.offline = false;
    } catch (error) {
      if (error.status === 0) this.offline = true;
      else if (error.status === 404) g.missing = true;
      else throw error;
    }
    this.save();
    this.emit();
  }

  /** Send what waits, oldest first, one game after another; stop at the first failure to
   * reach the server (the timer and the "online" event try again). */
  sync() {
    if (!this.syncing) {
      this.syncing = this.run().finally(() => {
        this.syncing = null;
        this.emit();
      });
    }
    return this.syncing;
  }

  async run() {
    for (;;) {
      const g = this.mine().find((x) => x.pending.length && !x.blocked);
      if (!g) return;
      if (!(await this.send(g))) return;
    }
  }

  async send(g) {
    while (g.pending.length) {
      const op = g.pending[0];
      let answer;
      try {
        answer = await this.request(g, op);
      } catch (error) {
        if (error.retry || error.status === 401) {
          this.offline = error.status === 0;
          this.emit();
          return false;
        }
        g.pending.shift(); // refused: the server stored nothing, and never will
        if (op.kind === "create") {
          g.pending = [];
          g.blocked = true;
        }
        this.save();
        this.emit({ type: "refused", key: g.key, op, error });
        if (g.id && !g.pending.length) await this.refresh(g.key);
        continue;
      }
      this.offline = false;
      g.pending.shift();
      this.accept(g, answer.kept);
      this.save();
      this.emit();
    }
    return true;
  }

  request(g, op) {
    switch (op.kind) {
      case "create": return keeperApi.create(op.body);
      case "round": return keeperApi.addRound(g.id, op.entry, op.round);
      case "edit": return keeperApi.editRound(g.id, op.number, op.entry, op.basedOn, op.round);
      case "undo": return keeperApi.undo(g.id, op.entry, op.basedOn);
      default: return keeperApi.reorder(g.id, op.entry, op.basedOn, op.players);
    }
  }
}
