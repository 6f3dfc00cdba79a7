/**
 * From "this card" + "that place" to an action in the protocol's notation, and lookups in the
 * `legal` list the server sends. No rule is computed here: the list is the only authority.
 *
 * A selection: {from: "hand", card, index} | {from: "stock"} | {from: "discard", pile}
 *              | {from: "partner_stock"} | {from: "partner_discard", pile}
 * A target:    {to: "build", pile} | {to: "discard", pile} | {to: "partner_discard", pile}
 * Piles are numbered 1-4, as in the notation.
 */

export function actionFor(sel, target) {
  if (!sel || !target) return null;
  if (target.to === "build") {
    const play = { type: "play", from: sel.from };
    if (sel.from === "hand") play.card = sel.card;
    if (sel.from === "discard" || sel.from === "partner_discard") play.pile = sel.pile;
    play.to = target.pile;
    return play;
  }
  if (sel.from !== "hand") return null; // only a hand card can be discarded (R4.4)
  const discard = { type: "discard", card: sel.card, pile: target.pile };
  if (target.to === "partner_discard") discard.partner = true;
  return discard;
}

export function sameAction(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const x = a[key] ?? (key === "partner" ? false : undefined);
    const y = b[key] ?? (key === "partner" ? false : undefined);
    if (x !== y) return false;
  }
  return true;
}

export function isLegal(action, legal) {
  return !!action && legal.some((l) => sameAction(l, action));
}

/** The targets the legal list allows for a selection (for the assist, R7.4). */
export function legalTargets(sel, legal) {
  const targets = [];
  for (const candidate of allTargets()) {
    if (isLegal(actionFor(sel, candidate), legal)) targets.push(candidate);
  }
  return targets;
}

function allTargets() {
  const out = [];
  for (const to of ["build", "discard", "partner_discard"]) {
    for (let pile = 1; pile <= 4; pile += 1) out.push({ to, pile });
  }
  return out;
}

/** The selection that a legal action starts from. */
export function selectionOf(action, hand = []) {
  if (action.type === "discard" || action.from === "hand") {
    return { from: "hand", card: action.card, index: hand.indexOf(action.card) };
  }
  if (action.type !== "play") return null;
  if (action.from === "discard" || action.from === "partner_discard") {
    return { from: action.from, pile: action.pile };
  }
  return { from: action.from };
}

export function targetOf(action) {
  if (action.type === "play") return { to: "build", pile: action.to };
  if (action.type === "discard") return { to: action.partner ? "partner_discard" : "discard", pile: action.pile };
  return null;
}

/** Can this selection go onto a building pile now? (discards don't count: any hand card can) */
export function canPlay(sel, legal) {
  return legalTargets(sel, legal).some((t) => t.to === "build");
}

export function sameSelection(a, b) {
  if (!a || !b || a.from !== b.from) return false;
  if (a.from === "hand") return a.index === b.index;
  return (a.pile ?? null) === (b.pile ?? null);
}

export function targetKey(t) {
  return `${t.to}-${t.pile}`;
}
