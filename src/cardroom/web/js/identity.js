/**
 * Who this browser plays as: the token and player, kept in localStorage. Tokens end (an
 * expiry, or a claim, password change or "sign out everywhere" elsewhere): api.js forgets a
 * token the server refuses, and `renew` swaps in the fresh one GET /api/me hands out.
 */
const TOKEN = "cardroom.token";
const PLAYER = "cardroom.player";

export function token() {
  return localStorage.getItem(TOKEN);
}

export function player() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER) || "null");
  } catch {
    return null;
  }
}

export function remember(newPlayer, newToken) {
  localStorage.setItem(PLAYER, JSON.stringify(newPlayer));
  localStorage.setItem(TOKEN, newToken);
  document.dispatchEvent(new CustomEvent("identity"));
}

/** A fresh token for the same player (and the name the server holds now): no re-routing
 * unless who we are or our name changed. */
export function renewed(newPlayer, newToken) {
  const before = player();
  localStorage.setItem(PLAYER, JSON.stringify(newPlayer));
  localStorage.setItem(TOKEN, newToken);
  if (before?.id !== newPlayer.id || before?.name !== newPlayer.name) {
    document.dispatchEvent(new CustomEvent("identity"));
  }
}

export function forget() {
  localStorage.removeItem(PLAYER);
  localStorage.removeItem(TOKEN);
  document.dispatchEvent(new CustomEvent("identity"));
}
