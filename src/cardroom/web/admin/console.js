/** The moderation console (/admin/): the reports queue with its actions, finding players (with
 * their matches, reports and sanctions), the live tables and sockets of every process, and the
 * audit log. Every action here is an /api/admin/ route (docs/operating.md); the server checks the
 * role of whoever calls, so this page only shows what it may. Text is text, never markup. */
import { api, el, header } from "../league/league.js";

const $ = (selector) => document.querySelector(selector);
const KINDS = [["mute", "Mute chat"], ["warn", "Warn"], ["rank_ban", "Ban from ranked"], ["ban", "Ban"], ["rename", "Rename"]];
const when = (iso) => (iso ? iso.slice(0, 16).replace("T", " ") : "—");

function say(text, error = false) {
  const box = $("#message");
  box.className = error ? "error" : "note";
  box.textContent = text;
}

async function act(promise, done) {
  try {
    const answer = await promise;
    say(done(answer));
    await refresh();
  } catch (error) {
    say(error.message, true);
  }
}

/** A sanction form: kind, minutes (mutes and bans), reason (shown to the player), a new name. */
function sanctionForm(playerId, reportId = null) {
  const kind = el("select", { name: "kind", "aria-label": "Action" }, KINDS.map(([v, t]) => el("option", { value: v }, t)));
  const minutes = el("input", { name: "minutes", type: "number", min: "1", value: "60", "aria-label": "Minutes (empty: until lifted)" });
  const reason = el("input", { name: "reason", required: true, minlength: "3", maxlength: "500", placeholder: "Reason, shown to the player", "aria-label": "Reason" });
  const name = el("input", { name: "name", maxlength: "32", placeholder: "New name", "aria-label": "New name", hidden: true });
  kind.addEventListener("change", () => { name.hidden = kind.value !== "rename"; minutes.disabled = ["warn", "rename"].includes(kind.value); });
  const form = el("form", { class: "act sanction-form" },
    el("label", {}, "Action", kind), el("label", {}, "Minutes", minutes), el("label", { class: "grow" }, "Reason", reason), name,
    el("button", { type: "submit" }, "Apply"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const body = { player: playerId, kind: kind.value, reason: reason.value };
    if (!minutes.disabled && minutes.value) body.minutes = Number(minutes.value);
    if (kind.value === "rename") body.name = name.value;
    if (reportId !== null) body.report = reportId;
    act(api("/api/admin/sanctions", { method: "POST", body, auth: true }),
      (a) => `Sanction ${a.sanction.id}: ${a.sanction.words}${a.sanction.until ? ` until ${when(a.sanction.until)} UTC` : ""}.`);
  });
  return form;
}

function dismissForm(reportId) {
  const outcome = el("input", { name: "outcome", required: true, minlength: "3", placeholder: "Why nothing is done", "aria-label": "Why dismissed" });
  const form = el("form", { class: "act dismiss-form" }, el("label", { class: "grow" }, "Dismiss", outcome), el("button", { type: "submit" }, "Dismiss"));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act(api(`/api/admin/reports/${reportId}`, { method: "POST", body: { status: "dismissed", outcome: outcome.value }, auth: true }),
      () => `Report ${reportId} dismissed.`);
  });
  return form;
}

function quoted(report) {
  const lines = report.context.chat || [];
  if (!lines.length) return null;
  return el("blockquote", { class: "quoted", "aria-label": "Chat lines kept by the table" },
    lines.map((line) => el("p", { class: line.from.id === report.target.id ? "reported" : null }, el("b", {}, `${line.from.name}: `), line.text)));
}

function reportItem(r) {
  const open = r.status === "open";
  return el("li", { "data-report": r.id },
    el("div", { class: "report-head" },
      el("span", { class: "reason" }, r.reason),
      el("span", {}, el("b", {}, r.target.name || r.target.id), " reported by ", r.reporter.name || r.reporter.id),
      el("span", { class: "note" }, when(r.created_at), r.table ? ` · table ${r.table}` : "", r.match ? ` · match ${r.match}` : ""),
      el("button", { type: "button", class: "small", onclick: null, "data-player": r.target.id }, "Player")),
    r.note ? el("p", {}, `“${r.note}”`) : null,
    quoted(r),
    open ? [sanctionForm(r.target.id, r.id), dismissForm(r.id)] : el("p", { class: "note" }, `${r.status}: ${r.outcome}`));
}

