/**
 * Where a callout goes: next to the box it explains, on the side (below, above, right, left)
 * where it covers none of the boxes it must leave free, and as little as it can of those it
 * should; full size if that fits, else compact (small words), else one line (the title alone,
 * the words left to screen readers), else docked at an edge of the window. Only geometry: the
 * caller says what matters (js/walkthrough.js), this says where.
 */

/** From the target's box to the callout's edge: room for the arrow and the target's ring. */
const GAP = 20;
const ARROW = 12; // how far the arrow reaches out of the callout, toward the target
const MARGIN = 6; // from the window's edges
const WIDTH = { full: 340, compact: 420, line: 420 };
const NARROWEST = { full: 220, compact: 200, line: 200 };
/** What a smaller callout costs, in px² of covered board: it says less. */
const SMALLER = { full: 0, compact: 6000, line: 12000 };
const SIDES = ["below", "above", "right", "left"];
const ALIGNS = ["center", "start", "end"];
const DOCK_COST = 60000; // a callout away from its target, worse than covering most things
const OUT_OF_SIGHT = 4; // each px² of it out of the window weighs more than one of the board
const STAY_BONUS = 3000; // a callout does not hop between two near-equal places

/** The box of the elements matching any of `selectors` (their union), or null. */
export function boxOf(selectors, root = document) {
  let box = null;
  if (!selectors.length) return box;
  for (const el of root.querySelectorAll(selectors.join(", "))) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    box = box ? union(box, r) : { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  }
  return box;
}

/** Each element's box: `[{left, top, right, bottom}]`, the hidden ones left out. */
export function boxesOf(selectors, root = document) {
  if (!selectors.length) return [];
  return [...root.querySelectorAll(selectors.join(", "))]
    .map((el) => el.getBoundingClientRect())
    .filter((r) => r.width && r.height)
    .map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom }));
}

function union(a, b) {
  return { left: Math.min(a.left, b.left), top: Math.min(a.top, b.top), right: Math.max(a.right, b.right), bottom: Math.max(a.bottom, b.bottom) };
}

/** A box made `by` px larger on every side (room kept around it). */
export function grow(box, by) {
  return { left: box.left - by, top: box.top - by, right: box.right + by, bottom: box.bottom + by };
}

function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? w * h : 0;
}

function inside(box, bounds) {
  return box.left >= bounds.left && box.top >= bounds.top && box.right <= bounds.right && box.bottom <= bounds.bottom;
}

function clamp(value, low, high) {
  return Math.max(low, Math.min(high, value));
}

/**
 * Place `panel` (absolutely positioned in the page) next to `target` (a viewport box).
 * `hard`: boxes it must not touch (it never touches the target: it is placed `GAP` away from
 * it); `soft`: `{box, weight}` it should cover as little of as it can; `before`: the last
 * placement, kept while it is about as good as any. A place out of the window (below the fold
 * of a page that scrolls) costs more than covering the board, and is taken only when no place
 * in sight is free. Sets `data-mode` (full, compact, line), `data-side` (below, above, right,
 * left; none: docked) and `--arrow` (where along its edge the arrow points); returns the
 * placement (`seen`: wholly in the window), or null when no place leaves the hard boxes free.
 */
export function placeCallout(panel, { target, hard, soft, before = null }) {
  const vw = document.documentElement.clientWidth;
  const vh = window.innerHeight;
  const view = { left: MARGIN, top: MARGIN, right: vw - MARGIN, bottom: vh - MARGIN };
  const page = { ...view, top: MARGIN - scrollY, bottom: document.documentElement.scrollHeight - scrollY - MARGIN };
  const heights = (panel.__heights ||= new Map()); // a new step builds a new panel
  const measure = (mode, width) => {
    const key = `${mode}:${width}`;
    if (!heights.has(key)) {
      panel.dataset.mode = mode;
      panel.style.width = `${width}px`;
      heights.set(key, panel.offsetHeight);
    }
    return heights.get(key);
  };
  const free = (box, reach) => !hard.some((h) => overlap(reach, h) > 0) && inside(box, page);
  const unseen = (box) => (box.right - box.left) * (box.bottom - box.top) - overlap(box, view);
  const cost = (box) => soft.reduce((sum, s) => sum + overlap(box, s.box) * s.weight, unseen(box) * OUT_OF_SIGHT);
  let best = null;
  const consider = (placement) => {
    let c = placement.cost;
    if (before && before.side === placement.side && before.mode === placement.mode && before.align === placement.align) c -= STAY_BONUS;
    if (!best || c < best.rank) best = { ...placement, rank: c };
  };
  for (const [mode, extra] of Object.entries(SMALLER)) {
    for (const side of target ? SIDES : []) {
      const across = side === "below" || side === "above";
      const room = across ? view.right - view.left
        : side === "right" ? view.right - target.right - GAP : target.left - GAP - view.left;
      const width = Math.floor(Math.min(WIDTH[mode], room));
      if (width < NARROWEST[mode]) continue;
      const height = measure(mode, width);
      for (const align of ALIGNS) {
        const box = boxAt(side, align, target, width, height, page);
        const reach = { ...box };
        if (side === "below") reach.top -= ARROW;
        else if (side === "above") reach.bottom += ARROW;
        else if (side === "right") reach.left -= ARROW;
        else reach.right += ARROW;
        if (!free(box, reach)) continue;
        consider({ mode, side, align, box, cost: cost(box) + extra + (align === "center" ? 0 : 1) });
      }
    }
  }
  if (!best) {
    // Nowhere next to the target: one line at the bottom or the top of the window, off it.
    const width = Math.floor(Math.min(WIDTH.line, view.right - view.left));
    const height = measure("line", width);
    const left = (vw - width) / 2;
    const off = target ? [...hard, grow(target, GAP / 2)] : hard;
    for (const top of [view.bottom - height, view.top]) {
      const box = { left, top, right: left + width, bottom: top + height };
      if (!off.some((h) => overlap(box, h) > 0)) consider({ mode: "line", side: "none", align: "center", box, cost: cost(box) + DOCK_COST });
    }
  }
  if (!best) return null;
  const { box, side, mode } = best;
  panel.dataset.mode = mode;
  panel.dataset.side = side;
  panel.style.width = `${box.right - box.left}px`;
  panel.style.left = `${box.left + scrollX}px`;
  panel.style.top = `${box.top + scrollY}px`;
  if (side !== "none") {
    const along = side === "below" || side === "above"
      ? clamp((target.left + target.right) / 2 - box.left, 18, box.right - box.left - 18)
      : clamp((target.top + target.bottom) / 2 - box.top, 18, box.bottom - box.top - 18);
    panel.style.setProperty("--arrow", `${Math.round(along)}px`);
  }
  return { side, mode, align: best.align, seen: unseen(box) <= 0 };
}

/** The callout's box on one side of the target, lined up with its centre, start or end, and
 * slid back inside the bounds along that edge. */
function boxAt(side, align, target, width, height, bounds) {
  if (side === "below" || side === "above") {
    const at = { center: (target.left + target.right - width) / 2, start: target.left, end: target.right - width }[align];
    const left = clamp(at, bounds.left, bounds.right - width);
    const top = side === "below" ? target.bottom + GAP : target.top - GAP - height;
    return { left, top, right: left + width, bottom: top + height };
  }
  const at = { center: (target.top + target.bottom - height) / 2, start: target.top, end: target.bottom - height }[align];
  const top = clamp(at, bounds.top, bounds.bottom - height);
  const left = side === "right" ? target.right + GAP : target.left - GAP - width;
  return { left, top, right: left + width, bottom: top + height };
}
