/**
 * The daily deal: today's deal of each game, played against the server's /api/daily routes
 * (docs/daily.md). The page knows no rule: the server's `legal` list lights the places a
 * chosen card may go, and a refused move shows the engine's reason (rule id + message).
 */
import { api, el, header, remember, token } from "../league/league.js";
import { cardEl, slotEl } from "../js/render/cards.js";
import { skyjoCard, cellLabel, HIDDEN } from "../js/games/skyjo/cards.js";

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
  return new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeZone: "UTC" }).format(new Date(`${day}T12:00:00Z`));
}

function resultText(game, attempt) {
  if (!attempt || attempt.status !== "finished") return null;
  if (attempt.result === null) return "challenge failed";
  return game.unit === "points" ? `${attempt.result} points, place ${attempt.place}` : `${attempt.result} ${game.unit}`;
}

// -- the day's deals ---------------------------------------------------------------------------

async function load() {
  clearError();
  index = await api("/api/daily", { auth: true });
  $("title").textContent = `Daily deal #${index.number}`;
  $("when").textContent = `${longDate(index.day)} · the same cards for everyone · one scored attempt a day`;
  $("signin").hidden = Boolean(token());
  const deals = index.games.map((game) => dealCard(game));
  $("deals").replaceChildren(...deals);
  const pick = $("board-game");
  if (!pick.options.length) {
    pick.append(...index.games.map((g) => el("option", { value: g.game }, g.name)));
    pick.addEventListener("change", () => { showBoard(); showArchive(); });
  }
  await Promise.all([showBoard(), showArchive()]);
}

