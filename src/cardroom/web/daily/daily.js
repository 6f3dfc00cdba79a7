/**
 * The daily deal: today's deal of each game, played against the server's /api/daily routes
 * (docs/daily.md). The page knows no rule: the server's `legal` list lights the places a
 * chosen card may go, and a refused move shows the engine's reason (rule id + message).
 */
import { api, el, header, remember, token } from "../league/league.js";
import { cardEl, slotEl } from "../js/render/cards.js";
import { skyjoCard, cellLabel, HIDDEN } from "../js/games/skyjo/cards.js";
import { describe as skipEvent } from "../js/render/log.js";
import { describe as skyjoEvent } from "../js/games/skyjo/log.js";
import { date, has, list, t } from "../js/i18n.js";

/** Each game's words (catalog keys): its name, its summary, and what each mark of the share
 * text means. */
const WORDS = {
  skip: {
    name: "daily.skip.name",
    summary: "daily.skip.summary",
    marks: { "🟩": "daily.mark.stock", "🟨": "daily.mark.played", "⬜": "daily.mark.discard" },
  },
  skyjo: {
    name: "daily.skyjo.name",
    summary: "daily.skyjo.summary",
    marks: { "🟦": "daily.mark.took", "🟩": "daily.mark.kept", "🟨": "daily.mark.turned", "🏁": "daily.mark.closed" },
  },
};

function words(game) {
  return WORDS[game] || WORDS.skip;
}

const $ = (id) => document.getElementById(id);
let index = null; // GET /api/daily
let state = null; // the attempt being played
let selected = null; // Skip: {kind, index|pile}; Skyjo: "take" | "let-go"
let busy = false;

function fail(error) {
  const words = error?.message || String(error);
  $("error").textContent = error?.rule ? `${error.rule}: ${words}` : words;
}

function clearError() {
  $("error").textContent = "";
}

function longDate(day) {
  return date(new Date(`${day}T12:00:00Z`), { dateStyle: "full", timeZone: "UTC" });
}

/** A result in words: "37 turns", "12 points, place 2", or the challenge failed. */
function resultWords(unit, result, place) {
  if (result === null || result === undefined) return t("daily.result.failed");
  return unit === "points" ? t("daily.result.points", { count: result, place }) : t("daily.result.turns", { count: result });
}

function resultText(game, attempt) {
  if (!attempt || attempt.status !== "finished") return null;
  return resultWords(game.unit, attempt.result, attempt.place);
}

/** A seat's name: "You", or a bot's level and number in the player's words. */
function seatName(names, seat) {
  if (seat === 0) return t("daily.you");
  const [level, number] = String(names[seat] || "").split(" ");
  return has(`level.${level}`) ? t("daily.bot", { level: t(`level.${level}`), number }) : names[seat];
}

// -- the day's deals ---------------------------------------------------------------------------

async function load() {
  clearError();
  index = await api("/api/daily", { auth: true });
  $("title").textContent = t("daily.title_number", { number: index.number });
  $("when").textContent = t("daily.when", { date: longDate(index.day) });
  $("signin").hidden = Boolean(token());
  const deals = index.games.map((game) => dealCard(game));
  $("deals").replaceChildren(...deals);
  const pick = $("board-game");
  if (!pick.options.length) {
    pick.append(...index.games.map((g) => el("option", { value: g.game }, t(words(g.game).name))));
    pick.addEventListener("change", () => { showBoard(); showArchive(); });
  }
  await Promise.all([showBoard(), showArchive()]);
}

function dealCard(game) {
  const mine = game.mine;
  const result = resultText(game, mine);
  let label = t("daily.play");
  if (mine && mine.status === "playing") label = t("daily.resume");
  if (result) label = t("daily.practice_again");
  const play = el("button", { type: "button", "data-game": game.game }, label);
  play.addEventListener("click", () => start(game.game));
  const streak = game.streak
    ? el("p", { class: "note" }, t("daily.streak", { count: game.streak.current, best: game.streak.best, played: game.streak.played }))
    : null;
  return el(
    "article", { class: "deal", "data-game": game.game },
    el("h3", {}, t(words(game.game).name)),
    el("p", {}, t(words(game.game).summary)),
    el("p", { class: "mine" }, result ? t("daily.mine.result", { result }) : mine ? t("daily.mine.playing") : t("daily.mine.none")),
    streak,
    token() ? play : null,
  );
}

