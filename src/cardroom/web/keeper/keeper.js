/**
 * The score keeper page (/keeper/): games played with physical cards, kept on this device and
 * on the server. Routes: #/ (my kept games), #/new, #/game/<key>, #/shared/<code> (read-only,
 * live). docs/keeper.md describes the page; book.js the offline queue.
 */
import { $, h, mount, toast } from "/js/dom.js";
import { player, remember } from "/js/identity.js";
import { keeperApi } from "./api.js";
import { Book } from "./book.js";
import { roundForm } from "./entry.js";
import { oppositeTeams } from "./score.js";
import { chartCard, describe, roundsCard, statusCard, totalsTable, viewOfKept } from "./sheet.js";

const app = $("#app");
const book = new Book();
let screen = null;

function route() {
  screen?.close?.();
  screen = null;
  const hash = location.hash || "#/";
  const shared = hash.match(/^#\/shared\/([\w-]+)/);
  const game = hash.match(/^#\/game\/([\w-]+)/);
  window.scrollTo(0, 0);
  if (shared) screen = new SharedScreen(shared[1]);
  else if (!player()) screen = new NameScreen();
  else if (hash.startsWith("#/new")) screen = new NewGameScreen();
  else if (game) screen = new GameScreen(game[1]);
  else screen = new HomeScreen();
  screen.open();
}

function go(hash) {
  if (location.hash === hash) route();
  else location.hash = hash;
}

/** The sync state in the top bar: saved, sending, or waiting for a connection. */
function paintSync() {
  const el = $("#sync-status");
  const waiting = book.waiting();
  let text = "Saved";
  let kind = "ok";
  if (waiting && book.offline) [text, kind] = [`Offline · ${waiting} waiting`, "offline"];
  else if (waiting) [text, kind] = [`Sending ${waiting}…`, "busy"];
  else if (book.offline) [text, kind] = ["Offline", "offline"];
  el.textContent = text;
  el.dataset.state = kind;
  el.dataset.waiting = String(waiting);
}

// -- who keeps the score ---------------------------------------------------------------------

class NameScreen {
  open() {
    const input = h("input", { name: "name", required: true, maxlength: "32", autocomplete: "nickname", placeholder: "e.g. Ada" });
    const form = h("form", { class: "kcard", id: "name-form" },
      h("h1", {}, "Score keeper"),
      h("p", {}, "Your games are kept under your name, on this phone and on the server."),
      h("label", {}, h("span", {}, "Your name"), input),
      h("button", { type: "submit", class: "btn primary big" }, "Continue"));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const out = await keeperApi.createPlayer(input.value.trim());
        remember(out.player, out.token);
        route();
      } catch (error) {
        toast(error.status === 0 ? "Connect once to choose your name; after that the keeper works offline." : error.message);
      }
    });
    mount(app, form);
  }
}

// -- my kept games ---------------------------------------------------------------------------

class HomeScreen {
  open() {
    this.list = h("ul", { class: "games", id: "my-games" });
    const code = h("input", { name: "code", placeholder: "ABCDE-FGHJK", autocomplete: "off", autocapitalize: "characters", maxlength: "11" });
    const watch = h("form", { class: "inline", id: "watch-form" }, code, h("button", { type: "submit", class: "btn" }, "Watch"));
    watch.addEventListener("submit", (e) => {
      e.preventDefault();
      if (code.value.trim()) go(`#/shared/${code.value.trim().toUpperCase()}`);
    });
    mount(app,
      h("section", { class: "kcard hero" },
        h("h1", {}, "Score keeper"),
        h("p", {}, "Playing Skyjo or Skip with real cards? Enter each round: the keeper adds up, doubles the closer when the rules say so, and tells you who wins."),
        h("a", { class: "btn primary big", href: "#/new", id: "new-game" }, "New game")),
      h("section", { class: "kcard", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, "My kept games"), this.list),
      h("section", { class: "kcard", "aria-labelledby": "watch-title" },
        h("h2", { id: "watch-title" }, "Watch a shared game"),
        h("p", { class: "muted small" }, "Type the code the keeper shows under Share."), watch));
    this.off = book.on(() => this.paint());
    this.paint();
    keeperApi.mine().then(({ games }) => book.merge(games)).catch(() => {});
  }

  close() {
    this.off?.();
  }

