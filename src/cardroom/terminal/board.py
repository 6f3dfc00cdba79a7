"""What every game's board in the terminal is made of: places a person picks (``Spot``), and
the ``Board`` a game's kit fills in from the person's view.

A board works from the JSON the engine gives a seat (its view, the legal actions, the public
events) and answers a pick with an action in the game's notation, a new selection, or words;
the engine alone decides whether an action is legal, as the web's player kits leave it to the
server's ``legal`` list and refusals.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.containers import Vertical
from textual.events import Click
from textual.message import Message
from textual.widgets import Static


@dataclass(frozen=True, slots=True)
class Pick:
    """A board's answer to a picked place: an action to play (the game's JSON), or words to
    show (a new selection, or why nothing can be played from there)."""

    action: dict[str, Any] | None = None
    words: str = ""


@dataclass(frozen=True, slots=True)
class RuleLine:
    """One line of the rule summary on ``?``: the rule's id and the rule in a few words."""

    rule: str
    text: str


class Spot(Static):
    """A place a person picks: a card, a pile, a cell. Its key is in its frame's title, so
    the key to press is on the card itself."""

    class Picked(Message):
        """A spot was clicked."""

        def __init__(self, place: str) -> None:
            super().__init__()
            self.place = place

    def __init__(self, place: str, key: str, *, classes: str = "") -> None:
        super().__init__(id=f"spot-{place}", classes=f"spot {classes}".strip())
        self.place = place
        self.key = key
        self.border_title = key

    def on_click(self, event: Click) -> None:
        event.stop()
        self.post_message(self.Picked(self.place))

    def show(self, content: Text | str, *, hidden: bool = False) -> None:
        self.update(content)
        self.display = not hidden


class Board(Vertical):
    """A game's table as the person's seat sees it. Subclasses lay out their spots once (the
    seats do not change during a match) and redraw them from each new view."""

    DEFAULT_CSS = """
    Board { height: auto; }
    Board .spot { height: 3; border: round $panel-lighten-2; border-title-color: $text-muted;
                  content-align: center middle; text-align: center; }
    Board .spot.selected { border: heavy $accent; border-title-color: $accent; }
    Board .spot.hinted { border: double $warning; border-title-color: $warning; }
    Board .spot.target { border: round $success; }
    Board .row { height: auto; width: auto; }
    Board .label { width: 10; height: 3; content-align: left middle; padding: 0 1 0 0; }
    """

    keys_help: str = ""
    """How the keys reach the spots, for the status line and the help screen."""
    rules: ClassVar[Sequence[RuleLine]] = ()
    """The rule summary shown on ``?`` (the full rule book is in docs/)."""

    def __init__(self, names: Sequence[str], view: dict[str, Any]) -> None:
        super().__init__(id="board")
        self.names = list(names)
        self.view = view
        self.legal: list[dict[str, Any]] = []
        self.selected: str | None = None
        self.hinted: tuple[str, ...] = ()

    # -- what a game's kit provides ----------------------------------------------------------

    def redraw(self) -> None:
        """Show ``self.view``: every spot's card, the selection and the hint."""
        raise NotImplementedError

    def pick(self, name: str) -> Pick:
        """The person picked the spot ``name`` (by key or click) on their turn."""
        raise NotImplementedError

    def spots_of(self, action: dict[str, Any]) -> tuple[str, ...]:
        """The spots an action is played with, in the order they are picked (a hint's keys)."""
        raise NotImplementedError

    def headline(self) -> str:
        """One line over the board: the round, the scores, whose turn (rich markup)."""
        raise NotImplementedError

    def describe(self, event: dict[str, Any]) -> str | None:
        """An engine event as a sentence for the move log, or None for one not worth a line."""
        raise NotImplementedError

    def round_words(self, result: dict[str, Any]) -> str:
        """How the round just ended, over the score sheet (the view's ``result``)."""
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------------

    def show(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> None:
        """A new view: the selection and the hint belonged to the last one."""
        self.view, self.legal = view, legal
        self.selected, self.hinted = None, ()
        self.redraw()

    def select(self, name: str | None) -> None:
        self.selected = name
        self.redraw()

    def mark(self, names: Iterable[str]) -> None:
        self.hinted = tuple(names)
        self.redraw()

    def key_map(self) -> dict[str, str]:
        """The key of each visible spot."""
        return {spot.key: spot.place for spot in self.query(Spot) if spot.display}

    def spot(self, name: str) -> Spot:
        return self.query_one(f"#spot-{name}", Spot)

    def keys_of(self, names: Iterable[str]) -> str:
        return " then ".join(self.spot(n).key for n in names)

    def style_spot(self, spot: Spot, *, target: bool = False) -> None:
        spot.set_class(spot.place == self.selected, "selected")
        spot.set_class(spot.place in self.hinted, "hinted")
        spot.set_class(target, "target")

    def seat_name(self, seat: int | None) -> str:
        if seat is None or not 0 <= seat < len(self.names):
            return "the table"
        return self.names[seat]

    def scores_line(self) -> str:
        """Every seat's match score, by name."""
        return " · ".join(f"{self.seat_name(s)} {p}" for s, p in enumerate(self.view["scores"]))

    def legal_from(self, name: str) -> list[dict[str, Any]]:
        """The legal actions that start at spot ``name`` (for the assist's targets)."""
        return [a for a in self.legal if self.spots_of(a)[:1] == (name,)]


def joined(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"
