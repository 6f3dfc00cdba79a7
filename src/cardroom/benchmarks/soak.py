"""The soak: a server under a life-like load for minutes or hours, sampled every 10 s, to show
whether what it holds stays flat (docs/performance.md, "The soak").

Run: ``cardroom bench soak --minutes 60 --tables 200`` (SQLite), or with ``--db
postgresql://…`` and ``--redis redis://…`` on two processes. The servers run as ``cardroom
serve`` with ``CARDROOM_PROBE=1``; the load runs in this process:

- ``--tables`` lives, each a person who makes a table (Skip or Skyjo against a bot, short
  matches), plays its matches to the end on a socket (the league counts them), chats now and
  then, drops the socket and comes back where it was (``since``), reloads (a fresh ``hello``),
  takes a rematch or leaves (the table closes once empty), and sometimes plays a few moves of a
  daily deal instead; some lives are new players, most come back with their token;
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
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from cardroom.benchmarks.load_plan import greedy_level
from cardroom.benchmarks.processes import free_port, start, stop

FLAT = 0.10  # a figure is flat when its fitted change over the judged span is within 10%
JUDGED = 0.75  # the last three quarters of the run are judged; the first is warm-up
TOKEN = "soak-probe"
FIGURES = (
    "rss_mb", "heap_kblocks", "tasks", "threads", "fds", "db_connections", "sockets", "tables",
)  # fmt: skip
SKIP_OPTIONS = {"stock_size": 5, "match_target": None}
SKYJO_OPTIONS = {"end_score": 10}


@dataclass
class Sample:
    at: float  # seconds since the load began
    server: int
    probe: dict[str, Any]
    rows: int
    redis_keys: int


@dataclass
class Load:
    """What the load did, and the moves' latencies by when they were sent."""

    moves: int = 0
    matches: int = 0
    errors: int = 0
    reconnects: int = 0
    reloads: int = 0
    chats: int = 0
    rematches: int = 0
    tables: int = 0
    daily_moves: int = 0
    watches: int = 0
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    error_kinds: dict[str, int] = field(default_factory=dict)

    def failed(self, what: str) -> None:
        self.errors += 1
        self.error_kinds[what] = self.error_kinds.get(what, 0) + 1


# -- the lives -------------------------------------------------------------------------------------


