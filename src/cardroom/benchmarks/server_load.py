"""Server load: N two-seat tables, each a scripted client on a real socket against a greedy bot.

Run: ``cardroom bench server`` (or ``python -m cardroom.benchmarks.server_load``). The server
runs as ``cardroom serve`` in its own process (SQLite under a temporary folder); the load
clients run in another process, so the two share the machine's cores as a real deployment's
would not.

Measured twice, with people thinking (``--think`` seconds between moves, as at a real table)
and flat out (no thinking): client moves acknowledged per second, and the latency from sending
a move to receiving its acknowledgement (the event with ``ack``: applied, stored, broadcast).
The same figures for a bare WebSocket echo on the same stack (uvicorn + Starlette, same
flags) give the ratio. Goal: 500 tables, p99 < 100 ms, >= 30% of the echo's rate.

The flat-out run is measured again on a second server with metrics off (``CARDROOM_METRICS=0``:
every emission a no-op): the server CPU per move told with metrics on and off gives their cost
(goal: at most 5%).

With ``--churn N`` (default 40), a third run has people thinking while N watchers a second
come and go: each opens a random table's socket through its invitation, reads the ``sync`` and
closes. Sockets that end are garbage the server must free without pausing the tables, so the
moves' p99 and worst latency there, beside the plain thinking run's, show what churn costs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import platform
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from cardroom.benchmarks.load_plan import OPTIONS, choose, greedy_level
from cardroom.benchmarks.processes import cpu_seconds, free_port, rss_bytes, start, stop

WARMUP = 2.0
"""Seconds of load before a measurement starts, at most: a fifth of a shorter measurement."""


def warmup_for(seconds: float) -> float:
    """The warm-up before a measurement of ``seconds``: 2 s for the default 10 s runs, less for
    the short runs of the tests (whose figures nobody reads)."""
    return min(WARMUP, seconds / 5)


@dataclass
class Result:
    what: str
    tables: int
    think: float
    seconds: float
    moves: int = 0  # the clients' own moves, acknowledged
    events: int = 0  # every move told to the clients (theirs and the bots'); echo: replies
    errors: int = 0
    latencies: list[float] = field(default_factory=list)
    cpu: float = float("nan")  # the server process's CPU seconds over the measured window
    watches: int = 0  # watchers' visits (socket opened, sync read, closed), with churn
    watch_errors: int = 0
    watch_latencies: list[float] = field(default_factory=list)  # from connecting to the sync

    @property
    def cpu_per_event(self) -> float:
        """Server CPU seconds per move told (echo: per message answered)."""
        return self.cpu / self.events if self.events else float("nan")

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def event_rate(self) -> float:
        return self.events / self.seconds if self.seconds else 0.0

    def percentile(self, p: float) -> float:
        """Move latency in ms (``p`` 100: the worst)."""
        return _percentile(self.latencies, p)

    def watch_percentile(self, p: float) -> float:
        """A watcher's wait for its sync in ms."""
        return _percentile(self.watch_latencies, p)


def _percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] * 1000


# -- the echo ----------------------------------------------------------------------------------


