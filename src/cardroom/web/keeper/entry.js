/**
 * Entering one round with a thumb: a large number field per player (a ± key for Skyjo's
 * negative sums, since a phone's number pad has no minus), and who closed (Skyjo) or who went
 * out (Skip) as large choices. The checks here are a courtesy: the server checks every field.
 */
import { h } from "/js/dom.js";
import { t } from "/js/i18n.js";
import { HIGHEST_SUM, LOWEST_SUM, skipWinners, stockSize } from "./score.js";

/** `initial`: a round in the file's form to correct; `onSubmit(round)`. */
export function roundForm(view, { number, initial = null, onSubmit, onCancel = null }) {
  const skyjo = view.game === "skyjo";
  const problem = h("p", { class: "problem", id: "entry-problem", role: "alert" });
  const rows = view.players.map((p, seat) => playerRow(view, p, seat, initial));
  const nobody = skyjo ? null : h("label", { class: "choice nobody" },
    h("input", { type: "radio", name: "who", value: "", checked: initial?.went_out === null }),
    h("span", {}, t("keeper.entry.nobody")));
  const title = t(initial ? "keeper.entry.correct" : "keeper.entry.round", { n: number });
  const form = h("form", { class: `kcard entry ${initial ? "editing" : ""}`, id: "entry", novalidate: true, "aria-labelledby": "entry-title" },
    h("h2", { id: "entry-title" }, title),
    h("p", { class: "muted small" }, t(skyjo ? "keeper.entry.help_skyjo" : "keeper.entry.help_skip")),
    h("div", { class: "rows" }, rows.map((r) => r.el)),
    nobody,
    problem,
    h("div", { class: "buttons" },
      h("button", { type: "submit", class: "btn primary big", id: "entry-submit" }, initial ? t("keeper.entry.save") : t("keeper.entry.add", { n: number })),
      onCancel ? h("button", { type: "button", class: "btn", id: "entry-cancel", onclick: onCancel }, t("common.cancel")) : null));

  const winnersNow = () => {
    const chosen = form.querySelector("input[name=who]:checked");
    if (skyjo || !chosen) return [];
    return skipWinners(view.players, view.options, chosen.value === "" ? null : chosen.value);
  };
  const paint = () => {
    if (skyjo) return;
    const won = winnersNow();
    rows.forEach((r, seat) => {
      const out = won.includes(seat);
      r.input.disabled = out;
      if (out) r.input.value = "0";
      r.el.classList.toggle("won", out);
    });
  };
  form.addEventListener("change", paint);
  paint();

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const checked = check(view, rows, form.querySelector("input[name=who]:checked"), winnersNow());
    if (checked.error) {
      problem.textContent = checked.error;
      checked.focus?.focus();
      return;
    }
    problem.textContent = "";
    onSubmit(checked.round);
  });
  return form;
}

function playerRow(view, player, seat, initial) {
  const skyjo = view.game === "skyjo";
  let value = "";
  if (initial) value = skyjo ? String(initial.sums[player]) : String(initial.stocks?.[player] ?? 0);
  const input = h("input", {
    type: "text", inputmode: "numeric", pattern: skyjo ? "-?[0-9]*" : "[0-9]*", autocomplete: "off",
    enterkeyhint: "next", class: "number", name: "value", value, dataset: { player },
    "aria-label": t(skyjo ? "keeper.entry.sum_label" : "keeper.entry.stock_label", { name: player }),
    placeholder: t(skyjo ? "keeper.entry.sum" : "keeper.entry.cards"),
  });
  const sign = skyjo ? h("button", {
    type: "button", class: "sign", "aria-label": t("keeper.entry.sign", { name: player }),
    onclick: () => {
      const v = input.value.trim();
      input.value = v.startsWith("-") ? v.slice(1) : `-${v}`;
      input.focus();
    },
  }, "±") : null;
  const chosen = skyjo ? initial?.closer === player : initial?.went_out === player;
  const choice = h("label", { class: "choice" },
    h("input", { type: "radio", name: "who", value: player, checked: chosen }),
    h("span", {}, t(skyjo ? "keeper.entry.closed" : "keeper.entry.out")));
  const el = h("div", { class: "row", dataset: { player, seat } },
    h("span", { class: "name" }, h("span", { class: "dot", dataset: { seat } }), player),
    h("span", { class: "field" }, sign, input),
    choice);
  return { el, input };
}

function check(view, rows, who, won) {
  const skyjo = view.game === "skyjo";
  if (!who) return { error: t(skyjo ? "keeper.entry.who_closed" : "keeper.entry.who_out"), focus: rows[0].el.querySelector("input[type=radio]") };
  const values = {};
  for (const [seat, r] of rows.entries()) {
    const p = view.players[seat];
    if (!skyjo && won.includes(seat)) continue;
    const text = r.input.value.trim();
    const number = Number(text);
    if (!/^-?\d+$/.test(text)) return { error: t("keeper.entry.whole", { name: p }), focus: r.input };
    if (skyjo && (number < LOWEST_SUM || number > HIGHEST_SUM)) {
      return { error: t("keeper.entry.bad_sum", { name: p, value: number, low: LOWEST_SUM, high: HIGHEST_SUM }), focus: r.input };
    }
    const most = skyjo ? 0 : stockSize(view.options, view.players);
    if (!skyjo && (number < 0 || number > most)) return { error: t("keeper.entry.bad_stock", { name: p, most }), focus: r.input };
    values[p] = number;
  }
  if (skyjo) return { round: { sums: values, closer: who.value } };
  return { round: { went_out: who.value === "" ? null : who.value, stocks: values } };
}
