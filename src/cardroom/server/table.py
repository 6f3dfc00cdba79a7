"""A table: one asyncio task with a queue, the only writer of its seats and its match.

Everything that changes a table (a lobby call, a socket's action, a timer, a bot's move) is a
command in the table's inbox, run one at a time to the end, so moves are applied in order and
exactly once without locks (one writer per table). A move is applied by the engine,
then stored and committed, and only then told to anyone; if the store fails the table reloads
its match from the last committed move.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection as DbConnection

from cardroom.bots import Bot, make_bot
from cardroom.games.skip import IllegalMove, Options, view
from cardroom.server.auth import Identity
from cardroom.server.bots import BotRunner, level_bot_name
from cardroom.server.connection import Connection
from cardroom.server.errors import ApiError
from cardroom.server.match_flow import MatchFlow
from cardroom.server.protocol import ActionRequest, dumps, error_message, table_event
from cardroom.server.seating import SeatCommands
from cardroom.server.seats import SeatState
from cardroom.server.settings import Settings
from cardroom.server.timers import Clock, Timer
from cardroom.store import repository as repo
from cardroom.store.journal import Journal, Step

log = logging.getLogger(__name__)

RECENT_ACTION_IDS = 256
SEQ_MARGIN_AFTER_RESTART = 100  # presence events are not stored; skip past any we may have sent


@dataclass(slots=True)
class Services:
    settings: Settings
    clock: Clock
    journal: Journal
    bots: BotRunner
    on_close: Callable[[TableActor], None]


@dataclass(slots=True)
class Sent:
    """A broadcast kept for reconnecting clients: its public part and who it acknowledged."""

    seq: int
    message: dict[str, Any]
    ack_player: str | None = None
    ack_id: str | None = None


class TableActor(MatchFlow, SeatCommands):
    """One table's state, its inbox, and the task that works through it."""

    def __init__(self, services: Services, row: dict[str, Any]) -> None:
        self.services = services
        self.settings = services.settings
        self.clock = services.clock
        self.id: str = row["id"]
        self.name: str | None = row["name"]
        self.public: bool = bool(row["public"])
        self.owner = Identity(row["owner_id"], row.get("owner_name") or "?")
        self.options_json: dict[str, Any] = dict(row["options"])
        self.abandon_after: float = float(row["abandon_after"])
        self.status: str = row["status"]
        self.seq: int = int(row.get("seq") or 0)
        # The seq of the last message that changed the game position (an ``event``): what a
        # client's ``after`` is compared with, so presence and seat news never make it stale.
        self.position_seq: int = self.seq
        self.banned: set[str] = set(row.get("banned") or [])
        self.created_at = repo.iso(row.get("created_at"))
        self.seats = [SeatState.from_row(s) for s in row["seats"]]
        self.connections: set[Connection] = set()
        self.history: deque[Sent] = deque(maxlen=self.settings.history)
        self.recent_ids: dict[str, OrderedDict[str, None]] = {}
        self.inbox: asyncio.Queue[tuple[Any, tuple[Any, ...], asyncio.Future[Any] | None]] = (
            asyncio.Queue()
        )
        self.turn_timer = Timer(self.clock)
        self.bot_timer = Timer(self.clock)
        self.round_timer = Timer(self.clock)
        self.abandon_timer = Timer(self.clock)
        self.closed = False
        self._background: set[asyncio.Task[Any]] = set()
        MatchFlow.__init__(self)
        self.task: asyncio.Task[None] | None = None

    # -- the actor -------------------------------------------------------------------------------

    def start_task(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        self._watch_people()

    async def ask(self, command: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``command`` inside the table and wait for its answer (or its ApiError)."""
        if self.closed:
            raise ApiError(404, "not_found", "this table is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait((command, args, future))
        return await future

    def tell(self, command: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``command`` without waiting; its errors are logged."""
        if not self.closed:
            self.inbox.put_nowait((command, args, None))

    async def _run(self) -> None:
        while not self.closed:
            command, args, future = await self.inbox.get()
            try:
                result = await command(*args)
            except Exception as error:
                if future is not None and not future.done():
                    future.set_exception(error)
                elif not isinstance(error, ApiError):
                    log.exception("table %s: %s failed", self.id, command.__name__)
            else:
                if future is not None and not future.done():
                    future.set_result(result)
        while not self.inbox.empty():
            _command, _args, future = self.inbox.get_nowait()
            if future is not None and not future.done():
                future.set_exception(ApiError(404, "not_found", "this table is closed"))

    async def write(self, *steps: Step) -> None:
        """Commit ``steps`` in one transaction (shared with other tables' writes)."""
        await self.services.journal.write(steps)

    def write_later(self, *operations: Step) -> None:
        """Store something nobody waits for (presence counters)."""
        task = asyncio.create_task(self.write(*operations))
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- describing the table --------------------------------------------------------------------

    @property
    def capacity(self) -> int:
        return len(self.seats)

    def seat_of(self, player_id: str) -> SeatState | None:
        for seat in self.seats:
            if seat.player_id == player_id:
                return seat
        return None

    def connected_players(self) -> set[str]:
        return {conn.player_id for conn in self.connections}

    def info(self) -> dict[str, Any]:
        connected = self.connected_players()
        seated = {s.player_id for s in self.seats if s.player_id}
        match_json = None
        autopilot_seats: set[int] = set()
        if self.match is not None:
            autopilot_seats = {self.match_seats[s] for s in self.autopilot}
            match_json = {
                "id": self.match_id,
                "round": self.match.round_number,
                "scores": list(self.match.scores),
                "teams": self.match.team_mode,
                "seats": list(self.match_seats),
                "over": self.match.over,
                "winners": list(self.match.winners) if self.match.winners is not None else None,
            }
        options = dict(self.options_json)
        options["players"] = self.capacity
        return {
            "id": self.id,
            "name": self.name,
            "public": self.public,
            "game": "skip",
            "owner": self.owner.to_json(),
            "status": self.status,
            "options": options,
            "abandon_after": self.abandon_after,
            "seats": [
                s.to_json(s.player_id in connected, s.number in autopilot_seats) for s in self.seats
            ],
            "free_seats": sum(1 for s in self.seats if s.free),
            "spectators": len(connected - seated),
            "match": match_json,
            "seq": self.seq,
            "created_at": self.created_at,
        }

    def broadcast_table(self) -> None:
        self.seq += 1
        message = {"type": "table", "seq": self.seq, "table": self.info()}
        self.history.append(Sent(self.seq, message))
        text = dumps(message)
        for conn in self.connections:
            conn.send(text)
        self.write_later(repo.table_update(self.id, seq=self.seq))

    def broadcast_events(
        self, events: list[dict[str, Any]], ack_player: str | None = None, ack_id: str | None = None
    ) -> None:
        """Tell everyone what happened; each seat gets its own view, nobody another's hand."""
        message = self.event_header(events)
        self.position_seq = self.seq
        self.history.append(Sent(self.seq, message, ack_player, ack_id))
        texts: dict[tuple[int | None, bool], str] = {}
        for conn in self.connections:
            seat = self.match_seat_of(conn.player_id)
            acked = ack_player is not None and conn.player_id == ack_player
            key = (seat, acked)
            text = texts.get(key)
            if text is None:
                text = texts[key] = dumps(self.with_view(message, seat, ack_id if acked else None))
            conn.send(text)

    def event_header(self, events: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "type": "event",
            "seq": self.seq,
            "match": self.match_id,
            "round": self.match.round_number if self.match else None,
            "move": self.move_number,
            "events": events,
            "deadline_in": self.turn_timer.remaining(),
        }

    def with_view(
        self, message: dict[str, Any], seat: int | None, ack_id: str | None
    ) -> dict[str, Any]:
        out = dict(message)
        if self.match is None:
            out["view"] = None
        else:
            seat_view = view(self.match.state, seat)
            out["view"] = seat_view.to_json()
            if seat is not None:
                out["legal"] = self.legal_json(seat_view)
        if ack_id is not None:
            out["ack"] = ack_id
        return out

    def sync_message(self, seat: int | None) -> dict[str, Any]:
        message = {
            "type": "sync",
            "seq": self.seq,
            "table": self.info(),
            "deadline_in": self.turn_timer.remaining(),
        }
        return self.with_view(message, seat, None)

    # -- sockets ---------------------------------------------------------------------------------

    async def connect(self, conn: Connection, since: int | None) -> None:
        if self.closed:
            raise ApiError(404, "not_found", "this table is closed")
        player = conn.player_id
        first = player not in self.connected_players()
        self.connections.add(conn)
        seat = self.seat_of(player)
        spectator = seat is None
        shown_seat = self.match_seat_of(player) if self.match is not None else None
        if shown_seat is None and seat is not None and self.match is None:
            shown_seat = seat.number
        conn.send(
            dumps(
                {
                    "type": "welcome",
                    "player": conn.identity.to_json(),
                    "table_id": self.id,
                    "seat": shown_seat,
                    "spectator": spectator,
                    "seq": self.seq,
                }
            )
        )
        self.resume(conn, since)
        self._watch_people()
        changed = first
        if seat is not None and seat.away:  # coming back to the table (R2.4)
            seat.away = False
            self.write_later(lambda c: repo.replace_seats(c, self.id, self.seat_rows()))
            changed = True
        if self.match is not None and seat is not None:
            match_seat = self.match_seat_of(player)
            if match_seat is not None and self.end_autopilot(match_seat):
                changed = True
                self.schedule()
        if changed:
            self.broadcast_table()

    def resume(self, conn: Connection, since: int | None) -> None:
        """Send what ``conn`` missed since ``since``, or the whole picture (``sync``).

        The reply always ends with the current view: the last replayed event carries it, and
        when no event was missed (only presence or seat news, or nothing) a ``sync`` is sent
        instead of the table messages, since a reloaded page has no view to build on.
        """
        seat = self.match_seat_of(conn.player_id)
        oldest = self.history[0].seq if self.history else self.seq + 1
        if since is None or since > self.seq or since < oldest - 1:
            conn.send(dumps(self.sync_message(seat)))
            return
        missed = [sent for sent in self.history if sent.seq > since]
        last_event = max(
            (i for i, sent in enumerate(missed) if sent.message["type"] == "event"), default=-1
        )
        if last_event < 0:
            conn.send(dumps(self.sync_message(seat)))
            return
        for i, sent in enumerate(missed):
            ack = sent.ack_id if sent.ack_player == conn.player_id else None
            if sent.message["type"] != "event":
                conn.send(dumps(sent.message))
            elif i == last_event:
                conn.send(dumps({**self.with_view(sent.message, seat, ack), "replayed": True}))
            else:
                message = {**sent.message, "view": None, "replayed": True}
                if ack is not None:
                    message["ack"] = ack
                conn.send(dumps(message))

    async def disconnect(self, conn: Connection) -> None:
        self.connections.discard(conn)
        if conn.player_id not in self.connected_players() and not self.closed:
            self.broadcast_table()
        self._watch_people()

    async def resync(self, conn: Connection) -> None:
        conn.send(dumps(self.sync_message(self.match_seat_of(conn.player_id))))

    async def handle_action(self, conn: Connection, request: ActionRequest) -> None:
        player = conn.player_id
        recent = self.recent_ids.setdefault(player, OrderedDict())
        if request.id in recent:
            conn.send(dumps({"type": "ack", "id": request.id, "duplicate": True, "seq": self.seq}))
            return

        def refuse(code: str, message: str, rule: str | None = None) -> None:
            conn.send(error_message(code, message, rule=rule, action_id=request.id))

        if self.match is None or self.status != "playing":
            return refuse("no_match", "no match is being played at this table")
        seat = self.match_seat_of(player)
        if seat is None:
            return refuse("not_seated", "spectators cannot play; join a seat first")
        if request.after is not None and not self.position_seq <= request.after <= self.seq:
            return refuse(
                "stale",
                f"the game has moved on since seq {request.after} (position of seq "
                f"{self.position_seq}); look again",
            )
        events: list[dict[str, Any]] = []
        if self.end_autopilot(seat):
            events.append(table_event("autopilot", seat, on=False))
        try:
            await self.play(seat, request.action, ack=(player, request.id), pre=events)
        except IllegalMove as error:
            if events:  # the player is back even if the move was refused
                self.broadcast_table()
                self.schedule()
            return refuse("illegal", error.message, error.rule)
        recent[request.id] = None
        if len(recent) > RECENT_ACTION_IDS:
            recent.popitem(last=False)
        self.timeouts[seat] = 0

    # -- people come and go: the abandoned-table timer --------------------------------------------

    def _watch_people(self) -> None:
        if self.closed:
            return
        if self.connections:
            self.abandon_timer.cancel()
        elif not self.abandon_timer.active:
            self.abandon_timer.start(self.abandon_after, lambda: self.tell(self._abandoned))

    async def _abandoned(self) -> None:
        if not self.connections and not self.closed:
            log.info("table %s: nobody for %ss, closing", self.id, self.abandon_after)
            await self.close_table("abandoned")

    async def close_table(self, reason: str) -> None:
        self.status = "closed"
        operations: list[Callable[[DbConnection], Any]] = [
            lambda c: repo.update_table(c, self.id, status="closed", closed_at=repo.utcnow())
        ]
        if self.match is not None and not self.match.over:
            match_id = self.match_id
            operations.append(lambda c: repo.update_match(c, match_id, status="abandoned"))
        await self.write(*operations)
        for timer in (self.turn_timer, self.bot_timer, self.round_timer, self.abandon_timer):
            timer.cancel()
        self.broadcast_table()
        for conn in list(self.connections):
            conn.close(1000)
        self.closed = True
        self.services.on_close(self)

    # -- helpers for the lobby -------------------------------------------------------------------

    def seat_rows(self) -> list[dict[str, Any]]:
        return [seat.to_row() for seat in self.seats]

    def require_owner(self, identity: Identity) -> None:
        if identity.id != self.owner.id:
            raise ApiError(403, "forbidden", "only the table's owner may do that")

    def options_for(self, players: int, changes: dict[str, Any] | None = None) -> Options:
        data = {**self.options_json, **(changes or {}), "players": players}
        return Options.from_json(data)

    def new_bot(self, level_id: str, seed: str) -> tuple[Bot, str]:
        name = level_bot_name(level_id)
        return make_bot(name, seed), name

    @staticmethod
    def new_match_id() -> str:
        return "m_" + secrets.token_hex(8)
