"""What the table master asks the world to do, as values: its only output.

The actor carries them out in order. A ``Write`` that must be waited for is committed before
any later effect runs, so a move is stored before anyone hears of it; if it fails, the later
effects are dropped and the table reloads its match from the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.tables.wire import Message

# -- rows to store ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TableFields:
    """Change these columns of the table's row; ``closing`` stamps its closing time too."""

    fields: dict[str, Any]
    closing: bool = False


@dataclass(frozen=True, slots=True)
class SeatRows:
    """The table's seats are now these rows."""

    rows: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class NewMatch:
    row: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MatchFields:
    """Change these columns of a match's row; ``finished`` stamps its end time too."""

    match_id: str
    fields: dict[str, Any]
    finished: bool = False


@dataclass(frozen=True, slots=True)
class MoveRow:
    """One step of a match's move log (``games.base.Step``), numbered from 1."""

    match_id: str
    number: int
    round: int
    kind: str
    seat: int | None
    action: dict[str, Any] | None
    sent_by: bytes | None = None
    """``audience.action_key`` of a move sent from a socket (who, and the action's id),
    stored for exactly-once."""


Row = TableFields | SeatRows | NewMatch | MatchFields | MoveRow


@dataclass(frozen=True, slots=True)
class Write:
    """Store ``rows`` in one transaction, with the table's seq (every write stores it, so a
    write of no rows stores only that). ``wait``: nothing after it runs before the commit
    (moves); otherwise it is stored in the background (presence news nobody waits for)."""

    rows: tuple[Row, ...]
    wait: bool = True


# -- messages --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Send:
    """Send ``message`` to one connection. Equal messages to many connections are the same
    object, so the actor encodes each once; a ``Personal`` copy adds its own fields to a
    shared message already encoded (``wire``)."""

    conn: str
    message: Message


@dataclass(frozen=True, slots=True)
class CloseSocket:
    conn: str
    code: int = 1000


# -- time, bots, league ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ArmTimer:
    """Fire ``TimerFired(name, key)`` at table time ``at`` (replacing the timer's last arming)."""

    name: str
    at: float
    key: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class CancelTimer:
    name: str


@dataclass(frozen=True, slots=True)
class Think:
    """Ask the bot of ``level`` with ``seed`` to choose from ``view``; its answer comes back as
    ``BotMoved(key, seat, action)``."""

    key: tuple[Any, ...]
    seat: int
    level: str
    seed: str
    view: Any


@dataclass(frozen=True, slots=True)
class Advise:
    """Work out the hint for ``seat`` from ``view`` (that seat's own, R7.2) and send it to
    ``conn`` with ``message``'s fields: the position's ``seq`` and the hints used so far."""

    conn: str
    seat: int
    view: Any
    message: dict[str, Any]


@dataclass(frozen=True, slots=True)
class MatchFinished:
    """The final move is stored: rate, count and award the match (off the move path)."""

    match_id: str


@dataclass(frozen=True, slots=True)
class TableClosed:
    reason: str


Effect = (
    Write
    | Send
    | CloseSocket
    | ArmTimer
    | CancelTimer
    | Think
    | Advise
    | MatchFinished
    | TableClosed
)