async function loadReports() {
  const status = $("#report-filter").status.value;
  const { reports, counts } = await api(`/api/admin/reports?status=${status}`, { auth: true });
  $("#report-counts").textContent = `(${counts.open} open, ${counts.handled} handled, ${counts.dismissed} dismissed)`;
  const list = $("#report-list");
  list.replaceChildren(...(reports.length ? reports.map(reportItem) : [el("li", { class: "note" }, `No ${status} reports.`)]));
  list.querySelectorAll("button[data-player]").forEach((b) => b.addEventListener("click", () => showPlayer(b.dataset.player)));
}

let shownPlayer = null;

async function showPlayer(id) {
  shownPlayer = id;
  const d = await api(`/api/admin/players/${encodeURIComponent(id)}`, { auth: true });
  const p = d.player;
  const inForce = Object.values(d.standing).filter(Boolean);
  const sanctions = el("table", { class: "sanctions" },
    el("thead", {}, el("tr", {}, ["#", "What", "Why", "Since", "Until", "Lifted", ""].map((t) => el("th", {}, t)))),
    el("tbody", {}, d.sanctions.map((s) => el("tr", { "data-sanction": s.id },
      el("td", {}, s.id), el("td", {}, s.words), el("td", {}, s.reason), el("td", {}, when(s.at)), el("td", {}, when(s.until)),
      el("td", {}, s.lifted_at ? `${when(s.lifted_at)}: ${s.lift_reason}` : ""),
      el("td", {}, !s.lifted_at && ["mute", "rank_ban", "ban"].includes(s.kind) ? liftButton(s.id) : null)))));
  $("#dossier").replaceChildren(el("article", { class: "dossier", "data-dossier": p.id },
    el("h4", {}, p.name, " ", el("span", { class: "note" }, `${p.id} · ${p.claimed ? "account" : "guest"} · ${p.role} · since ${when(p.created_at)}`)),
    inForce.length ? el("p", { class: "in-force" }, "In force: ", inForce.map((n) => `${n.words} until ${n.until ? when(n.until) : "lifted"}`).join("; ")) : null,
    sanctionForm(p.id),
    el("h5", {}, "Sanctions"), d.sanctions.length ? sanctions : el("p", { class: "note" }, "None."),
    el("h5", {}, "Reports about them"), d.reports_about.length ? el("ol", { class: "console-list" }, d.reports_about.map(reportItem)) : el("p", { class: "note" }, "None."),
    el("h5", {}, "Fair play"), cheatControl(p, d.fair_play),
    el("h5", {}, "Recent matches"),
    d.recent.length ? el("ul", {}, d.recent.map((m) => el("li", { "data-match": m.match }, el("a", { href: `/league/review.html?match=${encodeURIComponent(m.match)}` }, m.match),
      ` ${m.game} ${m.mode}${m.ranked ? " ranked" : ""}: ${m.won ? "won" : "lost"}, ${m.points} points, ${when(m.finished_at)}`,
      m.voided ? el("span", { class: "note" }, m.voided_by_moderator ? " · voided" : " · void (cheat mark)") : null, " ",
      m.voided_by_moderator ? fairPlayButton("Restore", `/api/admin/matches/${encodeURIComponent(m.match)}/unvoid`, "Why does this match count again?", `Match ${m.match} counts again.`)
        : m.voided ? null : fairPlayButton("Void", `/api/admin/matches/${encodeURIComponent(m.match)}/void`, "Why void this match? Its ratings are recomputed for everyone.", `Match ${m.match} voided.`))))
      : el("p", { class: "note" }, "No finished matches.")));
}

/** A void, a restore, a mark or a clearing: one POST with a reason asked for first. */
function fairPlayButton(label, path, question, done) {
  const button = el("button", { type: "button", class: "small" }, label);
  button.addEventListener("click", () => {
    const reason = window.prompt(question);
    if (reason) act(api(path, { method: "POST", body: { reason }, auth: true }), (a) => `${done} ${a.replayed} rated matches replayed, ${a.ratings_moved} ratings moved.`);
  });
  return button;
}