  paint() {
    const games = book.list();
    if (!games.length) {
      mount(this.list, h("li", { class: "muted" }, "No kept game yet."));
      return;
    }
    mount(this.list, games.map((g) => {
      const view = book.view(g.key);
      const r = view.results;
      let rounds = r.rounds.length;
      let state = view.status === "over" ? `${(r.winners || []).join(" & ")} won`
        : view.status === "closed" ? "finished"
          : r.leaders.length ? `${r.leaders.join(" & ")} ${r.leaders.length > 1 ? "lead" : "leads"}` : "not started";
      if (!view.loaded && g.summary) [rounds, state] = [g.summary.rounds, g.summary.outcome]; // not opened here yet
      return h("li", {},
        h("a", { href: `#/game/${g.key}`, class: "game-link", dataset: { key: g.key } },
          h("b", {}, view.loaded ? describe(view) : view.game === "skyjo" ? "Skyjo" : "Skip"),
          h("span", {}, view.players.join(", ")),
          h("small", { class: "muted" }, `${rounds} round${rounds === 1 ? "" : "s"} · ${state}`,
            view.pending ? h("span", { class: "pending" }, ` · ${view.pending} waiting`) : null)));
    }));
  }
}

// -- a new game ------------------------------------------------------------------------------

class NewGameScreen {
  open() {
    this.players = ["", ""];
    this.game = "skyjo";
    this.render();
  }

  render() {
    const skyjo = this.game === "skyjo";
    const kinds = h("div", { class: "segmented", role: "radiogroup", "aria-label": "Game" },
      ["skyjo", "skip"].map((g) => h("label", {},
        h("input", { type: "radio", name: "game", value: g, checked: g === this.game, onchange: () => { this.read(); this.game = g; this.render(); } }),
        h("span", {}, g === "skyjo" ? "Skyjo" : "Skip"))));
    const rows = this.players.map((name, i) => h("li", { class: "player-row" },
      h("input", { name: "player", value: name, maxlength: "24", placeholder: `Player ${i + 1}`, "aria-label": `Player ${i + 1}`, autocomplete: "off" }),
      h("button", { type: "button", class: "icon-btn", "aria-label": `move player ${i + 1} up`, disabled: i === 0, onclick: () => this.move(i, -1) }, "↑"),
      h("button", { type: "button", class: "icon-btn", "aria-label": `move player ${i + 1} down`, disabled: i === this.players.length - 1, onclick: () => this.move(i, 1) }, "↓"),
      h("button", { type: "button", class: "icon-btn", "aria-label": `remove player ${i + 1}`, disabled: this.players.length <= 2, onclick: () => { this.read(); this.players.splice(i, 1); this.render(); } }, "✕")));
    const extra = skyjo
      ? h("label", {}, h("span", {}, "The game ends when a total reaches"),
        h("input", { name: "end_score", type: "text", inputmode: "numeric", value: this.endScore ?? "100", class: "number" }))
      : h("div", { class: "skip-options" },
        h("label", {}, h("span", {}, "Match to"), h("select", { name: "match_target" },
          [["single", "one round"], ["25", "25"], ["200", "200"], ["500", "500 (official)"], ["800", "800"]].map(([v, t]) =>
            h("option", { value: v, selected: v === (this.target ?? "500") }, t)))),
        h("label", {}, h("span", {}, "Cards in each stock"), h("input", { name: "stock_size", type: "text", inputmode: "numeric", value: this.stock ?? "", placeholder: this.players.length <= 4 ? "30" : "20", class: "number" })),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "teams", checked: Boolean(this.teams), onchange: () => { this.read(); this.render(); } }), " Teams of two (partners sit opposite)"),
        this.teams && [4, 6, 8].includes(this.players.length)
          ? h("p", { class: "muted small", id: "teams-note" }, "Teams: ", oppositeTeams(this.players.map((p, i) => p || `Player ${i + 1}`)).map((t) => t.join(" & ")).join(", "), ". Move players to change them.")
          : this.teams ? h("p", { class: "problem" }, "Teams need 4, 6 or 8 players.") : null);
    const form = h("form", { class: "kcard", id: "new-form", novalidate: true },
      h("h1", {}, "New kept game"),
      kinds,
      h("h2", {}, "Players, in table order"),
      h("ol", { class: "players" }, rows),
      this.players.length < 8 ? h("button", { type: "button", class: "btn", id: "add-player", onclick: () => { this.read(); this.players.push(""); this.render(); } }, "+ Add a player") : null,
      extra,
      h("p", { class: "problem", id: "new-problem", role: "alert" }),
      h("button", { type: "submit", class: "btn primary big", id: "start" }, "Start keeping score"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.start(form);
    });
    mount(app, form);
    this.form = form;
  }

  /** Keep what was typed across a re-render. */
  read() {
    if (!this.form) return;
    this.players = [...this.form.querySelectorAll("input[name=player]")].map((i) => i.value);
    this.endScore = this.form.querySelector("[name=end_score]")?.value ?? this.endScore;
    this.target = this.form.querySelector("[name=match_target]")?.value ?? this.target;
    this.stock = this.form.querySelector("[name=stock_size]")?.value ?? this.stock;
    const teams = this.form.querySelector("[name=teams]");
    if (teams) this.teams = teams.checked;
  }

  move(i, by) {
    this.read();
    const [name] = this.players.splice(i, 1);
    this.players.splice(i + by, 0, name);
    this.render();
  }

  start(form) {
    this.read();
    const problem = form.querySelector("#new-problem");
    const players = this.players.map((p) => p.trim().replace(/\s+/g, " "));
    const fail = (text) => { problem.textContent = text; };
    if (players.some((p) => !p)) return fail("Give every player a name (or remove the empty rows).");
    const seen = new Set();
    for (const p of players) {
      if (seen.has(p.toLowerCase())) return fail(`${p} is there twice: names must differ.`);
      seen.add(p.toLowerCase());
    }
    let options;
    if (this.game === "skyjo") {
      const end = Number(this.endScore);
      if (!Number.isInteger(end) || end < 10 || end > 1000) return fail("The end score is a whole number from 10 to 1000.");
      options = { end_score: end };
    } else {
      options = { match_target: this.target === "single" ? "single" : Number(this.target) };
      if (this.stock) {
        const stock = Number(this.stock);
        if (!Number.isInteger(stock) || stock < 1) return fail("The stock size is a whole number of cards.");
        options.stock_size = stock;
      }
      if (this.teams) {
        if (![4, 6, 8].includes(players.length)) return fail("Teams need 4, 6 or 8 players.");
        options.teams = oppositeTeams(players);
      }
    }
    const key = book.create({ game: this.game, players, options });
    go(`#/game/${key}`);
  }
}