async function start(game, day) {
  if (busy) return;
  busy = true;
  clearError();
  try {
    const body = day ? { day } : {};
    show(await api(`/api/daily/${game}/attempts`, { method: "POST", body, auth: true }));
  } catch (error) {
    fail(error);
  } finally {
    busy = false;
  }
}

// -- a round -----------------------------------------------------------------------------------

function gameOf(name) {
  return index?.games.find((g) => g.game === name) || { name, unit: "" };
}

function show(next) {
  state = next;
  selected = null;
  const title = { name: t(words(state.game).name), day: state.day };
  $("play-title").textContent = t(state.practice ? "daily.play_title_practice" : "daily.play_title", title);
  $("deals").hidden = true;
  $("play").hidden = false;
  $("hint").hidden = !state.practice || state.over;
  $("play").dataset.moves = String(state.attempt.moves);
  $("play").dataset.over = String(state.over);
  draw();
  if (state.over) finished();
  else $("done").hidden = true;
}

function draw() {
  const board = state.game === "skyjo" ? skyjoBoard() : skipBoard();
  $("board").replaceChildren(board);
  $("status").textContent = statusText();
  $("log").replaceChildren(...logLines(state).map((text) => el("li", {}, text)));
}

function outcomeText() {
  const outcome = state.outcome;
  if (state.game === "skyjo") {
    return t("daily.outcome.skyjo", { count: outcome.result, place: outcome.place, seats: state.names.length });
  }
  return t(outcome.result === null ? "daily.outcome.stalled" : "daily.outcome.won", { count: state.view.turn });
}

function statusText() {
  if (state.over) return outcomeText();
  const view = state.view;
  if (state.game === "skyjo") {
    if (view.phase === "reveal") return t("daily.status.reveal");
    if (view.holding) return selected === "let-go" ? t("daily.status.let_go") : t("daily.status.holding", { card: view.drawn });
    if (selected === "take") return t("daily.status.take", { card: view.discard_top });
    return t("daily.status.skyjo_turn");
  }
  const where = { turn: view.turn, count: view.stock_counts[0] };
  return t(selected ? "daily.status.skip_target" : "daily.status.skip_choose", where);
}

async function move(action) {
  if (busy || !state || state.over) return;
  busy = true;
  clearError();
  try {
    show(await api(`/api/daily/attempts/${state.attempt.id}/moves`, { method: "POST", body: { action, seq: state.attempt.moves }, auth: true }));
  } catch (error) {
    if (error.status === 409) {
      show(await api(`/api/daily/attempts/${state.attempt.id}`, { auth: true }));
      fail({ message: t("daily.error.stale") });
    } else {
      fail(error);
      selected = null;
      draw();
    }
  } finally {
    busy = false;
  }
}

/** A place one can pick: the card as it looks, and its name in words for screen readers (not an
 * aria-label: what shows and what is said must not disagree). `data-label` names it for tests. */
function spot(content, { label, onClick, cls = "", disabled = false, pressed = null }) {
  const button = el("button", { type: "button", class: `spot ${cls}`, "data-label": label, "aria-pressed": pressed === null ? null : String(pressed), disabled },
    el("span", { class: "sr-only" }, label), content);
  button.addEventListener("click", onClick);
  return button;
}

