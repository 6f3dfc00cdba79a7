/**
 * The table's toolbar: its name and game, whether the league rates it, the league's news, and
 * the buttons a player has here (skip an absent player's turn, a hint, the result, leave, the
 * lobby).
 */
import { h } from "../dom.js";
import { gameTitle } from "../games/index.js";

export function tableToolbar(m, { seated, awards, claimable, hint, resultHidden, onSkip, onHint, onResult, onLeave, onLobby }) {
  const t = m.table;
  return h("div", { class: "table-toolbar" },
    h("span", { class: "table-title" }, t?.name ? `“${t.name}” · ${gameTitle(t.game)}` : `${gameTitle(t?.game)} table`, m.spectator && m.view ? h("span", { class: "badge" }, "Watching") : null,
      t ? h("span", { class: `badge ranked-badge${t.ranked ? " ranked" : ""}`, id: "ranked-badge",
        title: t.ranked ? "Ranked rules: the league rates this match for everyone the ladder allows (a claimed account with a few casual matches, no two opponents from one network or device, a few rated matches per pair a day); otherwise it counts as casual and the result says why. Leaving or timing out is a forfeit: a rated loss"
          : t.casual ? "A match against a bot while the ranked queue was thin: unranked, ratings do not change"
            : "A casual table: ratings do not change (only the standard rules with assist off are ranked)" },
      t.ranked ? "Ranked" : t.casual ? "Unranked · bot match" : "Casual") : null),
    h("span", { class: "spacer" }),
    awards,
    claimable ? h("button", { type: "button", class: "btn small", id: "skip-turn",
      title: "This player is offline or has been idle too long: skip the turn (it counts as a timeout, R7.3)",
      onclick: onSkip }, `Skip ${m.name(m.view.current)}'s turn`) : null,
    hint ? h("button", { type: "button", class: "btn small", id: "hint-button", disabled: !m.myTurn || hint.waiting,
      title: "The expert's suggestion for your next step, from your own cards only (H). Hints used are shown with the result.",
      onclick: onHint }, hint.waiting ? "Thinking…" : "Hint (H)") : null,
    resultHidden ? h("button", { type: "button", class: "btn small primary", onclick: onResult }, "Result") : null,
    seated && m.playing ? h("button", { type: "button", class: "btn small", onclick: onLeave }, "Leave table") : null,
    h("button", { type: "button", class: "btn small", onclick: onLobby }, "Lobby"));
}
