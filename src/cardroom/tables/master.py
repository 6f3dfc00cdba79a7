"""The table master: one table's seats and match, changed only by commands, one at a time.

``TableMaster.handle(command, now)`` returns the effects the command causes (rows to store,
messages to send, timers, bots, the league) or raises ``Refusal`` having changed nothing. It
does no I/O, reads no clock (``now`` is table time, given with each command) and knows no game
but through the Game contract, so whole matches — people, bots, timers — run in-process.

The order of the effects is the order of the world: a move's ``Write`` comes before the
messages that tell of it, so the actor stores it before anyone is told (nothing acknowledged
is lost); a refused move changes nothing and is answered to its sender only.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.bots.levels import Level, levels_for
from cardroom.games import get_game
from cardroom.games.base import (
    ACTION,
    NEXT_ROUND,
    Game,
    GameMatch,
    IllegalMove,
    NotationError,
    OptionsError,
    Step,
    derive_seed,
    rebuild,
)
from cardroom.tables import commands as c
from cardroom.tables.effects import (
    ArmTimer,
    CancelTimer,
    CloseSocket,
    Effect,
    MatchFields,
    MatchFinished,
    MoveRow,
    NewMatch,
    Row,
    SeatRows,
    Send,
    TableClosed,
    TableFields,
    Think,
    Write,
)
from cardroom.tables.errors import Refusal, bad_options, rule_of
from cardroom.tables.people import Identity
from cardroom.tables.seats import SeatState, match_seat_json

RECENT_ACTION_IDS = 256
SEQ_MARGIN_AFTER_RESTART = 100  # presence news is not stored; skip past any seq we may have sent
MIN_ABANDON = 5.0
MAX_ABANDON = 7 * 24 * 3600.0

TURN, BOT, ROUND, ABANDON = "turn", "bot", "round", "abandon"
TIMERS = (TURN, BOT, ROUND, ABANDON)


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The pace of a table: the server's settings that the master needs."""

    bot_delay: float = 0.8
    round_pause: float = 5.0
    autopilot_after: int = 3
    autopilot_level: str = "easy"
    history: int = 256


@dataclass(slots=True)
class Sent:
    """A broadcast kept for reconnecting clients: its public part and who it acknowledged."""

    seq: int
    message: dict[str, Any]
    ack_player: str | None = None
    ack_id: str | None = None