// Skip: building piles, your stock and discard piles, your hand.
function skipBoard() {
  const view = state.view;
  const mine = state.over ? [] : state.legal;
  const same = (a, b) => a && b && a.kind === b.kind && a.index === b.index;
  const fromSel = (a) => {
    if (!selected || a.type !== "play" && a.type !== "discard") return false;
    if (selected.kind === "hand") return a.card === view.hand[selected.index] && (a.type === "discard" || a.from === "hand");
    if (selected.kind === "stock") return a.type === "play" && a.from === "stock";
    return a.type === "play" && a.from === "discard" && a.pile === selected.index;
  };
  const targets = mine.filter(fromSel);
  const select = (source) => { selected = same(selected, source) ? null : source; draw(); };
  const building = view.building.map((pile, i) => {
    const top = pile.cards.at(-1);
    const face = top === undefined ? slotEl(`${pile.next}`) : cardEl(top, { as: pile.value });
    const lit = targets.some((a) => a.type === "play" && a.to === i + 1);
    return el("div", { class: "place" }, spot(face, {
      label: top === undefined
        ? t("daily.place.building_empty", { number: i + 1, next: pile.next })
        : t("daily.place.building", { number: i + 1, value: pile.value, next: pile.next }),
      cls: lit ? "target" : "",
      disabled: state.over,
      onClick: () => {
        if (!selected) return fail({ message: t("daily.error.choose_first") });
        const action = targets.find((a) => a.type === "play" && a.to === i + 1) || skipPlay(selected, i + 1);
        move(action);
      },
    }), t("daily.caption.building", { number: i + 1 }));
  });
  const stockCount = view.stock_counts[0];
  const stockTop = view.stock_tops[0];
  const stock = el("div", { class: "place" }, spot(stockTop === null || stockTop === undefined ? slotEl("") : cardEl(stockTop), {
    label: stockCount ? t("daily.place.stock", { count: stockCount, top: cardWord(stockTop) }) : t("daily.place.stock_empty"),
    cls: same(selected, { kind: "stock" }) ? "selected" : "",
    pressed: same(selected, { kind: "stock" }),
    disabled: state.over || !stockCount,
    onClick: () => select({ kind: "stock" }),
  }), t("daily.caption.stock", { count: stockCount }));
  const discards = view.discards[0].map((pile, i) => {
    const top = pile.at(-1);
    const lit = targets.some((a) => a.type === "discard" && a.pile === i + 1);
    const source = { kind: "discard", index: i + 1 };
    return el("div", { class: "place" }, spot(top === undefined ? slotEl("") : cardEl(top), {
      label: pile.length
        ? t("daily.place.discard", { number: i + 1, cards: list(pile.map(cardWord)) })
        : t("daily.place.discard_empty", { number: i + 1 }),
      cls: same(selected, source) ? "selected" : lit ? "target" : "",
      pressed: same(selected, source),
      disabled: state.over,
      onClick: () => {
        if (selected?.kind === "hand") return move({ type: "discard", card: view.hand[selected.index], pile: i + 1 });
        if (top === undefined) return fail({ message: t("daily.error.empty_pile") });
        select(source);
      },
    }), el("span", { class: "fan-text" }, pile.length > 1 ? pile.join(" ") : t("daily.caption.discard", { number: i + 1 })));
  });
  const hand = (view.hand || []).map((card, i) => {
    const source = { kind: "hand", index: i };
    return spot(cardEl(card), {
      label: t("daily.place.hand", { number: i + 1, card: cardWord(card) }),
      cls: same(selected, source) ? "selected" : "",
      pressed: same(selected, source),
      disabled: state.over,
      onClick: () => select(source),
    });
  });
  return el("div", {},
    el("div", { class: "row", "aria-label": t("daily.group.building"), role: "group" }, building),
    el("div", { class: "row", role: "group", "aria-label": t("daily.group.mine") }, stock, discards),
    el("div", { class: "row", role: "group", "aria-label": t("daily.group.hand") }, hand),
  );
}

function cardWord(card) {
  return card === "W" ? t("daily.card.wild") : String(card);
}

function skipPlay(source, to) {
  if (source.kind === "stock") return { type: "play", from: "stock", to };
  if (source.kind === "discard") return { type: "play", from: "discard", pile: source.index, to };
  return { type: "play", from: "hand", card: state.view.hand[source.index], to };
}

