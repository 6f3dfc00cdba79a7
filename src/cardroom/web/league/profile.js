/** A public profile: divisions, career statistics per mode, ratings with their plot, rewards
 * (card backs and themes: the player's own profile chooses which to wear), achievements,
 * trophies. */
import { api, el, header, player } from "./league.js";
import { date, has, num, t } from "../js/i18n.js";
import { ratingChart } from "./rating-chart.js";

const MODES = { "2p": "queue.mode.2p", "3p+": "queue.mode.3p", teams: "profile.mode.teams" }; // catalog keys
const modeName = (mode) => (MODES[mode] ? t(MODES[mode]) : mode);
const divisionName = (id, fallback) => (has(`division.${id}`) ? t(`division.${id}`) : fallback ?? id);
const one = { minimumFractionDigits: 1, maximumFractionDigits: 1 };
const percent = (rate) => num(rate, { style: "percent", maximumFractionDigits: 0 });
const day = (iso) => date(iso, { dateStyle: "medium" });

/** The division badge (the same look as the lobby's and the table's). */
function badge(d) {
  if (!d) return null;
  const text = d.id === "placement" ? t("badge.placement", { count: d.left }) : divisionName(d.id, d.name);
  return el("span", { class: "division-badge", "data-division": d.id }, text);
}

function divisions(current) {
  return el("div", { class: "cards divisions", id: "divisions" }, Object.entries(current).map(([mode, d]) =>
    el("div", { class: "card division", "data-mode": mode },
      el("b", {}, badge(d)), modeName(mode),
      d.rating != null ? el("div", { class: "note" }, t("profile.rating", { rating: num(d.rating, one) })) : null)));
}

function careerTable(c, skip) {
  const modes = Object.entries(c.by_mode);
  if (!modes.length) return el("p", { class: "note" }, t("profile.no_matches"));
  const best = (s) => (s ? `${divisionName(s.id, s.name)} · ${s.season}` : "—");
  return el("table", { id: "career" },
    el("thead", {}, el("tr", {}, el("th", {}, t("lobby.mode")), el("th", { class: "num" }, t("profile.matches")), el("th", { class: "num" }, t("keeper.rounds")),
      el("th", { class: "num" }, t("profile.win_rate")), el("th", { class: "num" }, t(skip ? "profile.ppr" : "profile.ppr_low")),
      el("th", {}, t("profile.best_season")))),
    el("tbody", {}, modes.map(([mode, m]) => el("tr", {},
      el("td", {}, modeName(mode)), el("td", { class: "num" }, num(m.matches)), el("td", { class: "num" }, num(m.rounds)),
      el("td", { class: "num" }, percent(m.win_rate)), el("td", { class: "num" }, num(m.points_per_round, one)),
      el("td", {}, best(m.best_season))))));
}

function wearButton(onWear) {
  const button = el("button", { type: "button", class: "wear" }, t("profile.wear"));
  button.addEventListener("click", onWear);
  return button;
}

/** Card backs and themes: what the player holds, how to get the rest; on their own profile,
 * a button to wear one (kept on the server: every device and every table shows it). */
function rewardsSection(rewards, mine, redraw) {
  const tiles = (items, kind) => el("ul", { class: "cards" }, items.map((item) => {
      const worn = rewards.chosen[kind] === item.id;
      const swatch = kind === "card_back"
        ? el("span", { class: `back-swatch back-${item.id}`, "aria-hidden": "true" })
        : el("span", { class: `theme-swatch theme-${item.id}`, "aria-hidden": "true" });
      return el("li", { class: `card reward ${item.unlocked ? "unlocked" : "locked"}${worn ? " worn" : ""}`, "data-item": item.id },
        swatch, el("strong", {}, has(`reward.${item.id}`) ? t(`reward.${item.id}`) : item.name),
        el("div", { class: "note" }, item.unlocked ? t(worn ? "profile.worn" : "profile.unlocked") : t("profile.locked", { how: howTo(item) })),
        mine && item.unlocked && !worn ? wearButton(() => redraw({ [kind]: item.id })) : null);
  }));
  // What is held shows; what is still locked folds under one line that says how many.
  const group = (kind, title) => {
    const items = rewards.items.filter((i) => i.kind === kind);
    const locked = items.filter((i) => !i.unlocked);
    return el("section", { class: "rewards", "data-kind": kind },
      el("h4", {}, title),
      tiles(items.filter((i) => i.unlocked), kind),
      locked.length ? el("details", { class: "to-earn" }, el("summary", {}, t("profile.more_to_unlock", { count: locked.length })), tiles(locked, kind)) : null);
  };
  return el("div", { id: "rewards" }, group("card_back", t("profile.card_backs")), group("theme", t("profile.themes")));
}

