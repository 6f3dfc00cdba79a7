/**
 * The table's toolbar: its name and game, whether the league rates it, the league's news, and
 * the buttons a player has here (skip an absent player's turn, a hint, the result, leave, the
 * lobby).
 */
import { h } from "../dom.js";
import { t as tr } from "../i18n.js";
import { gameTitle } from "../games/index.js";

export function tableToolbar(m, { seated, awards, claimable, hint, resultHidden, onSkip, onHint, onResult, onLeave, onLobby }) {
  const t = m.table;
  return h("div", { class: "table-toolbar" },
    h("span", { class: "table-title" }, t?.name ? tr("table.named", { name: t.name, game: gameTitle(t.game) }) : tr("table.unnamed", { game: gameTitle(t?.game) }), m.spectator && m.view ? h("span", { class: "badge" }, tr("table.watching")) : null,
      t ? h("span", { class: `badge ranked-badge${t.ranked ? " ranked" : ""}`, id: "ranked-badge",
        title: tr(t.ranked ? "table.ranked_title" : t.casual ? "table.bot_match_title" : "table.casual_title") },
      tr(t.ranked ? "table.ranked" : t.casual ? "table.bot_match" : "table.casual")) : null),
    h("span", { class: "spacer" }),
    awards,
    claimable ? h("button", { type: "button", class: "btn small", id: "skip-turn",
      title: tr("table.skip_turn_title"),
      onclick: onSkip }, tr("table.skip_turn", { name: m.name(m.view.current) })) : null,
    hint ? h("button", { type: "button", class: "btn small", id: "hint-button", disabled: !m.myTurn || hint.waiting,
      title: tr("table.hint_title"),
      onclick: onHint }, tr(hint.waiting ? "table.thinking" : "table.hint_button")) : null,
    resultHidden ? h("button", { type: "button", class: "btn small primary", onclick: onResult }, tr("table.result")) : null,
    seated && m.playing ? h("button", { type: "button", class: "btn small", id: "leave-table", onclick: onLeave }, tr("table.leave")) : null,
    h("button", { type: "button", class: "btn small", onclick: onLobby }, tr("table.lobby")));
}
