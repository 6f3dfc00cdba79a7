/**
 * The lobby: a display name, the game (Skip or Skyjo), one-click play against bots, the ranked
 * queue (matched by rating), a table with house rules, a private table by name, and the live
 * list of public tables (join or watch) with each player's division badge.
 */
import { api } from "./api.js";
import { h, mount, toast } from "./dom.js";
import { has, num, t } from "./i18n.js";

const tr = t; // where `t` is a table
import { player, remember } from "./identity.js";
import { GAME_NAMES, gameTitle, rulesFor } from "./games/index.js";
import { LENGTHS as SKYJO_LENGTHS } from "./games/skyjo/rules.js";
import { cardEl } from "./render/cards.js";
import { badgeEl, badgesFor, modeOf } from "./badges.js";
import { BOT_WAITS, QUEUE_MODES, RankedQueue } from "./queue.js";

const LENGTHS = {
  quick: { label: "lobby.length.quick", options: { stock_size: 10, match_target: null } }, // labels: catalog keys
  short: { label: "lobby.length.short", options: { stock_size: 10, match_target: 200 } },
  official: { label: "lobby.length.official", options: {} },
};
const POLL_MS = 4000;
const GAME_KEY = "cardroom.game";
const BLURBS = { skip: "lobby.blurb.skip", skyjo: "lobby.blurb.skyjo" }; // catalog keys

/** A bot level's name and what it does, in the player's words (the server's are English). */
export function levelName(level) {
  return has(`level.${level.id}`) ? t(`level.${level.id}`) : level.name;
}

function levelDescription(level, game) {
  const key = `level.${game}.${level.id}`;
  return has(key) ? t(key) : level.description;
}

export class Lobby {
  constructor(root, { levels, openTable }) {
    this.root = root;
    this.levels = levels;
    this.openTable = openTable;
    this.poll = null;
    this.busy = false;
    this.levelsByGame = { skip: levels };
    const saved = localStorage.getItem(GAME_KEY);
    this.game = GAME_NAMES.includes(saved) ? saved : "skip";
    this.queue = null;
    window.addEventListener("cardroom:badges", () => {
      if (this.list?.isConnected && this.lastTables) this.drawTables(this.lastTables, this.lastTotal);
    });
  }

  /** The bot levels of the chosen game (fetched once per game). */
  async gameLevels() {
    if (!this.levelsByGame[this.game]) {
      try {
        this.levelsByGame[this.game] = (await api.levels(this.game)).levels;
      } catch {
        this.levelsByGame[this.game] = [{ id: "easy", name: t("level.easy"), description: "" }];
      }
    }
    return this.levelsByGame[this.game];
  }

  async chooseGame(game) {
    this.game = game;
    try {
      localStorage.setItem(GAME_KEY, game);
    } catch {
      /* private mode: the choice lasts for this page only */
    }
    this.levels = await this.gameLevels();
    this.show();
  }

  gamePicker() {
    return h("div", { class: "game-picker", role: "radiogroup", "aria-label": t("lobby.game"), id: "game-picker" },
      GAME_NAMES.map((game) => h("button", {
        type: "button",
        role: "radio",
        class: `game-choice${game === this.game ? " chosen" : ""}`,
        "data-game": game,
        "aria-checked": String(game === this.game),
        onclick: () => (game === this.game ? null : this.chooseGame(game)),
      }, h("b", {}, gameTitle(game)), h("small", {}, t(BLURBS[game])))));
  }

