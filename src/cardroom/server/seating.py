"""Seats and settings at a table: joining, leaving, bots, house rules, start, skip, evict.

Part of the table actor (``table.py``): these run inside the table's task when the lobby asks,
so two people reaching for the same seat are served one after the other.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.games.skip import TIMEOUT, IllegalMove, OptionsError
from cardroom.server.auth import Identity
from cardroom.server.bots import level_bot_name
from cardroom.server.errors import ApiError, bad_options, rule_of
from cardroom.server.protocol import table_event
from cardroom.store import repository as repo

if TYPE_CHECKING:
    from cardroom.server.table import TableActor

MIN_ABANDON = 5.0
MAX_ABANDON = 7 * 24 * 3600.0


class SeatCommands:
    """Mixed into ``TableActor``: the lobby half of a table."""

    def _playing(self: TableActor) -> bool:
        return self.status == "playing"

    async def _save_seats(self: TableActor) -> None:
        rows = self.seat_rows()
        await self.write(lambda c: repo.replace_seats(c, self.id, rows))
        self.broadcast_table()

    async def join(self: TableActor, identity: Identity, number: int | None) -> int:
        """Sit down, or come back to your own seat (R2.4). Returns the table seat."""
        if identity.id in self.banned:
            raise ApiError(403, "forbidden", "the owner has evicted you from this table")
        mine = self.seat_of(identity.id)
        if mine is not None:
            if number is not None and number != mine.number:
                raise ApiError(409, "conflict", f"you already sit at seat {mine.number}")
            if mine.away:
                mine.away = False
                if self.match is not None:
                    seat = self.match_seat_of(identity.id)
                    if seat is not None:
                        self.end_autopilot(seat)
                    self.schedule()
                await self._save_seats()
            return mine.number
        if self._playing():
            raise ApiError(
                409,
                "conflict",
                "a match is under way: seats empty at its start stay empty (R2.4); watch instead",
                "R2.4",
            )
        seat = self._free_seat(number)
        seat.player_id, seat.player_name, seat.away = identity.id, identity.name, False
        await self._save_seats()
        return seat.number

    def _free_seat(self: TableActor, number: int | None) -> Any:
        if number is None:
            for seat in self.seats:
                if seat.free:
                    return seat
            raise ApiError(409, "conflict", "every seat at this table is taken")
        if isinstance(number, bool) or not isinstance(number, int):
            raise ApiError(400, "bad_request", "a seat is a number")
        if not 0 <= number < self.capacity:
            raise ApiError(400, "bad_request", f"seats are numbered 0 to {self.capacity - 1}")
        seat = self.seats[number]
        if not seat.free:
            raise ApiError(409, "conflict", f"seat {number} is taken")
        return seat

    async def leave(self: TableActor, identity: Identity) -> None:
        """Before a match the seat is freed; during one it waits for you (R2.4)."""
        seat = self.seat_of(identity.id)
        if seat is None:
            raise ApiError(409, "conflict", "you have no seat at this table")
        if self._playing() and self.match_seat_of(identity.id) is not None:
            seat.away = True
            self.schedule()  # a bot plays the seat while you are away
        else:
            seat.player_id = seat.player_name = None
            seat.away = False
        await self._save_seats()

    def _may_seat_bots(self: TableActor, level: Any) -> None:
        """Bots of a known level, and only between matches (R2.4)."""
        if self._playing():
            raise ApiError(409, "conflict", "bots join between matches, not during one (R2.4)")
        try:
            level_bot_name(level)
        except (ValueError, TypeError) as error:
            raise ApiError(400, "bad_request", str(error)) from None

    async def add_bot(self: TableActor, identity: Identity, number: int | None, level: Any) -> int:
        if identity.id != self.owner.id and self.seat_of(identity.id) is None:
            raise ApiError(403, "forbidden", "only the owner or a seated player may add bots")
        self._may_seat_bots(level)
        seat = self._free_seat(number)
        seat.bot_level = level
        await self._save_seats()
        return seat.number

    async def fill_with_bots(self: TableActor, identity: Identity, level: Any) -> None:
        """Every free seat gets a bot of ``level``, stored in one write (quick play vs bots)."""
        if identity.id != self.owner.id:
            raise ApiError(403, "forbidden", "only the owner may fill a table with bots")
        self._may_seat_bots(level)
        for seat in self.seats:
            if seat.free:
                seat.bot_level = level
        await self._save_seats()

    async def rename_player(self: TableActor, identity: Identity) -> None:
        """A player changed their display name: their seat (and ownership) show the new one.

        Seats are held by player id, so nothing moves; only the shown name changes. The name
        is already stored with the player, so only the table's description is told again.
        """
        changed = False
        for seat in self.seats:
            if seat.player_id == identity.id and seat.player_name != identity.name:
                seat.player_name = identity.name
                changed = True
        if self.owner.id == identity.id and self.owner.name != identity.name:
            self.owner = identity
            changed = True
        for conn in self.connections:
            if conn.player_id == identity.id:
                conn.identity = identity
        if changed and not self.closed:
            self.broadcast_table()

    async def clear_seat(self: TableActor, identity: Identity, number: int) -> None:
        self.require_owner(identity)
        if self._playing():
            raise ApiError(409, "conflict", "seats change between matches; evict a player instead")
        if not 0 <= number < self.capacity:
            raise ApiError(404, "not_found", f"no seat {number} at this table")
        seat = self.seats[number]
        seat.player_id = seat.player_name = seat.bot_level = None
        seat.away = False
        await self._save_seats()

    async def configure(
        self: TableActor, identity: Identity, options: Any, abandon_after: Any
    ) -> None:
        """The owner's settings: house rules (with the turn timer) and the abandoned timeout."""
        self.require_owner(identity)
        fields: dict[str, Any] = {}
        if options is not None:
            if self._playing():
                raise ApiError(409, "conflict", "house rules change between matches")
            if not isinstance(options, dict):
                raise ApiError(400, "bad_options", "options must be a JSON object")
            changes = {k: v for k, v in options.items() if k != "players"}
            try:
                checked = self.options_for(self.capacity, changes)
            except (OptionsError, TypeError) as error:
                raise bad_options(error) from None
            self.options_json = checked.to_json()
            fields["options"] = self.options_json
        if abandon_after is not None:
            self.abandon_after = check_abandon_after(abandon_after)
            fields["abandon_after"] = self.abandon_after
            if self.abandon_timer.active:
                self.abandon_timer.cancel()
                self._watch_people()
        if fields:
            await self.write(lambda c: repo.update_table(c, self.id, **fields))
            self.broadcast_table()

    async def start(self: TableActor, identity: Identity, rematch: bool = False) -> None:
        """Any seated player starts a match with the occupied seats (the table's start button)."""
        seat = self.seat_of(identity.id)
        if seat is None:
            raise ApiError(403, "forbidden", "only a seated player may start the match")
        if self._playing():
            raise ApiError(409, "conflict", "a match is already under way")
        if rematch and self.status != "finished":
            raise ApiError(409, "conflict", "a rematch follows a finished match")
        occupied = [s.number for s in self.seats if not s.free]
        try:
            options = self.options_for(len(occupied))
        except OptionsError as error:
            raise ApiError(409, "illegal", str(error), rule_of(str(error))) from None
        await self.begin_match(options, occupied)
        self.broadcast_table()

    async def skip(self: TableActor, identity: Identity) -> None:
        """The owner skips the player to move (the owner's player menu): a timeout, R7.3."""
        self.require_owner(identity)
        if self.match is None or not self._playing() or self.match.between_rounds:
            raise ApiError(409, "conflict", "nobody is to play right now")
        seat = self.match.state.current
        try:
            await self.play(seat, TIMEOUT, pre=[table_event("skipped", seat, by=identity.id)])
        except IllegalMove as error:
            raise ApiError(409, "illegal", error.message, error.rule) from None

    async def evict(self: TableActor, identity: Identity, number: Any) -> None:
        """The owner removes a player; during a match a bot plays the seat from now on."""
        self.require_owner(identity)
        if isinstance(number, bool) or not isinstance(number, int):
            raise ApiError(400, "bad_request", "say which seat to evict")
        if not 0 <= number < self.capacity or self.seats[number].player_id is None:
            raise ApiError(404, "not_found", f"nobody sits at seat {number}")
        seat = self.seats[number]
        if seat.player_id == self.owner.id:
            raise ApiError(409, "conflict", "the owner cannot evict themselves; leave instead")
        evicted = seat.player_id
        assert evicted is not None
        self.banned.add(evicted)
        match_seat = self.match_seat_of(evicted)
        seat.player_id = seat.player_name = None
        seat.away = False
        if self.match is not None:
            self._index_players()
            if match_seat is not None and self._playing():
                self.autopilot.add(match_seat)
                self.schedule()
        banned = sorted(self.banned)
        rows = self.seat_rows()
        await self.write(
            lambda c: repo.replace_seats(c, self.id, rows),
            lambda c: repo.update_table(c, self.id, banned=banned),
        )
        self.broadcast_table()


def check_abandon_after(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ApiError(400, "bad_request", "abandon_after is a number of seconds")
    if not MIN_ABANDON <= value <= MAX_ABANDON:
        raise ApiError(
            400, "bad_request", f"abandon_after is {MIN_ABANDON:.0f} to {MAX_ABANDON:.0f} seconds"
        )
    return float(value)
