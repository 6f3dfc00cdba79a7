/** Who this browser plays as: the guest token and player, kept in localStorage. */
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

export function forget() {
  localStorage.removeItem(PLAYER);
  localStorage.removeItem(TOKEN);
  document.dispatchEvent(new CustomEvent("identity"));
}