function cheatControl(player, mark) {
  const path = `/api/admin/players/${encodeURIComponent(player.id)}/cheat`;
  if (mark) {
    return el("p", { class: "in-force" }, `Marked as cheating since ${when(mark.marked_at)}: ${mark.reason}. `,
      fairPlayButton("Clear the mark", `${path}/clear`, "Why clear this mark? Their results count again.", "Mark cleared."));
  }
  return el("p", {}, "No cheat mark. ",
    fairPlayButton("Mark as cheating", path, "Why mark this account? Every result of it is voided and it leaves every board.", "Marked as cheating."));
}

function liftButton(id) {
  const button = el("button", { type: "button", class: "small" }, "Lift");
  button.addEventListener("click", () => {
    const reason = window.prompt("Why lift it now?");
    if (reason) act(api(`/api/admin/sanctions/${id}/lift`, { method: "POST", body: { reason }, auth: true }), () => `Sanction ${id} lifted.`);
  });
  return button;
}

async function findPlayers(event) {
  event?.preventDefault();
  const q = $("#player-search").q.value.trim();
  if (!q) return;
  const { players } = await api(`/api/admin/players?q=${encodeURIComponent(q)}`, { auth: true });
  $("#player-list").replaceChildren(...(players.length ? players.map((p) => {
    const button = el("button", { type: "button", class: "small" }, "Open");
    button.addEventListener("click", () => showPlayer(p.id).catch((e) => say(e.message, true)));
    return el("li", {}, el("b", {}, p.name), ` ${p.id} · ${p.claimed ? "account" : "guest"} · ${p.role} `, button);
  }) : [el("li", { class: "note" }, "Nobody by that name.")]));
}

async function loadLive() {
  const { processes } = await api("/api/admin/live", { auth: true });
  $("#live-list").replaceChildren(...processes.map((proc) => el("div", { class: "live-process" },
    el("h4", {}, proc.node, " ", el("span", { class: "note" }, `${proc.sockets} socket(s), ${proc.open_tables} table(s) · ${when(proc.at)}`)),
    proc.tables.length ? el("table", {},
      el("thead", {}, el("tr", {}, ["Table", "Game", "Status", "People", "Sockets", ""].map((t) => el("th", {}, t)))),
      el("tbody", {}, proc.tables.map((t) => el("tr", { "data-table": t.id },
        el("td", {}, t.name || t.id, t.public ? "" : " (private)"), el("td", {}, t.game), el("td", {}, t.status),
        el("td", {}, t.people.map((p) => p.name).join(", ")), el("td", { class: "num" }, t.sockets), el("td", {}, closeButton(t.id))))))
      : el("p", { class: "note" }, "No tables."))));
}

function closeButton(id) {
  const button = el("button", { type: "button", class: "small" }, "Close");
  button.addEventListener("click", () => {
    const reason = window.prompt("Why close this table? Everyone there is told.");
    if (reason) act(api(`/api/admin/tables/${id}/close`, { method: "POST", body: { reason }, auth: true }), () => `Table ${id} closed.`);
  });
  return button;
}

async function loadAudit() {
  const { entries } = await api("/api/admin/audit?limit=100", { auth: true });
  $("#audit-log tbody").replaceChildren(...entries.map((e) => el("tr", { "data-entry": e.id },
    el("td", {}, e.id), el("td", {}, when(e.at)), el("td", {}, e.actor.name), el("td", {}, e.action, e.details.kind ? ` ${e.details.kind}` : "", e.details.lifted ? " (lifted)" : ""),
    el("td", {}, e.details.name || e.target), el("td", {}, e.reason))));
}

async function refresh() {
  await Promise.all([loadReports(), loadLive(), loadAudit(), shownPlayer ? showPlayer(shownPlayer) : null]);
}

async function start() {
  header("Console");
  try {
    const { staff } = await api("/api/admin/me", { auth: true });
    $("#whoami").textContent = `Signed in as ${staff.name} (${staff.role}).`;
  } catch (error) {
    $("#whoami").textContent = error.status === 401 || error.status === 403
      ? "The console is for moderators and admins. Sign in with a staff account (Account page)."
      : `The console cannot load: ${error.message}`;
    return;
  }
  for (const node of document.querySelectorAll("main > section, .console-tabs")) node.hidden = false;
  $("#report-filter").addEventListener("change", () => loadReports().catch((e) => say(e.message, true)));
  $("#player-search").addEventListener("submit", (e) => findPlayers(e).catch((err) => say(err.message, true)));
  $("#live-refresh").addEventListener("click", () => loadLive().catch((e) => say(e.message, true)));
  await refresh();
}

start().catch((error) => say(error.message, true));
