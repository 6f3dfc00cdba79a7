/**
 * Drag and drop with pointer events, so mouse, pen and touch all work: press on a card that
 * can move, drag it over a pile, let go. A press without movement stays a click.
 */
const THRESHOLD = 8;

/**
 * hooks.selectionOf(el) → a selection or null (not draggable now)
 * hooks.start(sel), hooks.drop(sel, targetEl | null)
 * Returns a function that removes every listener (the screen is gone).
 */
export function enableDrag(root, hooks) {
  let pending = null;
  let drag = null;
  const stop = new AbortController();
  const signal = stop.signal;

  root.addEventListener("pointerdown", (e) => {
    if (e.button > 0 || drag) return;
    const el = e.target.closest("[data-src]");
    if (!el || !root.contains(el)) return;
    const sel = hooks.selectionOf(el);
    if (!sel) return;
    pending = { el, sel, x: e.clientX, y: e.clientY, id: e.pointerId };
  }, { signal });

  window.addEventListener("pointermove", (e) => {
    if (pending && e.pointerId === pending.id && !drag) {
      if (Math.hypot(e.clientX - pending.x, e.clientY - pending.y) < THRESHOLD) return;
      drag = begin(pending, e);
      pending = null;
      hooks.start(drag.sel);
    }
    if (!drag || e.pointerId !== drag.id) return;
    e.preventDefault();
    move(drag, e);
  }, { passive: false, signal });

  const finish = (e, cancelled) => {
    pending = null;
    if (!drag || e.pointerId !== drag.id) return;
    const current = drag;
    drag = null;
    const target = cancelled ? null : dropTarget(e);
    current.ghost.remove();
    current.hover?.classList.remove("drop-hover");
    document.body.classList.remove("dragging");
    // The click that follows a drag is not a click.
    root.addEventListener("click", swallow, { capture: true, once: true });
    setTimeout(() => root.removeEventListener("click", swallow, { capture: true }), 0);
    hooks.drop(current.sel, target);
  };
  window.addEventListener("pointerup", (e) => finish(e, false), { signal });
  window.addEventListener("pointercancel", (e) => finish(e, true), { signal });
  return () => {
    drag?.ghost.remove();
    document.body.classList.remove("dragging");
    stop.abort();
  };
}

function swallow(e) {
  e.stopPropagation();
  e.preventDefault();
}

function begin(p, e) {
  const card = p.el.querySelector(".card") || p.el;
  const rect = card.getBoundingClientRect();
  const ghost = card.cloneNode(true);
  ghost.classList.add("drag-ghost");
  Object.assign(ghost.style, {
    position: "fixed", left: "0px", top: "0px", width: `${rect.width}px`, height: `${rect.height}px`,
    zIndex: 70, pointerEvents: "none", margin: 0,
  });
  document.body.append(ghost);
  document.body.classList.add("dragging");
  const d = { ...p, ghost, dx: e.clientX - rect.left, dy: e.clientY - rect.top, hover: null };
  move(d, e);
  return d;
}

function move(d, e) {
  d.ghost.style.transform = `translate(${e.clientX - d.dx}px, ${e.clientY - d.dy}px) rotate(4deg) scale(1.06)`;
  const target = dropTarget(e);
  if (target !== d.hover) {
    d.hover?.classList.remove("drop-hover");
    target?.classList.add("drop-hover");
    d.hover = target;
  }
}

function dropTarget(e) {
  const el = document.elementFromPoint(e.clientX, e.clientY);
  return el?.closest("[data-dst]") || null;
}
