/** A public profile: career statistics, ratings with their plot, achievements, trophies. */
import { api, el, header, player } from "./league.js";

const PLACE = { 1: "1st", 2: "2nd", 3: "3rd" };
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
  document.title = `${data.player.name} · Cardroom`;
  const mode = data.ratings[0]?.mode || "2p";
  const skip = game === "skip";
  const link = (g) => {
    const q = new URLSearchParams({ id, game: g });
    return g === game ? el("b", { "aria-current": "page" }, GAMES[g]) : el("a", { href: `?${q}` }, GAMES[g]);
  };
  main.replaceChildren(
    el("h2", {}, data.player.name, data.player.claimed ? "" : " (guest)"),
    el("nav", { class: "game-tabs", "aria-label": "Game" }, Object.keys(GAMES).flatMap((g, i) => (i ? [" · ", link(g)] : [link(g)]))),
    el("div", { class: "cards" },
      stat(`${GAMES[game]} matches`, c.matches), stat("wins", c.wins),
      stat("win rate", `${Math.round(c.win_rate * 100)}%`),
      skip ? stat("stock cards per turn", c.stock_per_turn.toFixed(2)) : null,
      stat(skip ? "best round" : "lowest round", c.best_round),
      stat(skip ? "best match" : "lowest total", c.best_match)),
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
          el("li", {}, `${PLACE[t.place]} · ${t.board} · ${t.mode} · season ${t.season}`)))
      : el("p", { class: "note" }, "No trophies yet."),
    el("h3", {}, "Achievements"),
    ...achievementsByGame(data.achievements, game),
    el("h3", {}, "Recent matches"),
    el("ul", {}, data.recent.map((m) =>
      el("li", {}, `${m.finished_at.slice(0, 10)} · ${GAMES[m.game] || m.game || "Skip"} ${m.mode}${m.ranked ? " ranked" : ""} · `,
        m.won ? "won" : "lost", ` · ${m.points} points`,
        (m.game || "skip") === "skip" ? [" · ", el("a", { href: `/league/review.html?${new URLSearchParams({ match: m.match, player: id })}` }, "review")] : null))),
  );
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
