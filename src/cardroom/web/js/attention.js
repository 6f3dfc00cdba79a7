/** The page title flashes ("● Your turn — Cardroom") while the tab is in the background and
 * something waits for the player; it stops when the tab comes back to the front. */
const FLASH_MS = 1000;
let timer = null;
let quietTitle = null;

export function callAttention(words) {
  if (document.visibilityState !== "hidden") return;
  stopAttention();
  quietTitle = document.title;
  const loud = `● ${words} — Cardroom`;
  let on = true;
  document.title = loud;
  document.documentElement.dataset.attention = words;
  timer = setInterval(() => {
    on = !on;
    document.title = on ? loud : quietTitle;
  }, FLASH_MS);
}

export function stopAttention() {
  if (timer === null) return;
  clearInterval(timer);
  timer = null;
  document.title = quietTitle;
  delete document.documentElement.dataset.attention;
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") stopAttention();
});