@dataclass(slots=True)
class MatchInPlay:
    """The match at the table and what the table keeps about it beside the engine."""

    game_match: GameMatch
    id: str
    seats: list[int]  # the table seat of each match seat
    moves: int = 0  # stored steps of the match
    timeouts: list[int] = field(default_factory=list)  # timeouts in a row, per match seat (R7.3)
    autopilot: set[int] = field(default_factory=set)  # match seats a bot plays for now


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
        self.owner = Identity(row["owner_id"], row.get("owner_name") or "?")
        self.options_json: dict[str, Any] = dict(row.get("options") or {})
        self.abandon_after: float = float(row["abandon_after"])
        self.status: str = row.get("status") or "waiting"
        self.seq: int = int(row.get("seq") or 0)
        # The seq of the last message that changed the game position (an ``event``): what a
        # client's ``after`` is compared with, so presence and seat news never make it stale.
        self.position_seq: int = self.seq
        self.banned: set[str] = set(row.get("banned") or [])
        self.created_at: str | None = row.get("created_at")
        self.seats = [SeatState.from_row(s) for s in row.get("seats") or []]
        self.connections: dict[str, Identity] = {}  # connection id -> who
        self.history: deque[Sent] = deque(maxlen=settings.history)
        self.recent_ids: dict[str, OrderedDict[str, None]] = {}
        self.match: MatchInPlay | None = None
        self.player_seats: dict[str, int] = {}  # player id -> match seat
        self.deadlines: dict[str, float] = {}  # armed timers, in table time
        self.timer_keys: dict[str, tuple[Any, ...]] = {}
        self.now = 0.0
        self.closed = False

    # -- the one entry point ---------------------------------------------------------------

    def handle(self, command: c.Command, now: float) -> tuple[list[Effect], Any]:
        """Effects and the answer of ``command``; ``Refusal`` (nothing changed) if refused."""
        self.now = now
        if self.closed:
            raise Refusal(404, "not_found", "this table is closed")
        handler = _HANDLERS[type(command)]
        out: list[Effect] = []
        answer = handler(self, command, out)
        return out, answer

    # -- describing the table ----------------------------------------------------------------

    @property
    def capacity(self) -> int:
        return len(self.seats)

    def seat_of(self, player_id: str) -> SeatState | None:
        for seat in self.seats:
            if seat.player_id == player_id:
                return seat
        return None

    def match_seat_of(self, player_id: str) -> int | None:
        return self.player_seats.get(player_id)

    def connected_players(self) -> set[str]:
        return {who.id for who in self.connections.values()}

    def remaining(self, timer: str) -> float | None:
        deadline = self.deadlines.get(timer)
        return None if deadline is None else round(max(deadline - self.now, 0.0), 1)

    def info(self) -> dict[str, Any]:
        """The ``Table`` object of the protocol: what anyone in the lobby may know."""
        connected = self.connected_players()
        seated = {s.player_id for s in self.seats if s.player_id}
        match_json = None
        autopilot_seats: set[int] = set()
        if self.match is not None:
            m = self.match
            autopilot_seats = {m.seats[s] for s in m.autopilot}
            match_json = {"id": m.id, **m.game_match.progress(), "seats": list(m.seats)}
        return {
            "id": self.id,
            "name": self.name,
            "public": self.public,
            "game": self.game.name,
            "owner": self.owner.to_json(),
            "status": self.status,
            "options": {**self.options_json, "players": self.capacity},
            "abandon_after": self.abandon_after,
            "seats": [
                s.to_json(s.player_id in connected, s.number in autopilot_seats, self.levels)
                for s in self.seats
            ],
            "free_seats": sum(1 for s in self.seats if s.free),
            "spectators": len(connected - seated),
            "match": match_json,
            "seq": self.seq,
            "created_at": self.created_at,
        }

    def seat_rows(self) -> list[dict[str, Any]]:
        return [seat.to_row() for seat in self.seats]

    def runtime_json(self) -> dict[str, Any]:
        m = self.match
        return {
            "timeouts": list(m.timeouts) if m else [],
            "autopilot": sorted(m.autopilot) if m else [],
            "deadline": self.deadlines.get(TURN),
        }

    # -- messages ---------------------------------------------------------------------------

    def _broadcast_table(self, out: list[Effect]) -> None:
        """Everyone hears the table's new description (seats, presence, status)."""
        self.seq += 1
        message = {"type": "table", "seq": self.seq, "table": self.info()}
        self.history.append(Sent(self.seq, message))
        out.extend(Send(conn, message) for conn in self.connections)
        out.append(Write((TableFields({"seq": self.seq}),), wait=False))

    def _broadcast_events(
        self,
        out: list[Effect],
        events: list[dict[str, Any]],
        ack: tuple[str, str] | None = None,
    ) -> None:
        """Tell everyone what happened; each seat gets its own view, nobody another's hand."""
        m = self.match
        message = {
            "type": "event",
            "seq": self.seq,
            "match": m.id if m else None,
            "round": m.game_match.round_number if m else None,
            "move": m.moves if m else 0,
            "events": events,
            "deadline_in": self.remaining(TURN),
        }
        self.position_seq = self.seq
        ack_player, ack_id = ack or (None, None)
        self.history.append(Sent(self.seq, message, ack_player, ack_id))
        rendered: dict[tuple[int | None, bool], dict[str, Any]] = {}
        for conn, who in self.connections.items():
            seat = self.match_seat_of(who.id)
            acked = who.id == ack_player
            key = (seat, acked)
            text = rendered.get(key)
            if text is None:
                text = rendered[key] = self._with_view(message, seat, ack_id if acked else None)
            out.append(Send(conn, text))

    def _with_view(
        self, message: dict[str, Any], seat: int | None, ack_id: str | None
    ) -> dict[str, Any]:
        out = dict(message)
        if self.match is None:
            out["view"] = None
        else:
            view = self.match.game_match.view(seat)
            out["view"] = view.to_json()
            if seat is not None:
                out["legal"] = [self.game.action_to_json(a) for a in view.legal_actions()]
        if ack_id is not None:
            out["ack"] = ack_id
        return out

    def _sync(self, conn: str) -> Send:
        seat = self.match_seat_of(self.connections[conn].id)
        message = {
            "type": "sync",
            "seq": self.seq,
            "table": self.info(),
            "deadline_in": self.remaining(TURN),
        }
        return Send(conn, self._with_view(message, seat, None))

    @staticmethod
    def _error(
        conn: str, code: str, message: str, rule: str | None = None, action_id: str | None = None
    ) -> Send:
        return Send(
            conn,
            {"type": "error", "id": action_id, "code": code, "rule": rule, "message": message},
        )

    # -- seats -----------------------------------------------------------------------------

    def _playing(self) -> bool:
        return self.status == "playing"

    def _save_seats(self, out: list[Effect]) -> None:
        out.append(Write((SeatRows(self.seat_rows()),)))
        self._broadcast_table(out)

    def _require_owner(self, who: Identity) -> None:
        if who.id != self.owner.id:
            raise Refusal(403, "forbidden", "only the table's owner may do that")

    def _free_seat(self, number: Any) -> SeatState:
        if number is None:
            for seat in self.seats:
                if seat.free:
                    return seat
            raise Refusal(409, "conflict", "every seat at this table is taken")
        if isinstance(number, bool) or not isinstance(number, int):
            raise Refusal(400, "bad_request", "a seat is a number")
        if not 0 <= number < self.capacity:
            raise Refusal(400, "bad_request", f"seats are numbered 0 to {self.capacity - 1}")
        seat = self.seats[number]
        if not seat.free:
            raise Refusal(409, "conflict", f"seat {number} is taken")
        return seat

    def _check_level(self, level: Any) -> None:
        """Bots of a known level, and only between matches (R2.4)."""
        if self._playing():
            raise Refusal(409, "conflict", "bots join between matches, not during one (R2.4)")
        if not isinstance(level, str) or level not in self.levels:
            raise Refusal(
                400,
                "bad_request",
                f"unknown level {level!r}; choose one of {', '.join(self.levels)}",
            )

    def options_for(self, players: int, changes: Mapping[str, Any] | None = None) -> Any:
        return self.game.options_from_json(
            {**self.options_json, **(changes or {}), "players": players}
        )

    def join(self, cmd: c.Join, out: list[Effect]) -> int:
        who = cmd.who
        if who.id in self.banned:
            raise Refusal(403, "forbidden", "the owner has evicted you from this table")
        mine = self.seat_of(who.id)
        if mine is not None:
            if cmd.seat is not None and cmd.seat != mine.number:
                raise Refusal(409, "conflict", f"you already sit at seat {mine.number}")
            if mine.away:
                mine.away = False
                seat = self.match_seat_of(who.id)
                if self.match is not None and seat is not None:
                    self._end_autopilot(seat)
                self._save_seats(out)
                self._schedule(out)
            return mine.number
        if self._playing():
            raise Refusal(
                409,
                "conflict",
                "a match is under way: seats empty at its start stay empty (R2.4); watch instead",
                "R2.4",
            )
        seat = self._free_seat(cmd.seat)
        seat.player_id, seat.player_name, seat.away = who.id, who.name, False
        self._save_seats(out)
        return seat.number

    def leave(self, cmd: c.Leave, out: list[Effect]) -> None:
        """Before a match the seat is freed; during one it waits for you (R2.4)."""
        seat = self.seat_of(cmd.who.id)
        if seat is None:
            raise Refusal(409, "conflict", "you have no seat at this table")
        if self._playing() and self.match_seat_of(cmd.who.id) is not None:
            seat.away = True
        else:
            seat.player_id = seat.player_name = None
            seat.away = False
        self._save_seats(out)
        self._schedule(out)  # a bot plays the seat while you are away

    def add_bot(self, cmd: c.AddBot, out: list[Effect]) -> int:
        if cmd.who.id != self.owner.id and self.seat_of(cmd.who.id) is None:
            raise Refusal(403, "forbidden", "only the owner or a seated player may add bots")
        self._check_level(cmd.level)
        seat = self._free_seat(cmd.seat)
        seat.bot_level = cmd.level
        self._save_seats(out)
        return seat.number

    def fill_with_bots(self, cmd: c.FillWithBots, out: list[Effect]) -> None:
        if cmd.who.id != self.owner.id:
            raise Refusal(403, "forbidden", "only the owner may fill a table with bots")
        self._check_level(cmd.level)
        for seat in self.seats:
            if seat.free:
                seat.bot_level = cmd.level
        self._save_seats(out)

    def clear_seat(self, cmd: c.ClearSeat, out: list[Effect]) -> None:
        self._require_owner(cmd.who)
        if self._playing():
            raise Refusal(409, "conflict", "seats change between matches; evict a player instead")
        if not isinstance(cmd.seat, int) or not 0 <= cmd.seat < self.capacity:
            raise Refusal(404, "not_found", f"no seat {cmd.seat} at this table")
        seat = self.seats[cmd.seat]
        seat.player_id = seat.player_name = seat.bot_level = None
        seat.away = False
        self._save_seats(out)

    def rename(self, cmd: c.Rename, out: list[Effect]) -> None:
        """Seats are held by player id, so nothing moves; only the shown name changes."""
        who, changed = cmd.who, False
        for seat in self.seats:
            if seat.player_id == who.id and seat.player_name != who.name:
                seat.player_name = who.name
                changed = True
        if self.owner.id == who.id and self.owner.name != who.name:
            self.owner = who
            changed = True
        for conn, known in self.connections.items():
            if known.id == who.id:
                self.connections[conn] = who
        if changed:
            self._broadcast_table(out)

    def configure(self, cmd: c.Configure, out: list[Effect]) -> None:
        """The owner's settings: house rules (with the turn timer) and the abandoned timeout."""
        self._require_owner(cmd.who)
        fields: dict[str, Any] = {}
        options_json, abandon_after = self.options_json, self.abandon_after
        if cmd.options is not None:
            if self._playing():
                raise Refusal(409, "conflict", "house rules change between matches")
            if not isinstance(cmd.options, dict):
                raise Refusal(400, "bad_options", "options must be a JSON object")
            changes = {k: v for k, v in cmd.options.items() if k != "players"}
            try:
                checked = self.options_for(self.capacity, changes)
            except (OptionsError, TypeError) as error:
                raise bad_options(error) from None
            options_json = fields["options"] = checked.to_json()
        if cmd.abandon_after is not None:
            abandon_after = fields["abandon_after"] = check_abandon_after(cmd.abandon_after)
        if not fields:
            return
        self.options_json, self.abandon_after = options_json, abandon_after
        out.append(Write((TableFields(fields),)))
        if ABANDON in self.deadlines:
            self._watch_people(out, rearm=True)
        self._broadcast_table(out)

    def start(self, cmd: c.Start, out: list[Effect]) -> None:
        """Any seated player starts a match with the occupied seats."""
        if self.seat_of(cmd.who.id) is None:
            raise Refusal(403, "forbidden", "only a seated player may start the match")
        if self._playing():
            raise Refusal(409, "conflict", "a match is already under way")
        if cmd.rematch and self.status != "finished":
            raise Refusal(409, "conflict", "a rematch follows a finished match")
        occupied = [s.number for s in self.seats if not s.free]
        try:
            options = self.options_for(len(occupied))
        except OptionsError as error:
            raise Refusal(409, "illegal", str(error), rule_of(str(error))) from None
        self._begin_match(options, occupied, out)
        self._broadcast_table(out)

    def skip_turn(self, cmd: c.SkipTurn, out: list[Effect]) -> None:
        """The owner skips the player to move: a timeout (R7.3)."""
        self._require_owner(cmd.who)
        m = self.match
        seat = m.game_match.current if m is not None and self._playing() else None
        if m is None or seat is None:
            raise Refusal(409, "conflict", "nobody is to play right now")
        try:
            self._play(
                seat,
                m.game_match.timeout_action(),
                out,
                pre=[_event("skipped", seat, by=cmd.who.id)],
            )
        except IllegalMove as error:
            raise Refusal(409, "illegal", error.message, error.rule) from None

    def evict(self, cmd: c.Evict, out: list[Effect]) -> None:
        """The owner removes a player; during a match a bot plays the seat from now on."""
        self._require_owner(cmd.who)
        number = cmd.seat
        if isinstance(number, bool) or not isinstance(number, int):
            raise Refusal(400, "bad_request", "say which seat to evict")
        if not 0 <= number < self.capacity or self.seats[number].player_id is None:
            raise Refusal(404, "not_found", f"nobody sits at seat {number}")
        seat = self.seats[number]
        if seat.player_id == self.owner.id:
            raise Refusal(409, "conflict", "the owner cannot evict themselves; leave instead")
        evicted = seat.player_id
        assert evicted is not None
        self.banned.add(evicted)
        match_seat = self.match_seat_of(evicted)
        seat.player_id = seat.player_name = None
        seat.away = False
        self._index_players()
        if self.match is not None and match_seat is not None and self._playing():
            self.match.autopilot.add(match_seat)
        out.append(
            Write((SeatRows(self.seat_rows()), TableFields({"banned": sorted(self.banned)})))
        )
        self._broadcast_table(out)
        self._schedule(out)

    def close(self, cmd: c.CloseTable, out: list[Effect]) -> None:
        self.status = "closed"
        rows: list[Row] = [TableFields({"status": "closed"}, closing=True)]
        m = self.match
        if m is not None and not m.game_match.over:
            rows.append(MatchFields(m.id, {"status": "abandoned"}))
        out.append(Write(tuple(rows)))
        for timer in TIMERS:
            self._cancel(timer, out)
        self._broadcast_table(out)
        out.extend(CloseSocket(conn, 1000) for conn in self.connections)
        out.append(TableClosed(cmd.reason))
        self.closed = True

    def started(self, now: float) -> list[Effect]:
        """The table's first effects once its actor runs (an empty table starts its
        abandoned-table timer)."""
        self.now = now
        out: list[Effect] = []
        self._watch_people(out)
        return out

    # -- people come and go ------------------------------------------------------------------

    def connect(self, cmd: c.Connect, out: list[Effect]) -> None:
        who = cmd.who
        first = who.id not in self.connected_players()
        self.connections[cmd.conn] = who
        seat = self.seat_of(who.id)
        shown = self.match_seat_of(who.id) if self.match is not None else None
        if shown is None and seat is not None and self.match is None:
            shown = seat.number
        out.append(
            Send(
                cmd.conn,
                {
                    "type": "welcome",
                    "player": who.to_json(),
                    "table_id": self.id,
                    "seat": shown,
                    "spectator": seat is None,
                    "seq": self.seq,
                },
            )
        )
        self._resume(cmd.conn, cmd.since, out)
        self._watch_people(out)
        changed = first
        if seat is not None and seat.away:  # coming back to the table (R2.4)
            seat.away = False
            out.append(Write((SeatRows(self.seat_rows()),), wait=False))
            changed = True
        match_seat = self.match_seat_of(who.id)
        if match_seat is not None and self._end_autopilot(match_seat):
            changed = True
            self._schedule(out)
        if changed:
            self._broadcast_table(out)

    def _resume(self, conn: str, since: int | None, out: list[Effect]) -> None:
        """Send what ``conn`` missed since ``since``, or the whole picture (``sync``).

        The reply always ends with the current view: the last replayed event carries it, and
        when no event was missed (only presence or seat news, or nothing) a ``sync`` is sent
        instead of the table messages, since a reloaded page has no view to build on.
        """
        player = self.connections[conn].id
        seat = self.match_seat_of(player)
        oldest = self.history[0].seq if self.history else self.seq + 1
        if since is None or since > self.seq or since < oldest - 1:
            out.append(self._sync(conn))
            return
        missed = [sent for sent in self.history if sent.seq > since]
        last_event = max(
            (i for i, sent in enumerate(missed) if sent.message["type"] == "event"), default=-1
        )
        if last_event < 0:
            out.append(self._sync(conn))
            return
        for i, sent in enumerate(missed):
            ack = sent.ack_id if sent.ack_player == player else None
            if sent.message["type"] != "event":
                out.append(Send(conn, sent.message))
            elif i == last_event:
                out.append(
                    Send(conn, {**self._with_view(sent.message, seat, ack), "replayed": True})
                )
            else:
                message = {**sent.message, "view": None, "replayed": True}
                if ack is not None:
                    message["ack"] = ack
                out.append(Send(conn, message))

    def disconnect(self, cmd: c.Disconnect, out: list[Effect]) -> None:
        who = self.connections.pop(cmd.conn, None)
        if who is not None and who.id not in self.connected_players():
            self._broadcast_table(out)
        self._watch_people(out)

    def resync(self, cmd: c.Resync, out: list[Effect]) -> None:
        if cmd.conn in self.connections:
            out.append(self._sync(cmd.conn))

    def _watch_people(self, out: list[Effect], rearm: bool = False) -> None:
        """A table nobody is connected to closes after ``abandon_after`` seconds."""
        if self.connections:
            self._cancel(ABANDON, out)
        elif rearm or ABANDON not in self.deadlines:
            self._arm(ABANDON, self.abandon_after, (), out)

    def _abandoned(self, out: list[Effect]) -> None:
        if not self.connections:
            self.close(c.CloseTable("abandoned"), out)

    # -- moves -------------------------------------------------------------------------------

    def act(self, cmd: c.Act, out: list[Effect]) -> None:
        """A player's move from a socket: applied and stored, or refused to its sender only."""
        who = self.connections.get(cmd.conn)
        if who is None:
            return
        recent = self.recent_ids.setdefault(who.id, OrderedDict())
        if cmd.id in recent:
            out.append(
                Send(cmd.conn, {"type": "ack", "id": cmd.id, "duplicate": True, "seq": self.seq})
            )
            return

        def refuse(code: str, message: str, rule: str | None = None) -> None:
            out.append(self._error(cmd.conn, code, message, rule, cmd.id))

        m = self.match
        if m is None or not self._playing():
            return refuse("no_match", "no match is being played at this table")
        seat = self.match_seat_of(who.id)
        if seat is None:
            return refuse("not_seated", "spectators cannot play; join a seat first")
        try:
            action = self.game.action_from_json(cmd.action)
        except NotationError as error:
            return refuse("bad_action", str(error))
        if cmd.after is not None and not self.position_seq <= cmd.after <= self.seq:
            return refuse(
                "stale",
                f"the game has moved on since seq {cmd.after} (position of seq "
                f"{self.position_seq}); look again",
            )
        back = self._end_autopilot(seat)
        pre = [_event("autopilot", seat, on=False)] if back else []
        try:
            self._play(seat, action, out, ack=(who.id, cmd.id), pre=pre)
        except IllegalMove as error:
            if back:  # the player is back even if the move was refused
                self._broadcast_table(out)
                self._schedule(out)
            return refuse("illegal", error.message, error.rule)
        recent[cmd.id] = None
        if len(recent) > RECENT_ACTION_IDS:
            recent.popitem(last=False)
        m.timeouts[seat] = 0

    def _play(
        self,
        seat: int,
        action: Any,
        out: list[Effect],
        *,
        ack: tuple[str, str] | None = None,
        pre: list[dict[str, Any]] | None = None,
    ) -> None:
        """Apply, store, then tell. Raises ``IllegalMove`` (nothing changed) when refused."""
        m = self.match
        assert m is not None
        gm = m.game_match
        round_number = gm.round_number
        events = gm.apply(action, seat=seat)  # the engine refuses here, changing nothing
        m.moves += 1
        told = list(pre or []) + [self.game.event_json(e) for e in events]
        rows: list[Row] = [
            MoveRow(m.id, m.moves, round_number, ACTION, seat, self.game.action_to_json(action))
        ]
        if gm.current is None:  # the round is over
            told.append(self._round_summary())
            if gm.over:
                self.status = "finished"
                told.append(
                    _event(
                        "match_over",
                        winners=list(gm.winners or ()),
                        scores=list(gm.scores),
                        match=m.id,
                    )
                )
            rows.append(self._match_fields())
        self._finish_move(rows, told, out, ack)

    def _finish_move(
        self,
        rows: list[Row],
        told: list[dict[str, Any]],
        out: list[Effect],
        ack: tuple[str, str] | None = None,
    ) -> None:
        """A stored step: arm what comes next, store, tell everyone, then the league."""
        m = self.match
        assert m is not None
        timers: list[Effect] = []
        self._schedule(timers)
        self.seq += 1
        rows.append(
            TableFields({"seq": self.seq, "runtime": self.runtime_json(), "status": self.status})
        )
        out.append(Write(tuple(rows)))
        self._broadcast_events(out, told, ack)
        out.extend(timers)
        if m.game_match.over:
            out.append(MatchFinished(m.id))

    def _match_fields(self) -> MatchFields:
        assert self.match is not None
        gm = self.match.game_match
        fields: dict[str, Any] = {"scores": list(gm.scores), "rounds": gm.round_number}
        if gm.over:
            fields.update(status="finished", winners=list(gm.winners or ()))
        return MatchFields(self.match.id, fields, finished=gm.over)

    def _round_summary(self) -> dict[str, Any]:
        assert self.match is not None
        gm = self.match.game_match
        return _event(
            "round_summary",
            round=gm.round_number,
            result=gm.round_result(),
            scores=list(gm.scores),
            next_round_in=None if gm.over else self.settings.round_pause,
        )

    # -- a match starts, rounds follow -------------------------------------------------------

    def _begin_match(self, options: Any, seats: list[int], out: list[Effect]) -> None:
        seed = self.new_seed()
        game_match = self.game.new_match(options, seed)
        match_id = self.new_id()
        seat_json = [match_seat_json(self.seats[s], self.levels) for s in seats]
        self._install(game_match, match_id, seats)
        self.status = "playing"
        timers: list[Effect] = []
        self._schedule(timers)
        self.seq += 1
        out.append(
            Write(
                (
                    NewMatch(
                        {
                            "id": match_id,
                            "table_id": self.id,
                            "game": self.game.name,
                            "options": options.to_json(),
                            "seed": seed,
                            "seats": seat_json,
                            "status": "playing",
                            "scores": list(game_match.scores),
                            "rounds": 1,
                        }
                    ),
                    TableFields(
                        {
                            "status": "playing",
                            "match_id": match_id,
                            "seq": self.seq,
                            "runtime": self.runtime_json(),
                        }
                    ),
                )
            )
        )
        told = [
            _event(
                "match_started",
                match=match_id,
                seats=seats,
                teams=game_match.progress().get("teams", False),
            ),
            _event("round_started", **game_match.round_started()),
            *(self.game.event_json(e) for e in game_match.opening_events),
        ]
        self._broadcast_events(out, told)
        out.extend(timers)

    def _install(self, game_match: GameMatch, match_id: str, seats: list[int]) -> None:
        self.match = MatchInPlay(game_match, match_id, list(seats), timeouts=[0] * len(seats))
        self._index_players()

    def _index_players(self) -> None:
        self.player_seats = {}
        if self.match is None:
            return
        for match_seat, table_seat in enumerate(self.match.seats):
            player = self.seats[table_seat].player_id
            if player is not None:
                self.player_seats[player] = match_seat

    def _next_round(self, out: list[Effect]) -> None:
        """Deal the next round, with the game's between-round steps (Skip: R2.5's fall-back)."""
        m = self.match
        if m is None or not m.game_match.between_rounds or not self._playing():
            return
        gm = m.game_match
        round_number = gm.round_number + 1
        rows: list[Row] = []
        told: list[dict[str, Any]] = []
        for step in gm.between_round_steps(self._absent_seats()):
            events = gm.apply_step(step)
            m.moves += 1
            rows.append(MoveRow(m.id, m.moves, round_number, step.kind, None, None))
            if step.kind == NEXT_ROUND:
                told.append(_event("round_started", **gm.round_started()))
            told.extend(self.game.event_json(e) for e in events)
        rows.append(MatchFields(m.id, {"rounds": round_number}))
        self._finish_move(rows, told, out)

    def _absent_seats(self) -> frozenset[int]:
        """Match seats whose player has gone (left, away, or not connected); bots never are."""
        assert self.match is not None
        connected = self.connected_players()
        absent = set()
        for match_seat, table_seat in enumerate(self.match.seats):
            seat = self.seats[table_seat]
            if seat.bot_level is not None:
                continue
            if seat.player_id is None or seat.away or seat.player_id not in connected:
                absent.add(match_seat)
        return frozenset(absent)

    # -- what happens next: timers and bots --------------------------------------------------

    def _key(self) -> tuple[Any, ...]:
        m = self.match
        return (m.id, m.moves) if m is not None else ()

    def _arm(self, timer: str, seconds: float, key: tuple[Any, ...], out: list[Effect]) -> None:
        self._arm_at(timer, self.now + seconds, key, out)

    def _arm_at(self, timer: str, at: float, key: tuple[Any, ...], out: list[Effect]) -> None:
        self.deadlines[timer] = at
        self.timer_keys[timer] = key
        out.append(ArmTimer(timer, at, key))

    def _cancel(self, timer: str, out: list[Effect]) -> None:
        if self.deadlines.pop(timer, None) is not None:
            self.timer_keys.pop(timer, None)
            out.append(CancelTimer(timer))

    def _bot_level_for(self, seat: int) -> str | None:
        assert self.match is not None
        table_seat = self.seats[self.match.seats[seat]]
        if table_seat.bot_level is not None:
            return table_seat.bot_level
        if seat in self.match.autopilot or table_seat.away or table_seat.player_id is None:
            return self._autopilot_level()
        return None

    def _autopilot_level(self) -> str | None:
        """The level that plays for an absent player; None for a game without bots (its turn
        timer plays the game's timeout instead)."""
        level = self.settings.autopilot_level
        return level if level in self.levels else None

    def _end_autopilot(self, seat: int) -> bool:
        """The player is back: their seat is theirs again (R7.3)."""
        m = self.match
        if m is None:
            return False
        m.timeouts[seat] = 0
        if seat in m.autopilot and self.seats[m.seats[seat]].player_id is not None:
            m.autopilot.discard(seat)
            return True
        return False

    def _schedule(self, out: list[Effect], deadline: float | None = None) -> None:
        """Arm what the position needs: a bot's move, the turn timer, or the next deal."""
        self._cancel(TURN, out)
        m = self.match
        if m is None or not self._playing() or m.game_match.over:
            self._cancel(BOT, out)
            return
        gm = m.game_match
        if gm.between_rounds:
            self._cancel(BOT, out)
            if ROUND not in self.deadlines:
                self._arm(ROUND, self.settings.round_pause, self._key(), out)
            return
        seat = gm.current
        assert seat is not None
        key = self._key()
        if self._bot_level_for(seat) is not None:
            if self.timer_keys.get(BOT) != key:
                self._arm(BOT, self.settings.bot_delay, key, out)
            return
        self._cancel(BOT, out)
        seconds = getattr(gm.options, "turn_timer", None)
        if seconds:
            if deadline is not None:
                self._arm_at(TURN, deadline, key, out)
            else:
                self._arm(TURN, seconds, key, out)

    def timer_fired(self, cmd: c.TimerFired, out: list[Effect]) -> None:
        if self.timer_keys.get(cmd.timer) != cmd.key or cmd.timer not in self.deadlines:
            return  # a timer that was re-armed or cancelled meanwhile
        del self.deadlines[cmd.timer]
        del self.timer_keys[cmd.timer]
        if cmd.timer == ABANDON:
            self._abandoned(out)
        elif cmd.timer == ROUND:
            self._next_round(out)
        elif cmd.timer == BOT:
            self._think(cmd.key, out)
        elif cmd.timer == TURN:
            self._timed_out(cmd.key, out)

    def _timed_out(self, key: tuple[Any, ...], out: list[Effect]) -> None:
        """R7.3: the turn ends with no discard; repeated timeouts hand the seat to a bot."""
        m = self.match
        if key != self._key() or m is None or not self._playing():
            return
        seat = m.game_match.current
        if seat is None:
            return
        m.timeouts[seat] += 1
        pre: list[dict[str, Any]] = []
        if (
            m.timeouts[seat] >= self.settings.autopilot_after
            and seat not in m.autopilot
            and self._autopilot_level() is not None
        ):
            m.autopilot.add(seat)
            pre.append(_event("autopilot", seat, on=True))
        self._play(seat, m.game_match.timeout_action(), out, pre=pre)

    def _think(self, key: tuple[Any, ...], out: list[Effect]) -> None:
        m = self.match
        if key != self._key() or m is None or not self._playing():
            return
        seat = m.game_match.current
        level = self._bot_level_for(seat) if seat is not None else None
        if seat is None or level is None:
            return
        seed = derive_seed(m.game_match.seed, "bot", seat, level)
        out.append(Think(key, seat, level, seed, m.game_match.view(seat)))

    def bot_moved(self, cmd: c.BotMoved, out: list[Effect]) -> None:
        m = self.match
        if cmd.key != self._key() or m is None or not self._playing():
            return
        try:
            self._play(cmd.seat, cmd.action, out)
        except IllegalMove:
            self._play(cmd.seat, m.game_match.timeout_action(), out)

    def league_news(self, cmd: c.LeagueNews, out: list[Effect]) -> None:
        """Achievements and rating changes of the match just finished, told after its end."""
        if not cmd.events or self.match is None or self.match.id != cmd.match_id:
            return
        self.seq += 1
        self._broadcast_events(out, cmd.events)

    # -- restoring ---------------------------------------------------------------------------

    def restore_match(
        self, row: Mapping[str, Any], moves: list[dict[str, Any]], runtime: Mapping[str, Any] | None
    ) -> list[Effect]:
        """Replay the stored log through the game: the match is exactly where it was (R7.5)."""
        options = self.game.options_from_json(row["options"])
        steps = [Step(m["kind"], m.get("seat"), m.get("action")) for m in moves]
        game_match = rebuild(self.game, options, row["seed"], steps)
        seats = [s["table_seat"] for s in row["seats"]]
        self._install(game_match, row["id"], seats)
        assert self.match is not None
        self.match.moves = len(moves)
        runtime = runtime or {}
        timeouts = runtime.get("timeouts") or []
        if len(timeouts) == len(seats):
            self.match.timeouts = [int(t) for t in timeouts]
        self.match.autopilot = {
            int(s) for s in runtime.get("autopilot") or [] if 0 <= int(s) < len(seats)
        }
        out: list[Effect] = []
        if self.status == "playing":
            self._schedule(out, deadline=runtime.get("deadline"))
        return out

    def reload(self, cmd: c.Reload, out: list[Effect]) -> None:
        """After a failed write: the match as stored, and everyone shown that position."""
        runtime = self.runtime_json()
        for timer in (TURN, BOT, ROUND):
            self._cancel(timer, out)
        self.status = "finished" if cmd.match["status"] == "finished" else "playing"
        out.extend(self.restore_match(cmd.match, cmd.moves, runtime))
        self.position_seq = self.seq  # everyone gets the reloaded position in a sync
        out.extend(self._sync(conn) for conn in self.connections)


