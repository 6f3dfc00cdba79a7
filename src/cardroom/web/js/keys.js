/** Keyboard shortcuts for the table (see the help dialog in index.html). */

/** Whether the focus is in a field being typed into (no shortcut, no focus taken from it). */
export function typing(target) {
  return !!target?.closest?.("input, select, textarea, [contenteditable]");
}

/** Calls handler(key) for plain key presses (lower-cased); returns a function that unbinds. */
export function bindKeys(handler) {
  const listener = (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    if (document.querySelector("dialog[open]")) return;
    if (handler(e.key.toLowerCase())) e.preventDefault();
  };
  document.addEventListener("keydown", listener);
  return () => document.removeEventListener("keydown", listener);
}
