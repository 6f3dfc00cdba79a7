/** The house-rules form (every engine option, with presets) and a one-line summary of a table. */
import { h } from "./dom.js";

export const PRESETS = {
  standard: { label: "Standard (official)", options: {} },
  short: { label: "Short game: stock 10, to 200", options: { stock_size: 10, match_target: 200 } },
  express: { label: "Express: stock 10, one round, 30 s turns", options: { stock_size: 10, match_target: null, turn_timer: 30 } },
  learn: { label: "Learning: assist on, one round", options: { stock_size: 10, match_target: null, assist: true } },
  teams: { label: "Teams of two (4 players)", seats: 4, options: { teams: true, team_discards: true } },
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

const TARGETS = [[null, "Single round"], [25, "25"], [200, "200"], [500, "500 (official)"], [800, "800"]];
const TIMERS = [[null, "Off"], [15, "15 s"], [30, "30 s"], [60, "60 s"], [120, "2 min"], [300, "5 min"]];
const STOCKS = [["", "Official (30, or 20 with 5+)"], ["10", "Low / short: 10"], ["20", "Medium: 20"], ["30", "High: 30"], ["custom", "Custom…"]];

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
  const custom = h("input", { type: "number", name: "stock_custom", min: "1", max: "90", value: o.stock_size ?? 5, class: "stock-custom", "aria-label": "Custom stock size", hidden: stockValue !== "custom" });
  const stock = select("stock", STOCKS.map(([v, t]) => [v, t]), stockValue);
  stock.addEventListener("change", () => { custom.hidden = stock.value !== "custom"; });
  const preset = h("select", { name: "preset", "aria-label": "Preset" },
    h("option", { value: "" }, "Choose a preset…"),
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key }, p.label)));
  const form = h("div", { class: "rules", id },
    field("Preset", preset),
    showSeats ? field("Seats", h("input", { type: "number", name: "seats", min: "1", max: "8", value: seats }), "1-8; a solo round is practice") : null,
    h("div", { class: "stock-field" }, field("Stock size", stock), custom),
    field("Match target", select("match_target", TARGETS, o.match_target)),
    field("Turn timer", select("turn_timer", TIMERS, o.turn_timer)),
    field("Who starts", select("starter", [["dealer_left", "Left of the dealer"], ["highest_stock", "Highest stock card"]], o.starter)),
    field("Direction", select("direction", [["clockwise", "Clockwise"], ["counterclockwise", "Counter-clockwise"]], o.direction)),
    h("div", { class: "checks" },
      check("assist", "Assist: highlight where a card can go", o.assist),
      check("hints", "Hints: the expert's next step on request (H); never at ranked tables", o.hints),
      check("extra_deck", "Extra deck (+54 cards)", o.extra_deck),
      check("no_wild_discards", "No wild discards", o.no_wild_discards),
      check("teams", "Teams of two (4, 6 or 8 players)", o.teams),
      check("team_discards", "Team discards (discard on your partner's piles)", o.team_discards)));
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
  out.push(`stock ${options.stock_size ?? (options.players > 4 ? 20 : 30)}`);
  out.push(options.match_target ? `to ${options.match_target}` : "one round");
  if (options.teams) out.push(options.team_discards ? "teams, shared discards" : "teams");
  if (options.turn_timer) out.push(`${options.turn_timer} s turns`);
  if (options.assist) out.push("assist");
  if (options.hints === false) out.push("no hints");
  if (options.extra_deck) out.push("extra deck");
  if (options.no_wild_discards) out.push("no wild discards");
  if (options.starter === "highest_stock") out.push("highest stock starts");
  if (options.direction === "counterclockwise") out.push("counter-clockwise");
  return out;
}
