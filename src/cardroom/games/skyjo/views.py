"""What one seat, or a spectator, may see of a Skyjo round.

A view copies only what is visible, so what is hidden cannot leak by accident: a face-down
card is ``HIDDEN`` to everyone, its owner included; the draw pile is a count; a drawn card is
seen by its drawer alone until it is placed or discarded. A face-down card's value is never
copied into a view.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .actions import Action
from .cards import COLUMNS, HIDDEN, ROWS, Cell
from .options import Options
from .rules import list_actions
from .state import RoundResult, State

__all__ = ["HIDDEN", "Cell", "SeatView", "view"]

_new = tuple.__new__
"""Makes a named tuple from its fields in order: ``SeatView._make`` without its checks."""


class SeatView(NamedTuple):
    """One seat's view of a round; ``seat`` None is a spectator."""

    seat: int | None
    options: Options
    players: int
    phase: str
    current: int
    turn: int
    grids: tuple[tuple[Cell, ...], ...]
    """Per seat, 12 cells by position (``column * 3 + row``): a value, HIDDEN or None."""
    discard_top: int | None
    discard_count: int
    draw_count: int
    holding: bool
    drawn: int | None
    reveals_left: tuple[int, ...]
    starter: int | None
    closer: int | None
    result: RoundResult | None
    scores: tuple[int, ...]

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.current and self.result is None

    def legal_actions(self) -> list[Action]:
        """The actions this seat may make now (none when it is not its turn)."""
        if not self.my_turn:
            return []
        assert self.seat is not None
        mine = self.grids[self.seat]
        present = [cell is not None for cell in mine]
        down = [cell == HIDDEN for cell in mine]
        return list_actions(self.phase, self.holding, present, down)

    def to_json(self) -> dict[str, Any]:
        """The view's JSON form (``docs/notation.md``): grids as 4 columns of 3 cells."""
        return {
            "game": "skyjo",
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase,
            "current": self.current,
            "turn": self.turn,
            "grids": [
                [list(grid[c * ROWS : (c + 1) * ROWS]) for c in range(COLUMNS)]
                for grid in self.grids
            ],
            "discard_top": self.discard_top,
            "discard_count": self.discard_count,
            "draw_count": self.draw_count,
            "holding": self.holding,
            "drawn": self.drawn,
            "reveals_left": list(self.reveals_left),
            "starter": self.starter,
            "closer": self.closer,
            "result": self.result.to_json() if self.result is not None else None,
            "scores": list(self.scores),
            "end_score": self.options.end_score,
            "options": {k: v for k, v in self.options.to_json().items() if k != "deal"},
        }


def view(state: State, seat: int | None) -> SeatView:
    """The view of ``seat`` (None: a spectator): the only way a state reaches anyone.

    Built once per decision, so it is made from its fields in order (as ``SeatView._make``
    does, without its length check) and takes the grids and reveals left the state keeps as
    shown (``State.shown``, ``State.reveals_left``) rather than building them again."""
    if seat is not None and not 0 <= seat < state.players:
        raise ValueError(f"no seat {seat} at a table of {state.players}")
    players, discard = state.players, state.discard
    return _new(
        SeatView,
        (
            seat,
            state.options,
            players,
            state.phase,
            state.current,
            state.turn,
            tuple(state.shown),  # grids
            discard[-1] if discard else None,  # discard_top
            len(discard),  # discard_count
            len(state.draw),  # draw_count
            state.drawn is not None,  # holding
            state.drawn if seat is not None and seat == state.current else None,  # drawn
            state.reveals_left,
            state.starter,
            state.closer,
            state.result,
            state.scores or (0,) * players,
        ),
    )
