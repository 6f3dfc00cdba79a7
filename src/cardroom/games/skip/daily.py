"""Skip's deal of the day (``games/daily.py``): a solo round, 20 cards in the stock, to empty
in the fewest turns (R2.1). A round that stalls is the challenge failed (R6.4)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..daily import YOU, DailyRules, Outcome, turns_of
from .match import Match

STOCK = 20
STOCK_PLAYED = "🟩"  # a turn that played from the stock
PLAYED = "🟨"  # cards played, none of them from the stock
NOTHING = "⬜"  # nothing played: only a discard


def outcome(match: Match) -> Outcome:
    result = match.round_result() or {}
    turns = match.view(YOU).to_json()["turn"]
    if YOU in (result.get("winners") or ()):
        return Outcome(turns, 1, f"stock emptied in {turns} turns")
    left = (result.get("stock_left") or [STOCK])[YOU]
    return Outcome(None, 1, f"stalled after {turns} turns with {left} cards in the stock")


def marks(events: Sequence[Mapping[str, Any]]) -> str:
    out = []
    for turn in turns_of(events):
        played = [e for e in turn if e.get("kind") == "played"]
        if any(e["detail"].get("source") == "stock" for e in played):
            out.append(STOCK_PLAYED)
        else:
            out.append(PLAYED if played else NOTHING)
    return "".join(out)


DAILY = DailyRules(
    name="Skip solo",
    summary=f"Empty a {STOCK}-card stock in the fewest turns, alone at the table.",
    options={"players": 1, "stock_size": STOCK, "match_target": None, "hints": False},
    bots=(),
    unit="turns",
    outcome=outcome,
    marks=marks,
    legend={STOCK_PLAYED: "a stock card played", PLAYED: "cards played", NOTHING: "a discard only"},
)
