"""A table's actor: one asyncio task with an inbox, feeding the table master and carrying out
its effects. The rules of the table live in ``tables/master.py``; this is the I/O around it.

Everything that changes a table (a lobby call, a socket's action, a timer, a bot's move, the
league's news) is a command in the inbox, run one at a time to the end, so the master has one
writer and needs no lock. Effects run in order: a ``Write`` is committed before the messages
after it are sent, so a move is stored before anyone hears of it; if the write fails, the rest
is dropped and the master reloads its match from the last stored move.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection as DbConnection

from cardroom.bots.hints import hint_json
from cardroom.bots.levels import Level
from cardroom.server import metrics
from cardroom.server.auth import Identity
from cardroom.server.bots import BotRunner
from cardroom.server.logs import table_id
from cardroom.server.protocol import ActionRequest
from cardroom.server.settings import Settings
from cardroom.server.timers import Clock
from cardroom.store import repository as repo
from cardroom.store.journal import Fence, Journal, StaleWriter, Step
from cardroom.tables import commands as c
from cardroom.tables.effects import (
    Advise,
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
from cardroom.tables.errors import Refusal
from cardroom.tables.master import TableMaster
from cardroom.tables.settings import TableSettings
from cardroom.tables.wire import text_of

log = logging.getLogger(__name__)

RECONNECT = 1012  # close code: reconnect, the table is elsewhere now (docs/protocol.md)
MOVED = "this table is moving to another server process; try again in a moment"

_conn_ids = itertools.count(1)

MAX_CHAINED_REPLIES = 16  # bot moves told with one command (a bot turn, usually); more wait in line


@dataclass(slots=True)
class Services:
    """What every table's actor shares: settings, table time, the writer, bots, the league."""

    settings: Settings
    clock: Clock
    journal: Journal
    bots: BotRunner
    on_close: Callable[[TableActor], None]
    league: Callable[[str], Awaitable[list[dict[str, Any]]]] | None = None
    on_stale: Callable[[TableActor], None] = lambda actor: actor.stop()
    """A table whose write was fenced out: the registry drops it (sockets reconnect)."""


def table_settings(settings: Settings) -> TableSettings:
    return TableSettings(
        bot_delay=settings.bot_delay,
        round_pause=settings.round_pause,
        autopilot_after=settings.autopilot_after,
        forfeit_after=settings.forfeit_after,
        autopilot_level=settings.autopilot_level,
        history=settings.history,
        history_bytes=settings.history_bytes,
        max_sockets=settings.max_sockets_per_table,
        max_sockets_per_player=settings.max_sockets_per_player,
        claim_offline_after=settings.claim_offline_after,
        claim_idle_after=settings.claim_idle_after,
    )


