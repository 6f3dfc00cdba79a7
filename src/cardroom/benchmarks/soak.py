"""The soak: a server under a life-like load for minutes or hours, sampled every 10 s, to show
whether what it holds stays flat (docs/performance.md, "The soak").

Run: ``cardroom bench soak --minutes 60 --tables 200`` (SQLite), or with ``--db
postgresql://…`` and ``--redis redis://…`` on two processes. The servers run as ``cardroom
serve`` with ``CARDROOM_PROBE=1``; the load runs in this process:

- ``--tables`` lives, each a person who makes a table (Skip or Skyjo against a bot, short
  matches), plays its matches to the end on a socket (the league counts them), chats now and
  then, drops the socket and comes back where it was (``since``), reloads (a fresh ``hello``),
  takes a rematch or leaves (the table closes once empty), and sometimes plays a few moves of a
  daily deal instead; some lives are new players, most come back with their token; one in
  four claims its name (a password) and, after three matches, plays ranked matches too from
  the ranked queue (with a bot after 15 s when nobody is near);
- watchers open a random table's socket, read the ``sync`` and go.

Every ``--every`` seconds each server is probed (``server/probe.py``: RSS, the Python heap's
blocks, tasks, threads, descriptors, database connections, sockets, live tables, the bounded
caches, the most numerous objects), the database's rows are counted per table and Redis's
keys under the deployment's prefix. At the end: a table of the samples, a plot of each figure
against time (PNG), and for each figure its slope over the last three quarters of the run and
whether it is flat (its fitted change there within 10% of its level); a growing one is listed
with the object types that grew most. Moves' p50/p99 in the first and the last ten minutes
(or fifths, for a short run) say whether play got slower.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx

from cardroom.benchmarks.load_plan import greedy_level
from cardroom.benchmarks.processes import free_port, start, stop
from cardroom.benchmarks.soak_judging import (
    ALL,
    FLAT,
    JUDGED,
    Sample,
    judge,
    latency_windows,
    plot,
)
from cardroom.benchmarks.soak_load import Life, Load, watchers

TOKEN = "soak-probe"


# -- sampling ------------------------------------------------------------------------------------


def count_rows(db_url: str) -> int:
    from sqlalchemy import func, inspect, select, table

    from cardroom.store.database import open_engine

    engine = open_engine(db_url)
    try:
        with engine.connect() as conn:
            names = inspect(conn).get_table_names()
            return sum(
                conn.scalar(select(func.count()).select_from(table(name))) or 0
                for name in names
                if name != "alembic_version"
            )
    finally:
        engine.dispose()


def redis_keys(redis_url: str | None, prefix: str) -> int:
    if not redis_url:
        return 0
    import redis

    client = redis.Redis.from_url(redis_url)
    try:
        return sum(1 for _ in client.scan_iter(match=f"{prefix}*", count=1000))
    finally:
        client.close()


async def sampler(
    urls: Sequence[str],
    db_url: str,
    redis_url: str | None,
    prefix: str,
    every: float,
    t0: float,
    stop_at: float,
    samples: list[Sample],
    load: Load,
) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(timeout=60, headers=headers) as http:
        next_at = time.monotonic()
        while next_at <= stop_at + 0.01:
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))
            rows = await asyncio.to_thread(count_rows, db_url)
            keys = await asyncio.to_thread(redis_keys, redis_url, prefix)
            for number, url in enumerate(urls):
                try:
                    answer = await http.get(f"{url}/internal/probe")
                    answer.raise_for_status()
                except httpx.HTTPError as error:
                    load.failed(f"probe: {error!r}")
                    continue
                samples.append(Sample(time.monotonic() - t0, number, answer.json(), rows, keys))
            next_at += every


# -- the run -------------------------------------------------------------------------------------


def run(
    minutes: float,
    tables: int,
    db: str | None,
    redis_url: str | None,
    every: float,
    watch_rate: float,
    out: Path,
) -> tuple[list[Sample], Load, float]:
    duration = minutes * 60
    processes = 2 if (db and redis_url) else 1
    with tempfile.TemporaryDirectory() as workdir:
        db_url = db or f"sqlite:///{workdir}/soak.db"
        prefix = f"cardroom-soak-{os.getpid()}:"
        env = {
            "CARDROOM_DB_URL": db_url,
            "CARDROOM_PROBE": "1",
            "CARDROOM_METRICS_TOKEN": TOKEN,
            "CARDROOM_BOT_DELAY": "0.3",
            "CARDROOM_ROUND_PAUSE": "1",
            "CARDROOM_LOG_LEVEL": "warning",
            "CARDROOM_MAX_TABLES": str(tables * 10),
            "CARDROOM_MAX_TABLES_PER_PLAYER": "1000",
            "CARDROOM_PLAYERS_ADDRESS_BURST": "1000000",
            "CARDROOM_CREATE_ADDRESS_BURST": "1000000",
            "CARDROOM_CREATE_BURST": "1000000",
            "CARDROOM_DAILY_BURST": "1000000",
            # The lives name their own addresses in X-Forwarded-For, as behind a proxy.
            "CARDROOM_TRUSTED_PROXIES": "127.0.0.1/32",
            "CARDROOM_REDIS_PREFIX": prefix,
        }
        if redis_url:
            env["CARDROOM_REDIS_URL"] = redis_url
        servers, urls = [], []
        cardroom = [str(Path(sys.executable).parent / "cardroom"), "serve"]
        try:
            for _ in range(processes):
                port = free_port()
                servers.append(start(cardroom, port, {**env, "CARDROOM_PORT": str(port)}, workdir))
                urls.append(f"http://127.0.0.1:{port}")
            samples: list[Sample] = []
            load = Load()
            asyncio.run(
                _drive(urls, db_url, redis_url, prefix, duration, tables, every, watch_rate,
                       samples, load)
            )  # fmt: skip
        finally:
            for server in servers:
                stop(server)
    return samples, load, duration


async def _drive(
    urls: list[str],
    db_url: str,
    redis_url: str | None,
    prefix: str,
    duration: float,
    tables: int,
    every: float,
    watch_rate: float,
    samples: list[Sample],
    load: Load,
) -> None:
    async with httpx.AsyncClient(timeout=60) as http:
        levels = {}
        for game in ("skip", "skyjo"):
            found = (await http.get(f"{urls[0]}/api/levels", params={"game": game})).json()
            levels[game] = found["levels"][0]["id"]
    if "greedy" in str(levels.get("skip")):
        levels["skip"] = greedy_level()
    t0 = time.monotonic()
    stop_at = t0 + duration
    live: list[tuple[str, str | None]] = []
    lives = [Life(i, urls, load, stop_at, t0) for i in range(tables)]

    async def ticker() -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

        columns = (
            TextColumn("soak"),
            BarColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.description}"),
        )
        with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("", total=duration)
            while time.monotonic() < stop_at:
                await asyncio.sleep(1)
                bar.update(
                    task,
                    completed=min(duration, time.monotonic() - t0),
                    description=f"{load.moves} moves, {load.matches} matches, {load.errors} errors",
                )

    async def staggered(life: Life, delay: float) -> None:
        await asyncio.sleep(delay)
        await life.run(levels, live)

    spread = min(30.0, duration / 10)
    await asyncio.gather(
        ticker(),
        sampler(urls, db_url, redis_url, prefix, every, t0, stop_at, samples, load),
        watchers(urls, live, watch_rate, stop_at, load),
        *(staggered(life, spread * i / max(1, tables)) for i, life in enumerate(lives)),
    )


def report(samples: list[Sample], load: Load, duration: float, out: Path, console: Any) -> bool:
    from rich.table import Table

    table = Table(title="Soak samples (per process, every minute)")
    for heading in ("min", "proc", "RSS MB", "heap kblk", "tasks", "threads", "fds", "db conn",
                    "sockets", "tables", "rows", "redis keys"):  # fmt: skip
        table.add_column(heading, justify="right")
    shown = -60.0
    for s in samples:
        if s.at - shown < 59 and s is not samples[-1]:
            continue
        if s.server == max(x.server for x in samples):
            shown = s.at
        p = s.probe
        table.add_row(
            f"{s.at / 60:.1f}", str(s.server + 1), f"{p['rss'] / 2**20:.1f}",
            f"{p['heap_blocks'] / 1000:.0f}", str(p["tasks"]), str(p["threads"]), str(p["fds"]),
            str(p["db_connections"]), str(p["sockets"]), str(p["sizes"]["tables"]), str(s.rows),
            str(s.redis_keys),
        )  # fmt: skip
    console.print(table)
    verdicts = judge(samples, duration)
    flat_table = Table(title=f"Over the last {JUDGED:.0%} of the run: flat within {FLAT:.0%}?")
    for heading in ("proc", "figure", "level", "slope /h", "change", "flat", "top growers"):
        flat_table.add_column(heading)
    for v in verdicts:
        growers = ", ".join(f"{k} +{d}" for k, d in v.growers)
        flat_table.add_row(
            "all" if v.server == ALL else str(v.server + 1), v.name, f"{v.level:.1f}",
            f"{v.per_hour:+.2f}", f"{v.change:+.1%}", "yes" if v.flat else "[red]no[/]", growers,
        )  # fmt: skip
    console.print(flat_table)
    judged = [s for s in samples if s.at >= duration * (1 - JUDGED)]
    for server in sorted({s.server for s in judged}):
        mine = [s for s in judged if s.server == server]
        first, last = mine[0].probe["objects"], mine[-1].probe["objects"]
        grew = sorted(((k, v - first.get(k, 0)) for k, v in last.items()), key=lambda kv: -kv[1])
        console.print(
            f"Process {server + 1}, live objects that grew most over the judged span: "
            + ", ".join(f"{k} {d:+d}" for k, d in grew[:12])
        )
    windows = latency_windows(load, duration)
    lat = Table(title="Moves (sent to acknowledged)")
    for heading in ("window", "p50 ms", "p99 ms", "moves"):
        lat.add_column(heading, justify="right")
    for label, p50, p99, n in windows:
        lat.add_row(label, f"{p50:.1f}", f"{p99:.1f}", str(n))
    console.print(lat)
    if samples:
        last = samples[-1].probe["sizes"]
        console.print(
            "Bounded collections at the end: " + ", ".join(f"{k} {v}" for k, v in last.items())
        )
    console.print(
        f"Load: {load.moves} moves, {load.matches} matches, {load.tables} tables, "
        f"{load.rematches} rematches, {load.reconnects} reconnects, {load.reloads} reloads, "
        f"{load.chats} chat lines, {load.watches} watcher visits, {load.daily_moves} daily "
        f"moves; {load.claims} names claimed, {load.queued} ranked-queue tickets: "
        f"{load.ranked} matched with a person, {load.queue_bots} with a bot; "
        f"{load.errors} errors {load.error_kinds or ''}"
    )
    if samples:
        path = plot(samples, out)
        kept = out.with_suffix(".json")
        kept.write_text(json.dumps([vars(s) for s in samples]))
        console.print(f"Plot: {path}; the samples: {kept}")
    flat = all(v.flat for v in verdicts)
    console.print("Everything flat." if flat else "[red]Something grows[/]: see above.")
    return flat and load.errors == 0


def main(
    minutes: float = 10.0,
    tables: int = 200,
    db: str | None = None,
    redis_url: str | None = None,
    every: float = 10.0,
    watch_rate: float = 5.0,
    out: str | None = None,
) -> bool:
    from rich.console import Console

    console = Console(width=max(140, Console().width))
    target = Path(out or f"soak-{time.strftime('%Y%m%d-%H%M%S')}.png").resolve()
    where = "PostgreSQL + Redis, 2 processes" if db and redis_url else (db or "SQLite")
    console.print(f"Soak: {tables} lives for {minutes:g} min on {where}, sampled every {every:g} s")
    samples, load, duration = run(minutes, tables, db, redis_url, every, watch_rate, target)
    return report(samples, load, duration, target, console)