function dealCard(game) {
  const mine = game.mine;
  const result = resultText(game, mine);
  let label = "Play today's deal";
  if (mine && mine.status === "playing") label = "Resume your attempt";
  if (result) label = "Practice again (unscored)";
  const play = el("button", { type: "button", "data-game": game.game }, label);
  play.addEventListener("click", () => start(game.game));
  const streak = game.streak
    ? el("p", { class: "note" }, `Streak: ${game.streak.current} day${game.streak.current === 1 ? "" : "s"} · best ${game.streak.best} · played ${game.streak.played}`)
    : null;
  return el(
    "article", { class: "deal", "data-game": game.game },
    el("h3", {}, game.name),
    el("p", {}, game.summary),
    el("p", { class: "mine" }, result ? `Your result: ${result}` : mine ? "Your attempt is under way." : "Not played yet today."),
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
  const game = gameOf(state.game);
  const practice = state.practice ? " · practice, unscored" : "";
  $("play-title").textContent = `${game.name} · ${state.day}${practice}`;
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
  $("log").replaceChildren(...state.log.map((event) => describe(event)).filter(Boolean).map((text) => el("li", {}, text)));
}

function statusText() {
  if (state.over) return state.outcome ? `Over: ${state.outcome.words}.` : "The round is over.";
  const view = state.view;
  if (state.game === "skyjo") {
    if (view.phase === "reveal") return "Turn up two cards of your grid.";
    if (view.holding) return selected === "let-go" ? "Choose a face-down card to turn up." : `You hold a ${view.drawn}: choose a card of your grid to replace, or let it go.`;
    if (selected === "take") return `Choose where the ${view.discard_top} goes in your grid.`;
    return "Your turn: take the discard pile's card or draw one.";
  }
  const left = view.stock_counts[0];
  return `Turn ${view.turn} · ${left} card${left === 1 ? "" : "s"} left in your stock · ${selected ? "now choose where it goes" : "choose a card"}`;
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
      fail("Another tab moved first: this is where the round stands now.");
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
      label: `building pile ${i + 1}: ${top === undefined ? "empty" : `shows ${pile.value}`}, takes ${pile.next}`,
      cls: lit ? "target" : "",
      disabled: state.over,
      onClick: () => {
        if (!selected) return fail("Choose a card first: your stock, a hand card or a discard pile's top.");
        const action = targets.find((a) => a.type === "play" && a.to === i + 1) || skipPlay(selected, i + 1);
        move(action);
      },
    }), `Building ${i + 1}`);
  });
  const stockCount = view.stock_counts[0];
  const stockTop = view.stock_tops[0];
  const stock = el("div", { class: "place" }, spot(stockTop === null || stockTop === undefined ? slotEl("") : cardEl(stockTop), {
    label: `your stock: ${stockCount} cards, ${stockTop ?? "empty"} on top`,
    cls: same(selected, { kind: "stock" }) ? "selected" : "",
    pressed: same(selected, { kind: "stock" }),
    disabled: state.over || !stockCount,
    onClick: () => select({ kind: "stock" }),
  }), `Stock · ${stockCount}`);
  const discards = view.discards[0].map((pile, i) => {
    const top = pile.at(-1);
    const lit = targets.some((a) => a.type === "discard" && a.pile === i + 1);
    const source = { kind: "discard", index: i + 1 };
    return el("div", { class: "place" }, spot(top === undefined ? slotEl("") : cardEl(top), {
      label: `your discard pile ${i + 1}: ${pile.length ? pile.join(", ") : "empty"}`,
      cls: same(selected, source) ? "selected" : lit ? "target" : "",
      pressed: same(selected, source),
      disabled: state.over,
      onClick: () => {
        if (selected?.kind === "hand") return move({ type: "discard", card: view.hand[selected.index], pile: i + 1 });
        if (top === undefined) return fail("That discard pile is empty.");
        select(source);
      },
    }), el("span", { class: "fan-text" }, pile.length > 1 ? pile.join(" ") : `Discard ${i + 1}`));
  });
  const hand = (view.hand || []).map((card, i) => {
    const source = { kind: "hand", index: i };
    return spot(cardEl(card), {
      label: `hand card ${i + 1}: ${card === "W" ? "wild" : card}`,
      cls: same(selected, source) ? "selected" : "",
      pressed: same(selected, source),
      disabled: state.over,
      onClick: () => select(source),
    });
  });
  return el("div", {},
    el("div", { class: "row", "aria-label": "building piles", role: "group" }, building),
    el("div", { class: "row", role: "group", "aria-label": "your stock and discard piles" }, stock, discards),
    el("div", { class: "row", role: "group", "aria-label": "your hand" }, hand),
  );
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
      const said = `${seat === 0 ? "your" : `${state.names[seat]}'s`} card, column ${c + 1}, row ${r + 1}: ${cellLabel(cell)}`;
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
    return el("div", { class: "grid-box" }, el("h4", {}, `${state.names[seat]} · score ${view.scores[seat]}`),
      el("div", { class: `grid ${small ? "small" : ""}`, role: "group", "aria-label": `${state.names[seat]}'s grid` }, cells));
  };
  const drawPile = spot(skyjoCard(HIDDEN), {
    label: `draw pile: ${view.draw_count} cards`,
    disabled: !has("draw"),
    onClick: () => move({ type: "draw" }),
  });
  const discardPile = spot(view.discard_top === null ? slotEl("") : skyjoCard(view.discard_top), {
    label: `discard pile: ${view.discard_top ?? "empty"}`,
    cls: selected === "take" ? "selected" : "",
    pressed: selected === "take",
    disabled: !has("take"),
    onClick: () => { selected = selected === "take" ? null : "take"; draw(); },
  });
  const held = view.holding && !state.over
    ? el("div", { class: "place" }, skyjoCard(view.drawn), "Drawn",
      spot(document.createTextNode(selected === "let-go" ? "Keep it after all" : "Let it go"), {
        label: selected === "let-go" ? "keep the drawn card" : "let the drawn card go and turn a card up",
        pressed: selected === "let-go",
        onClick: () => { selected = selected === "let-go" ? null : "let-go"; draw(); },
      }))
    : null;
  return el("div", {},
    el("div", { class: "grids" }, view.grids.slice(1).map((_, k) => gridOf(k + 1, true))),
    el("div", { class: "row" }, el("div", { class: "place" }, drawPile, `Draw · ${view.draw_count}`),
      el("div", { class: "place" }, discardPile, "Discard"), held),
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

function describe(event) {
  const who = event.seat === null || event.seat === undefined ? "" : state.names[event.seat];
  const d = event.detail || {};
  switch (event.kind) {
    case "played": return `${who} played ${d.card}${d.card === "W" ? ` as ${d.value}` : ""} from ${d.source === "discard" ? `discard pile ${d.pile}` : d.source} to building pile ${d.to}`;
    case "discarded": return state.game === "skyjo" ? `${who} let a ${d.card} go and turned up a ${d.turned}` : `${who} discarded ${d.card} on discard pile ${d.pile}`;
    case "completed": return `Building pile ${d.to} reached 12 and was cleared (R5.3)`;
    case "took": return `${who} took the ${d.card} from the discard pile, replacing a ${d.replaced}`;
    case "exchanged": return `${who} kept the drawn ${d.card}, replacing a ${d.replaced}`;
    case "revealed": return `${who} turned up a ${d.card}`;
    case "column_removed": return `${who}'s column ${d.column} of ${d.card}s was removed (S3.1)`;
    case "closed": return `${who} turned up their last card: everyone else has one more turn (S4.1)`;
    case "round_over": return state.game === "skyjo" ? `Round over: ${(d.points || []).map((p, s) => `${state.names[s]} ${p}`).join(", ")}` : d.winners?.length ? "The stock is empty: you won the round" : "The round stalled";
    default: return null;
  }
}

// -- the result --------------------------------------------------------------------------------

function finished() {
  const game = gameOf(state.game);
  $("done").hidden = false;
  $("hint").hidden = true;
  $("done-title").textContent = state.practice ? "Practice round over" : "Your daily result";
  $("outcome").textContent = state.outcome.words;
  $("share").textContent = state.share;
  $("marks").replaceChildren(marksEl(state.marks || "", game.legend));
  $("card-link").href = state.card;
  $("card").src = state.card;
  $("card").alt = `Image card: ${state.share.split("\n")[1]}`;
  $("again").dataset.game = state.game;
  $("again").dataset.day = state.day;
  $("again").textContent = `Practice this deal (unscored)${game.name ? ` · ${game.name}` : ""}`;
  showBoard();
}

$("copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(state.share);
    $("copy").textContent = "Copied";
  } catch {
    fail("Copying is not allowed here: select the text above instead.");
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
    $("status").textContent = `Hint: ${advice.reason || JSON.stringify(advice.action)}`;
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
    $("board-title").textContent = `Today's board · #${data.number}`;
    const rows = data.board.map((row) => {
      const see = el("button", { type: "button" }, "Moves");
      see.addEventListener("click", () => showRecord(row.attempt));
      return el("tr", {},
        el("td", { class: "num" }, row.rank),
        el("td", {}, row.name),
        el("td", { class: "num" }, row.result === null ? "failed" : `${row.result} ${unit}`),
        el("td", { class: "marks" }, marksEl(row.marks || "", gameOf(game).legend)),
        el("td", {}, see));
    });
    $("rows").replaceChildren(...(rows.length ? rows : [el("tr", {}, el("td", { colspan: 5 }, "Nobody with a claimed name has finished today's deal yet."))]));
  } catch (error) {
    fail(error);
  }
}

