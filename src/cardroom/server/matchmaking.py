"""Ranked matchmaking on the server: the queue's sockets, the rounds that match them, and the
tables made for each match (``docs/protocol.md`` section "The ranked queue").

Every process runs rounds over the shared store (Redis when configured, else memory); a match
is claimed atomically by one process, which makes its table through the registry (standard
rules, ranked) and tells every process (``cluster.broadcast``), whose sockets then say where
to go. A ticket lives as long as its socket: closing the socket withdraws it.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from cardroom.bots.calibrated import rating_of
from cardroom.bots.levels import levels_for
from cardroom.cancelling import cancel_and_wait
from cardroom.games import get_game
from cardroom.league import ladder
from cardroom.league.models import BOT_PREFIX, Rating
from cardroom.league.periods import system_clock
from cardroom.matchmaking.matchmaker import Matchmaker
from cardroom.matchmaking.stores import MemoryStore, RedisStore, TicketStore
from cardroom.matchmaking.tickets import MODES, SEATS, Pairing, Ticket
from cardroom.server import metrics
from cardroom.server.auth import Identity
from cardroom.server.connection import Connection
from cardroom.server.protocol import dumps, error_message
from cardroom.tables.errors import Refusal

log = logging.getLogger(__name__)

ROUND_SECONDS = 1.0  # how often waiting tickets are matched (and told how the search goes)
MAX_WAITING = 10_000  # sockets waiting in one process's queue
BOT_WAITS = (None, 15, 30, 60, 120, 300)  # what a player may choose before a bot is offered
MATCHED = "mm_matched"  # the cluster broadcast telling where a match's players go
PARTNER = "mm_partner"  # someone waits for a partner (who may be on another process)
JOINED = "mm_joined"  # two partners hold one ticket now
LEFT = "mm_left"  # a ticket of partners was withdrawn


@dataclass(slots=True)
class Pending:
    """A socket here waiting for its partner to queue naming it back."""

    conn: Connection
    game: str


@dataclass(slots=True)
class Waiter:
    """A socket waiting here, and the ticket it holds (partners: the same ticket twice)."""

    conn: Connection
    ticket: Ticket


def standard_options(mode: str, players: int) -> dict[str, Any]:
    """The ranked rules of a queue: the game's standard rules for the player count."""
    options: dict[str, Any] = {"players": players}
    if mode == "teams":
        options["teams"] = True
    return options


def modes_of(game: str) -> tuple[str, ...]:
    """The queues a game has: teams only where the game has team play."""
    rules = get_game(game)
    out = []
    for mode in MODES:
        fewest, most = SEATS[mode]
        if most > rules.max_players:
            continue
        try:
            checked = rules.options_from_json(standard_options(mode, fewest))
        except (ValueError, TypeError):
            continue
        if rules.is_ranked(checked) and rules.rating_mode(checked) == mode:
            out.append(mode)
    return tuple(out)


