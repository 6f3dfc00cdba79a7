"""A Skyjo hint: the Master level's next step from the player's own view (R7.2), in words.

The reason says what the step does and what it is for (a lower card, a column of three alike,
a card kept from a bad draw); what a step is worth, in expected points, is the review's
(``review.py``, from ``SearchBot.values``).
"""

from __future__ import annotations

from typing import Any

from cardroom.games.skyjo import SeatView, action_to_json
from cardroom.games.skyjo.actions import Action
from cardroom.games.skyjo.cards import HIDDEN, column_of, row_of

from .. import make_bot
from ..levels import levels_for

HINT_SAMPLES = 8
"""The Master's search with fewer deals: a person is waiting for the hint."""


def advise(view: SeatView, seed: str = "hint") -> Action:
    level = levels_for("skyjo")["master"]
    settings = {**level.settings, "samples": min(HINT_SAMPLES, level.settings.get("samples", 0))}
    return make_bot(level.bot, seed, settings, game="skyjo").choose(view)


def hint_json(view: SeatView) -> dict[str, Any]:
    action = advise(view)
    return {
        "action": action_to_json(action),
        "plan": [action_to_json(action)],
        "reason": explain(view, action),
    }


def explain(view: SeatView, action: Action) -> str:
    """ "takes the 2 from the discard pile for column 3, row 1 (a face-down card)"."""
    me = view.seat
    assert me is not None
    grid = view.grids[me]
    if action.kind == "draw":
        top = view.discard_top
        return (
            f"draws from the pile: the discard's {top} would not lower your grid"
            if top is not None
            else "draws from the pile"
        )
    where = f"column {column_of(action.position) + 1}, row {row_of(action.position) + 1}"
    there = grid[action.position]
    replaced = "a face-down card" if there == HIDDEN else f"your {there}"
    if action.kind == "reveal":
        return f"turns the card at {where} (two cards are turned before the first turn, S1.2)"
    card = view.discard_top if action.kind == "take" else view.drawn
    column = _column_after(grid, action.position, card)
    pair = (
        f", making column {column_of(action.position) + 1} three alike (it is removed)"
        if column
        else ""
    )
    if action.kind == "take":
        return f"takes the {card} from the discard pile for {where} (in place of {replaced}){pair}"
    if action.kind == "exchange":
        return f"keeps the drawn {card} at {where} (in place of {replaced}){pair}"
    if action.kind == "discard":
        return f"discards the drawn {card}, too high to keep, and turns the card at {where}"
    return str(action)


def _column_after(grid: tuple[Any, ...], position: int, card: int | None) -> bool:
    """Whether placing ``card`` at ``position`` makes its column three equal face-up cards."""
    if card is None:
        return False
    top = column_of(position) * 3
    cells = [card if p == position else grid[p] for p in range(top, top + 3)]
    return all(c == card for c in cells)
