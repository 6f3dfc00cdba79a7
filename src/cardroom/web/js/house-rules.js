/** The house-rules form (every engine option, with presets) and a one-line summary of a table. */
import { h } from "./dom.js";
import { t } from "./i18n.js";

export const PRESETS = {
  standard: { label: "rules.preset.standard", options: {} }, // labels: catalog keys (web/i18n)
  short: { label: "rules.preset.short", options: { stock_size: 10, match_target: 200 } },
  express: { label: "rules.preset.express", options: { stock_size: 10, match_target: null, turn_timer: 30 } },
  learn: { label: "rules.preset.learn", options: { stock_size: 10, match_target: null, assist: true } },
  teams: { label: "rules.preset.teams", seats: 4, options: { teams: true, team_discards: true } },
};

export const DEFAULTS = {
  stock_size: null,
  extra_deck: false,
  teams: false,
  team_discards: false,
  starter: "dealer_left",
  direction: "clockwise",
  match_target: 500,
  no_wild_discards: false,
  turn_timer: null,
  assist: false,
  hints: true,
};

const TARGETS = () => [[null, t("rules.single")], [25, "25"], [200, "200"], [500, t("keeper.new.official", { n: 500 })], [800, "800"]];
const TIMERS = () => [[null, t("rules.off")], [15, t("sk.seconds", { count: 15 })], [30, t("sk.seconds", { count: 30 })], [60, t("sk.seconds", { count: 60 })], [120, t("lobby.minutes_short", { count: 2 })], [300, t("lobby.minutes_short", { count: 5 })]];
const STOCKS = () => [["", t("rules.stock.official")], ["10", t("rules.stock.low")], ["20", t("rules.stock.medium")], ["30", t("rules.stock.high")], ["custom", t("rules.stock.custom")]];

let uid = 0;

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

/**
 * A form for the house rules. `seats` true adds a seat count; the returned `read()` gives
 * {seats, options} in the protocol's shape (options.players = seats).
 */
export function rulesForm({ seats = 2, options = {}, showSeats = true } = {}) {
  const id = `rules-${uid++}`;
  const o = { ...DEFAULTS, ...options };
  const stockValue = o.stock_size === null ? "" : ["10", "20", "30"].includes(String(o.stock_size)) ? String(o.stock_size) : "custom";
  const custom = h("input", { type: "number", name: "stock_custom", min: "1", max: "90", value: o.stock_size ?? 5, class: "stock-custom", "aria-label": t("rules.stock.custom_label"), hidden: stockValue !== "custom" });
  const stock = select("stock", STOCKS(), stockValue);
  stock.addEventListener("change", () => { custom.hidden = stock.value !== "custom"; });
  const preset = h("select", { name: "preset", "aria-label": t("rules.preset") },
    h("option", { value: "" }, t("rules.preset.choose")),
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key }, t(p.label))));
  const form = h("div", { class: "rules", id },
    field(t("rules.preset"), preset),
    showSeats ? field(t("rules.seats"), h("input", { type: "number", name: "seats", min: "1", max: "8", value: seats }), t("rules.seats_hint")) : null,
    h("div", { class: "stock-field" }, field(t("rules.stock_size"), stock), custom),
    field(t("rules.target"), select("match_target", TARGETS(), o.match_target)),
    field(t("rules.timer"), select("turn_timer", TIMERS(), o.turn_timer)),
    field(t("rules.starter"), select("starter", [["dealer_left", t("rules.starter.left")], ["highest_stock", t("rules.starter.highest")]], o.starter)),
    field(t("rules.direction"), select("direction", [["clockwise", t("rules.clockwise")], ["counterclockwise", t("rules.counterclockwise")]], o.direction)),
    h("div", { class: "checks" },
      check("assist", t("rules.assist"), o.assist),
      check("hints", t("rules.hints"), o.hints),
      check("extra_deck", t("rules.extra_deck"), o.extra_deck),
      check("no_wild_discards", t("rules.no_wild"), o.no_wild_discards),
      check("teams", t("rules.teams"), o.teams),
      check("team_discards", t("rules.team_discards"), o.team_discards)));
  const q = (name) => form.querySelector(`[name="${name}"]`);
  preset.addEventListener("change", () => {
    const p = PRESETS[preset.value];
    if (!p) return;
    const next = { ...DEFAULTS, ...p.options };
    if (showSeats && p.seats) q("seats").value = p.seats;
    const sv = next.stock_size === null ? "" : String(next.stock_size);
    stock.value = sv;
    custom.hidden = true;
    for (const key of ["match_target", "turn_timer", "starter", "direction"]) {
      q(key).value = next[key] === null ? "null" : String(next[key]);
    }
    for (const key of ["assist", "hints", "extra_deck", "no_wild_discards", "teams", "team_discards"]) q(key).checked = !!next[key];
  });
  const read = () => {
    const n = showSeats ? Number(q("seats").value) : seats;
    const nullable = (v) => (v === "null" ? null : Number(v));
    const stockSize = stock.value === "" ? null : stock.value === "custom" ? Number(custom.value) : Number(stock.value);
    const teams = q("teams").checked;
    return {
      seats: n,
      options: {
        players: n,
        stock_size: stockSize,
        extra_deck: q("extra_deck").checked,
        teams,
        team_discards: teams && q("team_discards").checked,
        starter: q("starter").value,
        direction: q("direction").value,
        match_target: nullable(q("match_target").value),
        no_wild_discards: q("no_wild_discards").checked,
        turn_timer: nullable(q("turn_timer").value),
        assist: q("assist").checked,
        hints: q("hints").checked,
      },
    };
  };
  return { el: form, read };
}

/** House rules as short phrases, e.g. for the table list. */
export function summarize(options) {
  if (!options) return [];
  const out = [];
  out.push(t("rules.sum.stock", { n: options.stock_size ?? (options.players > 4 ? 20 : 30) }));
  out.push(options.match_target ? t("keeper.to_goal", { goal: options.match_target }) : t("keeper.one_round"));
  if (options.teams) out.push(t(options.team_discards ? "rules.sum.teams_shared" : "keeper.teams"));
  if (options.turn_timer) out.push(t("rules.sum.timer", { count: options.turn_timer }));
  if (options.assist) out.push(t("rules.sum.assist"));
  if (options.hints === false) out.push(t("rules.sum.no_hints"));
  if (options.extra_deck) out.push(t("rules.sum.extra_deck"));
  if (options.no_wild_discards) out.push(t("rules.sum.no_wild"));
  if (options.starter === "highest_stock") out.push(t("rules.sum.highest"));
  if (options.direction === "counterclockwise") out.push(t("rules.sum.ccw"));
  return out;
}