class Life:
    """One person coming and going for the whole run."""

    def __init__(self, number: int, urls: Sequence[str], load: Load, stop_at: float, t0: float):
        self.rng = random.Random(number)
        self.number, self.urls, self.load = number, list(urls), load
        self.stop_at, self.t0 = stop_at, t0
        self.token = ""
        self.ids = 0

    @property
    def url(self) -> str:
        return self.rng.choice(self.urls)

    async def run(self, levels: dict[str, str], tables: list[tuple[str, str | None]]) -> None:
        async with httpx.AsyncClient(timeout=60) as http:
            while time.monotonic() < self.stop_at:
                try:
                    if not self.token or self.rng.random() < 0.1:  # a new player now and then
                        answer = await http.post(
                            f"{self.url}/api/players", json={"name": f"soak{self.number}"}
                        )
                        answer.raise_for_status()
                        self.token = answer.json()["token"]
                    http.headers["Authorization"] = f"Bearer {self.token}"
                    if self.rng.random() < 0.08:
                        await self.daily(http)
                    else:
                        await self.table(http, levels, tables)
                except (httpx.HTTPError, OSError, websockets.WebSocketException) as error:
                    self.load.failed(type(error).__name__)
                    await asyncio.sleep(1)
                except KeyError as error:
                    self.load.failed(f"answer without {error}")
                    await asyncio.sleep(1)

    async def table(
        self,
        http: httpx.AsyncClient,
        levels: dict[str, str],
        tables: list[tuple[str, str | None]],
    ) -> None:
        game = "skyjo" if self.rng.random() < 0.3 else "skip"
        options = SKYJO_OPTIONS if game == "skyjo" else SKIP_OPTIONS
        body = {"game": game, "seats": 2, "options": options, "public": False, "abandon_after": 20}
        made = (await http.post(f"{self.url}/api/tables", json=body)).json()["table"]
        table_id, invite = made["id"], made.get("invite")
        await http.post(f"{self.url}/api/tables/{table_id}/bots", json={"level": levels[game]})
        await http.post(f"{self.url}/api/tables/{table_id}/start")
        self.load.tables += 1
        entry = (table_id, invite)
        tables.append(entry)
        try:
            seq: int | None = None
            for _ in range(3):  # a match, and up to two rematches
                seq = await self.play(table_id, game, seq)
                if seq is None or time.monotonic() >= self.stop_at:
                    break
                if self.rng.random() < 0.4:
                    break
                self.load.rematches += 1
                await http.post(f"{self.url}/api/tables/{table_id}/rematch")
        finally:
            tables.remove(entry)
            with contextlib.suppress(httpx.HTTPError):
                await http.post(f"{self.url}/api/tables/{table_id}/leave")

    async def play(self, table_id: str, game: str, since: int | None) -> int | None:
        """One match at the table over one or more sockets; the last ``seq``, or None when
        the run ended first."""
        seq = since
        while time.monotonic() < self.stop_at:
            outcome = await self.socket(table_id, game, seq)
            if outcome is None:
                return None
            seq, over, why = outcome
            if over:
                self.load.matches += 1
                return seq
            if why == "reload":
                self.load.reloads += 1
                seq = None
            else:
                self.load.reconnects += 1
        return None

    async def socket(
        self, table_id: str, game: str, since: int | None
    ) -> tuple[int | None, bool, str] | None:
        """One socket's life: moves until the match is over or the person drops it."""
        url = self.url.replace("http", "ws", 1)
        async with websockets.connect(f"{url}/ws/tables/{table_id}", max_size=None) as ws:
            hello: dict[str, Any] = {"type": "hello", "token": self.token, "batch": True}
            if since is not None:
                hello["since"] = since
            await ws.send(json.dumps(hello))
            seq, pending, sent_at = since, None, 0.0
            legal: list[dict[str, Any]] | None = None
            while True:
                left = self.stop_at - time.monotonic()
                if left <= 0:
                    return None
                try:
                    raw = await asyncio.wait_for(ws.recv(), min(left, 30))
                except TimeoutError:
                    if self.stop_at - time.monotonic() <= 0:
                        return None
                    await ws.send(json.dumps({"type": "resync"}))
                    continue
                frame = json.loads(raw)
                for message in frame["messages"] if frame["type"] == "batch" else [frame]:
                    if message.get("seq") is not None and message["type"] in ("event", "sync"):
                        seq = message["seq"]
                    if pending is not None and (
                        message.get("ack") == pending or message.get("id") == pending
                    ):
                        if message["type"] == "error":
                            self.load.failed(f"move refused: {message.get('code')}")
                        else:
                            self.load.moves += 1
                            self.load.latencies.append(
                                (sent_at - self.t0, time.monotonic() - sent_at)
                            )
                        pending = None
                    if (
                        message["type"] == "error"
                        and message.get("about") != "chat"
                        and message.get("code") not in ("stale", "not_your_turn")
                    ):
                        self.load.failed(f"error: {message.get('code')}")
                    events = message.get("events") or ()
                    if any(e.get("kind") == "match_over" for e in events):
                        return seq, True, ""
                    if (
                        message["type"] == "sync"
                        and (message.get("match") or {}).get("status") == "over"
                    ):
                        return seq, True, ""
                    if message.get("view") is not None:
                        legal = message.get("legal")
                if pending is not None or not legal:
                    continue
                roll = self.rng.random()
                if roll < 0.01:
                    return seq, False, "reconnect"
                if roll < 0.015:
                    return seq, False, "reload"
                if roll < 0.05:
                    self.load.chats += 1
                    await ws.send(json.dumps({"type": "chat", "text": "nice one"}))
                await asyncio.sleep(self.rng.uniform(0.2, 0.8))  # a person thinks
                self.ids += 1
                pending = f"s{self.number}-{os.getpid()}-{self.ids}"
                sent_at = time.monotonic()
                action = self.rng.choice(legal)
                if game == "skip":
                    plays = [a for a in legal if a["type"] == "play"]
                    action = plays[0] if plays and self.rng.random() < 0.8 else action
                message = {"type": "action", "id": pending, "action": action}
                await ws.send(json.dumps(message))
                legal = None

    async def daily(self, http: httpx.AsyncClient) -> None:
        """A few moves of a past day's deal, as practice: the daily routes under load."""
        game = self.rng.choice(["skip", "skyjo"])
        state = await http.post(f"{self.url}/api/daily/{game}/attempts", json={"day": "2026-12-01"})
        if state.status_code != 200:
            self.load.failed(f"daily: {state.status_code}")
            return
        data = state.json()
        for _ in range(self.rng.randint(1, 8)):
            if data["over"] or not data["legal"] or time.monotonic() >= self.stop_at:
                return
            await asyncio.sleep(self.rng.uniform(0.3, 1.0))
            body = {"action": self.rng.choice(data["legal"]), "seq": data["attempt"]["moves"]}
            answer = await http.post(
                f"{self.url}/api/daily/attempts/{data['attempt']['id']}/moves", json=body
            )
            if answer.status_code != 200:
                self.load.failed(f"daily move: {answer.status_code}")
                return
            data = answer.json()
            self.load.daily_moves += 1


