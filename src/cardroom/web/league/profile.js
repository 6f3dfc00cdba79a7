/** A public profile: divisions, career statistics per mode, ratings with their plot, rewards
 * (card backs and themes: the player's own profile chooses which to wear), achievements,
 * trophies. */
import { api, el, header, player } from "./league.js";

const PLACE = { 1: "1st", 2: "2nd", 3: "3rd" };
const MODE_NAMES = { "2p": "2 players", "3p+": "3–4 players", teams: "Teams" };
const DIVISION_NAMES = { bronze: "Bronze", silver: "Silver", gold: "Gold", platinum: "Platinum", champion: "Champion" };

/** The division badge (the same look as the lobby's and the table's). */
function badge(d) {
  if (!d) return null;
  const text = d.id === "placement" ? `Placement · ${d.left} left` : d.name;
  return el("span", { class: "division-badge", "data-division": d.id }, text);
}

function divisions(current) {
  return el("div", { class: "cards divisions", id: "divisions" }, Object.entries(current).map(([mode, d]) =>
    el("div", { class: "card division", "data-mode": mode },
      el("b", {}, badge(d)), MODE_NAMES[mode] || mode,
      d.rating != null ? el("div", { class: "note" }, `rating ${d.rating.toFixed(1)}`) : null)));
}

function careerTable(c, skip) {
  const modes = Object.entries(c.by_mode);
  if (!modes.length) return el("p", { class: "note" }, "No matches yet.");
  const best = (s) => (s ? `${DIVISION_NAMES[s.id] || s.name} · ${s.season}` : "—");
  return el("table", { id: "career" },
    el("thead", {}, el("tr", {}, el("th", {}, "Mode"), el("th", { class: "num" }, "Matches"), el("th", { class: "num" }, "Rounds"),
      el("th", { class: "num" }, "Win rate"), el("th", { class: "num" }, skip ? "Points / round" : "Points / round (lower wins)"),
      el("th", {}, "Best season"))),
    el("tbody", {}, modes.map(([mode, m]) => el("tr", {},
      el("td", {}, MODE_NAMES[mode] || mode), el("td", { class: "num" }, m.matches), el("td", { class: "num" }, m.rounds),
      el("td", { class: "num" }, `${Math.round(m.win_rate * 100)}%`), el("td", { class: "num" }, m.points_per_round.toFixed(1)),
      el("td", {}, best(m.best_season))))));
}

function wearButton(onWear) {
  const button = el("button", { type: "button", class: "wear" }, "Wear");
  button.addEventListener("click", onWear);
  return button;
}

/** Card backs and themes: what the player holds, how to get the rest; on their own profile,
 * a button to wear one (kept on the server: every device and every table shows it). */
function rewardsSection(rewards, mine, redraw) {
  const group = (kind, title) => el("section", { class: "rewards", "data-kind": kind },
    el("h4", {}, title),
    el("ul", { class: "cards" }, rewards.items.filter((i) => i.kind === kind).map((item) => {
      const worn = rewards.chosen[kind] === item.id;
      const swatch = kind === "card_back"
        ? el("span", { class: `back-swatch back-${item.id}`, "aria-hidden": "true" })
        : el("span", { class: `theme-swatch theme-${item.id}`, "aria-hidden": "true" });
      return el("li", { class: `card reward ${item.unlocked ? "unlocked" : "locked"}${worn ? " worn" : ""}`, "data-item": item.id },
        swatch, el("strong", {}, item.name),
        el("div", { class: "note" }, item.unlocked ? (worn ? "worn now" : "unlocked") : `locked: ${item.how}`),
        mine && item.unlocked && !worn ? wearButton(() => redraw({ [kind]: item.id })) : null);
    })));
  return el("div", { id: "rewards" }, group("card_back", "Card backs"), group("theme", "Table themes"));
}
const GAMES = { skip: "Skip", skyjo: "Skyjo" };