def echo_app() -> Any:
    """The baseline: a WebSocket that sends every message back, on the server's own stack."""
    app = FastAPI()

    @app.websocket("/echo")
    async def echo(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            while True:
                await websocket.send_text(await websocket.receive_text())
        except WebSocketDisconnect:
            pass

    return app


# -- setting up tables ---------------------------------------------------------------------------


Target = tuple[str, str, str | None]  # a table's player token, its id, its invitation code


async def make_tables(url: str, count: int) -> list[Target]:
    level = greedy_level()
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:

        async def one(i: int) -> Target:
            player = (await http.post("/api/players", json={"name": f"load{i}"})).json()
            headers = {"Authorization": f"Bearer {player['token']}"}
            body = {"seats": 2, "options": OPTIONS, "abandon_after": 3600}
            table = (await http.post("/api/tables", json=body, headers=headers)).json()["table"]
            await http.post(
                f"/api/tables/{table['id']}/bots", json={"level": level}, headers=headers
            )
            await http.post(f"/api/tables/{table['id']}/start", headers=headers)
            return player["token"], table["id"], table.get("invite")

        return list(await asyncio.gather(*(one(i) for i in range(count))))


async def make_watchers(url: str, count: int) -> list[str]:
    """Tokens of ``count`` players who only ever watch (with churn)."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as http:
        made = [await http.post("/api/players", json={"name": f"watch{i}"}) for i in range(count)]
    return [response.json()["token"] for response in made]


# -- load clients (in their own process) ---------------------------------------------------------


async def table_client(
    ws_url: str,
    http_url: str,
    token: str,
    table: str,
    think: float,
    measure_from: float,
    stop_at: float,
    out: Result,
) -> None:
    rng = random.Random(table)
    run_id = f"{os.getpid()}-{time.monotonic_ns()}"
    async with websockets.connect(f"{ws_url}/ws/tables/{table}", max_size=None) as ws:
        # A program's socket: what one move tells it (its move and the bot's replies) comes
        # as one frame, its view and legal list in the last event only (docs/protocol.md §4).
        await ws.send(json.dumps({"type": "hello", "token": token, "batch": True}))
        pending: str | None = None
        sent_at = 0.0
        number = 0
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(stop_at - time.monotonic(), 0.001))
            except TimeoutError:
                return
            now = time.monotonic()
            frame = json.loads(raw)
            messages = frame["messages"] if frame["type"] == "batch" else [frame]
            legal = None
            for message in messages:
                if message["type"] == "event" and measure_from <= now <= stop_at:
                    out.events += 1
                if pending is not None and (
                    message.get("ack") == pending or message.get("id") == pending
                ):
                    if message["type"] == "event" and sent_at >= measure_from and now <= stop_at:
                        out.latencies.append(now - sent_at)
                        out.moves += 1
                    elif message["type"] == "error":
                        out.errors += 1
                    pending = None
                if any(e["kind"] == "match_over" for e in message.get("events", ())):
                    async with httpx.AsyncClient(base_url=http_url) as http:
                        await http.post(
                            f"/api/tables/{table}/rematch",
                            headers={"Authorization": f"Bearer {token}"},
                        )
                if "legal" in message or message.get("view") is not None:
                    legal = message.get("legal")
            if now >= stop_at:
                return
            if pending is None and legal:
                if think:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                number += 1
                pending = f"{run_id}-{number}"  # ids are unique per player, across runs
                sent_at = time.monotonic()
                await ws.send(
                    json.dumps({"type": "action", "id": pending, "action": choose(legal, rng)})
                )


async def echo_client(
    ws_url: str, seed: int, think: float, measure_from: float, stop_at: float, out: Result
) -> None:
    rng = random.Random(seed)
    payload = json.dumps({"type": "action", "id": "m1", "action": {"type": "pass"}})
    async with websockets.connect(f"{ws_url}/echo", max_size=None) as ws:
        while time.monotonic() < stop_at:
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            sent_at = time.monotonic()
            await ws.send(payload)
            json.loads(await ws.recv())
            now = time.monotonic()
            if sent_at >= measure_from and now <= stop_at:
                out.latencies.append(now - sent_at)
                out.moves += 1
                out.events += 1


async def watchers(
    ws_url: str,
    targets: list[Target],
    tokens: list[str],
    rate: float,
    measure_from: float,
    stop_at: float,
    out: Result,
) -> None:
    """``rate`` visits a second, evenly spaced: a watcher opens a random table's socket
    through its invitation, reads the ``sync`` and closes it."""
    rng = random.Random(7)

    async def visit(table: str, invite: str | None, token: str) -> None:
        started = time.monotonic()
        query = f"?invite={invite}" if invite else ""
        try:
            async with websockets.connect(f"{ws_url}/ws/tables/{table}{query}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message["type"] == "sync":
                        break
                    if message["type"] == "error":
                        raise RuntimeError(message["message"])
        except Exception:
            out.watch_errors += 1
            return
        now = time.monotonic()
        if started >= measure_from and now <= stop_at:
            out.watch_latencies.append(now - started)
            out.watches += 1

    visits: set[asyncio.Task[None]] = set()
    next_at = time.monotonic()
    while next_at < stop_at:
        await asyncio.sleep(max(0.0, next_at - time.monotonic()))
        _, table, invite = rng.choice(targets)
        task = asyncio.create_task(visit(table, invite, rng.choice(tokens)))
        visits.add(task)
        task.add_done_callback(visits.discard)
        next_at += 1 / rate
    await asyncio.gather(*visits)


def run_clients(job: dict[str, Any]) -> Result:
    """One load process: every client of one measurement."""
    result = Result(job["what"], len(job["targets"]), job["think"], job["seconds"])

    async def main() -> None:
        measure_from = time.monotonic() + warmup_for(job["seconds"])
        stop_at = measure_from + job["seconds"]
        if job["kind"] == "echo":
            clients = [
                echo_client(job["ws_url"], i, job["think"], measure_from, stop_at, result)
                for i in range(len(job["targets"]))
            ]
        else:
            clients = [
                table_client(
                    job["ws_url"],
                    job["http_url"],
                    token,
                    table,
                    job["think"],
                    measure_from,
                    stop_at,
                    result,
                )
                for token, table, _ in job["targets"]
            ]
            if job.get("churn"):
                clients.append(
                    watchers(
                        job["ws_url"],
                        job["targets"],
                        job["watchers"],
                        job["churn"],
                        measure_from,
                        stop_at,
                        result,
                    )
                )
        outcomes = await asyncio.gather(*clients, return_exceptions=True)
        failures = [o for o in outcomes if isinstance(o, BaseException)]
        if failures:
            result.errors += len(failures)
            print(
                f"{job['what']}: {len(failures)} client(s) failed: {failures[0]!r}", file=sys.stderr
            )

    asyncio.run(main())
    return result


def measure(
    pool: Any,
    kind: str,
    what: str,
    base: str,
    targets: list,
    think: float,
    seconds: float,
    pid: int,
    churn: float = 0.0,
    watcher_tokens: list[str] | None = None,
) -> Result:
    """One measurement, with the server's CPU time over the measured window (after warm-up)."""
    job = {
        "churn": churn,
        "watchers": watcher_tokens or [],
        "kind": kind,
        "what": what,
        "ws_url": base.replace("http://", "ws://"),
        "http_url": base,
        "targets": targets,
        "think": think,
        "seconds": seconds,
    }
    pending = pool.apply_async(run_clients, (job,))
    time.sleep(warmup_for(seconds) + 0.2)  # the clients' clocks start with their connections
    before = cpu_seconds(pid)
    time.sleep(seconds)
    spent = cpu_seconds(pid) - before
    result: Result = pending.get()
    result.cpu = spent
    return result


# -- the run ---------------------------------------------------------------------------------------


@dataclass
class Memory:
    """The server's resident memory, empty and after each measurement, and its move log."""

    tables: int
    empty: int = 0
    busy: list[int] = field(default_factory=list)
    moves: int = 0
    move_bytes: int = 0

    def per_table(self, rss: int) -> float:
        return (rss - self.empty) / self.tables

    @property
    def per_move(self) -> float:
        return self.move_bytes / self.moves if self.moves else float("nan")


def _ratio(a: float, b: float) -> float:
    """a / b, NaN when b is nothing (a run too short to measure)."""
    return a / b if b else float("nan")


def stored_moves(path: Path) -> tuple[int, int]:
    """How many moves the database holds, and the bytes their table and indexes take."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as db:
        (count,) = db.execute("SELECT count(*) FROM moves").fetchone()
        (size,) = db.execute(
            "SELECT coalesce(sum(pgsize), 0) FROM dbstat WHERE name = 'moves' OR name IN "
            "(SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'moves')"
        ).fetchone()
    return count, size


METRICS_OFF = "server, flat out, metrics off"
WATCHERS = 20  # players who come and go with churn (a few sockets each at most at once)


def run(
    tables: int = 500, seconds: float = 10.0, think: float = 1.0, churn: float = 0.0
) -> tuple[list[Result], Memory]:
    results: list[Result] = []
    memory = Memory(tables)
    context = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as workdir, context.Pool(1) as pool:
        env = {
            "CARDROOM_BOT_DELAY": "0",
            "CARDROOM_ROUND_PAUSE": "0.2",
            "CARDROOM_RATE": "100000",
            "CARDROOM_RATE_BURST": "100000",
            "CARDROOM_MAX_TABLES": str(tables * 4),
            # Every load player comes from this one address, all within seconds.
            "CARDROOM_PLAYERS_ADDRESS_BURST": str(tables * 4 + WATCHERS),
            "CARDROOM_CREATE_ADDRESS_BURST": str(tables * 4),
            "CARDROOM_LOG_LEVEL": "warning",
        }

        def settings(db: str, port: int, **more: str) -> dict[str, str]:
            return {
                "CARDROOM_DB_URL": f"sqlite:///{workdir}/{db}",
                "CARDROOM_PORT": str(port),
                **env,
                **more,
            }

        port = free_port()
        cardroom = [str(Path(sys.executable).parent / "cardroom"), "serve"]
        server = start(cardroom, port, settings("load.db", port), workdir)
        base = f"http://127.0.0.1:{port}"
        try:
            memory.empty = rss_bytes(server.pid)
            targets = asyncio.run(make_tables(base, tables))
            for label, pause in ((f"thinking {think:g} s", think), ("flat out", 0.0)):
                results.append(
                    measure(
                        pool, "table", f"server, {label}", base, targets, pause, seconds, server.pid
                    )
                )
                memory.busy.append(rss_bytes(server.pid))
            if churn:
                tokens = asyncio.run(make_watchers(base, WATCHERS))
                label = f"server, thinking {think:g} s, {churn:g} watchers/s"
                results.append(
                    measure(
                        pool,
                        "table",
                        label,
                        base,
                        targets,
                        think,
                        seconds,
                        server.pid,
                        churn,
                        tokens,
                    )
                )
                memory.busy.append(rss_bytes(server.pid))
        finally:
            stop(server)
        memory.moves, memory.move_bytes = stored_moves(Path(workdir) / "load.db")
        port = free_port()  # the flat-out run again, on a server whose metrics are off
        quiet = start(cardroom, port, settings("off.db", port, CARDROOM_METRICS="0"), workdir)
        base = f"http://127.0.0.1:{port}"
        try:
            off_targets = asyncio.run(make_tables(base, tables))
            results.append(
                measure(
                    pool,
                    "table",
                    METRICS_OFF,
                    base,
                    off_targets,
                    0.0,
                    seconds,
                    quiet.pid,
                )
            )
        finally:
            stop(quiet)
        port = free_port()
        echo = start(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "--factory",
                "cardroom.benchmarks.server_load:echo_app",
                "--port",
                str(port),
                "--log-level",
                "warning",
                "--ws-max-size",
                "65536",
            ],
            port,
            {},
            workdir,
        )
        base = f"http://127.0.0.1:{port}"
        try:
            for label, pause in ((f"thinking {think:g} s", think), ("flat out", 0.0)):
                results.append(
                    measure(
                        pool, "echo", f"bare echo, {label}", base, targets, pause, seconds, echo.pid
                    )
                )
        finally:
            stop(echo)
    return results, memory


def main(tables: int = 500, seconds: float = 10.0, think: float = 1.0, churn: float = 40.0) -> None:
    from rich.console import Console
    from rich.table import Table

    from cardroom.benchmarks import table_memory

    in_process = table_memory.run(min(tables, 20))
    results, memory = run(tables, seconds, think, churn)
    table = Table(
        title=(
            f"cardroom bench server — {tables} two-seat tables (client + greedy bot), "
            f"{seconds:g} s each, Python {platform.python_version()}, {os.cpu_count()} cores"
        ),
        caption=(
            f"command: cardroom bench server --tables {tables} --seconds {seconds:g} "
            f"--think {think:g} --churn {churn:g}   goals (200 and 500 tables): "
            "thinking, p99 < 50 ms; flat out, client moves >= 35% of the echo's"
        ),
    )
    columns = (
        "measured",
        "own moves/s",
        "all moves/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "errors",
    )
    for column in columns:
        table.add_column(column, justify="left" if column == "measured" else "right")
    for r in results:
        table.add_row(
            r.what,
            f"{r.rate:,.0f}",
            f"{r.event_rate:,.0f}",
            f"{r.percentile(50):.1f}",
            f"{r.percentile(95):.1f}",
            f"{r.percentile(99):.1f}",
            f"{r.percentile(100):.1f}",
            str(r.errors),
        )
    console = Console()
    console.print(table)
    by_name = {r.what: r for r in results}
    for label in (f"thinking {think:g} s", "flat out"):
        server, echo = by_name[f"server, {label}"], by_name[f"bare echo, {label}"]
        own = server.rate / echo.rate if echo.rate else float("nan")
        every = server.event_rate / echo.rate if echo.rate else float("nan")
        console.print(
            f"{label}: server / echo throughput = {own:.0%} (client moves), "
            f"{every:.0%} (all moves, bots' included)"
        )
        console.print(
            f"  server CPU per move told {server.cpu_per_event * 1e6:,.0f} µs, echo CPU per "
            f"message {echo.cpu_per_event * 1e6:,.0f} µs: "
            f"{_ratio(server.cpu_per_event, echo.cpu_per_event):.1f}× the echo's (goal ≤ 5×)"
        )
    on, off = by_name["server, flat out"], by_name[METRICS_OFF]
    console.print(
        f"metrics: server CPU per move told, flat out, {on.cpu_per_event * 1e6:,.1f} µs with "
        f"metrics, {off.cpu_per_event * 1e6:,.1f} µs without (CARDROOM_METRICS=0): "
        f"{_ratio(on.cpu_per_event, off.cpu_per_event) - 1:+.1%} (goal ≤ +5%)"
    )
    churned = [r for r in results if r.watches or r.watch_errors]
    for r in churned:
        console.print(
            f"with {churn:g} watchers/s coming and going: moves p99 {r.percentile(99):.1f} ms, "
            f"worst {r.percentile(100):.1f} ms (without: "
            f"{by_name[f'server, thinking {think:g} s'].percentile(99):.1f} / "
            f"{by_name[f'server, thinking {think:g} s'].percentile(100):.1f} ms); "
            f"{r.watches:,} visits, sync after p50 {r.watch_percentile(50):.1f} ms, "
            f"p99 {r.watch_percentile(99):.1f} ms, {r.watch_errors} failed"
        )
    after = ", ".join(f"{memory.per_table(rss) / 1024:,.0f} KB" for rss in memory.busy)
    console.print(
        "memory per busy table (server RSS above the empty server's, after each server run: "
        f"thinking, flat out{', churn' if churned else ''}): "
        f"{after} (goal ≤ 100 KB, flat)"
    )
    table_memory.report(in_process, console)
    console.print(
        f"database: {memory.moves:,} moves stored in {memory.move_bytes / 1024:,.0f} KB "
        f"(table and indexes): {memory.per_move:,.0f} B per move (goal ≤ 80 B)"
    )


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--churn", type=float, default=40.0)
    args = parser.parse_args()
    main(args.tables, args.seconds, args.think, args.churn)
