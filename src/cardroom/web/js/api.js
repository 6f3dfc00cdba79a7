/** The HTTP lobby API of docs/protocol.md, one function per endpoint. */
import { forget, token } from "./identity.js";
import { refusalText } from "./refusal.js";
import { inviteQuery, rememberInvite } from "./invites.js";

export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || ""); // refusal.js words it; an empty one as error.unknown
    this.status = status;
    this.code = error?.code || "unknown";
    this.reason = error?.reason || null;
    this.params = error?.params || {};
    this.rule = error?.rule || null;
  }

  /** The text shown to people, in their language: the rule id first when a game rule is the
   * reason. */
  get text() {
    const said = refusalText(this);
    return this.rule ? `${this.rule}: ${said}` : said;
  }
}

async function call(method, path, body) {
  const headers = { Accept: "application/json" };
  const auth = token();
  if (auth) headers.Authorization = `Bearer ${auth}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, { code: "offline", message: "the server cannot be reached" });
  }
  const data = await response.json().catch(() => null);
  // A token the server refuses (expired, signed out elsewhere, unknown) is of no more use:
  // forget it, so the lobby asks for a name (or the Account page for a sign-in) again.
  if (response.status === 401 && auth) forget();
  if (!response.ok) throw new ApiError(response.status, data?.error);
  if (data?.table?.invite) rememberInvite(data.table.id, data.table.invite);
  return data;
}

/** A table's URL (with `sub`), carrying its invitation when this browser holds one. */
const T = (id, sub = "") => `/api/tables/${encodeURIComponent(id)}${sub}${inviteQuery(id)}`;

export const api = {
  language: () => call("GET", "/api/me/language"),
  setLanguage: (language) => call("PUT", "/api/me/language", { language }),
  createPlayer: (name) => call("POST", "/api/players", { name }),
  me: () => call("GET", "/api/me"),
  rename: (name) => call("PATCH", "/api/me", { name }),
  levels: (game) => call("GET", game ? `/api/levels?game=${encodeURIComponent(game)}` : "/api/levels"),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", T(id)),
  createTable: (body) => call("POST", "/api/tables", body),
  named: (body) => call("POST", "/api/tables/named", body),
  quickplay: (body) => call("POST", "/api/quickplay", body),
  /** A private table against `bots` bots of `level`, already started: one call. */
  playBots: (bots, level, options, game = "skip") => call("POST", "/api/quickplay", { bots, level, options, game }),
  /** Whether a match with these rules would be ranked: `{ranked, mode}`. */
  ranked: (game, options) => call("GET", `/api/ranked?game=${encodeURIComponent(game)}&options=${encodeURIComponent(JSON.stringify(options))}`),
  /** The league's ratings of up to 8 subjects (`p_…`, `bot:easy`) in one pool. */
  ratings: (game, mode, subjects) => call("GET", `/api/ratings?game=${encodeURIComponent(game)}&mode=${encodeURIComponent(mode)}${
    subjects.map((s) => `&subject=${encodeURIComponent(s)}`).join("")}`),
  /** Division badges and chosen card backs of up to 8 players (docs/league.md). */
  badges: (game, mode, players) => call("GET", `/api/badges?game=${encodeURIComponent(game)}&mode=${encodeURIComponent(mode)}${
    players.map((p) => `&player=${encodeURIComponent(p)}`).join("")}`),
  myRewards: () => call("GET", "/api/me/rewards"),
  /** Wear an unlocked card back and/or theme: `{card_back, theme}`. */
  wear: (body) => call("PUT", "/api/me/rewards", body),
  join: (id, seat) => call("POST", T(id, "/join"), seat === undefined ? {} : { seat }),
  leave: (id) => call("POST", T(id, "/leave"), {}),
  addBot: (id, level, seat) => call("POST", T(id, "/bots"), seat === undefined ? { level } : { seat, level }),
  removeSeat: (id, seat) => call("DELETE", T(id, `/seats/${seat}`)),
  update: (id, body) => call("PATCH", T(id), body),
  start: (id) => call("POST", T(id, "/start"), {}),
  rematch: (id) => call("POST", T(id, "/rematch"), {}),
  declineRematch: (id) => call("POST", T(id, "/rematch/decline"), {}),
  skip: (id) => call("POST", T(id, "/skip"), {}),
  evict: (id, seat) => call("POST", T(id, "/evict"), { seat }),
  /** Report a player to the moderators: `{player, reason, table?, match?, note?}`. */
  report: (body) => call("POST", `/api/reports${body.table ? inviteQuery(body.table) : ""}`, body),
};