class Queue:
    """This process's side of the ranked queue."""

    def __init__(self, app_state: Any, store: TicketStore, clock: Callable[[], float]) -> None:
        self.state = app_state
        self.matchmaker = Matchmaker(store, clock)
        self.waiters: dict[str, list[Waiter]] = {}  # ticket id -> sockets here
        self.partners: dict[tuple[str, str], Pending] = {}  # (who, partner) -> the first here
        self._task: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[Any]] = set()

    # -- life ------------------------------------------------------------------------------------

    def start(self) -> None:
        cluster = self.state.tables.cluster
        cluster.listen(MATCHED, self.heard)
        cluster.listen(PARTNER, lambda m: self._spawn(self._partner_arrived(m)))
        cluster.listen(JOINED, self._partners_joined)
        cluster.listen(LEFT, self._partners_left)
        self._task = asyncio.create_task(self._rounds(), name="matchmaking")

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        for ticket_id, waiting in list(self.waiters.items()):
            await self.matchmaker.withdraw(waiting[0].ticket)
            for w in waiting:
                w.conn.close(1012)
            self.waiters.pop(ticket_id, None)

    async def _rounds(self) -> None:
        while True:
            await asyncio.sleep(ROUND_SECONDS)
            try:
                await self.run_round()
            except Exception:  # a round's failure must not end matchmaking; the next one tries
                log.exception("matchmaking: a round failed")

    async def run_round(self) -> None:
        store = self.matchmaker.store
        await store.keep_alive([w[0].ticket for w in self.waiters.values()])
        done = await self.matchmaker.run_round()
        for pairing in done.matched:
            await self._seat_match(pairing)
        for ticket in done.bots:
            await self._seat_bots(ticket)
        for waiting in self.waiters.values():
            status = self.matchmaker.status(waiting[0].ticket)
            for w in waiting:
                w.conn.send(dumps({"type": "searching", **status}))

    # -- joining and leaving ---------------------------------------------------------------------

    async def rating_of(self, player: str, game: str, mode: str) -> float:
        """The displayed rating the queue matches on (0, a newcomer's, if never rated)."""

        def read(conn: Any) -> float:
            value = conn.scalar(
                select(Rating.ordinal).where(
                    Rating.subject == player, Rating.game == game, Rating.mode == mode
                )
            )
            return float(value or 0.0)

        return await self.state.journal.run(read)

    async def ladder_check(self, people: list[Identity]) -> tuple[str, ...]:
        """The ladder's rules before a ticket is made (docs/league.md, "Ladder rules"):
        ``ranked_locked`` for a guest or an account with too few casual matches; else the
        ticket's marks, so that accounts seen on one address or device are never paired."""
        rules = self.state.settings.ladder()
        if rules is None:
            return ()
        now = getattr(self.state, "league_clock", system_clock)()

        def read(conn: Any) -> tuple[Identity | None, dict[str, Any] | None, tuple[str, ...]]:
            for person in people:
                refused = ladder.refusal(conn, person.id, rules)
                if refused is not None:
                    return person, refused, ()
            return None, None, tuple(sorted(ladder.marks(conn, [p.id for p in people], now, rules)))

        who, refused, marks = await self.state.journal.run(read)
        if refused is not None:
            mine = who is not None and who.id == people[-1].id and len(people) == 1
            whose = "" if mine or who is None else f"{who.name}: "
            raise Refusal(403, refused["code"], whose + refused["message"])
        return marks

    async def join(
        self, conn: Connection, game: str, mode: str, bot_after: float | None, partner: str | None
    ) -> Ticket | None:
        """Queue this socket's player (None while a partner is awaited); refused with a reason."""
        if sum(len(w) for w in self.waiters.values()) >= MAX_WAITING:
            raise Refusal(503, "server_full", "the queue is full here; try again in a moment")
        me = conn.identity
        if partner is not None:
            if mode != "teams":
                raise Refusal(400, "bad_request", "partners queue together for teams only")
            if partner == me.id:
                raise Refusal(400, "bad_request", "your partner is someone else")
            first = self.partners.get((partner, me.id))
            if first is not None and first.game == game:
                del self.partners[(partner, me.id)]
                people = [first.conn.identity, me]
                return await self._enqueue([first.conn, conn], game, mode, None, people)
            self.partners[(me.id, partner)] = Pending(conn, game)
            conn.send(dumps({"type": "partner_wait", "partner": partner}))
            message = {"from": me.id, "name": me.name, "to": partner, "game": game}
            self.state.tables.cluster.broadcast(PARTNER, message)
            return None
        return await self._enqueue([conn], game, mode, bot_after, [me])

    # -- partners on two processes -----------------------------------------------------------

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.create_task(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _partner_arrived(self, message: dict[str, Any]) -> None:
        """Someone (maybe on another process) named a player waiting here as their partner.
        The process of the partner with the smaller id makes their one ticket (so it is made
        once) and tells the other process to wait on it too; the other process answers by
        naming its waiting player again, for the maker to hear."""
        key = (str(message.get("to")), str(message.get("from")))
        first = self.partners.get(key)
        if first is None or first.game != message.get("game") or first.conn.closed:
            return
        me, other = first.conn.identity, Identity(key[1], str(message.get("name") or "?"))
        if me.id > other.id:  # the other's process makes the ticket: it must hear of us
            again = {"from": me.id, "name": me.name, "to": other.id, "game": first.game}
            self.state.tables.cluster.broadcast(PARTNER, again)
            return
        del self.partners[key]
        try:
            ticket = await self._enqueue([first.conn], first.game, "teams", None, [me, other])
        except Refusal as error:
            why = f"your partner cannot queue: {error.message}"
            first.conn.send(error_message(error.code, why))
            return
        self.state.tables.cluster.broadcast(JOINED, {"ticket": ticket.to_json()})
        if first.conn.closed:  # it closed while the ticket was being made
            await self.leave(first.conn)

    def _partners_joined(self, message: dict[str, Any]) -> None:
        """Partners' ticket was made (maybe elsewhere): the one waiting here waits on it."""
        ticket = Ticket.from_json(message["ticket"])
        a, b = ticket.players
        for key in ((a, b), (b, a)):
            pending = self.partners.pop(key, None)
            if pending is None:
                continue
            self.waiters.setdefault(ticket.id, []).append(Waiter(pending.conn, ticket))
            status = self.matchmaker.status(ticket)
            pending.conn.send(
                dumps({"type": "queued", "ticket": ticket.id, "ranked": True, **status})
            )

    def _partners_left(self, message: dict[str, Any]) -> None:
        for w in self.waiters.pop(str(message.get("ticket")), []):
            w.conn.send(dumps({"type": "left", "reason": "your partner left"}))
            w.conn.close(1000)

    async def _enqueue(
        self,
        conns: list[Connection],
        game: str,
        mode: str,
        bot_after: float | None,
        people: list[Identity],
    ) -> Ticket:
        marks = await self.ladder_check(people)
        ratings = [await self.rating_of(p.id, game, mode) for p in people]
        ticket = Ticket(
            id="q_" + secrets.token_hex(6),
            game=game,
            mode=mode,
            players=tuple(p.id for p in people),
            names=tuple(p.name for p in people),
            rating=sum(ratings) / len(ratings),
            since=self.matchmaker.clock(),
            bot_after=None if len(people) > 1 else bot_after,
            marks=marks,
        )
        if not await self.matchmaker.enqueue(ticket):
            raise Refusal(409, "already_queued", "you are in the queue already (another tab?)")
        self.waiters[ticket.id] = [Waiter(c, ticket) for c in conns]
        status = self.matchmaker.status(ticket)
        for c in conns:
            c.send(dumps({"type": "queued", "ticket": ticket.id, "ranked": True, **status}))
        return ticket

    async def leave(self, conn: Connection) -> None:
        """The socket closed or left the queue: its ticket dies (a partner's too)."""
        for key, pending in list(self.partners.items()):
            if pending.conn is conn:
                del self.partners[key]
        for ticket_id, waiting in list(self.waiters.items()):
            if any(w.conn is conn for w in waiting):
                del self.waiters[ticket_id]
                await self.matchmaker.withdraw(waiting[0].ticket)
                for w in waiting:
                    if w.conn is not conn:
                        w.conn.send(dumps({"type": "left", "reason": "your partner left"}))
                        w.conn.close(1000)
                if len(waiting[0].ticket.players) > 1:  # the partner may wait on another process
                    self.state.tables.cluster.broadcast(LEFT, {"ticket": ticket_id})

    # -- matched ---------------------------------------------------------------------------------

    async def _seat_match(self, pairing: Pairing) -> None:
        people = [Identity(p, pairing.name_of(p)) for p in pairing.seats]
        try:
            table_id = await self._table(pairing.game, pairing.mode, people, bot=None)
        except Refusal as error:
            log.error("matchmaking: no table for a match: %s", error.message)
            self._tell({t.id: {"error": _error(error)} for t in pairing.tickets})
            return
        seats = {p.id: i for i, p in enumerate(people)}
        self._tell(
            {
                t.id: {"table": table_id, "seats": seats, "ranked": True, "bot": None}
                for t in pairing.tickets
            }
        )

    async def _seat_bots(self, ticket: Ticket) -> None:
        """A bot of the nearest level for one who waited long enough: casual, and it says so."""
        level = await self.nearest_level(ticket)
        players = SEATS[ticket.mode][0]
        people = [Identity(ticket.players[0], ticket.names[0])]
        try:
            table_id = await self._table(ticket.game, ticket.mode, people, bot=level, seats=players)
        except Refusal as error:
            self._tell({ticket.id: {"error": _error(error)}})
            return
        info = {"table": table_id, "seats": {people[0].id: 0}, "ranked": False, "bot": level}
        self._tell({ticket.id: info})

    async def nearest_level(self, ticket: Ticket) -> str:
        """The bot level whose rating in this mode is nearest the player's: its league rating,
        else its calibrated one."""
        levels = list(levels_for(ticket.game))

        def read(conn: Any) -> dict[str, float]:
            rows = conn.execute(
                select(Rating.subject, Rating.ordinal).where(
                    Rating.subject.in_([BOT_PREFIX + lv for lv in levels]),
                    Rating.game == ticket.game,
                    Rating.mode == ticket.mode,
                )
            )
            return {r.subject[len(BOT_PREFIX) :]: r.ordinal for r in rows}

        calibrated = {lv: rating_of(ticket.game, lv, ticket.mode) for lv in levels}
        rated = {lv: r["ordinal"] for lv, r in calibrated.items() if r is not None}
        rated |= await self.state.journal.run(read)  # how they fared in the league since
        if not rated:
            return levels[len(levels) // 2]
        return min(rated, key=lambda lv: (abs(rated[lv] - ticket.rating), levels.index(lv)))

    async def _table(
        self,
        game: str,
        mode: str,
        people: list[Identity],
        *,
        bot: str | None,
        seats: int | None = None,
    ) -> str:
        tables = self.state.tables
        count = seats or len(people)
        options = standard_options(mode, count)
        owner = people[0]
        actor = await tables.create(
            owner,
            seats=count,
            options=options,
            public=False,
            game=game,
            casual=bot is not None,
        )
        for number, person in enumerate(people):
            await actor.ask(actor.join, person, number)
        if bot is not None:
            await actor.ask(actor.fill_with_bots, owner, bot)
        await actor.ask(actor.start, owner, False)
        return actor.id

    def _tell(self, tickets: dict[str, dict[str, Any]]) -> None:
        self.state.tables.cluster.broadcast(MATCHED, {"tickets": tickets})

    def heard(self, message: dict[str, Any]) -> None:
        """A match was made (here or by another process): its sockets here learn where to go."""
        for ticket_id, where in (message.get("tickets") or {}).items():
            waiting = self.waiters.pop(ticket_id, None)
            if waiting and "error" not in where:
                metrics.queue_waited(self.matchmaker.clock() - waiting[0].ticket.since)
            for w in waiting or []:
                if "error" in where:
                    w.conn.send(error_message(where["error"]["code"], where["error"]["message"]))
                else:
                    seat = where["seats"].get(w.conn.identity.id)
                    w.conn.send(dumps({"type": "matched", **where, "seat": seat}))
                w.conn.close(1000)


def _error(refusal: Refusal) -> dict[str, str]:
    return {"code": refusal.code, "message": refusal.message}


def make_store(settings: Any) -> TicketStore:
    """Redis when configured (several processes share one queue), else memory."""
    if not settings.redis_url:
        return MemoryStore()
    from redis.asyncio import Redis

    return RedisStore(Redis.from_url(settings.redis_url), settings.redis_prefix)