/** The marks as coloured squares with their meaning in words (an emoji font is not everywhere). */
function marksEl(marks, legend = {}) {
  const symbols = [...marks];
  const counts = {};
  for (const s of symbols) counts[s] = (counts[s] || 0) + 1;
  const words = Object.entries(counts).map(([s, n]) => `${n} × ${legend[s] || s}`).join(", ");
  return el("span", { class: "mark-row", role: "img", "aria-label": words || "no turns" },
    symbols.map((s) => el("span", { class: "mark", "data-mark": s, title: legend[s] || s })));
}

async function showRecord(attemptId) {
  const box = $("record");
  box.hidden = false;
  try {
    const record = await api(`/api/daily/attempts/${attemptId}/record`, { auth: true });
    const saved = state;
    state = { game: record.attempt.game, names: record.names };
    box.textContent = record.log.map(describe).filter(Boolean).join("\n");
    state = saved;
  } catch (error) {
    box.textContent = error.message;
  }
}

async function showArchive() {
  const game = $("board-game").value || "skip";
  try {
    const data = await api(`/api/daily/${game}/archive`, { auth: true });
    const items = data.days.map((day) => {
      const mine = day.mine ? ` · you: ${resultText(gameOf(game), day.mine) || "unfinished"}` : "";
      const link = el("button", { type: "button", disabled: !token() }, `#${day.number} · ${day.day}`);
      link.addEventListener("click", () => start(game, day.day));
      return el("li", {}, link, mine);
    });
    $("archive").replaceChildren(...(items.length ? items : [el("li", {}, "No past days yet.")]));
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

header("Daily deal");
load().catch(fail);