// -- keeping a game --------------------------------------------------------------------------

class GameScreen {
  constructor(key) {
    this.wanted = key;
    this.editing = null; // the round number being corrected
    this.formKey = null;
  }

  async open() {
    let g = book.find(this.wanted);
    if (!g) {
      mount(app, h("p", { class: "kcard muted" }, "Loading…"));
      try {
        const { kept } = await keeperApi.get(this.wanted);
        book.merge([{ id: kept.id, code: kept.code, game: kept.game, players: kept.sheet.players, revision: kept.revision, updated_at: kept.updated_at }]);
        g = book.find(this.wanted);
        book.accept(g, kept);
        book.save();
      } catch (error) {
        mount(app, h("p", { class: "kcard problem" }, error.status === 404 ? "There is no such kept game." : error.message));
        return;
      }
    }
    this.key = g.key;
    this.parts = {
      status: h("div"), totals: h("div"), form: h("div"), chart: h("div"),
      rounds: h("div"), actions: h("div"),
    };
    mount(app, h("div", { class: "keeper-game" }, Object.values(this.parts)));
    this.off = book.on((event) => this.changed(event));
    this.paint();
    if (g.stale || !g.kept) book.refresh(this.key);
  }

  close() {
    this.off?.();
  }

  changed(event) {
    if (event.type === "refused" && event.key === this.key) {
      const what = { create: "The game", round: "The round", edit: "The correction", undo: "The undo", order: "The new order" }[event.op.kind];
      toast(`${what} was not saved: ${event.error.message}`);
    }
    if (book.games[this.key]) this.paint();
    else go("#/");
  }

