/** Skyjo's house rules (docs/skyjo-rules.md): a form for a table's owner and a short summary. */
import { h } from "../../dom.js";

export const DEFAULTS = { end_score: 100, column_removal: true, closer_doubling: true, turn_timer: null, hints: true };

/** The lengths offered for a game against bots in the lobby. */
export const LENGTHS = {
  standard: { label: "Standard: to 100 points", options: { end_score: 100 } },
  short: { label: "Short: to 50 points", options: { end_score: 50 } },
  quick: { label: "Quick: to 10 points (about one round)", options: { end_score: 10 } },
};

const ENDS = [[10, "10 (about one round)"], [30, "30"], [50, "50"], [100, "100 (standard)"], [150, "150"], [200, "200"]];
const TIMERS = [[null, "Off"], [15, "15 s"], [30, "30 s"], [60, "60 s"], [120, "2 min"]];

function field(label, control, hint) {
  return h("label", { class: "field" }, h("span", {}, label), control, hint ? h("small", {}, hint) : null);
}

function select(name, pairs, value) {
  return h("select", { name }, pairs.map(([v, text]) =>
    h("option", { value: v === null ? "null" : String(v), selected: v === value }, text)));
}

function check(name, label, value, hint) {
  return h("label", { class: "check" }, h("input", { type: "checkbox", name, checked: !!value }), " ", label,
    hint ? h("small", {}, ` ${hint}`) : null);
}

/** Same shape as Skip's form: `{el, read() → {seats, options}}`. */
export function rulesForm({ seats = 2, options = {}, showSeats = true } = {}) {
  const o = { ...DEFAULTS, ...options };
  const ends = ENDS.some(([v]) => v === o.end_score) ? ENDS : [...ENDS, [o.end_score, String(o.end_score)]];
  const form = h("div", { class: "rules skyjo-rules" },
    showSeats ? field("Seats", h("input", { type: "number", name: "seats", min: "2", max: "8", value: Math.max(2, seats) }), "2-8 players") : null,
    field("Game ends at", select("end_score", ends, o.end_score), "the lowest total then wins (S5.1)"),
    field("Turn timer", select("turn_timer", TIMERS, o.turn_timer)),
    h("div", { class: "checks" },
      check("column_removal", "Column removal: three equal cards in a column leave (S3.1)", o.column_removal),
      check("closer_doubling", "Closer's doubling: a closer who is not strictly lowest scores double (S4.3)", o.closer_doubling),
      check("hints", "Hints: the next step on request (H); never at ranked tables", o.hints)));
  const q = (name) => form.querySelector(`[name="${name}"]`);
  const read = () => {
    const n = showSeats ? Number(q("seats").value) : seats;
    const timer = q("turn_timer").value;
    return {
      seats: n,
      options: {
        players: n,
        end_score: Number(q("end_score").value),
        column_removal: q("column_removal").checked,
        closer_doubling: q("closer_doubling").checked,
        turn_timer: timer === "null" ? null : Number(timer),
        hints: q("hints").checked,
      },
    };
  };
  return { el: form, read };
}

export function summarize(options) {
  if (!options) return [];
  const out = [`to ${options.end_score ?? 100}`];
  if (options.column_removal === false) out.push("no column removal");
  if (options.closer_doubling === false) out.push("no doubling");
  if (options.turn_timer) out.push(`${options.turn_timer} s turns`);
  if (options.hints === false) out.push("no hints");
  return out;
}