/** Achievements under one heading per game, the game shown first. */
function achievementsByGame(list, first) {
  const games = [first, ...Object.keys(GAMES).filter((g) => g !== first)];
  return games.map((game) => {
    const mine = list.filter((a) => (a.game || "skip") === game);
    if (!mine.length) return null;
    const earned = mine.filter((a) => a.earned).length;
    return el("section", { class: "achievements", "data-game": game },
      el("h4", {}, `${GAMES[game]} · ${earned} of ${mine.length}`),
      el("ul", { class: "cards" }, mine.map((a) =>
        el("li", { class: `card achievement ${a.earned ? "earned" : "locked"}` },
          el("strong", {}, a.name), el("br"), a.description,
          a.earned ? el("div", { class: "note" }, `earned ${a.awarded_at.slice(0, 10)}`) : null))));
  });
}

function stat(label, value) {
  return el("div", { class: "card" }, el("b", {}, value), label);
}

/** Report this player to the moderators (a name, cheating, …): what the profile can tell. */
function reportForm(id) {
  const why = el("select", { name: "reason", "aria-label": "Reason" },
    [["name", "Their name"], ["cheating", "Cheating"], ["stalling", "Stalling"], ["chat", "What they said"], ["other", "Something else"]]
      .map(([value, text]) => el("option", { value }, text)));
  const note = el("input", { name: "note", maxlength: "500", placeholder: "What happened (optional)", "aria-label": "What happened" });
  const said = el("p", { class: "note", role: "status" });
  const form = el("form", { class: "filters report-player", "aria-label": "Report this player" },
    el("label", {}, "Report this player", why), el("label", {}, "Note", note), el("button", { type: "submit" }, "Send report"), said);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { player: id, reason: why.value, ...(note.value.trim() ? { note: note.value.trim() } : {}) };
    try {
      await api("/api/reports", { method: "POST", body, auth: true });
      said.textContent = "Thank you: a moderator will look at it.";
    } catch (error) {
      said.textContent = error.message;
    }
  });
  return el("details", { class: "report" }, el("summary", {}, "Report this player"), form);
}

/** On one's own profile: the sanctions in force, with why and until when. */
function ownSanctions() {
  const box = el("div", { id: "my-sanctions" });
  api("/api/me/sanctions", { auth: true }).then(({ sanctions }) => {
    const now = sanctions.filter((s) => s.in_force || (s.kind === "warn" && !s.lifted_at));
    if (!now.length) return;
    box.replaceChildren(el("section", { class: "card sanctions", role: "status" }, el("h3", {}, "From the moderators"),
      el("ul", {}, now.map((s) => el("li", {}, `${s.words}${s.until ? ` until ${new Date(s.until).toLocaleString()}` : s.in_force ? " until lifted" : ""}: ${s.reason}`)))));
  }).catch(() => {});
  return box;
}

