"""What the Skyjo bots read off a view: their own grid, columns, the cards still unseen."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from cardroom.games.skyjo import HIDDEN, SeatView
from cardroom.games.skyjo.cards import COPIES, ROWS, column_of

Cell = int | str | None


def my_grid(view: SeatView) -> tuple[Cell, ...]:
    assert view.seat is not None
    return view.grids[view.seat]


def hidden_positions(grid: Sequence[Cell]) -> list[int]:
    return [p for p, cell in enumerate(grid) if cell == HIDDEN]


def present_positions(grid: Sequence[Cell]) -> list[int]:
    return [p for p, cell in enumerate(grid) if cell is not None]


def column_cells(grid: Sequence[Cell], column: int) -> list[Cell]:
    return [grid[column * ROWS + r] for r in range(ROWS)]


def completes_column(grid: Sequence[Cell], pos: int, card: int) -> bool:
    """Whether ``card`` placed face up at ``pos`` makes three identical face-up cards (S3.1)."""
    first = column_of(pos) * ROWS
    return all(grid[p] == card for p in range(first, first + ROWS) if p != pos)


def completing_position(grid: Sequence[Cell], card: int) -> int | None:
    """The position where ``card`` completes a column (S3.1), if any."""
    if grid.count(card) < ROWS - 1:  # most often: not even twice in the grid
        return None
    for first in range(0, len(grid), ROWS):
        cells = grid[first : first + ROWS]
        if cells.count(card) == ROWS - 1 and cells[0] is not None:
            return first + next(r for r in range(ROWS) if cells[r] != card)
    return None


def visible_cards(view: SeatView) -> Counter[int]:
    """Every card this seat sees now: face-up cards of all grids, the discard top, its drawn
    card."""
    seen: Counter[int] = Counter()
    for grid in view.grids:
        seen.update(cell for cell in grid if isinstance(cell, int))
    if view.discard_top is not None:
        seen[view.discard_top] += 1
    if view.drawn is not None:
        seen[view.drawn] += 1
    return seen


def unseen_pool(seen: Iterable[tuple[int, int]]) -> dict[int, int]:
    """The deck (S1.1) less the cards known to be elsewhere: what a face-down card or the
    next draw may be."""
    pool = dict(COPIES)
    for card, count in seen:
        pool[card] = max(0, pool[card] - count)
    if not any(pool.values()):  # cannot happen in a real round; stay defined all the same
        pool = dict(COPIES)
    return pool
