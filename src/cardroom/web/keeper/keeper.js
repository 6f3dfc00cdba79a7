/**
 * The score keeper page (/keeper/): games played with physical cards, kept on this device and
 * on the server. Routes: #/ (my kept games), #/new, #/game/<key>, #/shared/<code> (read-only,
 * live). docs/keeper.md describes the page; book.js the offline queue.
 */
import { $, h, mount, toast } from "/js/dom.js";
import { adopt, languagePicker, list, t, translatePage } from "/js/i18n.js";
import { refusalText } from "/js/refusal.js";
import { player, remember, token } from "/js/identity.js";
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
  let text = t("keeper.sync.saved");
  let kind = "ok";
  if (waiting && book.offline) [text, kind] = [t("keeper.sync.offline_waiting", { count: waiting }), "offline"];
  else if (waiting) [text, kind] = [t("keeper.sync.sending", { count: waiting }), "busy"];
  else if (book.offline) [text, kind] = [t("keeper.sync.offline"), "offline"];
  el.textContent = text;
  el.dataset.state = kind;
  el.dataset.waiting = String(waiting);
}

// -- who keeps the score ---------------------------------------------------------------------

class NameScreen {
  open() {
    const input = h("input", { name: "name", required: true, maxlength: "32", autocomplete: "nickname", placeholder: t("keeper.name.placeholder") });
    const form = h("form", { class: "kcard", id: "name-form" },
      h("h1", {}, t("keeper.title")),
      h("p", {}, t("keeper.name.intro")),
      h("label", {}, h("span", {}, t("keeper.name.label")), input),
      h("button", { type: "submit", class: "btn primary big" }, t("common.continue")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const out = await keeperApi.createPlayer(input.value.trim());
        remember(out.player, out.token);
        route();
      } catch (error) {
        toast(error.status === 0 ? t("keeper.name.offline") : error.message);
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
    const watch = h("form", { class: "inline", id: "watch-form" }, code, h("button", { type: "submit", class: "btn" }, t("keeper.watch")));
    watch.addEventListener("submit", (e) => {
      e.preventDefault();
      if (code.value.trim()) go(`#/shared/${code.value.trim().toUpperCase()}`);
    });
    mount(app,
      h("section", { class: "kcard hero" },
        h("h1", {}, t("keeper.title")),
        h("p", {}, t("keeper.home.intro")),
        h("a", { class: "btn primary big", href: "#/new", id: "new-game" }, t("keeper.new_game"))),
      h("section", { class: "kcard", "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, t("keeper.home.mine")), this.list),
      h("section", { class: "kcard", "aria-labelledby": "watch-title" },
        h("h2", { id: "watch-title" }, t("keeper.home.watch_title")),
        h("p", { class: "muted small" }, t("keeper.home.watch_hint")), watch));
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
      mount(this.list, h("li", { class: "muted" }, t("keeper.home.none")));
      return;
    }
    mount(this.list, games.map((g) => {
      const view = book.view(g.key);
      const r = view.results;
      let rounds = r.rounds.length;
      let [status, winners, leaders] = [view.status, r.winners || [], r.leaders];
      if (!view.loaded && g.summary) { // not opened here yet: the server's summary
        const s = g.summary;
        [rounds, status, winners, leaders] = [s.rounds, s.winners ? "over" : s.status, s.winners || [], s.leaders || []];
      }
      const state = status === "over" ? t("keeper.home.won", { names: list(winners) })
        : status === "closed" ? t("keeper.home.finished")
          : leaders.length ? t("keeper.home.leads", { names: list(leaders), count: leaders.length }) : t("keeper.home.not_started");
      return h("li", {},
        h("a", { href: `#/game/${g.key}`, class: "game-link", dataset: { key: g.key } },
          h("b", {}, view.loaded ? describe(view) : view.game === "skyjo" ? "Skyjo" : "Skip"),
          h("span", {}, view.players.join(", ")),
          h("small", { class: "muted" }, `${t("keeper.rounds_count", { count: rounds })} · ${state}`,
            view.pending ? h("span", { class: "pending" }, ` · ${t("keeper.waiting", { count: view.pending })}`) : null)));
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
    const kinds = h("div", { class: "segmented", role: "radiogroup", "aria-label": t("keeper.new.game") },
      ["skyjo", "skip"].map((g) => h("label", {},
        h("input", { type: "radio", name: "game", value: g, checked: g === this.game, onchange: () => { this.read(); this.game = g; this.render(); } }),
        h("span", {}, g === "skyjo" ? "Skyjo" : "Skip"))));
    const rows = this.players.map((name, i) => h("li", { class: "player-row" },
      h("input", { name: "player", value: name, maxlength: "24", placeholder: t("keeper.new.player", { n: i + 1 }), "aria-label": t("keeper.new.player", { n: i + 1 }), autocomplete: "off" }),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("keeper.new.up", { n: i + 1 }), disabled: i === 0, onclick: () => this.move(i, -1) }, "↑"),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("keeper.new.down", { n: i + 1 }), disabled: i === this.players.length - 1, onclick: () => this.move(i, 1) }, "↓"),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("keeper.new.remove", { n: i + 1 }), disabled: this.players.length <= 2, onclick: () => { this.read(); this.players.splice(i, 1); this.render(); } }, "✕")));
    const extra = skyjo
      ? h("label", {}, h("span", {}, t("keeper.new.end_score")),
        h("input", { name: "end_score", type: "text", inputmode: "numeric", value: this.endScore ?? "100", class: "number" }))
      : h("div", { class: "skip-options" },
        h("label", {}, h("span", {}, t("keeper.new.match_to")), h("select", { name: "match_target" },
          [["single", t("keeper.one_round")], ["25", "25"], ["200", "200"], ["500", t("keeper.new.official", { n: 500 })], ["800", "800"]].map(([v, text]) =>
            h("option", { value: v, selected: v === (this.target ?? "500") }, text)))),
        h("label", {}, h("span", {}, t("keeper.new.stock_size")), h("input", { name: "stock_size", type: "text", inputmode: "numeric", value: this.stock ?? "", placeholder: this.players.length <= 4 ? "30" : "20", class: "number" })),
        h("label", { class: "check" }, h("input", { type: "checkbox", name: "teams", checked: Boolean(this.teams), onchange: () => { this.read(); this.render(); } }), ` ${t("keeper.new.teams")}`),
        this.teams && [4, 6, 8].includes(this.players.length)
          ? h("p", { class: "muted small", id: "teams-note" }, t("keeper.new.teams_note", { teams: oppositeTeams(this.players.map((p, i) => p || t("keeper.new.player", { n: i + 1 }))).map((team) => team.join(" & ")).join(", ") }))
          : this.teams ? h("p", { class: "problem" }, t("keeper.new.teams_count")) : null);
    const form = h("form", { class: "kcard", id: "new-form", novalidate: true },
      h("h1", {}, t("keeper.new.title")),
      kinds,
      h("h2", {}, t("keeper.new.players")),
      h("ol", { class: "players" }, rows),
      this.players.length < 8 ? h("button", { type: "button", class: "btn", id: "add-player", onclick: () => { this.read(); this.players.push(""); this.render(); } }, t("keeper.new.add")) : null,
      extra,
      h("p", { class: "problem", id: "new-problem", role: "alert" }),
      h("button", { type: "submit", class: "btn primary big", id: "start" }, t("keeper.new.start")));
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
    if (players.some((p) => !p)) return fail(t("keeper.new.unnamed"));
    const seen = new Set();
    for (const p of players) {
      if (seen.has(p.toLowerCase())) return fail(t("keeper.new.twice", { name: p }));
      seen.add(p.toLowerCase());
    }
    let options;
    if (this.game === "skyjo") {
      const end = Number(this.endScore);
      if (!Number.isInteger(end) || end < 10 || end > 1000) return fail(t("keeper.new.bad_end"));
      options = { end_score: end };
    } else {
      options = { match_target: this.target === "single" ? "single" : Number(this.target) };
      if (this.stock) {
        const stock = Number(this.stock);
        if (!Number.isInteger(stock) || stock < 1) return fail(t("keeper.new.bad_stock"));
        options.stock_size = stock;
      }
      if (this.teams) {
        if (![4, 6, 8].includes(players.length)) return fail(t("keeper.new.teams_count"));
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
      mount(app, h("p", { class: "kcard muted" }, t("common.loading")));
      try {
        const { kept } = await keeperApi.get(this.wanted);
        book.merge([{ id: kept.id, code: kept.code, game: kept.game, players: kept.sheet.players, revision: kept.revision, updated_at: kept.updated_at }]);
        g = book.find(this.wanted);
        book.accept(g, kept);
        book.save();
      } catch (error) {
        mount(app, h("p", { class: "kcard problem" }, error.status === 404 ? t("keeper.game.no_such") : refusalText(error)));
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
      toast(t(`keeper.refused.${event.op.kind}`, { reason: refusalText(event.error) }));
    }
    if (book.games[this.key]) this.paint();
    else go("#/");
  }

  paint() {
    const view = book.view(this.key);
    if (!view.loaded) {
      mount(this.parts.status, h("p", { class: "kcard muted" }, t("common.loading")));
      return;
    }
    this.view = view;
    if (view.missing) {
      for (const part of Object.values(this.parts)) mount(part);
      this.formKey = null;
      mount(this.parts.status, h("section", { class: "kcard problem", id: "missing" },
        h("p", {}, t("keeper.game.missing")),
        h("button", { type: "button", class: "btn", onclick: () => book.forget(this.key) }, t("keeper.game.forget"))));
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
        onSubmit: (round) => { const n = this.editing; this.editing = null; book.editRound(this.key, n, round); toast(t("keeper.game.corrected", { n }), "info", 2500); },
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
      h("span", {}, t("keeper.undo.ask", { n: view.rounds.length })),
      h("button", { type: "button", class: "btn danger", id: "undo-yes", onclick: () => book.undo(this.key) }, t("keeper.undo.yes")),
      h("button", { type: "button", class: "btn", onclick: () => { confirmUndo.hidden = true; } }, t("keeper.keep")));
    mount(this.parts.actions, h("section", { class: "kcard actions", "aria-label": t("keeper.actions") },
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "btn", id: "undo", disabled: !canUndo, onclick: () => { confirmUndo.hidden = false; } }, t("keeper.undo.button")),
        h("button", { type: "button", class: "btn", id: "share", onclick: () => this.share() }, t("keeper.share")),
        h("button", { type: "button", class: "btn", id: "export-csv", onclick: () => this.download("csv") }, t("keeper.export_csv")),
        h("button", { type: "button", class: "btn", id: "export-json", onclick: () => this.download("json") }, t("keeper.export_json"))),
      confirmUndo,
      h("div", { id: "share-box" }),
      h("details", { class: "more" }, h("summary", {}, t("keeper.more")),
        view.status !== "closed" ? this.seating(view) : null,
        h("div", { class: "buttons" },
          view.status === "playing" ? h("button", { type: "button", class: "btn", id: "finish", onclick: () => this.finish() }, t("keeper.finish")) : null,
          h("button", { type: "button", class: "btn danger", id: "delete", onclick: () => this.remove() }, t("keeper.delete"))))));
    // Every change paints the actions anew: a share box once opened stays open, and gets its
    // code the moment the game reaches the server (asked for before, it said "comes soon").
    if (this.sharing) this.share({ scroll: false });
  }

  seating(view) {
    const order = [...view.players];
    const list = h("ol", { class: "players compact" });
    const draw = () => mount(list, order.map((p, i) => h("li", { class: "player-row" }, h("span", {}, p),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("keeper.seating.up", { name: p }), disabled: i === 0, onclick: () => { order.splice(i - 1, 0, order.splice(i, 1)[0]); draw(); } }, "↑"),
      h("button", { type: "button", class: "icon-btn", "aria-label": t("keeper.seating.down", { name: p }), disabled: i === order.length - 1, onclick: () => { order.splice(i + 1, 0, order.splice(i, 1)[0]); draw(); } }, "↓"))));
    draw();
    return h("div", { class: "seating" }, h("h3", {}, t("keeper.seating.title")), list,
      h("button", { type: "button", class: "btn", id: "save-order", onclick: () => book.reorder(this.key, order) }, t("keeper.seating.save")));
  }

  share({ scroll = true } = {}) {
    this.sharing = true;
    const box = $("#share-box");
    const view = this.view;
    if (!view.code) {
      mount(box, h("p", { class: "muted" }, t("keeper.share.later")));
      return;
    }
    // Made once per code and moved into each new box: a repaint neither fetches the QR code
    // again (a share-code lookup, rate-limited) nor loses the link's selection.
    if (this.shared?.code !== view.code) this.shared = { code: view.code, box: this.shareCard(view) };
    mount(box, this.shared.box);
    if (scroll) box.scrollIntoView({ block: "center" });
  }

  shareCard(view) {
    const link = `${location.origin}/keeper/#/shared/${view.code}`;
    const field = h("input", { readonly: true, value: link, id: "share-link", "aria-label": t("keeper.share.link") });
    return h("div", { class: "share" },
      h("p", {}, t("keeper.share.explain")),
      h("p", { class: "code", id: "share-code" }, view.code),
      // Scanned from this phone by the others at the table (the server draws it: it knows the
      // link it serves the sheet at).
      h("img", { class: "share-qr", id: "share-qr", src: `/api/keeper/shared/${encodeURIComponent(view.code)}/qr.svg`,
        alt: t("keeper.share.qr", { code: view.code }), width: 200, height: 200 }),
      field,
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "btn", onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            toast(t("keeper.share.copied"), "info", 2000);
          } catch {
            field.select();
          }
        } }, t("keeper.share.copy")),
        navigator.share ? h("button", { type: "button", class: "btn", onclick: () => navigator.share({ title: describe(this.view), url: link }).catch(() => {}) }, t("keeper.share.send")) : null));
  }

  async download(kind) {
    const view = this.view;
    if (!view.id || view.pending) {
      toast(t("keeper.export.wait"), "info");
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
      toast(refusalText(error));
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
      toast(error.status === 0 ? t("keeper.finish.offline") : refusalText(error));
    }
  }

  async remove() {
    this.sharing = false;  // the box asks about deleting now
    const g = book.games[this.key];
    const box = $("#share-box");
    mount(box, h("div", { class: "confirm" }, h("span", {}, t("keeper.delete.ask")),
      h("button", { type: "button", class: "btn danger", id: "delete-yes", onclick: async () => {
        try {
          if (g.id) await keeperApi.remove(g.id);
          book.forget(this.key);
        } catch (error) {
          toast(error.status === 0 ? t("keeper.delete.offline") : refusalText(error));
        }
      } }, t("keeper.delete.yes")),
      h("button", { type: "button", class: "btn", onclick: () => mount(box) }, t("keeper.keep"))));
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
    this.live = h("p", { class: "live", id: "live", dataset: { state: "connecting" } }, t("keeper.shared.connecting"));
    this.body = h("div", { class: "keeper-game" }, h("p", { class: "kcard muted" }, t("common.loading")));
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
        this.state("live", t("keeper.shared.live"));
        this.paint();
      } else if (message.type === "gone" || message.code === "not_found") {
        this.gone = true;
        this.state("gone", t("keeper.shared.gone"));
        mount(this.body, h("p", { class: "kcard problem" }, t("keeper.shared.no_code")));
      }
    };
    socket.onclose = () => {
      if (this.closed || this.gone) return;
      this.state("offline", t("keeper.shared.reconnecting"));
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
      h("div", { class: "kcard" }, h("p", { class: "muted small" }, t("keeper.shared.kept_by", { name: view.owner.name, code: view.code })), totalsTable(view)),
      view.results.rounds.length ? chartCard(view) : null,
      roundsCard(view),
      h("section", { class: "kcard actions" }, h("div", { class: "buttons" },
        h("a", { class: "btn", href: `/api/keeper/shared/${code}/export.csv`, download: "" }, t("keeper.export_csv")),
        h("a", { class: "btn", href: `/api/keeper/shared/${code}/export.json`, download: "" }, t("keeper.export_json")))));
  }
}

// -- boot ------------------------------------------------------------------------------------

/** The account's language, kept with the player (PUT /api/me/language). */
async function saveLanguage(code) {
  if (token()) await keeperApi.setLanguage(code);
}

translatePage();
$("#lang-slot")?.replaceWith(languagePicker({ save: saveLanguage }));
if (token()) keeperApi.language().then(({ language }) => adopt(language)).catch(() => {});

book.on(paintSync);
paintSync();
window.addEventListener("hashchange", route);
route();
book.sync();
if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