/** How a reward is earned, from its rule (league/rewards.py), in the reader's words. */
function howTo(item) {
  const [what, arg] = (item.rule || "").split(":");
  if (what === "free") return t("reward.how.free");
  if (what === "achievement") return t("reward.how.achievement", { name: has(`achievement.${arg}.name`) ? t(`achievement.${arg}.name`) : arg });
  if (what === "division") return t("reward.how.division", { name: divisionName(arg) });
  if (what === "trophy") return t("reward.how.trophy");
  return item.how;
}

/** An achievement's name and description in the reader's words (the server's are English). */
function achievementText(a, field) {
  return has(`achievement.${a.id}.${field}`) ? t(`achievement.${a.id}.${field}`) : a[field];
}
const GAMES = { skip: "Skip", skyjo: "Skyjo" };

/** Achievements under one heading per game, the game shown first. */
function achievementsByGame(list, first) {
  const games = [first, ...Object.keys(GAMES).filter((g) => g !== first)];
  return games.map((game) => {
    const mine = list.filter((a) => (a.game || "skip") === game);
    if (!mine.length) return null;
    const earned = mine.filter((a) => a.earned);
    const locked = mine.filter((a) => !a.earned);
    const cards = (list) => el("ul", { class: "cards" }, list.map((a) =>
      el("li", { class: `card achievement ${a.earned ? "earned" : "locked"}` },
        el("strong", {}, achievementText(a, "name")), el("br"), achievementText(a, "description"),
        a.earned ? el("div", { class: "note" }, t("profile.earned_on", { date: day(a.awarded_at) })) : null)));
    // The ones still to earn are folded: a phone would scroll past a screen of locks.
    return el("section", { class: "achievements", "data-game": game },
      el("h4", {}, `${GAMES[game]} · ${t("profile.earned_of", { earned: earned.length, count: mine.length })}`),
      earned.length ? cards(earned) : null,
      locked.length ? el("details", { class: "to-earn" }, el("summary", {}, t("profile.more_to_earn", { count: locked.length })), cards(locked)) : null);
  });
}

function stat(label, value) {
  return el("div", { class: "card" }, el("b", {}, value), label);
}

/** Report this player to the moderators (a name, cheating, …): what the profile can tell. */
function reportForm(id) {
  const why = el("select", { name: "reason", "aria-label": t("chat.reason") },
    ["name", "cheating", "stalling", "chat", "other"].map((value) => el("option", { value }, t(`chat.reason.${value}`))));
  const note = el("input", { name: "note", maxlength: "500", placeholder: t("chat.what_optional"), "aria-label": t("chat.what") });
  const said = el("p", { class: "note", role: "status" });
  const form = el("form", { class: "filters report-player", "aria-label": t("profile.report") },
    el("label", {}, t("profile.report"), why), el("label", {}, t("profile.note"), note), el("button", { type: "submit" }, t("chat.send_report")), said);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { player: id, reason: why.value, ...(note.value.trim() ? { note: note.value.trim() } : {}) };
    try {
      await api("/api/reports", { method: "POST", body, auth: true });
      said.textContent = t("profile.report_thanks");
    } catch (error) {
      said.textContent = error.message;
    }
  });
  return el("details", { class: "report" }, el("summary", {}, t("profile.report")), form);
}

