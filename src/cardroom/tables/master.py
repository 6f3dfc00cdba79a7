"""The table master: one table's seats and match, changed only by commands, one at a time.

``TableMaster.handle(command, now)`` returns the effects the command causes (rows to store,
messages to send, timers, bots, the league) or raises ``Refusal`` having changed nothing. It
does no I/O, reads no clock (``now`` is table time, given with each command) and knows no game
but through the Game contract, so whole matches — people, bots, timers — run in-process.

The order of the effects is the order of the world: a move's ``Write`` comes before the
messages that tell of it, so the actor stores it before anyone is told (nothing acknowledged
is lost); a refused move changes nothing and is answered to its sender only.

Its parts: ``Seating`` (seats and the owner's powers, ``seats.py``), ``Audience`` (sockets,
sequence numbers, history, exactly-once, ``audience.py``), ``Timers`` (``timers.py``); this
module is the table's own logic: the lobby's commands, moves, rounds, bots and timeouts.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardroom.bots.advice import GAMES as HINTED_GAMES
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
from cardroom.tables.audience import HISTORY_BYTES, Audience, action_key
from cardroom.tables.chat import ChatRefused, ChatRoom
from cardroom.tables.delivery import deliver
from cardroom.tables.effects import (
    Advise,
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
from cardroom.tables.seats import Seating, SeatState, match_seat_json
from cardroom.tables.timers import ABANDON, BOT, ROUND, TURN, Timers

SEQ_MARGIN_AFTER_RESTART = 100  # presence news is not stored; skip past any seq we may have sent
MIN_ABANDON = 5.0
MAX_ABANDON = 7 * 24 * 3600.0
WATCHERS_NAMED = 20  # the Table names its first watchers; the rest are only counted
SOCKET_PROTOCOL = 1  # the table socket's version (docs/protocol.md), said in the welcome
HINT_EVERY = 2.0  # seconds before a player may ask again about the same position


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The pace of a table: the server's settings that the master needs."""

    bot_delay: float = 0.8
    round_pause: float = 5.0
    autopilot_after: int = 3
    autopilot_level: str = "medium"
    history: int = 256  # broadcasts kept for reconnecting clients ...
    history_bytes: int = HISTORY_BYTES  # ... within so many bytes of JSON text
    max_sockets: int = 64  # sockets open to the table, beyond which only seated players get in
    max_sockets_per_player: int = 4  # sockets one player opens to the table
    claim_offline_after: float = 20.0  # seconds offline before others may skip the turn
    claim_idle_after: float = 120.0  # seconds idle (no turn timer) before others may skip it
    chat_length: int = 200  # characters in one chat line
    chat_burst: int = 5  # chat lines one player may send at once ...
    chat_every: float = 3.0  # ... then one every so many seconds
    chat_kept: int = 30  # lines a (re)connecting socket is sent


