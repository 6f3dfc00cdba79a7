"""The match at a table: moves through the engine, stored before told, timers, bots, rounds.

Part of the table actor (``table.py``); every method here runs inside the table's task. The
stored move log (actions, plus ``next_round`` and ``solo`` between rounds) is all it takes to
rebuild the match after a restart (R7.5), since the engine is deterministic.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING, Any

from cardroom.games.skip import (
    TIMEOUT,
    Action,
    IllegalMove,
    Match,
    Options,
    SeatView,
    action_from_json,
    action_to_json,
    view,
)
from cardroom.league import on_match_finished
from cardroom.server.protocol import dumps, event_json, table_event
from cardroom.server.seats import match_seat_json
from cardroom.store import repository as repo

if TYPE_CHECKING:
    from cardroom.server.table import TableActor

log = logging.getLogger(__name__)


class MatchFlow:
    """Mixed into ``TableActor``: the match half of a table."""

    def __init__(self) -> None:
        self.match: Match | None = None
        self.match_id: str | None = None
        self.match_seats: list[int] = []  # table seat of each match seat
        self.move_number = 0  # stored move rows of the current match
        self.timeouts: list[int] = []  # timeouts in a row, per match seat (R7.3)
        self.autopilot: set[int] = set()  # match seats a bot plays for now
        self.bots: dict[int, tuple[Any, str, str, str]] = {}  # seat -> (bot, level, name, seed)
        self._player_seats: dict[str, int] = {}
        self._bot_key: tuple[Any, ...] | None = None

    # -- who plays where -------------------------------------------------------------------------

    def match_seat_of(self: TableActor, player_id: str) -> int | None:
        return self._player_seats.get(player_id)

    def _index_players(self: TableActor) -> None:
        self._player_seats = {}
        for match_seat, table_seat in enumerate(self.match_seats):
            player = self.seats[table_seat].player_id
            if player is not None:
                self._player_seats[player] = match_seat

    def legal_json(self, seat_view: SeatView) -> list[dict[str, Any]]:
        return [action_to_json(a) for a in seat_view.legal_actions()]

    def end_autopilot(self: TableActor, seat: int) -> bool:
        """The player is back: their seat is theirs again (R7.3)."""
        self.timeouts[seat] = 0
        if seat in self.autopilot and self.seats[self.match_seats[seat]].player_id is not None:
            self.autopilot.discard(seat)
            return True
        return False

    def _bot_level_for(self: TableActor, seat: int) -> str | None:
        table_seat = self.seats[self.match_seats[seat]]
        if table_seat.bot_level is not None:
            return table_seat.bot_level
        if seat in self.autopilot or table_seat.away or table_seat.player_id is None:
            return self.settings.autopilot_level
        return None

    def runtime_json(self: TableActor) -> dict[str, Any]:
        return {
            "timeouts": list(self.timeouts),
            "autopilot": sorted(self.autopilot),
            "deadline": self.turn_timer.deadline,
        }

    # -- starting ----------------------------------------------------------------------------------

    async def begin_match(self: TableActor, options: Options, seats: list[int]) -> None:
        seed = secrets.token_hex(8)
        match = Match(options, seed)
        match_id = self.new_match_id()
        seat_json = [match_seat_json(self.seats[s]) for s in seats]
        self._install(match, match_id, seats)
        self.status = "playing"
        self.schedule()
        self.seq += 1
        seq, runtime = self.seq, self.runtime_json()
        await self.write(
            lambda c: repo.insert_match(
                c,
                {
                    "id": match_id,
                    "table_id": self.id,
                    "options": options.to_json(),
                    "seed": seed,
                    "seats": seat_json,
                    "status": "playing",
                    "scores": list(match.scores),
                    "rounds": 1,
                },
            ),
            lambda c: repo.update_table(
                c, self.id, status="playing", match_id=match_id, seq=seq, runtime=runtime
            ),
        )
        self.broadcast_events(
            [
                table_event("match_started", match=match_id, seats=seats, teams=match.team_mode),
                self._round_started(),
            ]
        )

    def _install(self: TableActor, match: Match, match_id: str, seats: list[int]) -> None:
        self.match, self.match_id, self.match_seats = match, match_id, list(seats)
        self.move_number = 0
        self.timeouts = [0] * len(seats)
        self.autopilot = set()
        self.bots = {}
        self._bot_key = None
        self._index_players()

    def _round_started(self: TableActor) -> dict[str, Any]:
        assert self.match is not None
        state = self.match.state
        return table_event(
            "round_started",
            round=self.match.round_number,
            dealer=state.dealer,
            teams=state.partners is not None,
        )

    # -- moves -----------------------------------------------------------------------------------

    async def play(
        self: TableActor,
        seat: int,
        action: Action,
        *,
        ack: tuple[str, str] | None = None,
        pre: list[dict[str, Any]] | None = None,
    ) -> None:
        """Apply, store, then tell. Raises ``IllegalMove`` (nothing changed) when refused."""
        match = self.match
        assert match is not None and self.match_id is not None
        round_number = match.round_number
        events = match.apply(action, seat=seat)  # the engine refuses here, changing nothing
        self.move_number += 1
        out = list(pre or []) + [event_json(e) for e in events]
        ended = match.state.result is not None
        if ended:
            out.append(self._round_summary())
            if match.over:
                self.status = "finished"
                out.append(
                    table_event(
                        "match_over",
                        winners=list(match.winners or ()),
                        scores=list(match.scores),
                        match=self.match_id,
                    )
                )
        self.schedule()
        self.seq += 1
        match_id, number, seq = self.match_id, self.move_number, self.seq
        action_json, runtime, status = action_to_json(action), self.runtime_json(), self.status
        operations: list[Any] = [
            repo.move_row(match_id, number, round_number, "action", seat, action_json),
            repo.table_update(self.id, seq=seq, runtime=runtime, status=status),
        ]
        if ended:
            fields = self._match_fields()
            operations.append(lambda c: repo.update_match(c, match_id, **fields))
            if match.over:  # league: ratings, statistics, achievements (announced in ``out``)
                mark = len(out)

                def announce(c: Any) -> None:
                    out[mark:] = on_match_finished(c, match_id)

                operations.append(announce)
        await self._commit_or_reload(operations)
        self.broadcast_events(out, *(ack or (None, None)))

    def _match_fields(self: TableActor) -> dict[str, Any]:
        assert self.match is not None
        fields: dict[str, Any] = {
            "scores": list(self.match.scores),
            "rounds": self.match.round_number,
        }
        if self.match.over:
            fields.update(
                status="finished",
                winners=list(self.match.winners or ()),
                finished_at=repo.utcnow(),
            )
        return fields

    def _round_summary(self: TableActor) -> dict[str, Any]:
        assert self.match is not None
        result = self.match.state.result
        return table_event(
            "round_summary",
            round=self.match.round_number,
            result=result.to_json() if result else None,
            scores=list(self.match.scores),
            next_round_in=None if self.match.over else self.settings.round_pause,
        )

    async def _commit_or_reload(self: TableActor, operations: list[Any]) -> None:
        try:
            await self.write(*operations)
        except Exception:
            log.exception("table %s: a move could not be stored; reloading the match", self.id)
            await self.reload_match()
            raise

    # -- what happens next: timers, bots, the next round ----------------------------------------

    def _key(self: TableActor) -> tuple[Any, ...]:
        return (self.match_id, self.move_number)

    def schedule(self: TableActor, deadline: float | None = None) -> None:
        """Arm what the new position needs: a bot's move, the turn timer, or the next deal."""
        self.turn_timer.cancel()
        match = self.match
        if match is None or self.status != "playing" or match.over or self.closed:
            self.bot_timer.cancel()
            return
        if match.between_rounds:
            if not self.round_timer.active:
                self.round_timer.start(
                    self.settings.round_pause, lambda: self.tell(self.next_round)
                )
            return
        seat = match.state.current
        key = self._key()
        level = self._bot_level_for(seat)
        if level is not None:
            if self._bot_key != key or not self.bot_timer.active:
                self._bot_key = key
                self.bot_timer.start(self.settings.bot_delay, lambda: self._think(key, seat))
            return
        self.bot_timer.cancel()
        self._bot_key = None
        seconds = match.options.turn_timer
        if seconds:
            callback = lambda: self.tell(self.on_timeout, key)  # noqa: E731
            if deadline is not None:
                self.turn_timer.start_at(deadline, callback)
            else:
                self.turn_timer.start(seconds, callback)

    async def on_timeout(self: TableActor, key: tuple[Any, ...]) -> None:
        """R7.3: the turn ends with no discard; repeated timeouts hand the seat to a bot."""
        if key != self._key() or self.match is None or self.status != "playing":
            return
        seat = self.match.state.current
        self.timeouts[seat] += 1
        pre: list[dict[str, Any]] = []
        if self.timeouts[seat] >= self.settings.autopilot_after and seat not in self.autopilot:
            self.autopilot.add(seat)
            pre.append(table_event("autopilot", seat, on=True))
        await self.play(seat, TIMEOUT, pre=pre)

    def _think(self: TableActor, key: tuple[Any, ...], seat: int) -> None:
        """Start a bot's decision off the loop; its move comes back through the inbox."""
        if key != self._key() or self.match is None or self.closed:
            return
        level = self._bot_level_for(seat)
        if level is None:
            return
        entry = self.bots.get(seat)
        if entry is None or entry[1] != level:
            seed = f"{self.match.seed}/{seat}"
            bot, name = self.new_bot(level, seed)
            entry = self.bots[seat] = (bot, level, name, seed)
        bot, _level, name, seed = entry
        seat_view = view(self.match.state, seat)

        async def decide() -> None:
            try:
                action = await self.services.bots.choose(bot, name, seed, seat_view)
            except Exception:
                log.exception("table %s: bot at seat %s failed", self.id, seat)
                return
            if action is not None:
                self.tell(self.on_bot_move, key, seat, action)

        task = asyncio.create_task(decide())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def on_bot_move(
        self: TableActor, key: tuple[Any, ...], seat: int, action: Action
    ) -> None:
        if key != self._key() or self.match is None or self.status != "playing":
            return
        self._bot_key = None
        try:
            await self.play(seat, action)
        except IllegalMove as error:
            log.error(
                "table %s: bot at seat %s chose an illegal %s: %s", self.id, seat, action, error
            )
            await self.play(seat, TIMEOUT)

    async def next_round(self: TableActor) -> None:
        """Deal the next round; teams fall back to solo if a partner has gone (R2.5)."""
        match = self.match
        if match is None or not match.between_rounds or self.status != "playing":
            return
        self.round_timer.cancel()
        out: list[dict[str, Any]] = []
        operations: list[Any] = []
        match_id, round_number = self.match_id, match.round_number + 1
        if match.team_mode and self._partner_gone():
            match.fall_back_to_solo()
            self.move_number += 1
            number = self.move_number
            operations.append(
                lambda c, n=number: repo.insert_move(
                    c, match_id, n, round_number, "solo", None, None
                )
            )
            out.append(table_event("solo", reason="a team player has left (R2.5)"))
        match.next_round()
        self.move_number += 1
        number = self.move_number
        operations.append(
            lambda c, n=number: repo.insert_move(
                c, match_id, n, round_number, "next_round", None, None
            )
        )
        out.append(self._round_started())
        self.schedule()
        self.seq += 1
        seq, runtime = self.seq, self.runtime_json()
        operations.append(lambda c: repo.update_table(c, self.id, seq=seq, runtime=runtime))
        operations.append(lambda c: repo.update_match(c, match_id, rounds=round_number))
        await self._commit_or_reload(operations)
        self.broadcast_events(out)

    def _partner_gone(self: TableActor) -> bool:
        connected = self.connected_players()
        for table_seat in self.match_seats:
            seat = self.seats[table_seat]
            if seat.bot_level is not None:
                continue
            if seat.player_id is None or seat.away or seat.player_id not in connected:
                return True
        return False

    # -- rebuilding after a restart ------------------------------------------------------------

    def restore_match(
        self: TableActor,
        row: dict[str, Any],
        moves: list[dict[str, Any]],
        runtime: dict[str, Any] | None,
    ) -> None:
        """Replay the stored log through the engine: the match is exactly where it was."""
        match = rebuild(row, moves)
        seats = [s["table_seat"] for s in row["seats"]]
        self._install(match, row["id"], seats)
        self.move_number = len(moves)
        runtime = runtime or {}
        timeouts = runtime.get("timeouts") or []
        if len(timeouts) == len(seats):
            self.timeouts = [int(t) for t in timeouts]
        self.autopilot = {
            int(s) for s in runtime.get("autopilot") or [] if 0 <= int(s) < len(seats)
        }
        if self.status == "playing":
            self.schedule(deadline=runtime.get("deadline"))

    async def reload_match(self: TableActor) -> None:
        match_id = self.match_id
        if match_id is None:
            return

        def load(c: Any) -> tuple[Any, Any]:
            return repo.get_match(c, match_id), repo.match_moves(c, match_id)

        row, moves = await self.services.journal.run(load)
        self.status = "finished" if row["status"] == "finished" else "playing"
        self.restore_match(row, moves, self.runtime_json())
        self.position_seq = self.seq  # everyone gets the reloaded position in a sync
        for conn in list(self.connections):
            conn.send(self.sync_text(conn))

    def sync_text(self: TableActor, conn: Any) -> str:
        return dumps(self.sync_message(self.match_seat_of(conn.player_id)))


def rebuild(row: dict[str, Any], moves: list[dict[str, Any]], fingerprints: bool = False) -> Match:
    """A match from its stored options, seed and move log, through the engine (R7.5)."""
    match = Match(Options.from_json(row["options"]), row["seed"], fingerprints=fingerprints)
    for move in moves:
        if move["kind"] == "solo":
            match.fall_back_to_solo()
        elif move["kind"] == "next_round":
            match.next_round()
        else:
            match.apply(action_from_json(move["action"], allow_timeout=True), seat=move["seat"])
    return match