/** On one's own profile: the sanctions in force, with why and until when. */
function ownSanctions() {
  const box = el("div", { id: "my-sanctions" });
  api("/api/me/sanctions", { auth: true }).then(({ sanctions }) => {
    const now = sanctions.filter((s) => s.in_force || (s.kind === "warn" && !s.lifted_at));
    if (!now.length) return;
    box.replaceChildren(el("section", { class: "card sanctions", role: "status" }, el("h3", {}, t("profile.from_mods")),
      el("ul", {}, now.map((s) => el("li", {}, s.until ? t("profile.sanction_until", { words: s.words, until: date(s.until, { dateStyle: "medium", timeStyle: "short" }), reason: s.reason })
        : t(s.in_force ? "profile.sanction_lifted" : "profile.sanction", { words: s.words, reason: s.reason }))))));
  }).catch(() => {});
  return box;
}

async function init() {
  header("league.my_profile");
  const main = document.getElementById("profile");
  const params = new URLSearchParams(location.search);
  const id = params.get("id");
  const game = GAMES[params.get("game")] ? params.get("game") : "skip";
  if (!id) {
    main.replaceChildren(el("p", { class: "error" }, t("profile.no_id")));
    return;
  }
  let data;
  try {
    // Your own profile (your token) also lists the games you keep with the score keeper.
    data = await api(`/api/players/${encodeURIComponent(id)}/profile?game=${game}`, { auth: player()?.id === id });
  } catch (error) {
    main.replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
    return;
  }
  const c = data.career;
  const mine = player()?.id === id;
  const rewardsHolder = el("div", {});
  const drawRewards = (rewards) => rewardsHolder.replaceChildren(rewardsSection(rewards, mine, async (choice) => {
    try {
      drawRewards(await api("/api/me/rewards", { method: "PUT", body: choice, auth: true }));
    } catch (error) {
      rewardsHolder.prepend(el("p", { class: "error", role: "alert" }, error.message));
    }
  }));
  drawRewards(data.rewards);
  document.title = `${data.player.name} · Cardroom`;
  const mode = data.ratings[0]?.mode || "2p";
  const chartHolder = el("div", { id: "rating-chart" });
  api(`/api/players/${encodeURIComponent(id)}/ratings/history?mode=${encodeURIComponent(mode)}&game=${game}`)
    .then(({ points }) => chartHolder.replaceChildren(ratingChart(points, modeName(mode))))
    .catch((error) => chartHolder.replaceChildren(el("p", { class: "error" }, error.message)));
  const skip = game === "skip";
  const link = (g) => {
    const q = new URLSearchParams({ id, game: g });
    return g === game ? el("b", { "aria-current": "page" }, GAMES[g]) : el("a", { href: `?${q}` }, GAMES[g]);
  };
  main.replaceChildren(...[ // the DOM writes a null child as "null": left out
    el("h2", {}, data.player.claimed ? data.player.name : t("profile.guest", { name: data.player.name })),
    data.fair_play ? el("p", { class: "fair-play-mark", id: "fair-play-mark", role: "note" },
      t("profile.fair_play", { date: day(data.fair_play.marked_at), reason: data.fair_play.reason }), " ",
      t("profile.fair_play_void")) : null,
    mine ? ownSanctions() : player() ? reportForm(id) : null,
    el("nav", { class: "game-tabs", "aria-label": t("lobby.game") }, Object.keys(GAMES).flatMap((g, i) => (i ? [" · ", link(g)] : [link(g)]))),
    el("h3", {}, t("profile.divisions")),
    divisions(data.divisions),
    el("div", { class: "cards stats" },
      stat(t("profile.game_matches", { game: GAMES[game] }), num(c.matches)), stat(t("profile.rounds"), num(c.rounds)), stat(t("profile.wins"), num(c.wins)),
      stat(t("profile.win_rate_stat"), percent(c.win_rate)),
      skip ? stat(t("profile.stock_per_turn"), num(c.stock_per_turn, { minimumFractionDigits: 2, maximumFractionDigits: 2 })) : null,
      stat(t(skip ? "profile.best_round" : "profile.lowest_round"), c.best_round === null ? "—" : num(c.best_round)),
      stat(t(skip ? "profile.best_match" : "profile.lowest_total"), c.best_match === null ? "—" : num(c.best_match)),
      stat(t("profile.points_per_round"), num(c.points_per_round, one)),
      stat(t("profile.best_season_stat"), c.best_season ? `${divisionName(c.best_season.id, c.best_season.name)} · ${c.best_season.season}` : "—")),
    el("h3", {}, t("profile.career")),
    careerTable(c, skip),
    el("h3", {}, t("profile.rewards")),
    rewardsHolder,
    ...keptGames(data.kept_games),
    el("h3", {}, t("profile.ratings")),
    data.ratings.length
      ? el("table", {},
          el("thead", {}, el("tr", {}, el("th", {}, t("lobby.mode")), el("th", { class: "num" }, t("profile.rating_col")),
            el("th", { class: "num" }, "μ"), el("th", { class: "num" }, "σ"),
            el("th", { class: "num" }, t("profile.matches")))),
          el("tbody", {}, data.ratings.map((r) =>
            el("tr", {}, el("td", {}, modeName(r.mode)), el("td", { class: "num" }, num(r.ordinal, one)),
              el("td", { class: "num" }, num(r.mu, one)), el("td", { class: "num" }, num(r.sigma, { minimumFractionDigits: 2, maximumFractionDigits: 2 })),
              el("td", { class: "num" }, num(r.matches))))))
      : el("p", { class: "note" }, t("profile.no_ranked")),
    chartHolder,
    el("h3", {}, t("profile.trophies")),
    data.trophies.length
      ? el("ul", {}, data.trophies.map((trophy) =>
          el("li", {}, t("profile.trophy", { place: trophy.place, board: has(`division.${trophy.board}`) ? t("badge.division", { name: divisionName(trophy.board) }) : trophy.board, mode: modeName(trophy.mode), season: trophy.season }))))
      : el("p", { class: "note" }, t("profile.no_trophies")),
    el("h3", {}, t("profile.achievements")),
    ...achievementsByGame(data.achievements, game),
    el("h3", {}, t("profile.recent")),
    el("ul", { id: "recent-matches" }, data.recent.map((m) =>
      el("li", { "data-match": m.match }, `${day(m.finished_at)} · ${GAMES[m.game] || m.game || "Skip"} ${modeName(m.mode)} · `,
        t(m.won ? "profile.won" : m.forfeited ? "profile.forfeited" : "profile.lost"), ` · ${t("profile.points", { count: m.points })} · `, counted(m),
        [" · ", el("a", { href: `/league/review.html?${new URLSearchParams({ match: m.match, player: id })}` }, t("profile.review"))]))),
  ].filter((node) => node !== null && node !== undefined));
}

