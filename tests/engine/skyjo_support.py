"""Builders and checks shared by the Skyjo engine tests.

A grid is written as 4 columns of 3 cells, as people see it: a number is a face-down card, a
string a face-up one (``"5"``), None a removed card. Draw and discard piles have their top last.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest

from cardroom.games.base import IllegalMove
from cardroom.games.skyjo import Action, Options, State, apply
from cardroom.games.skyjo.cards import COLUMNS, GRID, ROWS, position

Cell = int | str | None
FILLER = [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
"""A grid of twelve different face-down cards: no column is ever three of a kind."""


def grid(columns: Sequence[Sequence[Cell]]) -> tuple[list[int | None], list[bool]]:
    cards: list[int | None] = [None] * GRID
    up = [False] * GRID
    for c in range(COLUMNS):
        for r in range(ROWS):
            cell = columns[c][r]
            p = position(c, r)
            if isinstance(cell, str):
                cards[p], up[p] = int(cell), True
            else:
                cards[p] = cell
    return cards, up


def make_state(
    *grids: Sequence[Sequence[Cell]],
    draw: Sequence[int] = (7, 7, 7, 7, 7),
    discard: Sequence[int] = (6,),
    current: int = 0,
    phase: str = "play",
    starter: int | None = 0,
    closer: int | None = None,
    drawn: int | None = None,
    reveals: Sequence[int] | None = None,
    seed: int = 0,
    **options: Any,
) -> State:
    """A position built by hand; the cards in it need not make a whole deck."""
    if not grids:
        grids = (FILLER, FILLER)
    built = [grid(g) for g in grids]
    return State(
        options=Options(players=len(grids), **options),
        players=len(grids),
        rng=random.Random(seed),
        draw=list(draw),
        discard=list(discard),
        cards=[cards for cards, _ in built],
        up=[up for _, up in built],
        starter=starter,
        phase=phase,  # type: ignore[arg-type]
        current=current,
        turn=1,
        reveals=list(reveals) if reveals is not None else [2] * len(grids),
        drawn=drawn,
        closer=closer,
    )


def at(column: int, row: int) -> int:
    """A position from a column and a row counted from 1, as people count."""
    return position(column - 1, row - 1)


def snapshot(state: State) -> tuple[object, ...]:
    """Everything in a state, hidden cards and the random generator included."""
    return (
        state.fingerprint(),
        repr(
            (
                state.draw,
                state.discard,
                state.cards,
                state.up,
                state.phase,
                state.current,
                state.turn,
                state.reveals,
                state.drawn,
                state.closer,
                state.starter,
                state.result,
                state.shown,
                state.reveals_left,
            )
        ),
        state.rng.getstate(),
    )


def assert_refused(state: State, action: Action, rule: str, seat: int | None = None) -> None:
    """``action`` raises IllegalMove citing ``rule``, in plain words, and changes nothing."""
    before = snapshot(state)
    with pytest.raises(IllegalMove) as info:
        apply(state, action, seat)
    assert info.value.rule == rule, f"{action} refused under {info.value.rule}: {info.value}"
    assert len(info.value.message.split()) >= 3
    assert snapshot(state) == before, f"refusing {action} changed the state"