class TableActor:
    """One table's master, its inbox, its sockets, its timers and the task that runs them."""

    def __init__(self, services: Services, row: dict[str, Any]) -> None:
        self.services = services
        self.clock = services.clock
        self.master = TableMaster(
            {**row, "created_at": repo.iso(row.get("created_at"))},
            table_settings(services.settings),
            new_id=lambda: "m_" + secrets.token_hex(8),
            new_seed=lambda: secrets.token_hex(8),
        )
        self.id = self.master.id
        self.sockets: dict[str, Any] = {}  # connection id -> Connection (or RemoteConnection)
        self._conn_ids: dict[Any, str] = {}  # Connection -> connection id, until it is gone
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.inbox: asyncio.Queue[tuple[Any, tuple[Any, ...], asyncio.Future[Any] | None]] = (
            asyncio.Queue()
        )
        self.closed = False
        self.epoch = int(row.get("epoch") or 0)  # this process's hold on the table (Fence)
        self.task: asyncio.Task[None] | None = None
        self._current: asyncio.Future[Any] | None = None  # the answer being worked out
        self._background: set[asyncio.Task[Any]] = set()

    # -- what the lobby reads ----------------------------------------------------------------

    @property
    def name(self) -> str | None:
        return self.master.name

    @property
    def public(self) -> bool:
        return self.master.public

    @property
    def status(self) -> str:
        return self.master.status

    @property
    def game(self) -> str:
        return self.master.game.name

    @property
    def owner(self) -> Identity:
        return self.master.owner

    @property
    def banned(self) -> set[str]:
        return self.master.banned

    @property
    def seats(self) -> list[Any]:
        return self.master.seats

    @property
    def capacity(self) -> int:
        return self.master.capacity

    @property
    def options_json(self) -> dict[str, Any]:
        return self.master.options_json

    @property
    def connections(self) -> list[Any]:
        return list(self.sockets.values())

    def info(self) -> dict[str, Any]:
        return self.master.info()

    def seat_of(self, player_id: str) -> Any:
        return self.master.seat_of(player_id)

    # -- the inbox ---------------------------------------------------------------------------

    def start_task(self) -> None:
        self.task = asyncio.create_task(self._run(), name=f"table-{self.id}")
        self.tell(self._started)

    async def _started(self) -> None:
        await self._execute(self.master.started(self.clock.now()))

    async def ask(self, command: Callable[..., Awaitable[Any]], *args: Any) -> Any:
        """Run ``command`` inside the table and wait for its answer (or its Refusal)."""
        if self.closed:
            raise Refusal(404, "not_found", "this table is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.inbox.put_nowait((command, args, future))
        return await future

    def tell(self, command: Callable[..., Awaitable[Any]], *args: Any) -> None:
        """Queue ``command`` without waiting; its errors are logged."""
        if not self.closed:
            self.inbox.put_nowait((command, args, None))

    async def _run(self) -> None:
        table_id.set(self.id)  # this task's log lines name the table (logs.py)
        while not self.closed:
            await self._obey(*await self.inbox.get())
        while not self.inbox.empty():
            _command, _args, future = self.inbox.get_nowait()
            if future is not None and not future.done():
                future.set_exception(Refusal(404, "not_found", "this table is closed"))

    async def _obey(
        self,
        command: Callable[..., Awaitable[Any]],
        args: tuple[Any, ...],
        future: asyncio.Future[Any] | None,
    ) -> None:
        """One command from the inbox. Its arguments live in this frame only: an idle table
        holding its last command's would keep a departed socket (its transport, buffers and
        request) alive until the next one."""
        self._current = future
        try:
            result = await command(*args)
        except Exception as error:
            if future is not None and not future.done():
                future.set_exception(error)
            elif not isinstance(error, Refusal):
                log.exception("table %s: %s failed", self.id, command.__name__)
        else:
            if future is not None and not future.done():
                future.set_result(result)
        finally:
            self._current = None

    async def run(self, command: c.Command) -> Any:
        """Hand ``command`` to the master (inside the task) and carry out its effects."""
        now = self.clock.now()
        effects, answer = self.master.handle(command, now)
        await self._execute(self._with_quick_replies(effects, now))
        return answer

    def _with_quick_replies(self, effects: list[Effect], now: float) -> list[Effect]:
        """The moves of quick bots that follow at once (no bot delay) join the command's
        effects: their rows go into its write, their messages after its own, in order. A
        bot's reply then costs no trip through the inbox and no write of its own; the
        messages are the same, and none is sent before every move in them is stored."""
        bots = self.services.bots
        for _ in range(MAX_CHAINED_REPLIES):
            thinks = [e for e in effects if isinstance(e, Think)]
            if len(thinks) != 1:
                return effects
            think = thinks[0]
            level = self.master.levels[think.level]
            if not bots.thinks_inline(level):
                return effects
            rest = [e for e in effects if e is not think]
            action = self._decide_now(think, level)
            if action is None:
                return rest
            try:
                more, _ = self.master.handle(c.BotMoved(think.key, think.seat, action), now)
            except Exception:  # as if it had been a command of its own: the moves before stand
                log.exception(
                    "table %s: the move of the bot at seat %s failed", self.id, think.seat
                )
                return rest
            effects = _one_write(rest, more)
        return effects

    def _decide_now(self, think: Think, level: Level) -> Any | None:
        """A quick bot's decision, made at once; None (logged) if the bot failed."""
        try:
            return self.services.bots.decide_now(level, think.seed, think.view)
        except Exception:
            log.exception("table %s: bot at seat %s failed", self.id, think.seat)
            return None

    # -- the lobby's commands (``ask``-ed by the lobby and by other processes) -----------------

    async def join(self, identity: Identity, number: int | None) -> int:
        return await self.run(c.Join(identity, number))

    async def leave(self, identity: Identity) -> None:
        await self.run(c.Leave(identity))

    async def add_bot(self, identity: Identity, number: int | None, level: Any) -> int:
        return await self.run(c.AddBot(identity, number, level))

    async def fill_with_bots(self, identity: Identity, level: Any) -> None:
        await self.run(c.FillWithBots(identity, level))

    async def clear_seat(self, identity: Identity, number: int) -> None:
        await self.run(c.ClearSeat(identity, number))

    async def configure(self, identity: Identity, options: Any, abandon_after: Any) -> None:
        await self.run(c.Configure(identity, options, abandon_after))

    async def start(self, identity: Identity, rematch: bool = False) -> None:
        await self.run(c.Start(identity, rematch))

    async def skip(self, identity: Identity) -> None:
        await self.run(c.SkipTurn(identity))

    async def decline_rematch(self, identity: Identity) -> None:
        await self.run(c.DeclineRematch(identity))

    async def evict(self, identity: Identity, number: Any) -> None:
        await self.run(c.Evict(identity, number))

    async def rename_player(self, identity: Identity) -> None:
        await self.run(c.Rename(identity))

    async def close_table(self, reason: str) -> None:
        await self.run(c.CloseTable(reason))

    async def chat_lines(self, identity: Identity) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = await self.run(c.ChatLines(identity))
        return result

    async def close_by_moderator(self, identity: Identity, reason: str) -> None:
        await self.run(c.CloseByModerator(identity, reason))

    # -- sockets -----------------------------------------------------------------------------

    async def connect(self, conn: Any, since: int | None) -> None:
        if self.closed:
            raise Refusal(404, "not_found", "this table is closed")
        key = self._conn_ids.get(conn)
        if key is None:
            key = self._conn_ids[conn] = f"c{next(_conn_ids)}"
        self.sockets[key] = conn
        try:
            await self.run(c.Connect(key, conn.identity, since, conn.batch))
        except Refusal as refusal:
            metrics.refused(refusal.code)
            self.sockets.pop(key, None)
            self._conn_ids.pop(conn, None)
            raise

    async def disconnect(self, conn: Any) -> None:
        key = self._conn_ids.pop(conn, None)
        if key is None:
            return
        self.sockets.pop(key, None)
        if not self.closed:
            await self.run(c.Disconnect(key))

    async def resync(self, conn: Any) -> None:
        key = self._conn_ids.get(conn)
        if key is not None:
            await self.run(c.Resync(key))

    async def handle_action(self, conn: Any, request: ActionRequest) -> None:
        key = self._conn_ids.get(conn)
        if key is not None:
            await self.run(c.Act(key, request.id, request.action, request.after))

    async def hint(self, conn: Any) -> None:
        key = self._conn_ids.get(conn)
        if key is not None:
            await self.run(c.Hint(key))

    async def ready(self, conn: Any) -> None:
        key = self._conn_ids.get(conn)
        if key is not None:
            await self.run(c.Ready(key))

    async def chat(self, conn: Any, text: str) -> None:
        key = self._conn_ids.get(conn)
        if key is not None:
            await self.run(c.Chat(key, text))

    # -- carrying out effects ----------------------------------------------------------------

    async def _execute(self, effects: list[Effect]) -> None:
        effects = self.master.deliver(effects)
        texts: dict[int, str] = {}
        for effect in effects:
            if isinstance(effect, Send):
                conn = self.sockets.get(effect.conn)
                if conn is not None:
                    text = texts.get(id(effect.message))
                    if text is None:
                        text = texts[id(effect.message)] = text_of(effect.message)
                        if type(effect.message) is dict and effect.message["type"] == "error":
                            metrics.refused(effect.message["code"])
                    conn.send(text)
            elif isinstance(effect, Write):
                fence = Fence(self.id, self.epoch, self.master.seq)
                steps = [fence, *(_step(self.id, r) for r in effect.rows)]
                if effect.wait:
                    await self._commit_or_reload(steps)
                    metrics.moved(self.game, effect.rows)
                else:
                    self._background_task(self._write_later(steps))
            elif isinstance(effect, ArmTimer):
                self._arm(effect)
            elif isinstance(effect, CancelTimer):
                handle = self.timers.pop(effect.name, None)
                if handle is not None:
                    handle.cancel()
            elif isinstance(effect, Think):
                self._think(effect)
            elif isinstance(effect, Advise):
                self._advise(effect)
            elif isinstance(effect, MatchFinished):
                self._background_task(self._count(effect.match_id))
            elif isinstance(effect, CloseSocket):
                conn = self.sockets.get(effect.conn)
                if conn is not None:
                    conn.close(effect.code)
            elif isinstance(effect, TableClosed):
                self.closed = True
                self.services.on_close(self)

    async def _commit_or_reload(self, steps: list[Step]) -> None:
        try:
            await self.services.journal.write(steps)
        except StaleWriter:
            self._lost()
            raise Refusal(503, "moved", MOVED) from None
        except Exception:
            log.exception("table %s: a write failed; reloading the match", self.id)
            await self._reload()
            raise

    async def _write_later(self, steps: list[Step]) -> None:
        try:
            await self.services.journal.write(steps)
        except StaleWriter:
            self._lost()

    def _lost(self) -> None:
        """Another process took the table over (the fence refused our write): stop here at
        once, without a further write; sockets reconnect to the new owner."""
        log.warning("table %s: another process owns it now; stopping it here", self.id)
        self.services.on_stale(self)

    async def _reload(self) -> None:
        m = self.master.match
        if m is None:
            return
        match_id = m.id

        def load(conn: DbConnection) -> tuple[Any, Any]:
            return repo.get_match(conn, match_id), repo.match_moves(conn, match_id)

        row, moves = await self.services.journal.run(load)
        effects, _ = self.master.handle(c.Reload(row, moves), self.clock.now())
        await self._execute(effects)

    def _arm(self, effect: ArmTimer) -> None:
        old = self.timers.pop(effect.name, None)
        if old is not None:
            old.cancel()
        fired = c.TimerFired(effect.name, effect.key)
        self.timers[effect.name] = self.clock.call_later(
            effect.at - self.clock.now(), lambda: self.tell(self.run, fired)
        )

    def _think(self, effect: Think) -> None:
        """A bot decides (a quick one at once, a slow one off the loop); its move comes back
        through the inbox."""
        level = self.master.levels[effect.level]
        if self.services.bots.thinks_inline(level):  # quick: no task, its move goes in line
            action = self._decide_now(effect, level)
            if action is not None:
                self.tell(self.run, c.BotMoved(effect.key, effect.seat, action))
            return

        async def decide() -> None:
            try:
                action = await self.services.bots.choose(level, effect.seed, effect.view)
            except Exception:
                log.exception("table %s: bot at seat %s failed", self.id, effect.seat)
                return
            if action is not None:
                self.tell(self.run, c.BotMoved(effect.key, effect.seat, action))

        self._background_task(decide())

    def _advise(self, effect: Advise) -> None:
        """The expert works out a hint on a thread, off the loop; it goes to the asker only."""

        async def advise() -> None:
            loop = asyncio.get_running_loop()
            try:
                hint = await loop.run_in_executor(None, hint_json, effect.view)
            except Exception:
                log.exception("table %s: no hint for seat %s", self.id, effect.seat)
                hint = {"error": "the hint could not be worked out"}
            conn = self.sockets.get(effect.conn)
            if conn is not None:
                conn.send(text_of({**effect.message, **hint}))

        self._background_task(advise())

    async def _count(self, match_id: str) -> None:
        """The league's work for a finished match, after its final move is committed."""
        if self.services.league is None:
            return
        try:
            events = await self.services.league(match_id)
        except Exception:
            log.exception(
                "table %s: the league could not count match %s",
                self.id,
                match_id,
                extra={"match": match_id},
            )
            return
        if events:
            self.tell(self.run, c.LeagueNews(match_id, events))

    def _background_task(self, coroutine: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coroutine)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- restoring and stopping --------------------------------------------------------------

    def restore_match(
        self, row: dict[str, Any], moves: list[dict[str, Any]], runtime: dict[str, Any] | None
    ) -> None:
        """Replay the stored log through the game; timers are armed once the task runs."""
        self.master.now = self.clock.now()
        effects = self.master.restore_match(row, moves, runtime)
        self.tell(self._execute, effects)

    def stop(self) -> None:
        """Stop running the table without closing it (shutdown, or another process owns it).
        Calls still waiting for an answer get one: the table moved, try again."""
        self.closed = True
        if self.task is not None and self.task is not asyncio.current_task():
            self.task.cancel()
        for handle in self.timers.values():
            handle.cancel()
        self.timers.clear()
        for task in list(self._background):
            if task is not asyncio.current_task():
                task.cancel()
        # The answers still awaited; a command told (not asked) waits for none.
        waiting: list[asyncio.Future[Any] | None] = (
            [self._current] if self._current is not None else []
        )
        while not self.inbox.empty():
            waiting.append(self.inbox.get_nowait()[2])
        for future in waiting:
            if future is not None and not future.done():
                future.set_exception(Refusal(503, "moved", MOVED))


def _one_write(first: list[Effect], then: list[Effect]) -> list[Effect]:
    """``first`` and ``then`` run one after the other, with every waited-for write of both
    made one, where the first of them was: rows are only ever stored earlier than before."""
    rows: list[Row] = []
    merged: list[Effect] = []
    at: int | None = None
    for effect in (*first, *then):
        if isinstance(effect, Write) and effect.wait:
            rows.extend(effect.rows)
            if at is None:
                at = len(merged)
                merged.append(effect)
        else:
            merged.append(effect)
    if at is not None:
        merged[at] = Write(tuple(rows))
    return merged


def _step(table_id: str, row: Row) -> Step:
    """A row the master asked for, as a journal step."""
    if isinstance(row, MoveRow):
        return repo.move_row(
            row.match_id, row.number, row.round, row.kind, row.seat, row.action, row.sent_by
        )
    if isinstance(row, TableFields):
        fields = dict(row.fields)
        if row.closing:
            fields["closed_at"] = repo.utcnow()
        return repo.table_update(table_id, **fields)
    if isinstance(row, SeatRows):
        rows = row.rows
        return lambda conn: repo.replace_seats(conn, table_id, rows)
    if isinstance(row, NewMatch):
        match = row.row
        return lambda conn: repo.insert_match(conn, match)
    if isinstance(row, MatchFields):
        fields = dict(row.fields)
        if row.finished:
            fields["finished_at"] = repo.utcnow()
        match_id = row.match_id
        return lambda conn: repo.update_match(conn, match_id, **fields)
    raise TypeError(f"not a row: {row!r}")
