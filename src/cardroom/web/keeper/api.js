/** The keeper's HTTP API (docs/protocol.md section 9), one function per endpoint. */
import { token } from "/js/identity.js";

export class KeeperApiError extends Error {
  constructor(status, error) {
    super(error?.message || ""); // refusal.js words it; an empty one as error.unknown
    this.status = status;
    this.code = error?.code || "unknown";
    this.reason = error?.reason || null;
    this.params = error?.params || {};
    this.field = error?.field || null;
    this.round = error?.round ?? null;
  }

  /** Could not reach the server (or it could not answer): try again later, drop nothing. */
  get retry() {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

async function call(method, path, body, { raw = false } = {}) {
  const headers = { Accept: raw ? "*/*" : "application/json" };
  const auth = token();
  if (auth) headers.Authorization = `Bearer ${auth}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers, cache: "no-store", body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new KeeperApiError(0, { code: "offline", message: "the server cannot be reached" });
  }
  if (raw && response.ok) return response.blob();
  const data = await response.json().catch(() => null);
  if (!response.ok) throw new KeeperApiError(response.status, data?.error);
  return data;
}

const G = (id) => `/api/keeper/games/${encodeURIComponent(id)}`;

export const keeperApi = {
  createPlayer: (name) => call("POST", "/api/players", { name }),
  create: (body) => call("POST", "/api/keeper/games", body),
  mine: () => call("GET", "/api/keeper/games"),
  get: (id) => call("GET", G(id)),
  addRound: (id, entry, round) => call("POST", `${G(id)}/rounds`, { entry, round }),
  editRound: (id, number, entry, basedOn, round) => call("PUT", `${G(id)}/rounds/${number}`, { entry, based_on: basedOn, round }),
  undo: (id, entry, basedOn) => call("POST", `${G(id)}/undo`, { entry, based_on: basedOn }),
  reorder: (id, entry, basedOn, players) => call("POST", `${G(id)}/order`, { entry, based_on: basedOn, players }),
  finish: (id) => call("POST", `${G(id)}/finish`, {}),
  remove: (id) => call("DELETE", G(id)),
  exportFile: (id, kind) => call("GET", `${G(id)}/export.${kind}`, undefined, { raw: true }),
  shared: (code) => call("GET", `/api/keeper/shared/${encodeURIComponent(code)}`),
  language: () => call("GET", "/api/me/language"),
  setLanguage: (language) => call("PUT", "/api/me/language", { language }),
};