  show() {
    const me = player();
    if (!me) {
      mount(this.root, this.namePanel());
      this.root.querySelector("input[name=name]")?.focus();
      return;
    }
    this.list = h("div", { class: "table-list", id: "table-list", "aria-live": "polite" }, h("p", { class: "muted" }, t("lobby.loading_tables")));
    if (!this.levelsByGame[this.game]) {
      this.gameLevels().then((levels) => {
        this.levels = levels;
        if (this.root.isConnected) this.show();
      });
      return;
    }
    this.levels = this.levelsByGame[this.game];
    mount(this.root, h("div", { class: "lobby", "data-game": this.game },
      h("section", { class: "panel hero", "aria-labelledby": "play-title" }, this.gamePicker(), this.playPanel(), this.rankedPanel()),
      h("section", { class: "panel", "aria-labelledby": "tables-title" },
        h("h2", { id: "tables-title" }, t("lobby.open_tables")), this.list),
      h("section", { class: "panel", "aria-labelledby": "create-title" }, this.createPanel()),
      h("section", { class: "panel", "aria-labelledby": "join-title" }, this.joinPanel(), this.namePanel(true))));
    this.refresh();
    clearInterval(this.poll);
    this.poll = setInterval(() => this.refresh(), POLL_MS);
  }

  hide() {
    clearInterval(this.poll);
    this.queue?.cancel();
  }