@dataclass(slots=True)
class Rematch:
    """A rematch proposed after a match: who proposed it and the people who said yes (bots
    always do). It starts once every person seated has; a "no" or a change of seats ends it."""

    by: Identity
    accepted: set[str] = field(default_factory=set)


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
    bot_seeds: dict[tuple[int, str], str] = field(default_factory=dict)  # (seat, level) -> seed


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
        self._stored_fields: dict[str, Any] = {"status": self.status, "runtime": row.get("runtime")}
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
        self._asked: tuple[Any, ...] | None = None  # the position a bot was last asked about
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
        self._watch_people(out)
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
            match_json = {"id": m.id, **m.game_match.progress(), "seats": list(m.seats)}
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
            "rematch": self._rematch_json(),
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

    def _table_changes(self) -> dict[str, Any]:
        """The table row's fields that changed since they were last stored, now stored."""
        now = {"status": self.status, "runtime": self.runtime_json()}
        changed = {k: v for k, v in now.items() if self._stored_fields.get(k) != v}
        self._stored_fields.update(changed)
        return changed

    # -- telling -----------------------------------------------------------------------------

    def _tell_table(self, out: list[Effect]) -> None:
        self.audience.tell_table(self.info(), out, {"claim_in": self.claim_in()})

    def _tell_events(
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
            "claim_in": self.claim_in(),
        }
        self.audience.tell_events(message, self.match_seat_of, self._own_view, out, ack)

    def deliver(self, effects: list[Effect]) -> list[Effect]:
        """``effects`` as they are to be carried out, right after the command that made them
        (and any that joined it): what they tell a socket that asked for one frame per command
        is made one, with its seat's view from the position now (``tables/delivery.py``)."""
        return deliver(effects, self.audience.batching, self._own_view)

    def _own_view(self, seat: int | None) -> dict[str, Any]:
        """What only ``seat`` (None: a spectator) receives with an event: its own view, and
        its legal actions."""
        if self.match is None:
            return {"view": None}
        view = self.match.game_match.view(seat)
        if seat is None:
            return {"view": view.to_json()}
        return {"view": view.to_json(), "legal": _legal_json(self.game, view.legal_actions())}

    def _sync_message(self, seat: int | None) -> dict[str, Any]:
        return {
            "type": "sync",
            "seq": self.seq,
            "table": self.info(),
            "deadline_in": self.timers.remaining(TURN, self.now),
            "claim_in": self.claim_in(),
            **self._own_view(seat),
        }

    def _sync(self, conn: str) -> Send:
        return Send(
            conn, self._sync_message(self.match_seat_of(self.audience.connections[conn].id))
        )

    # -- the lobby's commands ----------------------------------------------------------------

    def _playing(self) -> bool:
        return self.status == "playing"

    def _save_seats(self, out: list[Effect]) -> None:
        out.append(Write((SeatRows(self.seating.rows()),)))
        self._withdraw_rematch("the seats changed", out)
        self._tell_table(out)
        self._watch_people(out)

    def options_for(self, players: int, changes: Mapping[str, Any] | None = None) -> Any:
        data = {**self.options_json, **(changes or {}), "players": players}
        return self.game.options_from_json(data)

    def join(self, cmd: c.Join, out: list[Effect]) -> int:
        """Sit down, or come back to your own seat (R2.4). Answers the table seat."""
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
                if seat is not None:
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
        seat = self.seating.free_seat(cmd.seat)
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

    def _bots_may_join(self, level: Any) -> str:
        """Bots of a known level, and only between matches (R2.4)."""
        if self._playing():
            raise Refusal(409, "conflict", "bots join between matches, not during one (R2.4)")
        return self.seating.check_level(level)

    def add_bot(self, cmd: c.AddBot, out: list[Effect]) -> int:
        if cmd.who.id != self.owner.id and self.seat_of(cmd.who.id) is None:
            raise Refusal(403, "forbidden", "only the owner or a seated player may add bots")
        level = self._bots_may_join(cmd.level)
        seat = self.seating.free_seat(cmd.seat)
        seat.bot_level = level
        self._save_seats(out)
        return seat.number

    def fill_with_bots(self, cmd: c.FillWithBots, out: list[Effect]) -> None:
        """Every free seat gets a bot of ``level``, stored in one write (quick play)."""
        if cmd.who.id != self.owner.id:
            raise Refusal(403, "forbidden", "only the owner may fill a table with bots")
        level = self._bots_may_join(cmd.level)
        for seat in self.seats:
            if seat.free:
                seat.bot_level = level
        self._save_seats(out)

    def clear_seat(self, cmd: c.ClearSeat, out: list[Effect]) -> None:
        self.seating.require_owner(cmd.who)
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
            self.seating.owner = who
            changed = True
        self.audience.renamed(who)
        if changed:
            self._tell_table(out)

    def configure(self, cmd: c.Configure, out: list[Effect]) -> None:
        """The owner's settings: house rules (with the turn timer) and the abandoned timeout."""
        self.seating.require_owner(cmd.who)
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
        if self.timers.armed(ABANDON):
            self._watch_people(out, rearm=True)
        self._tell_table(out)

    def start(self, cmd: c.Start, out: list[Effect]) -> None:
        """Any seated player starts a match with the occupied seats. After a match, starting
        again is a proposal the other people accept (or decline): one click never throws
        everyone into a new match; bots accept at once."""
        if self.seat_of(cmd.who.id) is None:
            raise Refusal(403, "forbidden", "only a seated player may start the match")
        if self._playing():
            raise Refusal(409, "conflict", "a match is already under way")
        if cmd.rematch and self.status != "finished":
            raise Refusal(409, "conflict", "a rematch follows a finished match")
        options = self._options_to_start()
        if self.status == "finished":
            self._agree_to_rematch(cmd.who, options, out)
            return
        self._begin_match(options, self.seating.occupied(), out)
        self._tell_table(out)

    def _options_to_start(self) -> Any:
        try:
            return self.options_for(len(self.seating.occupied()))
        except OptionsError as error:
            raise Refusal(409, "illegal", str(error), rule_of(str(error))) from None

    # -- a rematch, proposed and accepted ----------------------------------------------------

    def _agree_to_rematch(self, who: Identity, options: Any, out: list[Effect]) -> None:
        """``who`` proposes a rematch, or accepts the one proposed; the last yes starts it."""
        proposal = self.rematch
        seat = self.match_seat_of(who.id)
        if proposal is None:
            proposal = self.rematch = Rematch(who, {who.id})
            news = _event("rematch_proposed", seat, by=who.id, name=who.name)
        elif who.id in proposal.accepted:
            return
        else:
            proposal.accepted.add(who.id)
            news = _event("rematch_accepted", seat, by=who.id, name=who.name)
        alone = news["kind"] == "rematch_proposed" and not self._rematch_waits_for()
        if not alone:  # against bots only, a rematch simply starts
            self._tell_news([news], out)
        if self._rematch_waits_for():
            self._tell_table(out)
            return
        self.rematch = None
        self._begin_match(options, self.seating.occupied(), out)
        self._tell_table(out)

    def decline_rematch(self, cmd: c.DeclineRematch, out: list[Effect]) -> None:
        """A seated player says no to the rematch proposed (its proposer: withdraws it)."""
        who = cmd.who
        if self.seat_of(who.id) is None:
            raise Refusal(403, "forbidden", "only a seated player may answer a rematch")
        if self.rematch is None:
            raise Refusal(409, "conflict", "no rematch has been proposed")
        self.rematch = None
        news = _event("rematch_declined", self.match_seat_of(who.id), by=who.id, name=who.name)
        self._tell_news([news], out)
        self._tell_table(out)

    def _withdraw_rematch(self, reason: str, out: list[Effect]) -> None:
        if self.rematch is not None:
            self.rematch = None
            self._tell_news([_event("rematch_withdrawn", reason=reason)], out)

    def _rematch_waits_for(self) -> list[int]:
        """The table seats of the people who have not accepted the proposed rematch."""
        if self.rematch is None:
            return []
        accepted = self.rematch.accepted
        return [
            s.number for s in self.seats if s.player_id is not None and s.player_id not in accepted
        ]

    def _rematch_json(self) -> dict[str, Any] | None:
        if self.rematch is None:
            return None
        waiting = self._rematch_waits_for()
        accepted = [s for s in self.seating.occupied() if s not in waiting]
        return {"by": self.rematch.by.to_json(), "accepted": accepted, "waiting": waiting}

    def _tell_news(self, events: list[dict[str, Any]], out: list[Effect]) -> None:
        """Table news between matches, in an ``event`` message of its own."""
        self.audience.next_seq()
        self._tell_events(events, out)

    def skip_turn(self, cmd: c.SkipTurn, out: list[Effect]) -> None:
        """A seated player (or the owner) skips the turn of someone who is not really there:
        offline for ``claim_offline_after`` seconds, or idle for ``claim_idle_after`` at a
        table without a turn timer. It counts as a timeout (R7.3): a few in a row and a bot
        plays the seat until its player is back."""
        who = cmd.who
        if self.seat_of(who.id) is None and who.id != self.owner.id:
            raise Refusal(403, "forbidden", "only a seated player may skip someone's turn")
        m = self.match
        seat = m.game_match.current if m is not None and self._playing() else None
        if m is None or seat is None:
            raise Refusal(409, "conflict", "nobody is to play right now")
        if self.match_seat_of(who.id) == seat:
            raise Refusal(409, "conflict", "it is your own turn: play it")
        wait = self.claim_in()
        if wait is None or wait > 0:
            raise Refusal(409, "conflict", self._why_not_claimable(seat, wait))
        self._timed_out(self._key(), out, pre=[_event("skipped", seat, by=who.id, name=who.name)])

    def claim_in(self) -> float | None:
        """Seconds until the current turn may be skipped by the others (0: now); None when it
        may not be: no match being played, between rounds, a bot's turn (autopilot included),
        or a player who is here at a table whose turn timer will skip the turn itself."""
        m = self.match
        if m is None or not self._playing() or m.game_match.over:
            return None
        seat = m.game_match.current
        if seat is None or self._bot_level_for(seat) is not None:
            return None
        player = self.seats[m.seats[seat]].player_id
        times = []
        if player is None or player not in self.audience.players():
            since = self.gone_since.get(player, self.opened_at) if player else self.opened_at
            times.append(since + self.settings.claim_offline_after)
        if not getattr(m.game_match.options, "turn_timer", None):
            times.append(self.last_step_at + self.settings.claim_idle_after)
        return round(max(0.0, min(times) - self.now), 1) if times else None

    def _why_not_claimable(self, seat: int, wait: float | None) -> str:
        assert self.match is not None
        name = self.seats[self.match.seats[seat]].player_name or f"seat {seat + 1}"
        if wait is None:
            if self._bot_level_for(seat) is not None:
                return f"a bot is playing {name}'s turn: there is nothing to skip"
            return f"{name} is here and the turn timer skips the turn when it runs out (R7.3)"
        here = self.seats[self.match.seats[seat]].player_id in self.audience.players()
        why = (
            f"{name} is here: a turn can be skipped once its player has been idle for "
            f"{self.settings.claim_idle_after:.0f} s"
            if here
            else f"{name} is offline: a turn can be skipped once its player has been gone for "
            f"{self.settings.claim_offline_after:.0f} s"
        )
        return f"{why} (in {math.ceil(wait)} s)"

    def evict(self, cmd: c.Evict, out: list[Effect]) -> None:
        """The owner removes a player; during a match a bot plays the seat from now on."""
        self.seating.require_owner(cmd.who)
        seat = self.seating.seated_player(cmd.seat)
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
        banned = TableFields({"banned": sorted(self.banned)})
        out.append(Write((SeatRows(self.seating.rows()), banned)))
        self._withdraw_rematch("the seats changed", out)
        self._tell_table(out)
        self._schedule(out)

    def close(self, cmd: c.CloseTable, out: list[Effect]) -> None:
        self.status = "closed"
        rows: list[Row] = [TableFields({"status": "closed"}, closing=True)]
        m = self.match
        if m is not None and not m.game_match.over:
            rows.append(MatchFields(m.id, {"status": "abandoned"}))
        out.append(Write(tuple(rows)))
        self.timers.cancel_all(out)
        self._tell_table(out)
        out.extend(CloseSocket(conn, 1000) for conn in self.audience.connections)
        out.append(TableClosed(cmd.reason))
        self.closed = True

    # -- people come and go ------------------------------------------------------------------

    def connect(self, cmd: c.Connect, out: list[Effect]) -> None:
        """A socket said hello. Only a seated player's arrival is news for everyone (a
        ``table`` message); a spectator's is counted in the next one, so a crowd of watchers
        does not make the table send each of them the whole table again."""
        who = cmd.who
        self._check_room(who)
        first = self.audience.arrive(cmd.conn, who, cmd.batch)
        self.gone_since.pop(who.id, None)
        seat = self.seat_of(who.id)
        shown = self.match_seat_of(who.id) if self.match is not None else None
        if shown is None and seat is not None and self.match is None:
            shown = seat.number
        welcome = {
            "type": "welcome",
            "player": who.to_json(),
            "table_id": self.id,
            "seat": shown,
            "spectator": seat is None,
            "seq": self.seq,
            "protocol": SOCKET_PROTOCOL,
            "turn_timer": self.options_json.get("turn_timer"),
        }
        out.append(Send(cmd.conn, welcome))
        match_seat = self.match_seat_of(who.id)
        self.audience.resume(
            cmd.conn,
            cmd.since,
            match_seat,
            self._own_view,
            lambda: self._sync_message(match_seat),
            out,
        )
        out.extend(Send(cmd.conn, {**line, "replayed": True}) for line in self.chat_room.log)
        self._watch_people(out)
        changed = first and seat is not None
        if seat is not None and seat.away:  # coming back to the table (R2.4)
            seat.away = False
            out.append(Write((SeatRows(self.seating.rows()),), wait=False))
            changed = True
        if match_seat is not None and self._end_autopilot(match_seat):
            changed = True
            self._schedule(out)
        if changed:
            self._tell_table(out)

    def disconnect(self, cmd: c.Disconnect, out: list[Effect]) -> None:
        gone = self.audience.depart(cmd.conn)
        if gone is not None:
            self.gone_since[gone.id] = self.now
        if gone is not None and self.seat_of(gone.id) is not None:
            self._tell_table(out)
        self._watch_people(out)

    # -- chat --------------------------------------------------------------------------------

    def chat(self, cmd: c.Chat, out: list[Effect]) -> None:
        """A line said at the table, to everyone here (``chat.py`` checks and paces it); a
        refused line goes back to its sender only."""
        who = self.audience.connections.get(cmd.conn)
        if who is None:
            return
        try:
            text = self.chat_room.take(who.id, cmd.text, self.now)
        except ChatRefused as refused:
            error = self.audience.error(cmd.conn, refused.code, refused.message)
            out.append(Send(cmd.conn, {**error.message, "about": "chat"}))
            return
        seat = self.seat_of(who.id)
        line = {
            "type": "chat",
            "from": who.to_json(),
            "seat": seat.number if seat else None,
            "text": text,
        }
        self.chat_room.keep(line)
        out.extend(Send(conn, line) for conn in self.audience.connections)

    def _check_room(self, who: Identity) -> None:
        """Refuse a socket beyond the table's caps, before anything changes. A player holding
        a seat always gets in (within their own cap): watchers cannot crowd out the players."""
        full = len(self.audience.connections) >= self.settings.max_sockets
        if full and self.seat_of(who.id) is None:
            raise Refusal(
                429,
                "too_many_sockets",
                f"this table has {self.settings.max_sockets} connections already; "
                "watch another table or try later",
            )
        mine = sum(1 for known in self.audience.connections.values() if known.id == who.id)
        if mine >= self.settings.max_sockets_per_player:
            raise Refusal(
                429,
                "too_many_sockets",
                f"you have {self.settings.max_sockets_per_player} connections to this table "
                "already; close one first",
            )

    def resync(self, cmd: c.Resync, out: list[Effect]) -> None:
        if cmd.conn in self.audience.connections:
            out.append(self._sync(cmd.conn))

    def _people_here(self) -> bool:
        """Whether a seated player (or the owner) is connected: watchers alone do not keep a
        table open."""
        here = self.audience.players()
        return self.owner.id in here or any(
            s.player_id in here for s in self.seats if s.player_id is not None
        )

    def _watch_people(self, out: list[Effect], rearm: bool = False) -> None:
        """A table none of its people are at closes after ``abandon_after`` seconds."""
        if self._people_here():
            self.timers.cancel(ABANDON, out)
        elif rearm or not self.timers.armed(ABANDON):
            self.timers.arm(ABANDON, self.now + self.abandon_after, (), out)

    def _playing_seat(self, who: Identity, watcher: str) -> int | tuple[str, str]:
        """``who``'s match seat in the match being played, or the refusal (code, message) a
        socket gets otherwise; ``watcher`` says what a watcher may not do."""
        if self.match is None or not self._playing():
            return "no_match", "no match is being played at this table"
        seat = self.match_seat_of(who.id)
        if seat is None:
            return "not_seated", watcher
        return seat

    # -- hints -------------------------------------------------------------------------------

    def hint(self, cmd: c.Hint, out: list[Effect]) -> None:
        """A hint for the asker's own turn, from their own view only (R7.6): counted, then
        worked out off the table's writer (``Advise``). Never at a ranked table, nor where the
        house rules turn hints off; a new position may be asked about at once, the same one
        again after ``HINT_EVERY`` seconds (the expert thinks for each)."""
        who = self.audience.connections.get(cmd.conn)
        if who is None:
            return

        def refuse(code: str, message: str, rule: str | None = None) -> None:
            error = self.audience.error(cmd.conn, code, message, rule)
            out.append(Send(cmd.conn, {**error.message, "about": "hint"}))

        found = self._playing_seat(who, "hints are for the players; watchers get none")
        if isinstance(found, tuple):
            return refuse(*found)
        m, seat = self.match, found
        assert m is not None
        options = m.game_match.options
        if self.game.name not in HINTED_GAMES:
            return refuse("no_hints", f"hints are not available for {self.game.title} yet")
        if self.game.is_ranked(options):
            return refuse(
                "ranked", "no hints at a ranked table: its matches are played unaided", "R7.6"
            )
        if not getattr(options, "hints", True):
            return refuse("hints_off", "this table's house rules turn hints off", "R7.6")
        if m.game_match.current != seat:
            return refuse("not_your_turn", "a hint is for your own turn", "R7.1")
        position = self.audience.position_seq
        last_position, last_time = self.hinted_at.get(who.id, (-1, 0.0))
        if last_position == position and self.now - last_time < HINT_EVERY:
            wait = math.ceil(HINT_EVERY - (self.now - last_time))
            return refuse("rate_limited", f"this position's hint was just given: again in {wait} s")
        self.hinted_at[who.id] = (position, self.now)
        m.hints[seat] += 1
        message = {"type": "hint", "seq": self.seq, "hints_used": m.hints[seat]}
        out.append(Advise(cmd.conn, seat, m.game_match.view(seat), message))

    # -- moves -------------------------------------------------------------------------------

    def act(self, cmd: c.Act, out: list[Effect]) -> None:
        """A player's move from a socket: applied and stored, or refused to its sender only."""
        who = self.audience.connections.get(cmd.conn)
        if who is None:
            return
        key = action_key(who.id, cmd.id)
        if self.audience.applied(who.id, key):
            duplicate = {"type": "ack", "id": cmd.id, "duplicate": True, "seq": self.seq}
            out.append(Send(cmd.conn, duplicate))
            return

        def refuse(code: str, message: str, rule: str | None = None) -> None:
            out.append(self.audience.error(cmd.conn, code, message, rule, cmd.id))

        found = self._playing_seat(who, "spectators cannot play; join a seat first")
        if isinstance(found, tuple):
            return refuse(*found)
        m, seat = self.match, found
        assert m is not None
        try:
            action = self.game.action_from_json(cmd.action)
        except NotationError as error:
            return refuse("bad_action", str(error))
        position = self.audience.position_seq
        if cmd.after is not None and not position <= cmd.after <= self.seq:
            return refuse(
                "stale",
                f"the game has moved on since seq {cmd.after} (position of seq {position}); "
                "look again",
            )
        back = self._end_autopilot(seat)
        pre = [_event("autopilot", seat, on=False)] if back else []
        try:
            self._play(seat, action, out, ack=(who.id, cmd.id), sent_by=key, pre=pre)
        except IllegalMove as error:
            if back:  # the player is back even if the move was refused
                self._tell_table(out)
                self._schedule(out)
            return refuse("illegal", error.message, error.rule)
        self.audience.remember(who.id, key)
        m.timeouts[seat] = 0

    def _play(
        self,
        seat: int,
        action: Any,
        out: list[Effect],
        *,
        ack: tuple[str, str] | None = None,
        sent_by: bytes | None = None,
        pre: list[dict[str, Any]] | None = None,
    ) -> None:
        """Apply, store, then tell. Raises ``IllegalMove`` (nothing changed) when refused.
        ``ack``: (player, action id) of a move from a socket; ``sent_by``: its action key."""
        m = self.match
        assert m is not None
        gm = m.game_match
        round_number = gm.round_number
        events = gm.apply(action, seat=seat)  # the engine refuses here, changing nothing
        m.moves += 1
        told = list(pre or []) + [self.game.event_json(e) for e in events]
        action_json = _action_json(self.game, action)
        rows: list[Row] = [MoveRow(m.id, m.moves, round_number, ACTION, seat, action_json, sent_by)]
        if gm.current is None:  # the round is over
            told.append(self._round_summary())
            if gm.over:
                self.status = "finished"
                winners, scores = list(gm.winners or ()), list(gm.scores)
                told.append(
                    _event(
                        "match_over",
                        winners=winners,
                        scores=scores,
                        match=m.id,
                        hints=list(m.hints),
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
        self.last_step_at = self.now
        timers: list[Effect] = []
        self._schedule(timers)
        self.audience.next_seq()
        changed = self._table_changes()
        if changed:
            rows.append(TableFields(changed))
        out.append(Write(tuple(rows)))
        self._tell_events(told, out, ack)
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
        game_match = self.game.new_match(options, seed, record=False)  # moves: in the database
        match_id = self.new_id()
        seat_json = [match_seat_json(self.seats[s], self.levels) for s in seats]
        self._install(game_match, match_id, seats)
        self.status = "playing"
        self.rematch = None
        self.last_step_at = self.now
        timers: list[Effect] = []
        self._schedule(timers)
        self.audience.next_seq()
        match_row = {
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
        table_fields = {"match_id": match_id, **self._table_changes()}
        out.append(Write((NewMatch(match_row), TableFields(table_fields))))
        teams = game_match.progress().get("teams", False)
        told = [
            _event("match_started", match=match_id, seats=seats, teams=teams),
            _event("round_started", **game_match.round_started()),
            *(self.game.event_json(e) for e in game_match.opening_events),
        ]
        self._tell_events(told, out)
        out.extend(timers)

    def _install(self, game_match: GameMatch, match_id: str, seats: list[int]) -> None:
        self.match = MatchInPlay(
            game_match,
            match_id,
            list(seats),
            timeouts=[0] * len(seats),
            hints=[0] * len(seats),
        )
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
        connected = self.audience.players()
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
        timers = self.timers
        timers.cancel(TURN, out)
        m = self.match
        if m is None or not self._playing() or m.game_match.over:
            timers.cancel(BOT, out)
            return
        gm = m.game_match
        key = self._key()
        if gm.between_rounds:
            timers.cancel(BOT, out)
            if not timers.armed(ROUND):
                timers.arm(ROUND, self.now + self.settings.round_pause, key, out)
            return
        seat = gm.current
        assert seat is not None
        if self._bot_level_for(seat) is not None:
            if self.settings.bot_delay <= 0:  # no pause to show: the bot is asked at once
                timers.cancel(BOT, out)
                if self._asked != key:
                    self._think(key, out)
            elif not timers.armed(BOT, key):
                timers.arm(BOT, self.now + self.settings.bot_delay, key, out)
            return
        timers.cancel(BOT, out)
        seconds = getattr(gm.options, "turn_timer", None)
        if seconds:
            timers.arm(TURN, deadline if deadline is not None else self.now + seconds, key, out)

    def timer_fired(self, cmd: c.TimerFired, out: list[Effect]) -> None:
        if not self.timers.fired(cmd.timer, cmd.key):
            return  # a timer that was re-armed or cancelled meanwhile
        if cmd.timer == ABANDON:
            if not self._people_here():
                self.close(c.CloseTable("abandoned"), out)
        elif cmd.timer == ROUND:
            self._next_round(out)
        elif cmd.timer == BOT:
            self._think(cmd.key, out)
        elif cmd.timer == TURN:
            self._timed_out(cmd.key, out)

    def _timed_out(
        self, key: tuple[Any, ...], out: list[Effect], pre: list[dict[str, Any]] | None = None
    ) -> None:
        """R7.3: the turn ends with no discard; repeated timeouts hand the seat to a bot."""
        m = self.match
        if key != self._key() or m is None or not self._playing():
            return
        seat = m.game_match.current
        if seat is None:
            return
        m.timeouts[seat] += 1
        pre = list(pre or [])
        if (
            m.timeouts[seat] >= self.settings.autopilot_after
            and seat not in m.autopilot
            and self._autopilot_level() is not None
        ):
            m.autopilot.add(seat)
            pre.append(_event("autopilot", seat, on=True))
        self._play(seat, m.game_match.timeout_action(), out, pre=pre)

    def _think(self, key: tuple[Any, ...], out: list[Effect]) -> None:
        """Ask the seat's bot, handing it its own view and a seed that reveals no deal."""
        m = self.match
        if key != self._key() or m is None or not self._playing():
            return
        seat = m.game_match.current
        level = self._bot_level_for(seat) if seat is not None else None
        if seat is None or level is None:
            return
        self._asked = key
        seed = m.bot_seeds.get((seat, level))
        if seed is None:  # one HMAC per seat and level, not per decision
            seed = m.bot_seeds[(seat, level)] = derive_seed(m.game_match.seed, "bot", seat, level)
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
        self._tell_news(cmd.events, out)

    # -- restoring ---------------------------------------------------------------------------

    def restore_match(
        self, row: Mapping[str, Any], moves: list[dict[str, Any]], runtime: Mapping[str, Any] | None
    ) -> list[Effect]:
        """Replay the stored steps through the game: the match is exactly where it was (R7.5)."""
        options = self.game.options_from_json(row["options"])
        steps = [Step(m["kind"], m.get("seat"), m.get("action")) for m in moves]
        game_match = rebuild(self.game, options, row["seed"], steps, record=False)
        seats = [s["table_seat"] for s in row["seats"]]
        self._install(game_match, row["id"], seats)
        assert self.match is not None
        self.match.moves = len(moves)
        # Exactly once, also across restarts: the keys of the actions stored.
        self.audience.remember_stored([m["sent_by"] for m in moves if m.get("sent_by")])
        runtime = runtime or {}
        timeouts = runtime.get("timeouts") or []
        if len(timeouts) == len(seats):
            self.match.timeouts = [int(t) for t in timeouts]
        self.match.autopilot = {
            int(s) for s in runtime.get("autopilot") or [] if 0 <= int(s) < len(seats)
        }
        hints = runtime.get("hints") or []
        if len(hints) == len(seats):
            self.match.hints = [int(h) for h in hints]
        self._stored_fields["runtime"] = dict(runtime)
        self._asked = None
        # Idle since the restart at most: a restored table gives its player a full wait again.
        self.last_step_at = self.now
        out: list[Effect] = []
        if self.status == "playing":
            self._schedule(out, deadline=runtime.get("deadline"))
        return out

    def reload(self, cmd: c.Reload, out: list[Effect]) -> None:
        """After a failed write: the match as stored, and everyone shown that position."""
        runtime = self.runtime_json()
        self._stored_fields.clear()  # not known after a failed write: store them again
        self.timers.cancel_all(out, (TURN, BOT, ROUND))
        self.status = "finished" if cmd.match["status"] == "finished" else "playing"
        out.extend(self.restore_match(cmd.match, cmd.moves, runtime))
        self.audience.position_seq = self.seq  # everyone gets the reloaded position in a sync
        out.extend(self._sync(conn) for conn in self.audience.connections)


def _legal_json(game: Game, actions: list[Any]) -> list[dict[str, Any]]:
    """A seat's legal actions in their JSON form, each made once per process: a game has a
    few hundred actions, and a seat's list is sent with every position. The forms are shared,
    so only encoded, never changed."""
    return [_action_json(game, action) for action in actions]


@functools.lru_cache(maxsize=4096)
def _action_json(game: Game, action: Any) -> dict[str, Any]:
    return game.action_to_json(action)


def _event(kind: str, seat: int | None = None, **detail: Any) -> dict[str, Any]:
    """An event made by the table rather than the engine (match start, round summary...)."""
    return {"kind": kind, "seat": seat, "detail": detail}


def is_listed(table: Mapping[str, Any]) -> bool:
    """Whether the lobby lists a public table (its ``Table`` JSON): waiting or playing, with
    one of its players connected now. Finished tables and tables whose players are all gone
    are not."""
    people = [s for s in table["seats"] if s.get("player")]
    return table["status"] in ("waiting", "playing") and any(s["connected"] for s in people)


def everyone_here(table: Mapping[str, Any], but: str | None = None) -> bool:
    """Whether every seated person (but the one asking) is connected now, and somebody is:
    only such a table matches a newcomer who asks to play with people."""
    people = [s for s in table["seats"] if s.get("player") and s["player"]["id"] != but]
    return bool(people) and all(s["connected"] for s in people)


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
    c.DeclineRematch: TableMaster.decline_rematch,
    c.Evict: TableMaster.evict,
    c.Rename: TableMaster.rename,
    c.CloseTable: TableMaster.close,
    c.Connect: TableMaster.connect,
    c.Disconnect: TableMaster.disconnect,
    c.Resync: TableMaster.resync,
    c.Act: TableMaster.act,
    c.Chat: TableMaster.chat,
    c.Hint: TableMaster.hint,
    c.TimerFired: TableMaster.timer_fired,
    c.BotMoved: TableMaster.bot_moved,
    c.LeagueNews: TableMaster.league_news,
    c.Reload: TableMaster.reload,
}
