/** The leaderboards page: filters in the URL, one API call per change, pages. Each game has
 * its own boards (Skyjo's best match is its lowest total); a division's board
 * (`division:gold`) is this season's ranked board of its members (docs/league.md). */
import { api, el, header, who } from "./league.js";
import { date, has, num, t } from "../js/i18n.js";

const form = document.getElementById("filters");
const rows = document.getElementById("rows");
const VALUE = { scores: "boards.value.scores", winners: "boards.value.winners", ranked: "boards.value.ranked" }; // keys
const LOWEST_WINS = { skyjo: "boards.value.skyjo" };
const GAME_KEY = "cardroom.game"; // the lobby's choice of game, the default here too
let page = 1;
let pages = 1;

function params() {
  const data = new FormData(form);
  const query = new URLSearchParams();
  for (const [key, value] of data) if (value) query.set(key, value);
  const ranked = data.get("board") === "ranked" || data.get("board").startsWith("division:");
  if (ranked && !data.get("mode")) query.set("mode", "2p");
  query.set("page", page);
  return query;
}

async function load() {
  const query = params();
  const board = query.get("board");
  query.delete("board");
  history.replaceState(null, "", `?board=${board}&${query}`);
  const division = board.startsWith("division:") ? board.slice("division:".length) : null;
  const game = query.get("game");
  document.getElementById("value-head").textContent = t(division
    ? VALUE.ranked
    : (board === "scores" && LOWEST_WINS[game]) || VALUE[board]);
  document.getElementById("error").textContent = "";
  try {
    const data = division
      ? await api(`/api/divisions/${encodeURIComponent(division)}?${query}`)
      : await api(`/api/leaderboards/${board}?${query}`);
    if (division) Object.assign(data, { page: data.page ?? 1, pages: data.pages ?? 1, total: data.total ?? data.entries.length });
    pages = data.pages;
    rows.replaceChildren(
      ...data.entries.map((e) =>
        el("tr", {}, el("td", { class: "num" }, e.rank), el("td", {}, who(e)),
          el("td", { class: "num" }, typeof e.value === "number" ? num(e.value) : e.value), el("td", { class: "num" }, num(e.matches))),
      ),
    );
    if (!data.entries.length) rows.append(el("tr", {}, el("td", { colspan: 4 }, t("boards.nobody"))));
    const name = has(`division.${division}`) ? t(`division.${division}`) : data.division?.name;
    document.getElementById("caption").textContent = division && !data.frozen
      ? t("boards.division_caption", { name, season: data.season })
      : data.season
      ? t("boards.frozen", { season: data.season })
      : data.from ? t("boards.total_since", { count: data.total, date: date(data.from) }) : t("boards.total", { count: data.total });
    document.getElementById("page").textContent = t("boards.page", { n: data.page, count: data.pages });
  } catch (error) {
    document.getElementById("error").textContent = error.message;
  }
  document.getElementById("prev").disabled = page <= 1;
  document.getElementById("next").disabled = page >= pages;
  // One page: nothing to turn, so no buttons that look as if they could.
  document.querySelector(".pager").hidden = pages <= 1;
}

/** The modes of the game chosen: Skyjo has no teams. */
function fitModes() {
  const skyjo = form.elements.game.value === "skyjo";
  const teams = form.elements.mode.querySelector('option[value="teams"]');
  teams.hidden = teams.disabled = skyjo;
  if (skyjo && form.elements.mode.value === "teams") form.elements.mode.value = "";
}

async function init() {
  header("top.leaderboards");
  const url = new URLSearchParams(location.search);
  const saved = localStorage.getItem(GAME_KEY);
  if (saved && form.elements.game.querySelector(`option[value="${CSS.escape(saved)}"]`)) form.elements.game.value = saved;
  for (const [key, value] of url) if (form.elements[key]) form.elements[key].value = value;
  fitModes();
  page = Number(url.get("page")) || 1;
  try {
    const { seasons } = await api("/api/seasons");
    for (const s of seasons.filter((s) => s.status === "closed")) {
      form.elements.season.append(el("option", { value: s.id }, s.id));
    }
    if (url.get("season")) form.elements.season.value = url.get("season");
  } catch {
    /* the live boards still work */
  }
  form.addEventListener("change", () => { page = 1; fitModes(); load(); });
  form.addEventListener("submit", (event) => { event.preventDefault(); page = 1; load(); });
  document.getElementById("prev").addEventListener("click", () => { page -= 1; load(); });
  document.getElementById("next").addEventListener("click", () => { page += 1; load(); });
  load();
}

init();
