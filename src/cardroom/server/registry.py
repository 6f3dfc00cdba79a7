"""All the open tables of this process: creating, finding (by id, by private name, for quick
play), restoring them after a restart, and the cap on how many one process hosts."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from cardroom.games.skip import Options, OptionsError
from cardroom.server.auth import Identity
from cardroom.server.errors import ApiError, bad_options
from cardroom.server.seating import check_abandon_after
from cardroom.server.seats import SeatState
from cardroom.server.table import SEQ_MARGIN_AFTER_RESTART, Services, TableActor
from cardroom.store import repository as repo

log = logging.getLogger(__name__)

MAX_TABLE_NAME = 48


def table_name_key(name: str) -> str:
    """Private tables are found by name as people type it: case and spaces don't matter."""
    return " ".join(name.split()).casefold()


class Tables:
    def __init__(self, services: Services) -> None:
        self.services = services
        self.settings = services.settings
        self.by_id: dict[str, TableActor] = {}
        self.by_name: dict[str, TableActor] = {}
        self._lock = asyncio.Lock()

    # -- lookups ---------------------------------------------------------------------------------

    def get(self, table_id: str) -> TableActor:
        actor = self.by_id.get(table_id)
        if actor is None or actor.closed:
            raise ApiError(404, "not_found", f"no open table {table_id!r}")
        return actor

    def public(self) -> list[TableActor]:
        return [t for t in self.by_id.values() if t.public and not t.closed]

    # -- creating ------------------------------------------------------------------------------

    async def create(
        self,
        owner: Identity,
        *,
        seats: Any,
        options: Any,
        public: bool,
        name: str | None = None,
        abandon_after: Any = None,
    ) -> TableActor:
        if len(self.by_id) >= self.settings.max_tables:
            raise ApiError(503, "server_full", "this server hosts as many tables as it can")
        checked = check_options(seats, options)
        abandon = (
            check_abandon_after(abandon_after)
            if abandon_after is not None
            else self.settings.abandon_after
        )
        table_id = "t_" + secrets.token_hex(5)
        seat_states = [SeatState(number) for number in range(checked.players)]
        row = {
            "id": table_id,
            "name": name,
            "public": public,
            "game": "skip",
            "owner_id": owner.id,
            "options": checked.to_json(),
            "abandon_after": abandon,
            "status": "waiting",
            "seq": 0,
            "runtime": {},
            "banned": [],
            "created_at": repo.utcnow(),
        }
        await self.services.journal.run(
            lambda c: repo.insert_table(c, row, [s.to_row() for s in seat_states])
        )
        actor = TableActor(self.services, {**row, "owner_name": owner.name, "seats": []})
        actor.seats = seat_states
        self._add(actor)
        return actor

    def _add(self, actor: TableActor) -> None:
        self.by_id[actor.id] = actor
        if actor.name is not None and not actor.public:
            self.by_name[table_name_key(actor.name)] = actor
        actor.start_task()

    def forget(self, actor: TableActor) -> None:
        """Called by a table as it closes."""
        self.by_id.pop(actor.id, None)
        if actor.name is not None and self.by_name.get(table_name_key(actor.name)) is actor:
            del self.by_name[table_name_key(actor.name)]

    async def named(
        self, player: Identity, name: Any, seats: Any, options: Any
    ) -> tuple[TableActor, int | None, bool]:
        """SKIPoid's named private game: the same name reaches the same open table."""
        if not isinstance(name, str) or not 1 <= len(" ".join(name.split())) <= MAX_TABLE_NAME:
            raise ApiError(400, "bad_request", f"a table name has 1 to {MAX_TABLE_NAME} characters")
        clean = " ".join(name.split())
        async with self._lock:
            actor = self.by_name.get(table_name_key(clean))
            created = actor is None or actor.closed
            if created:
                actor = await self.create(
                    player, seats=seats, options=options, public=False, name=clean
                )
        assert actor is not None
        seat = await self._sit_if_possible(actor, player)
        return actor, seat, created

    async def quickplay(
        self, player: Identity, seats: Any, options: Any
    ) -> tuple[TableActor, int, bool]:
        """A waiting public table with these house rules and a free seat, or a new one."""
        wanted = check_options(seats, options)
        async with self._lock:
            for actor in self.public():
                if actor.status != "waiting" or player.id in actor.banned:
                    continue
                if actor.capacity != wanted.players or actor.options_json != wanted.to_json():
                    continue
                if not any(s.free for s in actor.seats) and actor.seat_of(player.id) is None:
                    continue
                try:
                    seat = await actor.ask(actor.join, player, None)
                except ApiError:
                    continue
                return actor, seat, False
            actor = await self.create(player, seats=seats, options=options, public=True)
        seat = await actor.ask(actor.join, player, None)
        return actor, seat, True

    async def _sit_if_possible(self, actor: TableActor, player: Identity) -> int | None:
        try:
            return await actor.ask(actor.join, player, None)
        except ApiError as error:
            if error.status == 403:
                raise
            return None

    # -- restart ---------------------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back every table that was open, each match exactly where it was (R7.5)."""
        rows = await self.services.journal.run(repo.open_tables)
        for row in rows:
            row = {**row, "seq": int(row.get("seq") or 0) + SEQ_MARGIN_AFTER_RESTART}
            actor = TableActor(self.services, row)
            match = row.get("match")
            try:
                if match is not None and match["status"] in ("playing", "finished"):
                    actor.restore_match(match, match["moves"], row.get("runtime"))
            except Exception:
                log.exception("table %s: its match does not replay; closing it", row["id"])
                actor.match = None
                actor.status = "waiting"
            self._add(actor)
        return len(rows)

    async def close_all(self) -> None:
        for actor in list(self.by_id.values()):
            actor.closed = True
            if actor.task is not None:
                actor.task.cancel()
            for timer in (
                actor.turn_timer,
                actor.bot_timer,
                actor.round_timer,
                actor.abandon_timer,
            ):
                timer.cancel()
            for task in list(actor._background):
                task.cancel()


def check_options(seats: Any, options: Any) -> Options:
    """A table's house rules with its seat count (1-8) as ``players``."""
    data = dict(options or {}) if isinstance(options, dict) or options is None else None
    if data is None:
        raise ApiError(400, "bad_options", "options must be a JSON object")
    if seats is None:
        seats = data.get("players", 2)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise ApiError(400, "bad_request", "seats is a number from 1 to 8")
    data["players"] = seats
    try:
        return Options.from_json(data)
    except (OptionsError, TypeError) as error:
        raise bad_options(error) from None