// Skyjo: the bots' grids, the piles, your grid.
function skyjoBoard() {
  const view = state.view;
  const legal = state.over ? [] : state.legal;
  const has = (type) => legal.some((a) => a.type === type);
  const gridOf = (seat, small) => {
    const cells = [];
    view.grids[seat].forEach((column, c) => column.forEach((cell, r) => {
      const place = { column: c + 1, row: r + 1 };
      const where = { column: c + 1, row: r + 1, card: cellLabel(cell), name: seatName(state.names, seat) };
      const said = seat === 0 ? t("daily.place.cell_mine", where) : t("daily.place.cell_other", where);
      if (seat !== 0 || state.over || cell === null) {
        cells.push(skyjoCard(cell, { said }));
        return;
      }
      const type = skyjoCellAction(cell);
      const ok = type && legal.some((a) => a.type === type && a.column === place.column && a.row === place.row);
      const button = skyjoCard(cell, { tag: "button", said, classes: ok ? "live" : "", attrs: { type: "button", disabled: !type } });
      button.addEventListener("click", () => move({ type, ...place }));
      cells.push(button);
    }));
    const name = seatName(state.names, seat);
    return el("div", { class: "grid-box" }, el("h4", {}, t("daily.grid_heading", { name, score: view.scores[seat] })),
      el("div", { class: `grid ${small ? "small" : ""}`, role: "group", "aria-label": t("daily.grid_label", { name }) }, cells));
  };
  const drawPile = spot(skyjoCard(HIDDEN), {
    label: t("daily.place.draw", { count: view.draw_count }),
    disabled: !has("draw"),
    onClick: () => move({ type: "draw" }),
  });
  const discardPile = spot(view.discard_top === null ? slotEl("") : skyjoCard(view.discard_top), {
    label: view.discard_top === null ? t("daily.place.discard_none") : t("daily.place.discard_top", { card: view.discard_top }),
    cls: selected === "take" ? "selected" : "",
    pressed: selected === "take",
    disabled: !has("take"),
    onClick: () => { selected = selected === "take" ? null : "take"; draw(); },
  });
  const held = view.holding && !state.over
    ? el("div", { class: "place" }, skyjoCard(view.drawn), t("daily.caption.drawn"),
      spot(document.createTextNode(selected === "let-go" ? t("daily.keep") : t("daily.let_go")), {
        label: selected === "let-go" ? t("daily.keep_label") : t("daily.let_go_label"),
        pressed: selected === "let-go",
        onClick: () => { selected = selected === "let-go" ? null : "let-go"; draw(); },
      }))
    : null;
  return el("div", {},
    el("div", { class: "grids" }, view.grids.slice(1).map((_, k) => gridOf(k + 1, true))),
    el("div", { class: "row" }, el("div", { class: "place" }, drawPile, t("daily.caption.draw", { count: view.draw_count })),
      el("div", { class: "place" }, discardPile, t("daily.caption.discard_pile")), held),
    gridOf(0, false),
  );
}

function skyjoCellAction(cell) {
  const view = state.view;
  if (view.phase === "reveal") return cell === HIDDEN ? "reveal" : null;
  if (view.holding) return selected === "let-go" ? (cell === HIDDEN ? "discard" : null) : "exchange";
  return selected === "take" ? "take" : null;
}

// -- words for the move log ---------------------------------------------------------------------

/** The round's events in the tables' own sentences (js/render/log.js, js/games/skyjo/log.js). */
function logLines(of) {
  const model = { mySeat: 0, player: null, name: (seat) => seatName(of.names, seat) };
  const describe = of.game === "skyjo" ? skyjoEvent : skipEvent;
  return of.log.filter((event) => event.kind !== "turn").map((event) => describe(event, model)).filter(Boolean);
}

// -- the result --------------------------------------------------------------------------------

/** The text to share, in the player's words: the deal's number and day, the result, then the
 * marks ten to a line (no card of the deal). */
function shareText(of) {
  const game = gameOf(of.game);
  const number = index?.number === undefined ? "" : index.number - daysBefore(index.day, of.day);
  const head = t(of.practice ? "daily.share.head_practice" : "daily.share.head", { number, day: of.day });
  const line = t("daily.share.line", { name: t(words(of.game).name), result: resultWords(game.unit, of.outcome.result, of.outcome.place) });
  const marks = [...(of.marks || "")];
  const rows = [];
  for (let i = 0; i < marks.length; i += 10) rows.push(marks.slice(i, i + 10).join(""));
  return [head, line, ...rows].join("\n");
}

function daysBefore(today, day) {
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / 86_400_000);
}

