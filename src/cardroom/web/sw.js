/* The service worker: caches the static shell only, so the app installs and opens offline.
   API calls and WebSockets are never cached (they always go to the network). */
const CACHE = "cardroom-shell-v17";
const SHELL = [
  "/",
  "/index.html",
  "/manifest.webmanifest",
  "/css/base.css",
  "/css/cards.css",
  "/css/lobby.css",
  "/css/table.css",
  "/css/skyjo.css",
  "/img/icon.svg",
  "/img/icon-192.png",
  "/img/icon-512.png",
  "/bundle/js/main.js",
  "/js/main.js",
  "/js/i18n.js",
  "/js/refusal.js",
  "/i18n/en.json",
  "/i18n/pl.json",
  "/i18n/de.json",
  "/i18n/fr.json",
  "/js/api.js",
  "/js/dom.js",
  "/js/identity.js",
  "/js/invites.js",
  "/js/lobby.js",
  "/js/house-rules.js",
  "/js/table.js",
  "/js/model.js",
  "/js/moves.js",
  "/js/socket.js",
  "/js/dnd.js",
  "/js/keys.js",
  "/js/anim.js",
  "/js/sound.js",
  "/js/announce.js",
  "/js/attention.js",
  "/js/badges.js",
  "/js/chat.js",
  "/js/queue.js",
  "/js/ratings.js",
  "/js/render/awards.js",
  "/js/render/board.js",
  "/js/render/cards.js",
  "/js/render/continue.js",
  "/js/render/log.js",
  "/js/render/overlays.js",
  "/js/render/present.js",
  "/js/render/side.js",
  "/js/render/status.js",
  "/js/render/toolbar.js",
  "/js/render/waiting.js",
  "/js/rule-link.js",
  "/js/rules-page.js",
  "/js/theme.js",
  "/js/walkthrough.js",
  "/js/callout.js",
  "/js/games/index.js",
  "/js/games/skip.js",
  "/js/games/skyjo/board.js",
  "/js/games/skyjo/cards.js",
  "/js/games/skyjo/log.js",
  "/js/games/skyjo/overlays.js",
  "/js/games/skyjo/play.js",
  "/js/games/skyjo/rules.js",
  "/js/games/skyjo/sheet.js",
  "/js/games/skyjo/side.js",
];
// The score keeper (/keeper/): it must open with no connection, at the card table.
const KEEPER = [
  "/keeper/",
  "/keeper/index.html",
  "/keeper/keeper.css",
  "/bundle/keeper/keeper.js",
  "/keeper/keeper.js",
  "/keeper/api.js",
  "/keeper/book.js",
  "/keeper/chart.js",
  "/keeper/entry.js",
  "/keeper/score.js",
  "/keeper/sheet.js",
];
const CACHED = [...SHELL, ...KEEPER];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CACHED)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

function isShell(url) {
  if (url.origin !== self.location.origin) return false;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/ws/") || url.pathname === "/healthz") return false;
  return url.pathname === "/" || CACHED.includes(url.pathname);
}

// Network first (a fresh deploy wins), the cache when offline.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (!isShell(url)) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(() => caches.match(request).then((hit) => hit || caches.match(url.pathname.startsWith("/keeper/") ? "/keeper/" : "/"))),
  );
});
