"""The soak's load (``benchmarks/soak.py``): people who come and go, each making tables and
playing them to the end over sockets, some of them claiming their names and joining the ranked
queue, and watchers who look in."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

SKIP_OPTIONS = {"stock_size": 5, "match_target": None}
SKYJO_OPTIONS = {"end_score": 10}
# Kept-alive connections are dropped well before the server's own keep-alive (uvicorn: 5 s)
# closes them: reusing one the server just closed is a ReadError of the client, not the server.
POOL = httpx.Limits(keepalive_expiry=2.0)
RANKED_EVERY = 4  # one life in four claims its name and plays ranked matches too
QUEUE_BOT_AFTER = 15  # seconds in the queue before a bot is offered (a listed wait)


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
    claims: int = 0
    queued: int = 0  # ranked-queue tickets
    ranked: int = 0  # matched with another person
    queue_bots: int = 0  # matched with a bot after the wait
    latencies: list[tuple[float, float]] = field(default_factory=list)  # (sent at, seconds)
    error_kinds: dict[str, int] = field(default_factory=dict)

    def failed(self, what: str) -> None:
        self.errors += 1
        self.error_kinds[what] = self.error_kinds.get(what, 0) + 1


def error_kind(error: Exception) -> str:
    """What failed, as counted: a closed socket says how it was closed (a close frame's code,
    or none: the connection dropped), so a table that moved can be told from a crash."""
    if isinstance(error, websockets.ConnectionClosed):
        code = error.rcvd.code if error.rcvd is not None else "no close frame"
        return f"{type(error).__name__} ({code})"
    return type(error).__name__


# -- the lives -------------------------------------------------------------------------------------


class Life:
    """One person coming and going for the whole run."""

    def __init__(self, number: int, urls: Sequence[str], load: Load, stop_at: float, t0: float):
        self.rng = random.Random(number)
        self.number, self.urls, self.load = number, list(urls), load
        self.stop_at, self.t0 = stop_at, t0
        self.token = ""
        self.ids = 0
        self.ranked = number % RANKED_EVERY == 0
        # Each person's own address, as a proxy in front of the server names it (the soak's
        # servers trust the loopback as one): the ladder never matches two people of one
        # address, and the address's limits are each person's.
        self.forwarded = {"X-Forwarded-For": f"10.77.{number // 256}.{number % 256}"}
        self.claimed = False
        self.finished = 0  # matches finished with the current token

    @property
    def url(self) -> str:
        return self.rng.choice(self.urls)

    async def run(self, levels: dict[str, str], tables: list[tuple[str, str | None]]) -> None:
        async with httpx.AsyncClient(timeout=60, headers=self.forwarded, limits=POOL) as http:
            while time.monotonic() < self.stop_at:
                try:
                    # A new player now and then; a claimed account keeps its name.
                    if not self.token or (not self.claimed and self.rng.random() < 0.1):
                        answer = await http.post(
                            f"{self.url}/api/players", json={"name": f"soak{self.number}"}
                        )
                        answer.raise_for_status()
                        self.token, self.finished = answer.json()["token"], 0
                    http.headers["Authorization"] = f"Bearer {self.token}"
                    if self.ranked and not self.claimed and self.finished:
                        await self.claim(http)
                    roll = self.rng.random()
                    if roll < 0.08:
                        await self.daily(http)
                    elif self.claimed and self.finished >= 3 and roll < 0.4:
                        await self.queue(http)
                    else:
                        await self.table(http, levels, tables)
                except (httpx.HTTPError, OSError, websockets.WebSocketException) as error:
                    self.load.failed(error_kind(error))
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
                self.finished += 1
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
        async with websockets.connect(
            f"{url}/ws/tables/{table_id}", max_size=None, additional_headers=self.forwarded
        ) as ws:
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

    async def claim(self, http: httpx.AsyncClient) -> None:
        """Keep this guest's profile under a name of its own: a password (argon2 on the
        server's hashing pool), and the answer's token from now on."""
        name = f"soak{self.number}-{os.getpid()}-{int(self.t0) % 100000}"
        body = {"name": name, "password": f"a soak password {self.number}"}
        answer = await http.post(f"{self.url}/api/account/claim", json=body)
        if answer.status_code != 201:
            self.load.failed(f"claim: {answer.status_code}")
            return
        self.token, self.claimed = answer.json()["token"], True
        http.headers["Authorization"] = f"Bearer {self.token}"
        self.load.claims += 1

    async def queue(self, http: httpx.AsyncClient) -> None:
        """A ticket in the ranked queue (2 players, a bot after 15 s with nobody near), then
        the match it finds, played to the end at the table the queue made."""
        game = "skyjo" if self.rng.random() < 0.3 else "skip"
        url = self.url.replace("http", "ws", 1)
        matched: dict[str, Any] | None = None
        queue_url = f"{url}/ws/queue"
        async with websockets.connect(queue_url, additional_headers=self.forwarded) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            ask = {"type": "queue", "game": game, "mode": "2p", "bot_after": QUEUE_BOT_AFTER}
            sent = False
            while matched is None and time.monotonic() < self.stop_at:
                left = self.stop_at - time.monotonic()
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), min(left, 30)))
                except TimeoutError:
                    continue
                kind = message["type"]
                if kind == "welcome" and not sent:
                    await ws.send(json.dumps(ask))
                    sent = True
                    self.load.queued += 1
                elif kind == "matched":
                    matched = message
                elif kind == "error":
                    if message.get("code") != "ranked_locked":  # not yet: casual matches first
                        self.load.failed(f"queue: {message.get('code')}")
                    return
                elif kind == "left":
                    self.load.failed("queue: left")
                    return
        if matched is None:
            return
        if matched.get("bot"):
            self.load.queue_bots += 1
        else:
            self.load.ranked += 1
        table_id = matched["table"]
        try:
            await self.play(table_id, game, None)
        finally:
            with contextlib.suppress(httpx.HTTPError):
                await http.post(f"{self.url}/api/tables/{table_id}/leave")

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
    async with httpx.AsyncClient(timeout=60, limits=POOL) as http:
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
