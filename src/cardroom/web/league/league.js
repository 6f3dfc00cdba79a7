/** Shared helpers of the league pages: the API, the header, and small DOM builders. */
import { forget, player, remember, token } from "../js/identity.js";
import { adopt, languagePicker, t, translatePage } from "../js/i18n.js";
import { refusalText } from "../js/refusal.js";

export { player, remember, token };

export async function api(path, { method = "GET", body, auth = false } = {}) {
  const headers = { "Content-Type": "application/json" };
  if (auth && token()) headers.Authorization = `Bearer ${token()}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({}));
  if (response.status === 401 && auth && token()) forget(); // expired or signed out elsewhere
  if (!response.ok) {
    const error = new Error(refusalText(data.error || { code: "unknown" }));
    error.status = response.status;
    error.rule = data.error?.rule || null;
    throw error;
  }
  return data;
}

/** An element with attributes and children (strings become text: nothing is parsed as HTML). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** The app's top bar (brand, the league's pages, back to play), as on the lobby and the rules. */
export function header(current) {
  translatePage();
  const me = player();
  const links = [
    ["/league/index.html", "top.leaderboards"],
    ["/daily/", "daily.nav"],
    [me ? `/league/profile.html?id=${encodeURIComponent(me.id)}` : null, "league.my_profile"],
    ["/league/account.html", "league.account"],
  ];
  const brand = el("a", { class: "brand", href: "/#/", "aria-label": t("common.lobby_label") },
    el("img", { src: "/img/icon.svg", alt: "", width: 28, height: 28 }), el("span", {}, "Cardroom"));
  const pages = el("nav", { class: "topbar-status", "aria-label": t("league.nav") },
    links
      .filter(([href]) => href)
      .map(([href, key]) => el("a", { href, "aria-current": key === current ? "page" : null }, t(key))));
  const save = async (language) => {
    if (token()) await api("/api/me/language", { method: "PUT", body: { language }, auth: true });
  };
  document.body.prepend(
    el("header", { class: "topbar" }, brand, pages,
      el("div", { class: "topbar-tools" }, el("a", { href: "/#/" }, t("rules.play")), languagePicker({ save }))),
  );
  if (token()) api("/api/me/language", { auth: true }).then(({ language }) => adopt(language)).catch(() => {});
}

/** Who an entry is: a link to a player's profile, or a bot level in italics. */
export function who(entry) {
  if (entry.player) {
    return el("a", { href: `/league/profile.html?id=${encodeURIComponent(entry.player)}` }, entry.name);
  }
  return el("span", { class: "bot" }, entry.name || entry.bot);
}
