"""The table master: one table's seats and match, changed only by commands, one at a time.

``TableMaster.handle(command, now)`` returns the effects the command causes (rows to store,
messages to send, timers, bots, the league) or raises ``Refusal`` having changed nothing. It
does no I/O, reads no clock (``now`` is table time, given with each command) and knows no game
but through the Game contract, so whole matches — people, bots, timers — run in-process.

The order of the effects is the order of the world: a move's ``Write`` comes before the
messages that tell of it, so the actor stores it before anyone is told (nothing acknowledged
is lost); a refused move changes nothing and is answered to its sender only.

Its state, what it says of itself and how it tells live here. Its commands, one topic per
module, are functions of the master: ``lobby.py`` (seats, bots, house rules, the start, an
eviction, closing), ``rematches.py``, ``claims.py`` (skipping an absent player's turn),
``presence.py`` (sockets, chat, the abandoned timer), ``hints.py``, ``moves.py`` (moves, the
match, its rounds), ``scheduling.py`` (what to arm next), ``pacing.py`` (timers fired, bots'
moves, timeouts) and ``restoring.py``. They take the master as a ``TableState``
(``table_state.py``, a protocol), so only the master imports them, never the reverse. Its
members keep their own state: ``Seating`` (``seats.py``), ``Audience`` (sockets, sequence
numbers, history, exactly-once, ``audience.py``) and ``Timers`` (``timers.py``); its pace is
``TableSettings`` (``settings.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from cardroom.bots.levels import Level, levels_for
from cardroom.games import get_game
from cardroom.games.base import Game
from cardroom.tables import (
    claims,
    hints,
    lobby,
    moves,
    pacing,
    presence,
    readiness,
    rematches,
    restoring,
)
from cardroom.tables import commands as c
from cardroom.tables.audience import Audience
from cardroom.tables.chat import ChatRoom
from cardroom.tables.delivery import deliver
from cardroom.tables.effects import Effect, Send
from cardroom.tables.errors import Refusal
from cardroom.tables.events import legal_json
from cardroom.tables.people import Identity
from cardroom.tables.seats import Seating, SeatState
from cardroom.tables.settings import TableSettings
from cardroom.tables.table_state import MatchInPlay, Rematch
from cardroom.tables.timers import TURN, Timers

SEQ_MARGIN_AFTER_RESTART = 100  # presence news is not stored; skip past any seq we may have sent
WATCHERS_NAMED = 20  # the Table names its first watchers; the rest are only counted


class TableMaster:
    """One table: its people, its seats, its match, its timers — and nothing else."""

    def __init__(
        self,
        row: Mapping[str, Any],
        settings: TableSettings,
        *,
        new_id: Callable[[], str],
        new_seed: Callable[[], str],
    ) -> None:
        self.settings = settings
        self.new_id, self.new_seed = new_id, new_seed
        self.game: Game = get_game(row.get("game") or "skip")
        self.levels: dict[str, Level] = levels_for(self.game.name)
        self.id: str = row["id"]
        self.name: str | None = row.get("name")
        self.public: bool = bool(row.get("public"))
        # A table never ranked whatever its rules: the queue's bot match says so (docs/league.md).
        self.casual: bool = bool(row.get("casual"))
        self.options_json: dict[str, Any] = dict(row.get("options") or {})
        self.abandon_after: float = float(row["abandon_after"])
        self.status: str = row.get("status") or "waiting"
        # The row's status and runtime as last stored: a move writes them only when changed.
        self.stored_fields: dict[str, Any] = {"status": self.status, "runtime": row.get("runtime")}
        self.created_at: str | None = row.get("created_at")
        self.seating = Seating(
            list(row.get("seats") or []),
            Identity(row["owner_id"], row.get("owner_name") or "?"),
            set(row.get("banned") or []),
            self.levels,
        )
        self.audience = Audience(int(row.get("seq") or 0), settings.history, settings.history_bytes)
        self.timers = Timers()
        self.match: MatchInPlay | None = None
        self.player_seats: dict[str, int] = {}  # player id -> match seat
        self.now = 0.0
        self.closed = False
        self.opened_at = 0.0  # table time this master began to run (a restart is one)
        self.last_step_at = 0.0  # table time of the match's last stored step
        self.asked: tuple[Any, ...] | None = None  # the position a bot was last asked about
        self.gone_since: dict[str, float] = {}  # player id -> when their last socket closed
        self.rematch: Rematch | None = None  # a rematch proposed after the last match
        self.chat_room = ChatRoom(
            settings.chat_length, settings.chat_burst, settings.chat_every, settings.chat_kept
        )
        self.hinted_at: dict[str, tuple[int, float]] = {}  # player -> (position seq, time)

    # -- the one entry point ---------------------------------------------------------------

    def handle(self, command: c.Command, now: float) -> tuple[list[Effect], Any]:
        """Effects and the answer of ``command``; ``Refusal`` (nothing changed) if refused."""
        self.now = now
        if self.closed:
            raise Refusal(404, "not_found", "this table is closed")
        out: list[Effect] = []
        answer = _HANDLERS[type(command)](self, command, out)
        return out, answer

    def started(self, now: float) -> list[Effect]:
        """The first effects once the table runs: an empty table starts its abandoned timer."""
        self.now = self.opened_at = now
        out: list[Effect] = []
        presence.watch_people(self, out)
        return out

    # -- describing the table ----------------------------------------------------------------

    @property
    def seats(self) -> list[SeatState]:
        return self.seating.seats

    @property
    def owner(self) -> Identity:
        return self.seating.owner

    @property
    def banned(self) -> set[str]:
        return self.seating.banned

    @property
    def capacity(self) -> int:
        return self.seating.capacity

    @property
    def seq(self) -> int:
        return self.audience.seq

    def claim_in(self) -> float | None:
        """Seconds until the current turn may be skipped by the others (``claims.py``)."""
        return claims.claim_in(self)

    def restore_match(
        self, row: Mapping[str, Any], moves: list[dict[str, Any]], runtime: Mapping[str, Any] | None
    ) -> list[Effect]:
        """Replay the stored steps through the game: the match is exactly where it was (R7.5)."""
        return restoring.restore_match(self, row, moves, runtime)

    def seat_of(self, player_id: str) -> SeatState | None:
        return self.seating.seat_of(player_id)

    def match_seat_of(self, player_id: str) -> int | None:
        return self.player_seats.get(player_id)

    def info(self) -> dict[str, Any]:
        """The ``Table`` object of the protocol: what anyone in the lobby may know."""
        connected = self.audience.players()
        seated = {s.player_id for s in self.seats if s.player_id}
        match_json = None
        autopilot_seats: set[int] = set()
        if self.match is not None:
            m = self.match
            autopilot_seats = {m.seats[s] for s in m.autopilot}
            match_json = {
                "id": m.id,
                **m.game_match.progress(),
                "seats": list(m.seats),
                "ready": sorted(m.ready),
            }
        rules = self.options_for(self.capacity)
        ranked = self.game.is_ranked(rules) and not self.casual
        return {
            "id": self.id,
            "name": self.name,
            "public": self.public,
            "game": self.game.name,
            "owner": self.owner.to_json(),
            "status": self.status,
            "options": {**self.options_json, "players": self.capacity},
            "abandon_after": self.abandon_after,
            "ranked": ranked,
            "casual": self.casual,
            "rating_mode": self.game.rating_mode(rules) if ranked else None,
            "seats": self.seating.to_json(connected, autopilot_seats),
            "free_seats": sum(1 for s in self.seats if s.free),
            "spectators": len(connected - seated),
            "watchers": [w.to_json() for w in self.audience.watchers(seated, WATCHERS_NAMED)],
            "match": match_json,
            "rematch": rematches.to_json(self),
            "seq": self.seq,
            "created_at": self.created_at,
        }

    def runtime_json(self) -> dict[str, Any]:
        """What a restored table needs besides its moves: strikes, autopilots, the turn's
        deadline. It changes with the timers, not with every move, so a move's write rarely
        touches the table's row (``_table_changes``)."""
        m = self.match
        return {
            "timeouts": list(m.timeouts) if m else [],
            "autopilot": sorted(m.autopilot) if m else [],
            "hints": list(m.hints) if m else [],
            "deadline": self.timers.deadline(TURN),
        }

    def table_changes(self) -> dict[str, Any]:
        """The table row's fields that changed since they were last stored, now stored."""
        now = {"status": self.status, "runtime": self.runtime_json()}
        changed = {k: v for k, v in now.items() if self.stored_fields.get(k) != v}
        self.stored_fields.update(changed)
        return changed

    # -- telling -----------------------------------------------------------------------------

    def tell_table(self, out: list[Effect]) -> None:
        self.audience.tell_table(self.info(), out, {"claim_in": claims.claim_in(self)})

    def tell_events(
        self, events: list[dict[str, Any]], out: list[Effect], ack: tuple[str, str] | None = None
    ) -> None:
        """An ``event`` message with the seq already taken: each seat gets its own view."""
        m = self.match
        message = {
            "type": "event",
            "seq": self.seq,
            "match": m.id if m else None,
            "round": m.game_match.round_number if m else None,
            "move": m.moves if m else 0,
            "events": events,
            "deadline_in": self.timers.remaining(TURN, self.now),
            "claim_in": claims.claim_in(self),
        }
        self.audience.tell_events(message, self.match_seat_of, self.own_view, out, ack)

    def deliver(self, effects: list[Effect]) -> list[Effect]:
        """``effects`` as they are to be carried out, right after the command that made them
        (and any that joined it): what they tell a socket that asked for one frame per command
        is made one, with its seat's view from the position now (``tables/delivery.py``)."""
        return deliver(effects, self.audience.batching, self.own_view)

    def own_view(self, seat: int | None) -> dict[str, Any]:
        """What only ``seat`` (None: a spectator) receives with an event: its own view, and
        its legal actions."""
        if self.match is None:
            return {"view": None}
        view = self.match.game_match.view(seat)
        if seat is None:
            return {"view": view.to_json()}
        return {"view": view.to_json(), "legal": legal_json(self.game, view.legal_actions())}

    def sync_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "sync",
            "seq": self.seq,
            "table": self.info(),
            "deadline_in": self.timers.remaining(TURN, self.now),
            "claim_in": claims.claim_in(self),
            **self.own_view(seat),
        }

    def sync(self, conn: str) -> Send:
        return Send(conn, self.sync_message(self.match_seat_of(self.audience.connections[conn].id)))

    # -- what the parts ask -------------------------------------------------------------------

    def playing(self) -> bool:
        return self.status == "playing"

    def options_for(self, players: int, changes: Mapping[str, Any] | None = None) -> Any:
        data = {**self.options_json, **(changes or {}), "players": players}
        return self.game.options_from_json(data)

    def tell_news(self, events: list[dict[str, Any]], out: list[Effect]) -> None:
        """Table news between matches, in an ``event`` message of its own."""
        self.audience.next_seq()
        self.tell_events(events, out)

    def playing_seat(self, who: Identity, watcher: str) -> int | tuple[str, str]:
        """``who``'s match seat in the match being played, or the refusal (code, message) a
        socket gets otherwise; ``watcher`` says what a watcher may not do."""
        if self.match is None or not self.playing():
            return "no_match", "no match is being played at this table"
        seat = self.match_seat_of(who.id)
        if seat is None:
            return "not_seated", watcher
        return seat


_HANDLERS: dict[type, Callable[[TableMaster, Any, list[Effect]], Any]] = {
    c.Join: lobby.join,
    c.Leave: lobby.leave,
    c.AddBot: lobby.add_bot,
    c.FillWithBots: lobby.fill_with_bots,
    c.ClearSeat: lobby.clear_seat,
    c.Configure: lobby.configure,
    c.Start: lobby.start,
    c.Evict: lobby.evict,
    c.Rename: lobby.rename,
    c.CloseTable: lobby.close,
    c.CloseByModerator: lobby.close_by_moderator,
    c.ChatLines: presence.chat_lines,
    c.DeclineRematch: rematches.decline,
    c.SkipTurn: claims.skip_turn,
    c.Connect: presence.connect,
    c.Disconnect: presence.disconnect,
    c.Resync: presence.resync,
    c.Chat: presence.chat,
    c.Hint: hints.hint,
    c.Ready: readiness.ready,
    c.Act: moves.act,
    c.TimerFired: pacing.timer_fired,
    c.BotMoved: pacing.bot_moved,
    c.LeagueNews: pacing.league_news,
    c.Reload: restoring.reload,
}