def _event(kind: str, seat: int | None = None, **detail: Any) -> dict[str, Any]:
    """An event made by the table rather than the engine (match start, round summary...)."""
    return {"kind": kind, "seat": seat, "detail": detail}


def check_abandon_after(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refusal(400, "bad_request", "abandon_after is a number of seconds")
    if not MIN_ABANDON <= value <= MAX_ABANDON:
        raise Refusal(
            400, "bad_request", f"abandon_after is {MIN_ABANDON:.0f} to {MAX_ABANDON:.0f} seconds"
        )
    return float(value)


_HANDLERS: dict[type, Callable[[TableMaster, Any, list[Effect]], Any]] = {
    c.Join: TableMaster.join,
    c.Leave: TableMaster.leave,
    c.AddBot: TableMaster.add_bot,
    c.FillWithBots: TableMaster.fill_with_bots,
    c.ClearSeat: TableMaster.clear_seat,
    c.Configure: TableMaster.configure,
    c.Start: TableMaster.start,
    c.SkipTurn: TableMaster.skip_turn,
    c.Evict: TableMaster.evict,
    c.Rename: TableMaster.rename,
    c.CloseTable: TableMaster.close,
    c.Connect: TableMaster.connect,
    c.Disconnect: TableMaster.disconnect,
    c.Resync: TableMaster.resync,
    c.Act: TableMaster.act,
    c.TimerFired: TableMaster.timer_fired,
    c.BotMoved: TableMaster.bot_moved,
    c.LeagueNews: TableMaster.league_news,
    c.Reload: TableMaster.reload,
}
