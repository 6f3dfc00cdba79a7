"""Abuse: a hostile client's long run against a real server, and what held.

Run: ``cardroom bench abuse`` (defaults: 10^5 junk WebSocket messages, 1,000 sockets at one
table, 10^4 fuzzed HTTP requests). The server runs as ``cardroom serve`` in its own process
on a temporary SQLite database, with its limits as shipped (only the per-address limits on
new guests and tables are raised: every client here comes from 127.0.0.1).

Each probe prints what it sent, what came back and whether the server held: no 5xx answer,
no hidden card in a spectator's messages, the documented close codes, a private table that
stays a 404 to strangers, and ``/healthz`` answering all along.
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets
from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from cardroom.benchmarks.processes import free_port, start, stop
from cardroom.server.sockets import MAX_REFUSALS

ENV = {
    "CARDROOM_LOG_LEVEL": "error",
    "CARDROOM_BOT_DELAY": "0.01",
    "CARDROOM_PLAYERS_ADDRESS_BURST": "100000",
    "CARDROOM_CREATE_ADDRESS_BURST": "100000",
}
QUICK = {"stock_size": 5, "match_target": None}
JUNK_PER_SOCKET = 120  # over the 100 refusals a socket is allowed before the 4408 close
PEOPLE = 40  # players sharing the 1,000 sockets (at most 4 each are allowed per table)


@dataclass
class Probe:
    name: str
    sent: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    held: bool = True
    notes: list[str] = field(default_factory=list)

    def fail(self, why: str) -> None:
        self.held = False
        self.notes.append(why)


def junk(rng: random.Random) -> str:
    """A message a broken or hostile client might send."""
    kind = rng.randrange(8)
    if kind == 0:
        return "{" * rng.randrange(1, 2000)  # not JSON, or nested deep
    if kind == 1:
        return json.dumps({"type": "action", "id": "x" * rng.randrange(0, 200), "action": []})
    if kind == 2:
        return json.dumps({"type": "action", "id": "a", "action": {"type": "play", "from": 7}})
    if kind == 3:
        return json.dumps(
            {"type": rng.choice(["hello", "resync", "ping", None, 5]), "id": "\udcff"}
        )
    if kind == 4:  # over the 4 KiB message limit (a frame over 64 KiB is closed with 1009)
        return "x" * rng.randrange(1, 60_000)
    if kind == 5:
        nested: Any = 0
        for _ in range(rng.randrange(1, 400)):
            nested = [nested]
        return json.dumps({"type": "action", "id": "n", "action": nested})
    if kind == 6:
        return json.dumps({"type": "action", "id": "s", "action": {"type": "pass"}, "after": -1})
    return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64))).decode("latin-1")


class Run:
    def __init__(self, url: str, ws_url: str) -> None:
        self.url = url
        self.ws_url = ws_url
        self.http = httpx.AsyncClient(base_url=url, timeout=30)

    async def person(self, name: str) -> tuple[str, str]:
        answer = (await self.http.post("/api/players", json={"name": name})).json()
        return answer["player"]["id"], answer["token"]

    async def table(self, token: str, public: bool = True, bots: int = 0) -> str:
        headers = {"Authorization": f"Bearer {token}"}
        if bots:
            body = {"bots": bots, "options": QUICK}
            made = await self.http.post("/api/quickplay", json=body, headers=headers)
        else:
            body = {"seats": 2, "public": public, "options": QUICK}
            made = await self.http.post("/api/tables", json=body, headers=headers)
        return made.json()["table"]["id"]

    async def hello(self, table: str, token: str) -> Any:
        """A socket at the table that has said hello (the caller closes it)."""
        ws = await websockets.connect(f"{self.ws_url}/ws/tables/{table}", max_size=None)
        await ws.send(json.dumps({"type": "hello", "token": token}))
        return ws

    async def healthy(self) -> bool:
        try:
            return (await self.http.get("/healthz")).status_code == 200
        except httpx.HTTPError:
            return False

    # -- probes ---------------------------------------------------------------------------------

    async def junk_messages(self, total: int, progress: Progress) -> Probe:
        probe = Probe("junk WebSocket messages")
        _pid, token = await self.person("Junk")
        table = await self.table(token)
        rng = random.Random(1)
        task = progress.add_task("junk messages", total=total)

        async def one_socket(count: int) -> None:
            async with await self.hello(table, token) as ws:
                for _ in range(count):
                    try:
                        await ws.send(junk(rng))
                    except websockets.ConnectionClosed:
                        break
                    probe.sent += 1
                answers = 0  # every junk message is answered: a refusal (or a pong)
                try:
                    while True:
                        reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                        answers += reply.get("type") in ("error", "pong")
                        if answers == count and count <= MAX_REFUSALS:  # too few to close for
                            probe.outcomes["answered, open"] += 1
                            return
                except websockets.ConnectionClosed as closed:
                    code = closed.rcvd.code if closed.rcvd else 1006
                    probe.outcomes[f"closed {code}"] += 1
                except TimeoutError:
                    probe.outcomes["still open after 30 s"] += 1

        left = total
        while left > 0:
            batch = [min(JUNK_PER_SOCKET, left - i * JUNK_PER_SOCKET) for i in range(4)]
            batch = [n for n in batch if n > 0]
            await asyncio.gather(*(one_socket(n) for n in batch))
            left -= sum(batch)
            progress.update(task, completed=total - left)
        if not await self.healthy():
            probe.fail("/healthz stopped answering")
        if probe.outcomes["closed 1006"]:
            probe.fail("sockets closed without a close frame (1006)")
        return probe

    async def many_sockets(self, count: int, progress: Progress) -> Probe:
        probe = Probe("sockets at one table")
        _host, host_token = await self.person("Host")
        table = await self.table(host_token)
        people = [await self.person(f"W{i}") for i in range(PEOPLE)]
        task = progress.add_task("sockets", total=count)
        host = await self.hello(table, host_token)
        await asyncio.wait_for(host.recv(), 30)
        opened: list[Any] = []
        for n in range(count):
            _pid, token = people[n % len(people)]
            ws = await self.hello(table, token)
            probe.sent += 1
            try:
                reply = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if reply.get("type") == "welcome":
                    probe.outcomes["watching"] += 1
                    opened.append(ws)
                else:
                    probe.outcomes[f"refused: {reply.get('code')}"] += 1
                    await ws.close()
            except websockets.ConnectionClosed as closed:
                probe.outcomes[f"closed {closed.rcvd.code if closed.rcvd else 1006}"] += 1
            progress.update(task, advance=1)
        told = 0
        with_timeout = 0.5
        try:
            while True:
                await asyncio.wait_for(host.recv(), with_timeout)
                told += 1
        except (TimeoutError, websockets.ConnectionClosed):
            pass
        probe.notes.append(f"the seated host was sent {told} messages while they came")
        if told > 50:
            probe.fail(f"watchers flooded the seated player ({told} messages)")
        for ws in [*opened, host]:
            await ws.close()
        if not await self.healthy():
            probe.fail("/healthz stopped answering")
        return probe

    async def fuzzed_http(self, total: int, progress: Progress) -> Probe:
        probe = Probe("fuzzed HTTP requests")
        _pid, token = await self.person("Fuzz")
        table = await self.table(token)
        rng = random.Random(2)
        paths = [
            "/api/tables",
            f"/api/tables/{table}",
            f"/api/tables/{table}/join",
            f"/api/tables/{table}/bots",
            "/api/tables/named",
            "/api/quickplay",
            "/api/players",
            "/api/me",
            "/api/leaderboards/winners",
            "/api/players/p_x/profile",
            "/api/matches/m_x",
            "/api/keeper/games",
        ]
        task = progress.add_task("HTTP requests", total=total)

        async def one() -> None:
            path = rng.choice(paths)
            query = rng.choice(["", "?page=99999999999999999999", "?table=%00", "?game=x"])
            body: Any = rng.choice([None, {}, [], "x", {"seats": "9"}, {"name": "\u202eevil"}])
            if rng.random() < 0.2:
                body = {"options": {"a": [[[[[[1]]]]]]}, "seats": 2**70}
            headers = {"Authorization": f"Bearer {token}"} if rng.random() < 0.7 else {}
            method = rng.choice(["GET", "POST", "PATCH", "DELETE"])
            try:
                answer = await self.http.request(method, path + query, json=body, headers=headers)
                probe.outcomes[str(answer.status_code)] += 1
                if answer.status_code >= 500 and answer.status_code != 503:
                    probe.fail(f"{method} {path}{query} gave {answer.status_code}")
            except httpx.HTTPError as error:
                probe.outcomes[type(error).__name__] += 1
            probe.sent += 1
            progress.update(task, advance=1)

        for _ in range(0, total, 50):
            await asyncio.gather(*(one() for _ in range(min(50, total - probe.sent))))
        if not await self.healthy():
            probe.fail("/healthz stopped answering")
        return probe

    async def hidden_cards(self, watchers: int) -> Probe:
        """A match played out by a person and a bot while others watch: no watcher is ever
        shown a hand or a list of moves (R7.2)."""
        probe = Probe("hidden cards to spectators")
        _pid, token = await self.person("Player")
        headers = {"Authorization": f"Bearer {token}"}
        table = await self.table(token)
        await self.http.post(f"/api/tables/{table}/bots", json={"level": "easy"}, headers=headers)
        players = [await self.person(f"Watcher{i}") for i in range(watchers)]
        sockets = []
        for _w, watcher in players:
            ws = await self.hello(table, watcher)
            sockets.append(ws)
        me = await self.hello(table, token)
        await self.http.post(f"/api/tables/{table}/start", headers=headers)

        rng = random.Random(3)
        finished = asyncio.Event()

        async def play() -> None:
            moves = 0
            try:
                while True:
                    message = json.loads(await asyncio.wait_for(me.recv(), 60))
                    if any(e.get("kind") == "match_over" for e in message.get("events", [])):
                        return
                    legal = message.get("legal") or []
                    if legal:
                        stock = [a for a in legal if a.get("from") == "stock"]
                        plays = [a for a in legal if a.get("type") == "play"]
                        action = (
                            (stock or plays or legal)[0]
                            if stock
                            else rng.choice(plays if plays and rng.random() < 0.9 else legal)
                        )
                        moves += 1
                        await me.send(
                            json.dumps({"type": "action", "id": f"m{moves}", "action": action})
                        )
            except (TimeoutError, websockets.ConnectionClosed):
                return
            finally:
                finished.set()

        async def watch(ws: Any) -> None:
            try:
                while not (finished.is_set() and probe.outcomes["saw the match end"]):
                    message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    probe.sent += 1
                    if (message.get("view") or {}).get("hand") or message.get("legal"):
                        probe.fail("a spectator was shown a hand or moves")
                    if any(e.get("kind") == "match_over" for e in message.get("events", [])):
                        probe.outcomes["saw the match end"] += 1
                        return
            except (TimeoutError, websockets.ConnectionClosed):
                return

        await asyncio.gather(play(), *(watch(ws) for ws in sockets))
        for ws in [*sockets, me]:
            await ws.close()
        probe.outcomes["messages read by watchers"] = probe.sent
        if not probe.sent:
            probe.fail("the watchers were sent nothing")
        return probe

    async def private_table(self) -> Probe:
        probe = Probe("a private table's id alone")
        _ada, ada = await self.person("Ada")
        _eve, eve = await self.person("Eve")
        table = await self.table(ada, bots=1)
        headers = {"Authorization": f"Bearer {eve}"}
        for path in ("", "/join", "/bots", "/start"):
            method = "GET" if not path else "POST"
            answer = await self.http.request(
                method, f"/api/tables/{table}{path}", json={}, headers=headers
            )
            probe.sent += 1
            probe.outcomes[str(answer.status_code)] += 1
            if answer.status_code != 404:
                probe.fail(f"{method} {path or '/'} gave {answer.status_code}")
        async with await self.hello(table, eve) as ws:
            probe.sent += 1
            try:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else 1006
                probe.outcomes[f"closed {code}"] += 1
                if code != 4404:
                    probe.fail(f"the socket closed with {code}, not 4404")
        return probe


async def _run(url: str, messages: int, sockets: int, requests: int) -> list[Probe]:
    ws_url = url.replace("http", "ws", 1)
    run = Run(url, ws_url)
    with Progress(transient=True) as progress:
        probes = [
            await run.junk_messages(messages, progress),
            await run.many_sockets(sockets, progress),
            await run.fuzzed_http(requests, progress),
            await run.hidden_cards(4),
            await run.private_table(),
        ]
    await run.http.aclose()
    return probes


def report(probes: list[Probe], seconds: float, console: Console) -> None:
    table = Table(title=f"What held ({seconds:.0f} s)")
    for column in ("probe", "sent", "what came back", "held"):
        table.add_column(column)
    for p in probes:
        came = ", ".join(f"{k}: {v}" for k, v in p.outcomes.most_common(6))
        notes = ("\n" + "; ".join(p.notes)) if p.notes else ""
        table.add_row(p.name, str(p.sent), came + notes, "yes" if p.held else "[red]NO[/red]")
    console.print(table)


def port_is_free(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:``port`` (the server can bind it): a bench on a
    busy port would flood whatever answers there instead of its own server."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server binds it
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def main(
    messages: int = 100_000, sockets: int = 1000, requests: int = 10_000, port: int | None = None
) -> bool:
    """Run the probes against a server of its own on ``port`` (None: a free port)."""
    console = Console()
    shown = "" if port is None else f" --port {port}"
    console.print(
        f"cardroom bench abuse --messages {messages} --sockets {sockets} --requests {requests}"
        + shown
    )
    if port is not None and not port_is_free(port):
        console.print(f"[red]port {port} is in use on 127.0.0.1[/red]")
        return False
    port = free_port() if port is None else port
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            sys.executable,
            "-m",
            "cardroom.cli",
            "serve",
            "--port",
            str(port),
            "--db",
            f"sqlite:///{tmp}/abuse.db",
        ]
        server = start(command, port, ENV, tmp)
        began = time.monotonic()
        try:
            probes = asyncio.run(_run(f"http://127.0.0.1:{port}", messages, sockets, requests))
        finally:
            stop(server)
    report(probes, time.monotonic() - began, console)
    return all(p.held for p in probes)


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