  paint() {
    const view = book.view(this.key);
    if (!view.loaded) {
      mount(this.parts.status, h("p", { class: "kcard muted" }, "Loading…"));
      return;
    }
    this.view = view;
    if (view.missing) {
      for (const part of Object.values(this.parts)) mount(part);
      this.formKey = null;
      mount(this.parts.status, h("section", { class: "kcard problem", id: "missing" },
        h("p", {}, "This game is no longer on the server: it was deleted from another device."),
        h("button", { type: "button", class: "btn", onclick: () => book.forget(this.key) }, "Remove it from this phone")));
      return;
    }
    mount(this.parts.status, statusCard(view));
    mount(this.parts.totals, h("div", { class: "kcard" }, totalsTable(view)));
    this.paintForm(view);
    mount(this.parts.chart, view.results.rounds.length ? chartCard(view) : null);
    mount(this.parts.rounds, roundsCard(view, { onEdit: view.status === "closed" ? null : (n) => this.edit(n) }));
    this.paintActions(view);
  }

  /** The form is made again only when what it enters changes, never while someone types. */
  paintForm(view) {
    const open = view.status === "playing";
    const number = view.rounds.length + 1;
    const seats = view.players.join("\n");
    const key = this.editing ? `edit-${this.editing}-${seats}` : open ? `add-${number}-${seats}` : "none";
    if (key === this.formKey) return;
    this.formKey = key;
    if (this.editing) {
      mount(this.parts.form, roundForm(view, {
        number: this.editing, initial: view.rounds[this.editing - 1],
        onSubmit: (round) => { const n = this.editing; this.editing = null; book.editRound(this.key, n, round); toast(`Round ${n} corrected.`, "info", 2500); },
        onCancel: () => { this.editing = null; this.paint(); },
      }));
    } else if (open) {
      mount(this.parts.form, roundForm(view, { number, onSubmit: (round) => book.addRound(this.key, round) }));
    } else {
      mount(this.parts.form, null);
    }
  }

  edit(number) {
    this.editing = number;
    this.paint();
    this.parts.form.scrollIntoView({ block: "start" });
    this.parts.form.querySelector("input.number")?.focus();
  }