async function init() {
  header("My profile");
  const main = document.getElementById("profile");
  const params = new URLSearchParams(location.search);
  const id = params.get("id");
  const game = GAMES[params.get("game")] ? params.get("game") : "skip";
  if (!id) {
    main.replaceChildren(el("p", { class: "error" }, "No player given (?id=…)."));
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
  const skip = game === "skip";
  const link = (g) => {
    const q = new URLSearchParams({ id, game: g });
    return g === game ? el("b", { "aria-current": "page" }, GAMES[g]) : el("a", { href: `?${q}` }, GAMES[g]);
  };
  main.replaceChildren(
    el("h2", {}, data.player.name, data.player.claimed ? "" : " (guest)"),
    data.fair_play ? el("p", { class: "fair-play-mark", id: "fair-play-mark", role: "note" },
      `Marked for unfair play on ${data.fair_play.marked_at.slice(0, 10)}: ${data.fair_play.reason}. `,
      "This account's results are void and it appears on no board.") : null,
    mine ? ownSanctions() : player() ? reportForm(id) : null,
    el("nav", { class: "game-tabs", "aria-label": "Game" }, Object.keys(GAMES).flatMap((g, i) => (i ? [" · ", link(g)] : [link(g)]))),
    el("h3", {}, "Divisions this season"),
    divisions(data.divisions),
    el("div", { class: "cards" },
      stat(`${GAMES[game]} matches`, c.matches), stat("rounds", c.rounds), stat("wins", c.wins),
      stat("win rate", `${Math.round(c.win_rate * 100)}%`),
      skip ? stat("stock cards per turn", c.stock_per_turn.toFixed(2)) : null,
      stat(skip ? "best round" : "lowest round", c.best_round),
      stat(skip ? "best match" : "lowest total", c.best_match),
      stat("points per round", c.points_per_round.toFixed(1)),
      stat("best season", c.best_season ? `${c.best_season.name} · ${c.best_season.season}` : "—")),
    el("h3", {}, "Career by mode"),
    careerTable(c, skip),
    el("h3", {}, "Rewards"),
    rewardsHolder,
    ...keptGames(data.kept_games),
    el("h3", {}, "Ratings"),
    data.ratings.length
      ? el("table", {},
          el("thead", {}, el("tr", {}, el("th", {}, "Mode"), el("th", { class: "num" }, "Rating"),
            el("th", { class: "num" }, "μ"), el("th", { class: "num" }, "σ"),
            el("th", { class: "num" }, "Matches"))),
          el("tbody", {}, data.ratings.map((r) =>
            el("tr", {}, el("td", {}, r.mode), el("td", { class: "num" }, r.ordinal.toFixed(1)),
              el("td", { class: "num" }, r.mu.toFixed(1)), el("td", { class: "num" }, r.sigma.toFixed(2)),
              el("td", { class: "num" }, r.matches)))))
      : el("p", { class: "note" }, "No ranked matches yet."),
    el("p", {}, el("img", {
      class: "plot",
      src: `/api/players/${encodeURIComponent(id)}/ratings.png?mode=${encodeURIComponent(mode)}&game=${game}`,
      alt: `Rating history in ${mode}: mu with its 3-sigma band and the conservative rating`,
    })),
    el("h3", {}, "Trophies"),
    data.trophies.length
      ? el("ul", {}, data.trophies.map((t) =>
          el("li", {}, `${PLACE[t.place]} · ${DIVISION_NAMES[t.board] ? `${DIVISION_NAMES[t.board]} division` : t.board} · ${t.mode} · season ${t.season}`)))
      : el("p", { class: "note" }, "No trophies yet."),
    el("h3", {}, "Achievements"),
    ...achievementsByGame(data.achievements, game),
    el("h3", {}, "Recent matches"),
    el("ul", { id: "recent-matches" }, data.recent.map((m) =>
      el("li", { "data-match": m.match }, `${m.finished_at.slice(0, 10)} · ${GAMES[m.game] || m.game || "Skip"} ${m.mode} · `,
        m.won ? "won" : m.forfeited ? "forfeited" : "lost", ` · ${m.points} points · `, counted(m),
        [" · ", el("a", { href: `/league/review.html?${new URLSearchParams({ match: m.match, player: id })}` }, "review")]))),
  );
}

/** How a match counts, in plain words (docs/league.md, "Fair play" and "Ladder rules"). */
const NOT_RATED = {
  ineligible: "not rated: a player was not yet eligible for ranked play",
  linked: "not rated: the accounts were seen on one network or device",
  pair_limit: "not rated: the pair's rated matches for the day were played",
};

function counted(m) {
  if (m.voided) return el("b", { class: "voided" }, "voided: counts for nobody");
  if (m.ranked) return "rated";
  return m.unrated ? NOT_RATED[m.unrated] || `not rated: ${m.unrated}` : "casual";
}

function keptGames(games) {
  if (!games) return [];
  return [
    el("h3", {}, "My kept games"),
    games.length
      ? el("ul", { id: "kept-games" }, games.map((g) =>
          el("li", {}, el("a", { href: `/keeper/#/game/${encodeURIComponent(g.id)}` },
            `${g.game === "skyjo" ? "Skyjo" : "Skip"}: ${g.players.join(", ")}`),
            ` · ${g.rounds} round${g.rounds === 1 ? "" : "s"} · ${g.outcome}`)))
      : el("p", { class: "note" }, el("a", { href: "/keeper/" }, "The score keeper"), " keeps games played with real cards."),
  ];
}

init();
