"""The server bench's load clients (``server_load``), every one of a measurement in one process
of their own: a scripted player per table, moving on its real socket and timing each move's
acknowledgement; a client of the bare echo, for the baseline; with churn, watchers who come and
go. They count what they see into a ``Result``."""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

from cardroom.benchmarks.load_plan import choose

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


Target = tuple[str, str, str | None]  # a table's player token, its id, its invitation code


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