/** How a match counts, in plain words (docs/league.md, "Fair play" and "Ladder rules"). */
function counted(m) {
  if (m.voided) return el("b", { class: "voided" }, t("profile.voided"));
  if (m.ranked) return t("profile.rated");
  if (!m.unrated) return t("profile.casual");
  return has(`profile.unrated.${m.unrated}`) ? t(`profile.unrated.${m.unrated}`) : t("profile.unrated", { why: m.unrated });
}

/** Where a kept game stands, from its summary's winners and leaders. */
function keptState(g) {
  if (g.winners) return t("keeper.home.won", { names: g.winners.join(", ") });
  if (g.status === "closed") return t("keeper.home.finished");
  if (g.leaders?.length) return t("keeper.home.leads", { names: g.leaders.join(", "), count: g.leaders.length });
  return t("keeper.home.not_started");
}

function keptGames(games) {
  if (!games) return [];
  return [
    el("h3", {}, t("keeper.home.mine")),
    games.length
      ? el("ul", { id: "kept-games" }, games.map((g) =>
          el("li", {}, el("a", { href: `/keeper/#/game/${encodeURIComponent(g.id)}` },
            `${g.game === "skyjo" ? "Skyjo" : "Skip"}: ${g.players.join(", ")}`),
            ` · ${t("keeper.rounds_count", { count: g.rounds })} · ${keptState(g)}`)))
      : el("p", { class: "note" }, el("a", { href: "/keeper/" }, t("keeper.title")), " ", t("profile.keeper_hint")),
  ];
}

init();
