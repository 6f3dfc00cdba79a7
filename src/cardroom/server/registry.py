"""All the open tables of this process: creating, finding (by id, by private name, for quick
play), restoring them after a restart, and the cap on how many one process hosts.

With several processes (``cluster.py``) a table this process does not run is found through
the cluster, as a ``RemoteTable``; one it may run (a lease) is restored here from the database.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from cardroom.games import get_game
from cardroom.games.base import OptionsError
from cardroom.server.actor import Services, TableActor
from cardroom.server.auth import Identity, clean_name
from cardroom.server.cluster import Cluster, LocalCluster
from cardroom.store import repository as repo
from cardroom.tables.errors import Refusal, bad_options
from cardroom.tables.lobby import check_abandon_after, everyone_here, is_listed
from cardroom.tables.master import SEQ_MARGIN_AFTER_RESTART
from cardroom.tables.seats import SeatState

log = logging.getLogger(__name__)

MAX_TABLE_NAME = 48


def table_name_key(name: str) -> str:
    """Private tables are found by name as people type it: case and spaces don't matter."""
    return " ".join(name.split()).casefold()


class Tables:
    def __init__(self, services: Services, cluster: Cluster | None = None) -> None:
        self.services = services
        self.settings = services.settings
        self.cluster = cluster or LocalCluster()
        self.by_id: dict[str, TableActor] = {}
        self.by_name: dict[str, TableActor] = {}
        self._lock = asyncio.Lock()
        self._adopting: dict[str, asyncio.Future[TableActor | None]] = {}

    # -- lookups ---------------------------------------------------------------------------------

    def get(self, table_id: str) -> TableActor:
        actor = self.by_id.get(table_id)
        if actor is None or actor.closed:
            raise Refusal(404, "not_found", f"no open table {table_id!r}")
        return actor

    async def find(self, table_id: str) -> Any:
        """The table here, or (several processes) the one another process runs."""
        if "\x00" in table_id:  # no id has one, and PostgreSQL could not even look it up
            raise Refusal(404, "not_found", "no open table with that id")
        actor = self.by_id.get(table_id)
        if actor is not None and not actor.closed:
            return actor
        return await self.cluster.locate(table_id)

    def owned_by(self, player_id: str) -> int:
        """Open tables this process runs for ``player_id`` as their owner."""
        return sum(1 for t in self.by_id.values() if t.owner.id == player_id and not t.closed)

    def public(self) -> list[TableActor]:
        return [t for t in self.by_id.values() if t.public and not t.closed]

    async def listing(self) -> list[dict[str, Any]]:
        """The ``info()`` of every public table the lobby lists (``is_listed``: waiting or
        playing, one of its players connected now): this process's and the other processes'."""
        here = [actor.info() for actor in self.public()]
        ids = {info["id"] for info in here}
        everyone = here + [info for info in await self.cluster.listing() if info["id"] not in ids]
        return [info for info in everyone if is_listed(info)]

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
        table_id: str | None = None,
        game: Any = "skip",
        casual: bool = False,
    ) -> TableActor:
        if len(self.by_id) >= self.settings.max_tables:
            raise Refusal(503, "server_full", "this server hosts as many tables as it can")
        cap = self.settings.max_tables_per_player
        if self.owned_by(owner.id) >= cap:
            raise Refusal(
                429,
                "too_many_tables",
                f"you have {cap} open tables already; a table closes once nobody has been "
                "at it for its abandon_after seconds",
            )
        checked = check_options(seats, options, game)
        abandon = (
            check_abandon_after(abandon_after)
            if abandon_after is not None
            else self.settings.abandon_after
        )
        table_id = table_id or new_table_id()
        if not await self.cluster.claim(table_id):
            raise Refusal(409, "conflict", "that table id is taken; try again")
        seat_states = [SeatState(number) for number in range(checked.players)]
        row = {
            "id": table_id,
            "name": name,
            "public": public,
            "game": get_game(game).name,
            "owner_id": owner.id,
            "options": checked.to_json(),
            "abandon_after": abandon,
            "status": "waiting",
            "seq": 0,
            "runtime": {},
            "banned": [],
            "casual": casual,
            "created_at": repo.utcnow(),
        }
        try:
            await self.services.journal.run(
                lambda c: repo.insert_table(c, row, [s.to_row() for s in seat_states])
            )
        except BaseException:
            await self.cluster.release(table_id)
            raise
        actor = TableActor(
            self.services,
            {**row, "owner_name": owner.name, "seats": [s.to_row() for s in seat_states]},
        )
        self._add(actor)
        return actor

    def _add(self, actor: TableActor) -> None:
        self.by_id[actor.id] = actor
        if actor.name is not None and not actor.public:
            self.by_name[table_name_key(actor.name)] = actor
        actor.start_task()
        self.cluster.announce(actor)

    def forget(self, actor: TableActor, released: bool = True) -> None:
        """Called by a table as it closes (``released``: others need not look for it)."""
        if self.by_id.get(actor.id) is actor:
            del self.by_id[actor.id]
        if actor.name is not None and self.by_name.get(table_name_key(actor.name)) is actor:
            del self.by_name[table_name_key(actor.name)]
        if released:
            self.cluster.released(actor)
            if actor.name is not None and not actor.public:
                key, table_id = table_name_key(actor.name), actor.id
                task = asyncio.create_task(self.cluster.forget_name(key, table_id))
                actor._background.add(task)

    def drop(self, actor: TableActor, code: int) -> None:
        """Stop running a table without closing it: another process runs it now (its lease
        lapsed), so this one must not write for it again. Its sockets reconnect (``code``)."""
        self._stop(actor)
        for conn in list(actor.connections):
            conn.close(code)
        self.forget(actor, released=False)

    async def named(
        self, player: Identity, name: Any, seats: Any, options: Any, game: Any = "skip"
    ) -> tuple[TableActor, int | None, bool]:
        """A named private game: the same name reaches the same open table (of whatever game
        its creator chose)."""
        clean = clean_name(name, MAX_TABLE_NAME, "a table name")
        key = table_name_key(clean)
        async with self._lock:
            actor: Any = self.by_name.get(key)
            created = False
            if actor is None or actor.closed:
                actor, created = await self._named_elsewhere_or_new(
                    player, key, clean, seats, options, game
                )
        seat = await self._sit_if_possible(actor, player)
        return actor, seat, created

    async def _named_elsewhere_or_new(
        self, player: Identity, key: str, name: str, seats: Any, options: Any, game: Any
    ) -> tuple[Any, bool]:
        """The table another process opened under this name, or a new one here."""
        for _attempt in range(3):
            table_id = new_table_id()
            holder = await self.cluster.claim_name(key, table_id)
            if holder is None or holder == table_id:
                try:
                    actor = await self.create(
                        player,
                        seats=seats,
                        options=options,
                        public=False,
                        name=name,
                        table_id=table_id,
                        game=game,
                    )
                except BaseException:
                    await self.cluster.forget_name(key, table_id)
                    raise
                return actor, True
            try:
                return await self.find(holder), False
            except Refusal as error:
                if error.status != 404:
                    raise
                await self.cluster.forget_name(key, holder)  # it closed: the name is free
        raise Refusal(503, "unavailable", "that table name is busy; try again")

    async def quickplay(
        self, player: Identity, seats: Any, options: Any, game: Any = "skip"
    ) -> tuple[TableActor, int, bool]:
        """A waiting public table of this game with these house rules and a free seat, whose
        people are all connected now (nobody is paired with someone who has gone), or a new
        one."""
        wanted = check_options(seats, options, game)
        async with self._lock:
            for actor in self.public():
                if actor.status != "waiting" or player.id in actor.banned:
                    continue
                if not everyone_here(actor.info(), but=player.id):
                    continue
                if actor.game != game:
                    continue
                if actor.capacity != wanted.players or actor.options_json != wanted.to_json():
                    continue
                if not any(s.free for s in actor.seats) and actor.seat_of(player.id) is None:
                    continue
                try:
                    seat = await actor.ask(actor.join, player, None)
                except Refusal:
                    continue
                return actor, seat, False
            found = await self._quickplay_elsewhere(player, wanted, game)
            if found is not None:
                return found
            actor = await self.create(player, seats=seats, options=options, public=True, game=game)
        seat = await actor.ask(actor.join, player, None)
        return actor, seat, True

    async def _quickplay_elsewhere(
        self, player: Identity, wanted: Any, game: Any
    ) -> tuple[Any, int, bool] | None:
        """A waiting table another process hosts, from its lobby listing."""
        options = wanted.to_json()
        for info in await self.cluster.listing():
            if info["status"] != "waiting" or len(info["seats"]) != wanted.players:
                continue
            if not everyone_here(info, but=player.id):
                continue
            if info.get("game", "skip") != game:
                continue
            if {**info["options"], "players": wanted.players} != {
                **options,
                "players": wanted.players,
            }:
                continue
            try:
                remote = await self.find(info["id"])
                seat = await remote.ask(remote.join, player, None)
            except Refusal:
                continue
            return remote, seat, False
        return None

    async def _sit_if_possible(self, actor: Any, player: Identity) -> int | None:
        try:
            return await actor.ask(actor.join, player, None)
        except Refusal as error:
            if error.status == 403:
                raise
            return None

    # -- restart ---------------------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back every table that was open, each match exactly where it was (R7.5).

        With several processes, each brings back the tables whose lease it wins."""
        ids = await self.services.journal.run(repo.open_table_ids)
        claimed = [i for i in ids if i not in self.by_id and await self.cluster.claim(i)]
        rows = await self.services.journal.run(lambda c: repo.take_over(c, claimed))
        for row in rows:
            self._revive(row)
        return len(rows)

    def _revive(self, row: dict[str, Any]) -> TableActor:
        row = {**row, "seq": int(row.get("seq") or 0) + SEQ_MARGIN_AFTER_RESTART}
        actor = TableActor(self.services, row)
        match = row.get("match")
        try:
            if match is not None and match["status"] in ("playing", "finished"):
                actor.restore_match(match, match["moves"], row.get("runtime"))
        except Exception:
            log.exception("table %s: its match does not replay; closing it", row["id"])
            actor.master.match = None
            actor.master.status = "waiting"
        self._add(actor)
        return actor

    async def adopt(self, table_id: str) -> TableActor | None:
        """Take over an open table nobody runs (its process died): claim its lease, then
        restore it from the database as a restart does. None if another process won it."""
        pending = self._adopting.get(table_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[TableActor | None] = asyncio.get_running_loop().create_future()
        self._adopting[table_id] = future
        try:
            actor = await self._adopt(table_id)
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: waiters get it, nobody else must
            raise
        else:
            future.set_result(actor)
            return actor
        finally:
            del self._adopting[table_id]

    async def _adopt(self, table_id: str) -> TableActor | None:
        if not await self.cluster.claim(table_id):
            return None
        rows = await self.services.journal.run(lambda c: repo.take_over(c, [table_id]))
        if not rows:
            await self.cluster.release(table_id)
            raise Refusal(404, "not_found", f"no open table {table_id!r}")
        return self._revive(rows[0])

    async def adopted(self, table_id: str) -> TableActor | None:
        """The table this process is taking over right now, once restored."""
        pending = self._adopting.get(table_id)
        return await asyncio.shield(pending) if pending is not None else None

    async def close_all(self) -> None:
        for actor in list(self.by_id.values()):
            self._stop(actor)

    @staticmethod
    def _stop(actor: TableActor) -> None:
        actor.stop()


def new_table_id() -> str:
    return "t_" + secrets.token_hex(5)


def check_options(seats: Any, options: Any, game: Any = "skip") -> Any:
    """A table's house rules with its seat count as ``players``, checked by its game."""
    try:
        rules = get_game(game)
    except LookupError as error:
        raise Refusal(400, "bad_request", str(error)) from None
    data = dict(options or {}) if isinstance(options, dict) or options is None else None
    if data is None:
        raise Refusal(400, "bad_options", "options must be a JSON object")
    if seats is None:
        seats = data.get("players", 2)
    low, high = rules.min_players, rules.max_players
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise Refusal(400, "bad_request", f"seats is a number from {low} to {high}")
    data["players"] = seats
    try:
        return rules.options_from_json(data)
    except (OptionsError, TypeError) as error:
        raise bad_options(error) from None