  paintActions(view) {
    const canUndo = view.rounds.length > 0 && view.status !== "closed";
    const confirmUndo = h("div", { class: "confirm", hidden: true, id: "undo-confirm" },
      h("span", {}, `Take back round ${view.rounds.length}?`),
      h("button", { type: "button", class: "btn danger", id: "undo-yes", onclick: () => book.undo(this.key) }, "Yes, undo"),
      h("button", { type: "button", class: "btn", onclick: () => { confirmUndo.hidden = true; } }, "Keep it"));
    mount(this.parts.actions, h("section", { class: "kcard actions", "aria-label": "Game actions" },
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "btn", id: "undo", disabled: !canUndo, onclick: () => { confirmUndo.hidden = false; } }, "↶ Undo last round"),
        h("button", { type: "button", class: "btn", id: "share", onclick: () => this.share() }, "Share"),
        h("button", { type: "button", class: "btn", id: "export-csv", onclick: () => this.download("csv") }, "Export CSV"),
        h("button", { type: "button", class: "btn", id: "export-json", onclick: () => this.download("json") }, "Export JSON")),
      confirmUndo,
      h("div", { id: "share-box" }),
      h("details", { class: "more" }, h("summary", {}, "More"),
        view.status !== "closed" ? this.seating(view) : null,
        h("div", { class: "buttons" },
          view.status === "playing" ? h("button", { type: "button", class: "btn", id: "finish", onclick: () => this.finish() }, "Finish the game now") : null,
          h("button", { type: "button", class: "btn danger", id: "delete", onclick: () => this.remove() }, "Delete this game")))));
  }

  seating(view) {
    const order = [...view.players];
    const list = h("ol", { class: "players compact" });
    const draw = () => mount(list, order.map((p, i) => h("li", { class: "player-row" }, h("span", {}, p),
      h("button", { type: "button", class: "icon-btn", "aria-label": `move ${p} up`, disabled: i === 0, onclick: () => { order.splice(i - 1, 0, order.splice(i, 1)[0]); draw(); } }, "↑"),
      h("button", { type: "button", class: "icon-btn", "aria-label": `move ${p} down`, disabled: i === order.length - 1, onclick: () => { order.splice(i + 1, 0, order.splice(i, 1)[0]); draw(); } }, "↓"))));
    draw();
    return h("div", { class: "seating" }, h("h3", {}, "Seating order"), list,
      h("button", { type: "button", class: "btn", id: "save-order", onclick: () => book.reorder(this.key, order) }, "Save the order"));
  }

  share() {
    const box = $("#share-box");
    const view = this.view;
    if (!view.code) {
      mount(box, h("p", { class: "muted" }, "The share code comes as soon as this game reaches the server."));
      return;
    }
    const link = `${location.origin}/keeper/#/shared/${view.code}`;
    const field = h("input", { readonly: true, value: link, id: "share-link", "aria-label": "Link to this game" });
    mount(box, h("div", { class: "share" },
      h("p", {}, "Others at the table open this link (or type the code under “Watch a shared game”) and see the score live, read-only."),
      h("p", { class: "code", id: "share-code" }, view.code),
      field,
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "btn", onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast("Link copied.", "info", 2000);
          } catch {
            field.select();
          }
        } }, "Copy the link"),
        navigator.share ? h("button", { type: "button", class: "btn", onclick: () => navigator.share({ title: describe(view), url: link }).catch(() => {}) }, "Send…") : null)));
    box.scrollIntoView({ block: "center" });
  }

  async download(kind) {
    const view = this.view;
    if (!view.id || view.pending) {
      toast("This game has entries not yet on the server: export once they are sent.", "info");
      return;
    }
    try {
      const blob = await keeperApi.exportFile(view.id, kind);
      const a = h("a", { href: URL.createObjectURL(blob), download: `${view.game}-${view.code}.${kind}` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch (error) {
      toast(error.message);
    }
  }

  async finish() {
    const g = book.games[this.key];
    try {
      const { kept } = await keeperApi.finish(g.id);
      book.accept(g, kept);
      book.save();
      book.emit();
    } catch (error) {
      toast(error.status === 0 ? "Connect to finish the game." : error.message);
    }
  }

  async remove() {
    const g = book.games[this.key];
    const box = $("#share-box");
    mount(box, h("div", { class: "confirm" }, h("span", {}, "Delete this game for good?"),
      h("button", { type: "button", class: "btn danger", id: "delete-yes", onclick: async () => {
        try {
          if (g.id) await keeperApi.remove(g.id);
          book.forget(this.key);
        } catch (error) {
          toast(error.status === 0 ? "Connect to delete the game." : error.message);
        }
      } }, "Delete"),
      h("button", { type: "button", class: "btn", onclick: () => mount(box) }, "Keep it")));
    box.scrollIntoView({ block: "center" });
  }
}

// -- a shared game, read-only and live -------------------------------------------------------

class SharedScreen {
  constructor(code) {
    this.code = code;
    this.delay = 1000;
  }

  open() {
    this.live = h("p", { class: "live", id: "live", dataset: { state: "connecting" } }, "Connecting…");
    this.body = h("div", { class: "keeper-game" }, h("p", { class: "kcard muted" }, "Loading…"));
    mount(app, this.live, this.body);
    this.connect();
  }

  close() {
    this.closed = true;
    this.socket?.close();
    clearTimeout(this.timer);
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/keeper/${encodeURIComponent(this.code)}`);
    this.socket = socket;
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "kept" && (!this.kept || message.kept.revision >= this.kept.revision)) {
        this.kept = message.kept;
        this.delay = 1000;
        this.state("live", "Live: updates as rounds are entered");
        this.paint();
      } else if (message.type === "gone" || message.code === "not_found") {
        this.gone = true;
        this.state("gone", "This game is not shared (any more).");
        mount(this.body, h("p", { class: "kcard problem" }, "No kept game has this code: check it with its keeper."));
      }
    };
    socket.onclose = () => {
      if (this.closed || this.gone) return;
      this.state("offline", "Reconnecting…");
      this.timer = setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 15000);
    };
  }

  state(kind, text) {
    this.live.dataset.state = kind;
    this.live.textContent = text;
  }

  paint() {
    const view = viewOfKept(this.kept);
    const code = encodeURIComponent(view.code);
    mount(this.body,
      statusCard(view),
      h("div", { class: "kcard" }, h("p", { class: "muted small" }, `Kept by ${view.owner.name} · code ${view.code}`), totalsTable(view)),
      view.results.rounds.length ? chartCard(view) : null,
      roundsCard(view),
      h("section", { class: "kcard actions" }, h("div", { class: "buttons" },
        h("a", { class: "btn", href: `/api/keeper/shared/${code}/export.csv`, download: "" }, "Export CSV"),
        h("a", { class: "btn", href: `/api/keeper/shared/${code}/export.json`, download: "" }, "Export JSON"))));
  }
}

// -- boot ------------------------------------------------------------------------------------

book.on(paintSync);
paintSync();
window.addEventListener("hashchange", route);
route();
book.sync();
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
