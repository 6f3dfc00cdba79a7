"""What can happen to a table, as values: the table master's only input.

Lobby commands come from people over HTTP (sit down, add a bot, start…) and are answered with
a value or refused; socket commands carry a connection id; timers, bots and the league report
back with commands too, so every change to a table goes through one queue, one at a time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from cardroom.tables.people import Identity

# -- people at the lobby ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Join:
    """Sit down (at ``seat``, or the first free one), or come back to your own seat (R2.4)."""

    who: Identity
    seat: Any = None


@dataclass(frozen=True, slots=True)
class Leave:
    who: Identity


@dataclass(frozen=True, slots=True)
class AddBot:
    who: Identity
    seat: Any
    level: Any


@dataclass(frozen=True, slots=True)
class FillWithBots:
    """Every free seat gets a bot of ``level`` (quick play against bots)."""

    who: Identity
    level: Any


@dataclass(frozen=True, slots=True)
class ClearSeat:
    who: Identity
    seat: int


@dataclass(frozen=True, slots=True)
class Configure:
    """The owner's settings: house rules and the abandoned-table timeout (None: unchanged)."""

    who: Identity
    options: Any = None
    abandon_after: Any = None


@dataclass(frozen=True, slots=True)
class Start:
    who: Identity
    rematch: bool = False


@dataclass(frozen=True, slots=True)
class DeclineRematch:
    """Say no to the rematch proposed after a match (its proposer: withdraw it)."""

    who: Identity


@dataclass(frozen=True, slots=True)
class SkipTurn:
    """A seated player (or the owner) skips the turn of a player who is not there: offline,
    or idle past a grace period; a timeout (R7.3)."""

    who: Identity


@dataclass(frozen=True, slots=True)
class Evict:
    who: Identity
    seat: Any


@dataclass(frozen=True, slots=True)
class Rename:
    """A player changed their display name: their seat and ownership show the new one."""

    who: Identity


@dataclass(frozen=True, slots=True)
class CloseTable:
    reason: str


@dataclass(frozen=True, slots=True)
class ChatLines:
    """The chat lines the table keeps, for a report by ``who``: quoted by the table itself,
    so a report carries what was said, never what a client claims was said."""

    who: Identity


@dataclass(frozen=True, slots=True)
class CloseByModerator:
    """A moderator closes the table (``who``): everyone here is told ``reason``, then the
    table closes as an abandoned one does (an unfinished match is abandoned, never rated)."""

    who: Identity
    reason: str


# -- sockets ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connect:
    """A socket said hello; ``since`` is the last seq its client saw (None: a new client)."""

    conn: str
    who: Identity
    since: int | None = None
    batch: bool = False
    """The socket takes what one command tells it as one frame (``TableMaster.deliver``)."""


@dataclass(frozen=True, slots=True)
class Disconnect:
    conn: str


@dataclass(frozen=True, slots=True)
class Resync:
    conn: str


@dataclass(frozen=True, slots=True)
class Chat:
    """A line said at the table over a socket."""

    conn: str
    text: str


@dataclass(frozen=True, slots=True)
class Hint:
    """A player asks for a hint on their turn (R7.6)."""

    conn: str


@dataclass(frozen=True, slots=True)
class Ready:
    """A player has read the round's summary: deal on once every player here has."""

    conn: str


@dataclass(frozen=True, slots=True)
class Act:
    """A move sent over a socket: its id (for exactly-once), the action in the game's JSON
    notation, and ``after``, the seq of the position the client saw."""

    conn: str
    id: str
    action: Any
    after: int | None = None


# -- the table's own machinery ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class TimerFired:
    """A timer armed by ``ArmTimer`` ran out; ``key`` tells a stale one from the current one."""

    timer: str
    key: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class BotMoved:
    """A bot asked by ``Think`` decided (``action`` is the game's action value)."""

    key: tuple[Any, ...]
    seat: int
    action: Any


@dataclass(frozen=True, slots=True)
class LeagueNews:
    """What the league announces about a finished match (achievements, rating changes)."""

    match_id: str
    events: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Reload:
    """The match as the database has it, after a write failed: back to the last stored move."""

    match: dict[str, Any]
    moves: list[dict[str, Any]]


Command = (
    Join
    | Leave
    | AddBot
    | FillWithBots
    | ClearSeat
    | Configure
    | Start
    | DeclineRematch
    | SkipTurn
    | Evict
    | Rename
    | CloseTable
    | ChatLines
    | CloseByModerator
    | Connect
    | Disconnect
    | Resync
    | Act
    | Chat
    | Hint
    | Ready
    | TimerFired
    | BotMoved
    | LeagueNews
    | Reload
)


LOBBY_COMMANDS: dict[str, type] = {
    kind.__name__: kind
    for kind in (
        Join,
        Leave,
        AddBot,
        FillWithBots,
        ClearSeat,
        Configure,
        Start,
        DeclineRematch,
        SkipTurn,
        Evict,
        Rename,
        ChatLines,
        CloseByModerator,
    )
}
"""The commands another process may send to a table this process runs (by value, as JSON)."""


def lobby_command_to_json(command: Any) -> dict[str, Any]:
    """A lobby command as JSON: its type's name and its fields (``who`` as id and name)."""
    out: dict[str, Any] = {"type": type(command).__name__}
    for item in dataclasses.fields(command):
        value = getattr(command, item.name)
        out[item.name] = value.to_json() if isinstance(value, Identity) else value
    return out


def lobby_command_from_json(data: Any) -> Any:
    """The lobby command of ``lobby_command_to_json``; ``ValueError`` for anything else."""
    if not isinstance(data, dict) or data.get("type") not in LOBBY_COMMANDS:
        raise ValueError(f"not a lobby command: {data!r:.80}")
    kind = LOBBY_COMMANDS[data["type"]]
    values = {k: v for k, v in data.items() if k != "type"}
    who = values.get("who")
    if not isinstance(who, dict) or set(who) != {"id", "name"}:
        raise ValueError("a lobby command names who sends it")
    values["who"] = Identity(str(who["id"]), str(who["name"]))
    try:
        return kind(**values)
    except TypeError as error:
        raise ValueError(f"a malformed {data['type']}: {error}") from None
