/** A public profile: career statistics, ratings with their plot, achievements, trophies. */
import { api, el, header } from "./league.js";

const PLACE = { 1: "1st", 2: "2nd", 3: "3rd" };

function stat(label, value) {
  return el("div", { class: "card" }, el("b", {}, value), label);
}

async function init() {
  header("My profile");
  const main = document.getElementById("profile");
  const id = new URLSearchParams(location.search).get("id");
  if (!id) {
    main.replaceChildren(el("p", { class: "error" }, "No player given (?id=…)."));
    return;
  }
  let data;
  try {
    data = await api(`/api/players/${encodeURIComponent(id)}/profile`);
  } catch (error) {
    main.replaceChildren(el("p", { class: "error", role: "alert" }, error.message));
    return;
  }
  const c = data.career;
  document.title = `${data.player.name} · Cardroom`;
  const mode = data.ratings[0]?.mode || "2p";
  main.replaceChildren(
    el("h2", {}, data.player.name, data.player.claimed ? "" : " (guest)"),
    el("div", { class: "cards" },
      stat("matches", c.matches), stat("wins", c.wins),
      stat("win rate", `${Math.round(c.win_rate * 100)}%`),
      stat("stock cards per turn", c.stock_per_turn.toFixed(2)),
      stat("best round", c.best_round), stat("best match", c.best_match)),
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
      src: `/api/players/${encodeURIComponent(id)}/ratings.png?mode=${encodeURIComponent(mode)}`,
      alt: `Rating history in ${mode}: mu with its 3-sigma band and the conservative rating`,
    })),
    el("h3", {}, "Trophies"),
    data.trophies.length
      ? el("ul", {}, data.trophies.map((t) =>
          el("li", {}, `${PLACE[t.place]} · ${t.board} · ${t.mode} · season ${t.season}`)))
      : el("p", { class: "note" }, "No trophies yet."),
    el("h3", {}, "Achievements"),
    el("ul", { class: "cards" }, data.achievements.map((a) =>
      el("li", { class: `card achievement ${a.earned ? "earned" : "locked"}` },
        el("strong", {}, a.name), el("br"), a.description,
        a.earned ? el("div", { class: "note" }, `earned ${a.awarded_at.slice(0, 10)}`) : null))),
    el("h3", {}, "Recent matches"),
    el("ul", {}, data.recent.map((m) =>
      el("li", {}, `${m.finished_at.slice(0, 10)} · ${m.mode}${m.ranked ? " ranked" : ""} · `,
        m.won ? "won" : "lost", ` · ${m.points} points`))),
  );
}

init();
