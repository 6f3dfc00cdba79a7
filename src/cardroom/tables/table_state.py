"""The table as its command modules see it: ``TableState``, a protocol that the master
(``master.py``) fulfils, and the records of a match in play and a rematch proposed.

The master imports its command modules (``lobby.py``, ``moves.py``, ``pacing.py`` ...) to
dispatch to them; they take the master as a ``TableState``, so none imports the master back.
The protocol names only what they use: its state, its members (``Seating``, ``Audience``,
``Timers``, the chat room) and the telling they ask of it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardroom.bots.levels import Level
from cardroom.games.base import Game, GameMatch
from cardroom.tables.audience import Audience
from cardroom.tables.chat import ChatRoom
from cardroom.tables.effects import Effect, Send
from cardroom.tables.people import Identity
from cardroom.tables.seats import Seating, SeatState
from cardroom.tables.settings import TableSettings
from cardroom.tables.timers import Timers


@dataclass(slots=True)
class MatchInPlay:
    """The match at the table and what the table keeps about it beside the engine."""

    game_match: GameMatch
    id: str
    seats: list[int]  # the table seat of each match seat
    moves: int = 0  # stored steps of the match
    timeouts: list[int] = field(default_factory=list)  # timeouts in a row, per match seat (R7.3)
    autopilot: set[int] = field(default_factory=set)  # match seats a bot plays for now
    hints: list[int] = field(default_factory=list)  # hints used, per match seat (R7.6)
    ready: set[int] = field(default_factory=set)  # match seats done reading a round's summary
    bot_seeds: dict[tuple[int, str], str] = field(default_factory=dict)  # (seat, level) -> seed


@dataclass(slots=True)
class Rematch:
    """A rematch proposed after a match: who proposed it and the people who said yes (bots
    always do). It starts once every person seated has; a "no" or a change of seats ends it."""

    by: Identity
    accepted: set[str] = field(default_factory=set)


class TableState(Protocol):
    """One table's state and what its commands ask of the master (``master.TableMaster``)."""

    settings: TableSettings
    new_id: Callable[[], str]
    new_seed: Callable[[], str]
    game: Game
    levels: dict[str, Level]
    id: str
    options_json: dict[str, Any]
    abandon_after: float
    status: str
    casual: bool  # a table that never counts for ratings, whatever its rules
    stored_fields: dict[str, Any]  # the row's fields as last stored
    seating: Seating
    audience: Audience
    timers: Timers
    chat_room: ChatRoom
    match: MatchInPlay | None
    player_seats: dict[str, int]  # player id -> match seat
    now: float  # table time of the command being handled
    closed: bool
    opened_at: float
    last_step_at: float
    asked: tuple[Any, ...] | None  # the position a bot was last asked about
    gone_since: dict[str, float]  # player id -> when their last socket closed
    rematch: Rematch | None
    hinted_at: dict[str, tuple[int, float]]  # player -> (position seq, time)

    @property
    def seats(self) -> list[SeatState]: ...

    @property
    def owner(self) -> Identity: ...

    @property
    def banned(self) -> set[str]: ...

    @property
    def capacity(self) -> int: ...

    @property
    def seq(self) -> int: ...

    def playing(self) -> bool: ...

    def seat_of(self, player_id: str) -> SeatState | None: ...

    def match_seat_of(self, player_id: str) -> int | None: ...

    def options_for(self, players: int, changes: Mapping[str, Any] | None = None) -> Any: ...

    def playing_seat(self, who: Identity, watcher: str) -> int | tuple[str, str]: ...

    def runtime_json(self) -> dict[str, Any]: ...

    def table_changes(self) -> dict[str, Any]: ...

    def own_view(self, seat: int | None) -> dict[str, Any]: ...

    def sync_message(self, seat: int | None) -> dict[str, Any]: ...

    def sync(self, conn: str) -> Send: ...

    def tell_table(self, out: list[Effect]) -> None: ...

    def tell_events(
        self, events: list[dict[str, Any]], out: list[Effect], ack: tuple[str, str] | None = None
    ) -> None: ...

    def tell_news(self, events: list[dict[str, Any]], out: list[Effect]) -> None: ...