  namePanel(change = false) {
    const input = h("input", { name: "name", required: true, maxlength: "32", autocomplete: "nickname", value: change ? player()?.name || "" : "", placeholder: t("keeper.name.placeholder") });
    const form = h("form", { class: change ? "name-form change" : "panel name-form", id: change ? "rename-form" : "name-form" },
      change ? h("h3", {}, t("keeper.name.label")) : [
        h("div", { class: "hero-cards", "aria-hidden": "true" }, [1, 2, 3, "W", 5].map((c) => cardEl(c))),
        h("h1", {}, t("lobby.hero")),
        h("p", {}, t("lobby.hero_sub"))],
      h("label", {}, h("span", {}, t("lobby.display_name")), input),
      h("button", { class: "btn primary", type: "submit" }, change ? t("lobby.change_name") : t("common.continue")),
      change ? h("small", { class: "muted" }, t("lobby.same_player")) : null);
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      try {
        const out = change && player() ? await this.rename(name) : await api.createPlayer(name);
        remember(out.player, out.token); // main.js routes again on "identity"
      } catch (error) {
        toast(error.text || error.message);
        if (error.code === "name_claimed") toast(t("lobby.name_yours"), "info");
      }
    });
    return form;
  }

  /** Rename this guest (same player, same seats); a guest the server does not know any more
   * (e.g. a new database) gets a new identity instead. */
  async rename(name) {
    try {
      return await api.rename(name);
    } catch (error) {
      if (error.status === 401 || error.status === 404) return api.createPlayer(name);
      throw error;
    }
  }

  playPanel() {
    const bots = h("select", { name: "bots", id: "qp-bots" }, [1, 2, 3, 4, 5, 6, 7].map((n) =>
      h("option", { value: n, selected: n === 1 }, t("lobby.bots", { count: n }))));
    const level = h("select", { name: "level", id: "qp-level", "aria-describedby": "qp-level-note" }, this.levels.map((l, i) =>
      h("option", { value: l.id, selected: i === Math.min(1, this.levels.length - 1), title: levelDescription(l, this.game) },
        has(`level.tag.${l.id}`) ? `${levelName(l)} · ${t(`level.tag.${l.id}`)}` : levelName(l))));
    const levelNote = h("p", { class: "level-note", id: "qp-level-note", "aria-live": "polite" });
    const sayLevel = () => {
      const chosen = this.levels.find((l) => l.id === level.value);
      levelNote.textContent = chosen ? levelLine(chosen, this.game) : "";
    };
    level.addEventListener("change", sayLevel);
    sayLevel();
    const skyjo = this.game === "skyjo";
    const lengths = skyjo ? SKYJO_LENGTHS : LENGTHS;
    const length = h("select", { name: "length", id: "qp-length" }, Object.entries(lengths).map(([k, v]) => h("option", { value: k }, t(v.label))));
    const assist = h("input", { type: "checkbox", id: "qp-assist", checked: true });
    const play = h("button", { type: "submit", class: "btn primary big", id: "quick-play", "aria-describedby": "qp-ranked" }, t("lobby.play_bots"));
    const rankedNote = h("p", { class: "ranked-note", id: "qp-ranked", "aria-live": "polite" });
    const form = h("form", { class: "quick" },
      h("h1", { id: "play-title" }, t("lobby.hello", { name: player()?.name })),
      h("div", { class: "row" },
        h("label", {}, h("span", {}, t("lobby.opponents")), bots),
        h("label", {}, h("span", {}, t("lobby.strength")), level),
        h("label", {}, h("span", {}, t("lobby.length")), length)),
      levelNote,
      skyjo ? null : h("label", { class: "check" }, assist, ` ${t("lobby.assist")}`),
      h("div", { class: "row" }, play),
      rankedNote,
      h("p", { class: "keeper-link" }, h("a", { href: "/daily/", id: "open-daily" }, t("lobby.daily_link"))),
      h("p", { class: "keeper-link" }, h("a", { href: "/keeper/", id: "open-keeper" }, t("lobby.keeper_link"))));
    const chosen = () => {
      const n = Number(bots.value);
      return skyjo ? { players: n + 1, ...lengths[length.value].options }
        : { players: n + 1, ...lengths[length.value].options, assist: assist.checked };
    };
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.quickBots(Number(bots.value), level.value, chosen());
    });
    form.addEventListener("change", () => this.sayRanked(rankedNote, chosen()));
    this.sayRanked(rankedNote, chosen());
    return form;
  }

  /** Whether the game quick play would start is ranked, and whether a game with people is
   * (the server judges: docs/league.md). */
  async sayRanked(note, options) {
    const asked = (this.rankedAsked = (this.rankedAsked || 0) + 1);
    try {
      const [bots, people] = await Promise.all([api.ranked(this.game, options), api.ranked(this.game, { players: 2 })]);
      if (asked !== this.rankedAsked) return; // a later choice is being answered
      note.dataset.ranked = String(bots.ranked);
      // Ranked rules rate only a player the ladder allows (docs/league.md, "Ladder rules"):
      // asked with our token, the server says whether it would rate us, and why not.
      note.dataset.rated = String(bots.ranked && bots.rated !== false);
      const botsSay = !bots.ranked
        ? t("lobby.ranked.casual_bots")
        : bots.rated === false ? t("lobby.ranked.not_rated", { why: bots.why })
          : t("lobby.ranked.bots");
      note.textContent = `${botsSay} ${t(people.ranked ? "lobby.ranked.people" : "lobby.ranked.people_casual")}`;
    } catch (error) {
      note.textContent = "";
      console.warn("cannot tell whether quick play is ranked:", error.message);
    }
  }

  async quickBots(count, level, options) {
    await this.guard(async () => {
      const { table } = await api.playBots(count, level, options, this.game);
      this.openTable(table.id);
    });
  }

  /** The ranked queue: people near your rating, the official rules; a bot only if you ask. */
  rankedPanel() {
    const modes = QUEUE_MODES.filter((m) => this.game === "skip" || m.id !== "teams");
    const mode = h("select", { name: "queue-mode", id: "queue-mode" }, modes.map((m) => h("option", { value: m.id }, t(m.label))));
    const bot = h("select", { name: "queue-bot", id: "queue-bot" }, BOT_WAITS.map((w) =>
      h("option", { value: w.value ?? "", selected: w.value === 60 }, t(w.label, w.params))));
    const partner = h("input", { name: "queue-partner", id: "queue-partner", maxlength: "40", placeholder: t("lobby.partner_id") });
    const partnerLabel = h("label", { hidden: true }, h("span", {}, t("lobby.partner")), partner);
    const status = h("p", { class: "queue-status", id: "queue-status", "aria-live": "polite" });
    const go = h("button", { type: "submit", class: "btn primary", id: "find-people" }, t("lobby.find"));
    const cancel = h("button", { type: "button", class: "btn", id: "queue-cancel", hidden: true }, t("common.cancel"));
    const me = player();
    const mine = h("span", { class: "my-division", id: "my-division" });
    const showMine = () => {
      const badge = badgesFor(this.game, mode.value, [me?.id])[me?.id];
      mine.replaceChildren(...(badge ? [t("lobby.your_division"), " ", badgeEl(badge)] : []));
    };
    const form = h("form", { class: "ranked-queue", id: "ranked-queue", "aria-labelledby": "queue-title" },
      h("h2", { id: "queue-title" }, t("lobby.ranked_title"), " ", mine),
      h("p", { class: "muted" }, t("lobby.ranked_how"), " ",
        me ? h("small", {}, t("lobby.my_id"), " ", h("code", { id: "my-id" }, me.id)) : null),
      h("div", { class: "row" },
        h("label", {}, h("span", {}, t("lobby.mode")), mode),
        h("label", {}, h("span", {}, t("lobby.offer_bot")), bot),
        partnerLabel),
      h("div", { class: "row" }, go, cancel),
      status);
    mode.addEventListener("change", () => {
      partnerLabel.hidden = mode.value !== "teams";
      showMine();
    });
    window.addEventListener("cardroom:badges", () => { if (mine.isConnected) showMine(); });
    showMine();
    const idle = () => { go.hidden = false; cancel.hidden = true; mode.disabled = bot.disabled = partner.disabled = false; };
    this.queue?.cancel();
    this.queue = new RankedQueue(status, {
      onMatched: (m) => {
        toast(m.ranked ? t("lobby.matched") : t("lobby.matched_bot", { bot: m.bot }), "info");
        this.openTable(m.table);
      },
      onEnd: idle,
    });
    cancel.addEventListener("click", () => { this.queue.cancel(); status.textContent = t("lobby.left_queue"); });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (this.queue.waiting) return;
      go.hidden = true; cancel.hidden = false; mode.disabled = bot.disabled = partner.disabled = true;
      this.queue.start({
        game: this.game,
        mode: mode.value,
        botAfter: bot.value === "" ? null : Number(bot.value),
        partner: mode.value === "teams" ? partner.value.trim() || null : null,
      });
    });
    return form;
  }

  createPanel() {
    const rules = rulesFor(this.game).rulesForm({ seats: 2 });
    const visibility = h("select", { name: "visibility" },
      h("option", { value: "public" }, t("lobby.public")),
      h("option", { value: "private" }, t("lobby.private")));
    const name = h("input", { name: "table-name", maxlength: "32", placeholder: t("lobby.table_name_example") });
    const abandon = h("select", { name: "abandon" },
      [[120, t("lobby.minutes", { count: 2 })], [300, t("lobby.minutes", { count: 5 })], [900, t("lobby.minutes", { count: 15 })], [3600, t("lobby.hours", { count: 1 })]].map(([v, text]) => h("option", { value: v, selected: v === 300 }, text)));
    const form = h("form", { class: "create", id: "create-form" },
      h("h2", { id: "create-title" }, t("lobby.create_title", { game: gameTitle(this.game) })),
      h("div", { class: "row" },
        h("label", {}, h("span", {}, t("lobby.who_joins")), visibility),
        h("label", {}, h("span", {}, t("lobby.table_name")), name),
        h("label", {}, h("span", {}, t("lobby.close_after")), abandon)),
      h("details", { class: "house-rules" }, h("summary", {}, t("lobby.house_rules")), rules.el),
      h("button", { type: "submit", class: "btn primary", id: "create-table" }, t("lobby.create")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const { seats, options } = rules.read();
      const isPublic = visibility.value === "public";
      const tableName = name.value.trim() || null;
      await this.guard(async () => {
        const game = this.game;
        const body = { game, seats, public: isPublic, name: tableName, options, abandon_after: Number(abandon.value) };
        const out = !isPublic && tableName ? await api.named({ game, name: tableName, seats, options }) : await api.createTable(body);
        this.openTable(out.table.id);
      });
    });
    return form;
  }

  joinPanel() {
    const name = h("input", { name: "join-name", required: true, maxlength: "32", placeholder: t("lobby.join_placeholder") });
    const form = h("form", { class: "join", id: "join-form" },
      h("h2", { id: "join-title" }, t("lobby.join_title")),
      h("label", {}, h("span", {}, t("lobby.table_name")), name),
      h("button", { type: "submit", class: "btn" }, t("lobby.join")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      await this.guard(async () => {
        const out = await api.named({ game: this.game, name: name.value.trim(), seats: 2, options: { players: 2 } });
        if (out.created) toast(t("lobby.made", { name: name.value.trim() }), "info");
        this.openTable(out.table.id);
      });
    });
    return form;
  }

  async refresh() {
    let tables, total;
    try {
      // The first page only: the server puts tables with a free seat first.
      ({ tables, total } = await api.tables());
    } catch (error) {
      mount(this.list, h("p", { class: "muted" }, t("lobby.no_list", { reason: error.text })));
      return;
    }
    if (!this.list.isConnected) return;
    this.lastTables = tables;
    this.lastTotal = total;
    this.drawTables(tables, total);
  }

  drawTables(tables, total) {
    if (!tables.length) {
      mount(this.list, h("p", { class: "muted" }, t("lobby.no_tables")));
      return;
    }
    const me = player();
    const more = total > tables.length
      ? h("p", { class: "muted" }, t("lobby.showing", { shown: tables.length, count: total })) : null;
    mount(this.list, h("ul", { class: "tables" }, tables.map((t) => {
      const taken = t.seats.filter((s) => s.player || s.bot).length;
      const mine = t.seats.some((s) => s.player?.id === me?.id);
      const canJoin = t.status !== "playing" && t.free_seats > 0;
      return h("li", { class: "table-item", "data-table": t.id },
        h("div", { class: "t-main" },
          h("b", {}, t.name || (t.owner?.name ? tr("lobby.owners_table", { name: t.owner.name }) : tr("lobby.someones_table"))),
          h("span", { class: `game-tag ${t.game || "skip"}` }, gameTitle(t.game)),
          h("span", { class: `status ${t.status}` }, tr(`lobby.status.${t.status}`)),
          h("small", {}, `${tr("lobby.seated", { taken, count: t.seats.length })} · ${rulesFor(t.game).summarize(t.options).join(" · ")}`),
          this.seatedNames(t)),
        h("div", { class: "t-actions" },
          mine ? h("button", { type: "button", class: "btn small primary", onclick: () => this.openTable(t.id) }, tr("lobby.back"))
            : canJoin ? h("button", { type: "button", class: "btn small primary", onclick: () => this.join(t.id) }, tr("lobby.join")) : null,
          h("button", { type: "button", class: "btn small", onclick: () => this.openTable(t.id) }, tr("keeper.watch"))));
    })), more);
  }

  /** Who sits at a listed table, each person with their division badge in its mode. */
  seatedNames(t) {
    const badges = badgesFor(t.game || "skip", modeOf(t), t.seats.map((s) => s.player?.id));
    const names = t.seats.map((s) => (s.player
      ? h("span", { class: "seated" }, s.player.name, " ", badgeEl(badges[s.player.id]))
      : h("span", { class: "seated" }, s.bot ? tr("lobby.bot_named", { name: levelName({ id: s.bot.level, name: s.bot.name }) }) : "—")));
    return h("small", { class: "muted seated-names" }, names.flatMap((n, i) => (i ? [", ", n] : [n])));
  }

  async join(id) {
    await this.guard(async () => {
      await api.join(id);
      this.openTable(id);
    });
  }

  async guard(fn) {
    if (this.busy) return;
    this.busy = true;
    this.root.setAttribute("aria-busy", "true");
    try {
      await fn();
    } catch (error) {
      toast(error.text || error.message);
    } finally {
      this.busy = false;
      this.root.removeAttribute("aria-busy");
    }
  }
}

/** A level in words: what it does, and its measured rating on the league's scale (the one
 * players' ratings are shown on), with its 95% interval (`cardroom calibrate`). */
export function levelLine(level, game = "skip") {
  const r = level.rating;
  const description = levelDescription(level, game);
  if (!r) return description;
  const one = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
  const measured = t("lobby.level_rated", { rating: num(r.ordinal, one), low: num(r.low, one), high: num(r.high, one), count: r.games });
  return description ? `${description} ${measured}` : measured;
}
