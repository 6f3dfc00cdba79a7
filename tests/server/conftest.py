"""A real server (``cardroom serve`` in a subprocess) on a free port, against SQLite or a fresh
PostgreSQL database, and real WebSocket clients that check every message they receive.

PostgreSQL is the server at ``CARDROOM_TEST_PG`` (an admin URL; ``make test`` sets it, see
``scripts/test-services``), by default the local one on 127.0.0.1:5432."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import psycopg
import pytest
import websockets

from cardroom.games.skip import Match as EngineMatch
from cardroom.games.skip import Options, view
from tests.resources import free_port, wait_until_serving

__all__ = ["free_port"]  # the test worker's own ports (tests/resources.py), for server tests

ROOT = Path(__file__).resolve().parents[2]
CARDROOM = Path(sys.executable).parent / "cardroom"
PG_ADMIN = os.environ.get("CARDROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
TIMEOUT = 60.0  # generous: a loaded 2-core machine must not fail a correct server
CLOCK_SPEED = 50  # table time runs 50x: a 5 s turn timer passes in 0.1 s
# Seconds a server's stop gives each of its steps (server/closing.py): a step that hangs costs
# a test this, not the 20 s a test waited before killing it, and is named in a warning.
SHUTDOWN_GRACE = 5
VIEW_KEYS = set(EngineMatch(Options(players=2), 1).view(0).to_json())
# Test clients all come from one address and make tables far faster than people do: the abuse
# limits are loosened here, and tests/server/test_abuse.py sets small ones of its own.
LOOSE_LIMITS = {
    f"CARDROOM_{name}": "100000"
    for name in (
        "PLAYERS_ADDRESS_BURST",
        "MAX_TABLES_PER_PLAYER",
        "CREATE_BURST",
        "CREATE_ADDRESS_BURST",
        "NAMED_BURST",
        "NAMED_ADDRESS_BURST",
        "SIGNIN_BURST",
        "REVIEW_ADDRESS_BURST",
        "SIGNIN_ADDRESS_BURST",
        "DAILY_BURST",
    )
}


class Server:
    """``cardroom serve`` as a child process; can be killed (SIGKILL) and started again."""

    def __init__(self, db_url: str, workdir: Path, **env: str) -> None:
        self.db_url = db_url
        self.workdir = workdir
        self.port = free_port()
        self.env = {
            **os.environ,
            "CARDROOM_DB_URL": db_url,
            "CARDROOM_PORT": str(self.port),
            "CARDROOM_CLOCK_SPEED": str(CLOCK_SPEED),
            "CARDROOM_BOT_DELAY": "0",
            "CARDROOM_ROUND_PAUSE": "1",
            "CARDROOM_LOG_LEVEL": "warning",
            "CARDROOM_SHUTDOWN_GRACE": str(SHUTDOWN_GRACE),
            "CARDROOM_SET_DEALS": "1",  # tests may set who plays first (games/arranging.py)
            # Guests from one address play ranked tables here; the ladder's rules have tests
            # of their own (tests/league/test_ladder.py, test_queue_api.py).
            "CARDROOM_LADDER_ENFORCED": "0",
            **LOOSE_LIMITS,
            **env,
        }
        self.process: subprocess.Popen[bytes] | None = None
        self.log = workdir / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                [str(CARDROOM), "serve"], env=self.env, cwd=self.workdir, stdout=log, stderr=log
            )
        wait_until_serving(self.url, self.process, self.log)

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs, as in a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=TIMEOUT)

    def stop(self) -> None:
        """SIGTERM, as an operator stops it; a step of its stop that overran (its log says
        "stopping: ...", server/closing.py) is a warning in the run's summary."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=4 * SHUTDOWN_GRACE)
            except subprocess.TimeoutExpired:
                self.kill()
                warnings.warn(f"server {self.port} did not stop on SIGTERM", stacklevel=2)
            said = [line for line in self.log.read_text().splitlines() if "stopping:" in line]
            if said:
                warnings.warn(f"server {self.port}: " + "; ".join(said), stacklevel=2)


def pg_database_url(name: str) -> str:
    """The URL of database ``name`` on the PostgreSQL server of ``PG_ADMIN``."""
    return urlsplit(PG_ADMIN)._replace(path=f"/{name}").geturl()


