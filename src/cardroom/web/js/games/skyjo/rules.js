/** Skyjo's house rules (docs/skyjo-rules.md): a form for a table's owner and a short summary. */
import { h } from "../../dom.js";
import { t } from "../../i18n.js";

export const DEFAULTS = { end_score: 100, column_removal: true, closer_doubling: true, turn_timer: null, hints: true };

/** The lengths offered for a game against bots in the lobby. */
export const LENGTHS = {
  standard: { label: "sk.length.standard", options: { end_score: 100 } }, // labels: catalog keys
  short: { label: "sk.length.short", options: { end_score: 50 } },
  quick: { label: "sk.length.quick", options: { end_score: 10 } },
};

const ENDS = () => [[10, t("sk.end.one_round")], [30, "30"], [50, "50"], [100, t("sk.end.standard")], [150, "150"], [200, "200"]];
const TIMERS = () => [[null, t("rules.off")], [15, t("sk.seconds", { count: 15 })], [30, t("sk.seconds", { count: 30 })], [60, t("sk.seconds", { count: 60 })], [120, t("lobby.minutes_short", { count: 2 })]];

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
  const ends = ENDS().some(([v]) => v === o.end_score) ? ENDS() : [...ENDS(), [o.end_score, String(o.end_score)]];
  const form = h("div", { class: "rules skyjo-rules" },
    showSeats ? field(t("rules.seats"), h("input", { type: "number", name: "seats", min: "2", max: "8", value: Math.max(2, seats) }), t("sk.rules.players")) : null,
    field(t("sk.rules.ends_at"), select("end_score", ends, o.end_score), t("sk.rules.ends_hint")),
    field(t("rules.timer"), select("turn_timer", TIMERS(), o.turn_timer)),
    h("div", { class: "checks" },
      check("column_removal", t("sk.rules.columns"), o.column_removal),
      check("closer_doubling", t("sk.rules.doubling"), o.closer_doubling),
      check("hints", t("sk.rules.hints"), o.hints)));
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
  const out = [t("keeper.to_goal", { goal: options.end_score ?? 100 })];
  if (options.column_removal === false) out.push(t("sk.sum.no_columns"));
  if (options.closer_doubling === false) out.push(t("sk.sum.no_doubling"));
  if (options.turn_timer) out.push(t("rules.sum.timer", { count: options.turn_timer }));
  if (options.hints === false) out.push(t("rules.sum.no_hints"));
  return out;
}