async def watchers(
    urls: Sequence[str],
    tables: list[tuple[str, str | None]],
    rate: float,
    stop_at: float,
    load: Load,
) -> None:
    """``rate`` visits a second: a watcher opens a live table's socket, reads its ``sync``,
    and leaves."""
    rng = random.Random(5)
    tokens: list[str] = []
    async with httpx.AsyncClient(timeout=60) as http:
        while len(tokens) < 20 and time.monotonic() < stop_at:
            try:
                answer = await http.post(f"{urls[0]}/api/players", json={"name": "watcher"})
                tokens.append(answer.raise_for_status().json()["token"])
            except httpx.HTTPError as error:
                load.failed(f"watcher: {type(error).__name__}")
                await asyncio.sleep(1)
    if not tokens:
        return

    async def visit(table: str, invite: str | None) -> None:
        url = rng.choice(urls).replace("http", "ws", 1)
        query = f"?invite={invite}" if invite else ""
        try:
            async with websockets.connect(f"{url}/ws/tables/{table}{query}") as ws:
                await ws.send(json.dumps({"type": "hello", "token": rng.choice(tokens)}))
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if message["type"] in ("sync", "error"):
                        break
            load.watches += 1
        except (OSError, TimeoutError, websockets.WebSocketException):
            pass  # the table closed as the watcher came: normal

    visits: set[asyncio.Task[None]] = set()
    while time.monotonic() < stop_at:
        await asyncio.sleep(1 / rate)
        if tables:
            task = asyncio.create_task(visit(*rng.choice(tables)))
            visits.add(task)
            task.add_done_callback(visits.discard)
    await asyncio.gather(*visits, return_exceptions=True)


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


# -- judging -------------------------------------------------------------------------------------


def figure(sample: Sample, name: str) -> float:
    p = sample.probe
    if name == "rss_mb":
        return float(p["rss"]) / 2**20
    if name == "heap_kblocks":
        return float(p["heap_blocks"]) / 1000
    if name == "tables":
        return float(p["sizes"]["tables"])
    return float(p[name])


def slope(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope (units per second)."""
    if len(points) < 2:
        return 0.0
    xs, ys = [x for x, _ in points], [y for _, y in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


@dataclass
class Verdict:
    server: int
    name: str
    level: float
    per_hour: float
    change: float  # the fitted change over the judged span, as a share of the level
    flat: bool
    growers: list[tuple[str, int]]


def judge(samples: Sequence[Sample], duration: float) -> list[Verdict]:
    out: list[Verdict] = []
    start_at = duration * (1 - JUDGED)
    for server in sorted({s.server for s in samples}):
        mine = [s for s in samples if s.server == server and s.at >= start_at]
        if len(mine) < 2:
            continue
        span = mine[-1].at - mine[0].at
        for name in FIGURES:
            points = [(s.at, figure(s, name)) for s in mine]
            level = statistics.fmean(y for _, y in points)
            rise = slope(points)
            change = rise * span / level if level else 0.0
            flat = abs(change) <= FLAT or abs(rise * span) < 2  # a count that moved by one
            growers: list[tuple[str, int]] = []
            if not flat and rise > 0:
                first, last = mine[0].probe["objects"], mine[-1].probe["objects"]
                grew = {k: v - first.get(k, 0) for k, v in last.items()}
                growers = sorted(((k, d) for k, d in grew.items() if d > 0), key=lambda kv: -kv[1])[
                    :8
                ]
            out.append(Verdict(server, name, level, rise * 3600, change, flat, growers))
    return out


def latency_windows(load: Load, duration: float) -> list[tuple[str, float, float, int]]:
    """(window, p50 ms, p99 ms, moves) for the first and the last ten minutes (fifths of a
    shorter run)."""
    window = min(600.0, duration / 5)
    out = []
    for label, lo, hi in (
        ("first", 0.0, window),
        ("last", duration - window, duration),
    ):
        values = sorted(s for at, s in load.latencies if lo <= at < hi)
        if values:
            p50 = values[len(values) // 2] * 1000
            p99 = values[min(len(values) - 1, int(len(values) * 0.99))] * 1000
            span = f"{window / 60:.3g} min" if window >= 60 else f"{window:.0f} s"
            out.append((f"{label} {span}", p50, p99, len(values)))
    return out


def plot(samples: Sequence[Sample], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = (*FIGURES, "rows", "redis_keys")
    fig, axes = plt.subplots(4, 3, figsize=(14, 13))
    for ax, name in zip(axes.flat, names, strict=False):
        for server in sorted({s.server for s in samples}):
            mine = [s for s in samples if s.server == server]
            xs = [s.at / 60 for s in mine]
            if name == "rows":
                ys = [float(s.rows) for s in mine]
            elif name == "redis_keys":
                ys = [float(s.redis_keys) for s in mine]
            else:
                ys = [figure(s, name) for s in mine]
            ax.plot(xs, ys, label=f"process {server + 1}")
        ax.set_title(name)
        ax.set_xlabel("minutes")
        ax.grid(alpha=0.3)
    axes.flat[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


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
            str(v.server + 1), v.name, f"{v.level:.1f}", f"{v.per_hour:+.2f}",
            f"{v.change:+.1%}", "yes" if v.flat else "[red]no[/]", growers,
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
        f"moves; {load.errors} errors {load.error_kinds or ''}"
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