class PostgresDatabase:
    """A uniquely named database on the PostgreSQL server, dropped afterwards."""

    def __init__(self) -> None:
        self.name = "cardroom_test_" + secrets.token_hex(4)
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        self.url = pg_database_url(self.name)

    def drop(self) -> None:
        with psycopg.connect(PG_ADMIN, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def database_url(kind: str, workdir: Path) -> tuple[str, Callable[[], None]]:
    if kind == "postgres":
        db = PostgresDatabase()
        return db.url, db.drop
    return f"sqlite:///{workdir / 'cardroom.db'}", lambda: None


BACKENDS = [pytest.param("sqlite"), pytest.param("postgres", marks=pytest.mark.postgres)]


@pytest.fixture(scope="session", params=BACKENDS)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """One shared server per database backend for the tests that need no restart."""
    workdir = tmp_path_factory.mktemp(f"server-{request.param}")
    url, drop = database_url(request.param, workdir)
    srv = Server(url, workdir)
    srv.start()
    yield srv
    srv.stop()
    drop()


@pytest.fixture(params=BACKENDS)
def fresh_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """A factory for servers of one's own (to kill, restart, or run with other settings)."""
    url, drop = database_url(request.param, tmp_path)
    made: list[Server] = []

    def make(**env: str) -> Server:
        srv = Server(url, tmp_path, **env)
        made.append(srv)
        return srv

    yield make
    for srv in made:
        srv.stop()
    drop()


# -- clients ---------------------------------------------------------------------------------------


class Person:
    """A guest with a token, an HTTP client and (once connected) a WebSocket to one table.

    Every message received is checked: a view is always the receiver's own (R7.2).
    """

    def __init__(self, server: Server, name: str) -> None:
        self.server = server
        self.name = name
        # A server behind TLS (tests/server/test_nginx.py) names the context that trusts it.
        self.tls = getattr(server, "tls", None)
        self.http = httpx.AsyncClient(base_url=server.url, timeout=TIMEOUT, verify=self.tls or True)
        self.token = ""
        self.id = ""
        self.ws: Any = None
        self.messages: list[dict[str, Any]] = []
        self.frames: list[str] = []  # the type of each frame received ("batch" for several)
        self.cursor = 0
        self.seq = 0
        self.seat: int | None = None
        self.spectator = False
        self._arrived = asyncio.Event()
        self._reader: asyncio.Task[None] | None = None
        self._ids = 0

    async def register(self) -> Person:
        response = await self.http.post("/api/players", json={"name": self.name})
        assert response.status_code == 201, response.text
        data = response.json()
        self.id = data["player"]["id"]
        self.use(data["token"])
        return self

    def use(self, token: str) -> None:
        self.token = token
        self.http.headers["Authorization"] = f"Bearer {token}"

    async def claim(self, password: str) -> Any:
        """Claim the name; the answer's token replaces the guest's (a claim voids it)."""
        answer = await self.post("/api/account/claim", {"password": password}, expect=201)
        self.use(answer["token"])
        return answer

    async def post(self, path: str, body: dict[str, Any] | None = None, expect: int = 200) -> Any:
        response = await self.http.post(path, json=body or {})
        assert response.status_code == expect, f"{path}: {response.status_code} {response.text}"
        return response.json()

    # -- the socket --

    async def connect(
        self, table_id: str, since: int | None = None, batch: bool = False
    ) -> dict[str, Any]:
        """Say hello at the table (``batch``: one frame per command, unpacked here into
        ``messages``; ``frames`` counts the frames)."""
        self.ws = await websockets.connect(
            f"{self.server.ws_url}/ws/tables/{table_id}",
            max_size=None,
            open_timeout=TIMEOUT,
            ssl=self.tls,
        )
        hello: dict[str, Any] = {"type": "hello", "token": self.token}
        if since is not None:
            hello["since"] = since
        if batch:
            hello["batch"] = True
        start = len(self.messages)
        self.cursor = start
        self._reader = asyncio.create_task(self._read(self.ws))
        await self.ws.send(json.dumps(hello))
        return await self.expect(lambda m: m["type"] == "welcome")

    async def _read(self, ws: Any) -> None:
        try:
            async for text in ws:
                frame = json.loads(text)
                self.frames.append(frame["type"])
                for message in frame["messages"] if frame["type"] == "batch" else [frame]:
                    if message["type"] == "welcome":
                        self.seat, self.spectator = message["seat"], message["spectator"]
                    self.check(message)
                    self.messages.append(message)
                    if message.get("seq") is not None and message["type"] in (
                        "event",
                        "table",
                        "sync",
                    ):
                        self.seq = message["seq"]
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self._arrived.set()

    def check(self, message: dict[str, Any]) -> None:
        """R7.2: nobody ever receives another seat's hand; spectators receive none."""
        seen = message.get("view")
        if seen is None:
            return
        if seen.get("game") == "skyjo":  # face-down cards are "?" to all; a drawn card its own
            assert seen["seat"] == (None if self.spectator else self.seat), "another seat's view"
            assert seen["drawn"] is None or seen["current"] == self.seat, "a drawn card leaked"
            assert self.spectator is False or "legal" not in message
            return
        if seen.get("game") not in (None, "skip"):  # another game (tests/thirdgame): its seat's
            assert seen["seat"] == (None if self.spectator else self.seat), "another seat's view"
            return
        assert set(seen) == VIEW_KEYS, f"unexpected view fields {set(seen) ^ VIEW_KEYS}"
        if self.spectator or self.seat is None:
            assert seen["seat"] is None and seen["hand"] is None, "a spectator saw a hand"
            assert "legal" not in message
        else:
            assert seen["seat"] == self.seat, "a view of another seat was sent"
            assert len(seen["hand"]) == seen["hand_counts"][self.seat]

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
            if self._reader is not None:
                await self._reader
            self.ws = None

    async def expect(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """The next message (from the cursor on) that matches; moves the cursor past it."""
        deadline = time.monotonic() + timeout
        while True:
            while self.cursor < len(self.messages):
                message = self.messages[self.cursor]
                self.cursor += 1
                if predicate(message):
                    return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{self.name}: no matching message; last {self.messages[-3:]}")
            self._arrived.clear()
            if self.cursor < len(self.messages):
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), left)

    def latest_view(self) -> dict[str, Any] | None:
        for message in reversed(self.messages):
            if message.get("view") is not None:
                return message
        return None

    def next_id(self) -> str:
        self._ids += 1
        return f"{self.name}-{self._ids}"

    async def act(self, action: dict[str, Any], after: int | None = None) -> dict[str, Any]:
        """Send an action and wait for its acknowledgement or its refusal.

        A fast test client can outrun the socket's rate limit over a long match; a message
        refused for that was not played (its refusal carries its id), so it is sent again."""
        action_id = self.next_id()
        message: dict[str, Any] = {"type": "action", "id": action_id, "action": action}
        if after is not None:
            message["after"] = after
        self.last_sent = message
        while True:
            await self.send(message)
            reply = await self.expect(
                lambda m: m.get("ack") == action_id or m.get("id") == action_id
            )
            if reply["type"] != "error" or reply["code"] != "rate_limited":
                return reply
            await asyncio.sleep(0.2)


def choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A simple player: its stock card when it fits, else a random play, else a discard."""
    stock = [a for a in legal if a["type"] == "play" and a["from"] == "stock"]
    if stock:
        return stock[0]
    plays = [a for a in legal if a["type"] == "play"]
    if plays and rng.random() < 0.9:
        return rng.choice(plays)
    ends = [a for a in legal if a["type"] != "play"] or plays
    return rng.choice(ends)


def _is_position(message: dict[str, Any]) -> bool:
    return message["type"] in ("event", "sync") and message.get("view") is not None


def over_in(person: Person) -> dict[str, Any] | None:
    """The message that ended the match, if this person has received it."""
    return next((m for m in person.messages if _is_over(m)), None)


def _is_over(message: dict[str, Any]) -> bool:
    """The match's end: its ``match_over`` event, or a ``sync`` of a match already over (a
    bot may win its first turn before a person's socket is open)."""
    if any(e["kind"] == "match_over" for e in message.get("events", ())):
        return True
    match = (message.get("table") or {}).get("match") or {}
    return message["type"] == "sync" and bool(match.get("over"))


def _as_over(message: dict[str, Any]) -> dict[str, Any]:
    """An end seen in a ``sync`` given the ``match_over`` event it stands for, so callers read
    one shape."""
    if message["type"] != "sync":
        return message
    match = message["table"]["match"]
    detail = {"winners": match["winners"], "scores": match["scores"], "match": match["id"]}
    return {**message, "events": [{"kind": "match_over", "seat": None, "detail": detail}]}