function finished() {
  const text = shareText(state);
  $("done").hidden = false;
  $("hint").hidden = true;
  $("done-title").textContent = t(state.practice ? "daily.done.practice" : "daily.done.scored");
  $("outcome").textContent = outcomeText();
  $("share").textContent = text;
  $("marks").replaceChildren(marksEl(state.marks || "", state.game));
  $("card-link").href = state.card;
  $("card").src = state.card;
  $("card").alt = t("daily.image_card_alt", { headline: text.split("\n")[1] });
  $("again").dataset.game = state.game;
  $("again").dataset.day = state.day;
  showBoard();
}

$("copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText($("share").textContent);
    $("copy").textContent = t("daily.copied");
  } catch {
    fail({ message: t("daily.error.copy") });
  }
});
$("again").addEventListener("click", (e) => start(e.target.dataset.game, e.target.dataset.day));
$("leave").addEventListener("click", async () => {
  $("play").hidden = true;
  $("done").hidden = true;
  $("deals").hidden = false;
  state = null;
  await load().catch(fail);
});
$("hint").addEventListener("click", async () => {
  try {
    const advice = await api(`/api/daily/attempts/${state.attempt.id}/hint`, { auth: true });
    $("status").textContent = t("daily.hint_text", { reason: advice.reason || JSON.stringify(advice.action) });
  } catch (error) {
    fail(error);
  }
});

// -- the board and the archive -----------------------------------------------------------------

async function showBoard() {
  const game = $("board-game").value || "skip";
  const unit = gameOf(game).unit;
  try {
    const data = await api(`/api/daily/${game}/${index.day}/board`);
    $("board-title").textContent = t("daily.board_title_number", { number: data.number });
    const rows = data.board.map((row) => {
      const see = el("button", { type: "button" }, t("daily.moves"));
      see.addEventListener("click", () => showRecord(row.attempt));
      return el("tr", {},
        el("td", { class: "num" }, row.rank),
        el("td", {}, row.name),
        el("td", { class: "num" }, resultWords(unit, row.result, row.place)),
        el("td", { class: "marks" }, marksEl(row.marks || "", game)),
        el("td", {}, see));
    });
    $("rows").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5 }, t("daily.board_empty")))]));
  } catch (error) {
    fail(error);
  }
}

/** The marks as coloured squares with their meaning in words (an emoji font is not everywhere). */
function marksEl(marks, game) {
  const legend = words(game).marks;
  const symbols = [...marks];
  const counts = {};
  for (const s of symbols) counts[s] = (counts[s] || 0) + 1;
  const said = Object.entries(counts).map(([s, n]) => t("daily.marks_count", { count: n, what: legend[s] ? t(legend[s]) : s }));
  return el("span", { class: "mark-row", role: "img", "aria-label": said.length ? list(said) : t("daily.marks_none") },
    symbols.map((s) => el("span", { class: "mark", "data-mark": s, title: legend[s] ? t(legend[s]) : s })));
}

async function showRecord(attemptId) {
  const box = $("record");
  box.hidden = false;
  try {
    const record = await api(`/api/daily/attempts/${attemptId}/record`, { auth: true });
    box.textContent = logLines({ game: record.attempt.game, names: record.names, log: record.log }).join("\n");
  } catch (error) {
    box.textContent = error.message;
  }
}

async function showArchive() {
  const game = $("board-game").value || "skip";
  try {
    const data = await api(`/api/daily/${game}/archive`, { auth: true });
    const items = data.days.map((day) => {
      const mine = day.mine ? t("daily.archive_mine", { result: resultText(gameOf(game), day.mine) || t("daily.unfinished") }) : null;
      const link = el("button", { type: "button", disabled: !token() }, t("daily.archive_day", { number: day.number, day: day.day }));
      link.addEventListener("click", () => start(game, day.day));
      return el("li", {}, link, mine ? " · " : null, mine);
    });
    $("archive").replaceChildren(...(items.length ? items : [el("li", {}, t("daily.archive_none"))]));
  } catch (error) {
    fail(error);
  }
}

$("name-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    const name = new FormData(e.target).get("name");
    const made = await api("/api/players", { method: "POST", body: { name } });
    remember(made.player, made.token);
    await load();
  } catch (error) {
    fail(error);
  }
});

header("daily.nav");
load().catch(fail);
