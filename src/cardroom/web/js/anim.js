/**
 * Short, interruptible card movements (the FLIP idea: remember where things were, render,
 * then fly a copy of the card from the old place to the new one) and a burst at 12.
 */
const running = new Set();
const reduced = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Where every keyed element is now. */
export function snapshot(root) {
  const rects = new Map();
  for (const el of root.querySelectorAll("[data-key]")) rects.set(el.dataset.key, el.getBoundingClientRect());
  return rects;
}

/** Finish every running animation at once (a new state arrived). */
export function finishAll() {
  for (const a of running) a.finish();
  running.clear();
}

/** Fly a copy of `cardNode` from rect `from` to the element `to`. */
export function fly(cardNode, from, to, { duration = 240 } = {}) {
  if (!from || !to || reduced()) return;
  const end = to.getBoundingClientRect();
  const ghost = cardNode.cloneNode(true);
  ghost.classList.add("flying");
  Object.assign(ghost.style, {
    position: "fixed", left: `${end.left}px`, top: `${end.top}px`, width: `${end.width}px`, height: `${end.height}px`,
    margin: 0, zIndex: 50, pointerEvents: "none",
  });
  document.body.append(ghost);
  to.style.visibility = "hidden";
  const dx = from.left + from.width / 2 - (end.left + end.width / 2);
  const dy = from.top + from.height / 2 - (end.top + end.height / 2);
  const scale = from.width / Math.max(1, end.width);
  const anim = ghost.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
    { duration, easing: "cubic-bezier(.2,.7,.3,1)" },
  );
  running.add(anim);
  const done = () => {
    running.delete(anim);
    ghost.remove();
    to.style.visibility = "";
  };
  anim.onfinish = done;
  anim.oncancel = done;
}

/** A ring of sparks around a pile that reached 12. */
export function burst(el) {
  if (!el || reduced()) return;
  const r = el.getBoundingClientRect();
  const cx = r.left + r.width / 2;
  const cy = r.top + r.height / 2;
  const colours = ["#ffcf4a", "#1f6fd1", "#178a4a", "#7a3fc2", "#e8731c"];
  for (let i = 0; i < 18; i += 1) {
    const spark = document.createElement("span");
    spark.className = "spark";
    spark.style.cssText = `left:${cx}px;top:${cy}px;background:${colours[i % colours.length]}`;
    document.body.append(spark);
    const angle = (i / 18) * Math.PI * 2;
    const dist = 50 + (i % 3) * 22;
    const anim = spark.animate(
      [{ transform: "translate(-50%,-50%) scale(1)", opacity: 1 },
        { transform: `translate(calc(-50% + ${Math.cos(angle) * dist}px), calc(-50% + ${Math.sin(angle) * dist}px)) scale(.3)`, opacity: 0 }],
      { duration: 650, easing: "cubic-bezier(.1,.8,.3,1)" },
    );
    running.add(anim);
    const done = () => {
      running.delete(anim);
      spark.remove();
    };
    anim.onfinish = done;
    anim.oncancel = done;
  }
  const label = document.createElement("span");
  label.className = "burst-label";
  label.textContent = "12!";
  label.style.cssText = `left:${cx}px;top:${cy}px`;
  document.body.append(label);
  const a = label.animate([{ opacity: 0, transform: "translate(-50%,-50%) scale(.5)" }, { opacity: 1, transform: "translate(-50%,-90%) scale(1.3)", offset: 0.3 }, { opacity: 0, transform: "translate(-50%,-150%) scale(1)" }], { duration: 900 });
  running.add(a);
  a.onfinish = a.oncancel = () => { running.delete(a); label.remove(); };
}

/** A win: confetti in the cards' colours falls over the window for two seconds (nothing with
 * reduced motion). Not among the running animations: the table's next message must not cut
 * it short, and it never takes a click (`pointer-events: none`). */
export function celebrate() {
  if (reduced()) return;
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  const colours = ["#ffcf4a", "#1f6fd1", "#178a4a", "#7a3fc2", "#e8731c", "#ff6b5b"];
  const pieces = [];
  for (let i = 0; i < 48; i += 1) {
    const piece = document.createElement("span");
    piece.className = "confetti";
    piece.style.cssText = `left:${(i * 37) % 100}%;background:${colours[i % colours.length]}`;
    layer.append(piece);
    const drift = ((i * 53) % 120) - 60;
    pieces.push(piece.animate(
      [{ transform: "translate(0, -5vh) rotate(0deg)", opacity: 1 },
        { transform: `translate(${drift}px, 105vh) rotate(${360 + i * 40}deg)`, opacity: 0.9 }],
      { duration: 1500 + (i % 7) * 120, delay: (i % 8) * 60, easing: "cubic-bezier(.3,.1,.7,1)", fill: "both" },
    ));
  }
  document.body.append(layer);
  Promise.all(pieces.map((a) => a.finished.catch(() => null))).then(() => layer.remove());
}

/** A short shake of a place that refused a card. */
export function shake(el) {
  if (!el || reduced()) return;
  el.animate([{ transform: "translateX(0)" }, { transform: "translateX(-6px)" }, { transform: "translateX(6px)" }, { transform: "translateX(0)" }], { duration: 240 });
}