async def play_until_over(
    person: Person, seed: int = 0, position: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Play the person's seat from the legal actions in their view until the match is over,
    starting from ``position`` (a message already read) or the next one to arrive; the message
    that ended it."""
    return _as_over(await _play_until_over(person, seed, position))


async def play_until_round_over(person: Person, seed: int = 0) -> dict[str, Any]:
    """Play the person's seat until a round (or the match) is over: the message that says so."""
    return await _play_until_over(person, seed, None, _is_round_over)


def _is_round_over(message: dict[str, Any]) -> bool:
    return _is_over(message) or any(e["kind"] == "round_summary" for e in message.get("events", ()))


async def _play_until_over(
    person: Person,
    seed: int,
    position: dict[str, Any] | None,
    is_over: Callable[[dict[str, Any]], bool] = _is_over,
) -> dict[str, Any]:
    rng = random.Random(seed)
    latest = position or await person.expect(_is_position)
    while True:
        if is_over(latest):  # before the league's news that follows (it carries a view too)
            return latest
        while person.cursor < len(person.messages):  # act only on the newest position
            message = person.messages[person.cursor]
            person.cursor += 1
            if is_over(message):  # the league's news that follows carries a view too
                return message
            if _is_position(message):
                latest = message
        if is_over(latest):
            return latest
        legal = latest.get("legal") or []
        if not legal:
            latest = await person.expect(lambda m: _is_position(m) or is_over(m))
            continue
        start = person.cursor
        latest = await person.act(choose(legal, rng))
        # Waiting for its answer may have read past the end (a bot that won meanwhile).
        over = next((m for m in person.messages[start : person.cursor] if is_over(m)), None)
        if over is not None:
            return over
        if latest["type"] == "error" and latest["code"] == "stale":
            latest = person.latest_view() or latest  # the game moved on: play the newest
            continue
        assert latest["type"] == "event", latest


async def two_at_one_table(ada: Person, bob: Person, options: dict[str, Any]) -> str:
    """Ada opens a two-seat table with ``options`` (never abandoned during a test), Bob joins,
    both connect, Ada starts the match: the table's id."""
    created = await ada.post(
        "/api/tables", {"seats": 2, "options": options, "abandon_after": 3600}, expect=201
    )
    tid: str = created["table"]["id"]
    await bob.post(f"/api/tables/{tid}/join")
    for person in (ada, bob):
        await person.connect(tid)
    await ada.post(f"/api/tables/{tid}/start")
    return tid


async def play_confirmed(
    ada: Person, bob: Person, moves: int, seed: int
) -> dict[str, dict[str, Any]]:
    """Play ``moves`` moves of a two-person match, each confirmed (acknowledged to the mover and
    seen by the other) before the next; the last position each person saw, by name."""
    for person in (ada, bob):
        await person.expect(lambda m: m["type"] == "event" and m.get("view"))
    rng = random.Random(seed)
    for _ in range(moves):
        mover = ada if ada.latest_view().get("legal") else bob
        reply = await mover.act(choose(mover.latest_view()["legal"], rng))
        assert reply["type"] == "event"
        other = bob if mover is ada else ada
        await other.expect(lambda m, seq=reply["seq"]: m.get("seq") == seq)
    return {person.name: person.latest_view() for person in (ada, bob)}


async def reconnect_where_they_were(
    people: tuple[Person, ...], table_id: str, last: dict[str, dict[str, Any]], across: str
) -> dict[str, dict[str, Any]]:
    """Reconnect each person from the last sequence number they saw; each must be synced to the
    very position they left (R7.5), with later numbers. The sync messages, by name."""
    syncs = {}
    for person in people:
        await person.connect(table_id, since=last[person.name]["seq"])
        sync = syncs[person.name] = await person.expect(lambda m: m["type"] == "sync")
        before = last[person.name]
        assert sync["view"] == before["view"], f"the position changed across the {across}"
        assert sync["legal"] == before["legal"]
        assert sync["seq"] > before["seq"]
    return syncs


def seat_view(match: EngineMatch, seat: int | None) -> dict[str, Any]:
    return view(match.state, seat).to_json()
