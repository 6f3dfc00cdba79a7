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

Here: the servers, their tables and the report; the load clients are ``server_load_clients``.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import platform
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from cardroom.benchmarks.load_plan import OPTIONS, greedy_level
from cardroom.benchmarks.processes import cpu_seconds, free_port, rss_bytes, start, stop
from cardroom.benchmarks.server_load_clients import Result, Target, run_clients, warmup_for

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


# -- measuring (the clients in their own process: server_load_clients) ---------------------------


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
