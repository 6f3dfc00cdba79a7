"""Cardroom as operators run it (docs/deploy.md): real nginx, with the very site file the docs
ship (deploy/nginx/cardroom.conf), in front of two ``cardroom serve`` processes on a fresh
PostgreSQL database and a Redis prefix of their own.

People play a match through nginx, over TLS, HTTP and WebSockets; the process that owns the
table is killed with SIGKILL in mid-match; nginx sends every request on to the other process
and the people, reconnecting through nginx, finish the match there. The processes believe
nginx about the client's address, and nobody else: a client that reaches a process's port
directly cannot choose the address that its rate limits and the ladder's linked accounts see.

nginx is Debian's package (``make nginx`` installs it, as ``make test`` does);
``CARDROOM_TEST_NGINX`` names another binary.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import secrets
import signal
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from conftest import (
    ROOT,
    TIMEOUT,
    Person,
    PostgresDatabase,
    Server,
    play_confirmed,
    play_until_over,
    reconnect_where_they_were,
    two_at_one_table,
)
from redis import Redis

from cardroom.games.skip import replay
from cardroom.league.ladder import ADDRESS, sighting_hash
from cardroom.server.sightings import sighting_key
from tests.resources import free_port

pytestmark = pytest.mark.postgres

NGINX = Path(os.environ.get("CARDROOM_TEST_NGINX", "/usr/sbin/nginx"))
SITE = ROOT / "deploy" / "nginx" / "cardroom.conf"
REDIS_URL = os.environ.get("CARDROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")
LEASE_TTL = 3.0  # seconds: a dead owner's tables are taken over soon after
OPTIONS = {"stock_size": 10, "match_target": None, "turn_timer": 3600}  # no early end
SECRET = "nginx-test-" + secrets.token_hex(8)  # known, so the test can hash an address
METRICS_TOKEN = "metrics-" + secrets.token_hex(8)
# Loopback addresses other than nginx's own (127.0.0.1, the trusted proxy): Linux answers
# all of 127.0.0.0/8 on the loopback interface, so a client can come "from elsewhere".
CLIENT = "127.0.0.3"
STRANGER = "127.0.0.2"
FORGED = "203.0.113.7"  # what a client claims in its own X-Forwarded-For


def site_config(ports: tuple[int, int], http: int, https: int, home: Path) -> str:
    """deploy/nginx/cardroom.conf with this test's ports and folders. Each value replaced
    must be in the file: a change there fails here, and docs/deploy.md is checked too."""
    text = SITE.read_text()
    ipv6 = _ipv6_loopback()
    for old, new in [
        ("server 127.0.0.1:8001 ", f"server 127.0.0.1:{ports[0]} "),
        ("server 127.0.0.1:8002 ", f"server 127.0.0.1:{ports[1]} "),
        ("listen 80;", f"listen 127.0.0.1:{http};"),
        ("listen [::]:80;", f"listen [::1]:{http};" if ipv6 else ""),
        ("listen 443 ssl http2;", f"listen 127.0.0.1:{https} ssl http2;"),
        ("listen [::]:443 ssl http2;", f"listen [::1]:{https} ssl http2;" if ipv6 else ""),
        ("/etc/letsencrypt/live/cards.example.org/", f"{home / 'tls'}/"),
        ("/var/www/letsencrypt", str(home / "webroot")),
        ("/var/log/nginx/", f"{home / 'logs'}/"),
    ]:
        assert old in text, f"{SITE.name} no longer says {old!r}: update test_nginx.py"
        text = text.replace(old, new)
    return text


def _ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as sock:
            sock.bind(("::1", 0))
        return True
    except OSError:
        return False


def make_certificate(folder: Path) -> ssl.SSLContext:
    """A self-signed certificate where certbot puts Let's Encrypt's, and a client context that
    trusts it (and nothing else)."""
    folder.mkdir()
    subprocess.run(
        [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "2", "-subj", "/CN=cards.example.org",
            "-addext", "subjectAltName=DNS:cards.example.org,IP:127.0.0.1",
            "-keyout", str(folder / "privkey.pem"), "-out", str(folder / "fullchain.pem"),
        ],
        check=True,
        capture_output=True,
    )  # fmt: skip
    return ssl.create_default_context(cafile=str(folder / "fullchain.pem"))


class Nginx:
    """nginx in the foreground with a prefix, logs, pid and temporary files in ``home``."""

    def __init__(self, home: Path, upstreams: tuple[int, int]) -> None:
        self.home = home
        self.http_port, self.https_port = free_port(), free_port()
        self.tls = make_certificate(home / "tls")
        for folder in ("logs", "webroot", "temp"):
            (home / folder).mkdir()
        (home / "cardroom.conf").write_text(
            site_config(upstreams, self.http_port, self.https_port, home)
        )
        temp = home / "temp"
        user = "user root;" if os.geteuid() == 0 else ""  # workers read files under /tmp
        (home / "nginx.conf").write_text(
            f"""{user}
worker_processes 1;
pid {home}/nginx.pid;
error_log {home}/logs/error.log info;
events {{ worker_connections 512; }}
http {{
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
    access_log off;
    include {home}/cardroom.conf;
}}
"""
        )
        self.command = [
            str(NGINX), "-p", f"{home}/", "-c", str(home / "nginx.conf"),
            "-e", str(home / "logs" / "error.log"),
        ]  # fmt: skip
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"https://127.0.0.1:{self.https_port}"

    @property
    def ws_url(self) -> str:
        return f"wss://127.0.0.1:{self.https_port}"

    @property
    def plain_url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    def start(self) -> None:
        checked = subprocess.run([*self.command, "-t"], capture_output=True, text=True)
        assert checked.returncode == 0, f"nginx -t refused the site:\n{checked.stderr}"
        out = open(self.home / "logs" / "nginx.out", "ab")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            [*self.command, "-g", "daemon off;"], stdout=out, stderr=out
        )
        out.close()
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited:\n{self.error_log()[-3000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", verify=self.tls, timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            _retry.wait(0.05)  # nginx's port is not open yet: ask again shortly
        raise RuntimeError(f"nginx did not come up:\n{self.error_log()[-3000:]}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: workers finish, then exit
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def access_log(self) -> list[str]:
        path = self.home / "logs" / "cardroom.access.log"
        return path.read_text().splitlines() if path.exists() else []

    async def logged(self, *parts: str) -> str:
        """The access log's line holding every one of ``parts``. nginx writes a request's line
        just after its answer's last byte, so a client may read the answer first: wait for it."""
        deadline = time.monotonic() + TIMEOUT
        while True:
            for line in self.access_log():
                if all(part in line for part in parts):
                    return line
            if time.monotonic() > deadline:
                raise AssertionError(f"no access log line with {parts}: {self.access_log()[-5:]}")
            await asyncio.sleep(0.05)  # nothing to await but the file: look again shortly

    def error_log(self) -> str:
        return "".join(
            path.read_text() for path in sorted((self.home / "logs").glob("*.log")) if path.exists()
        )


_retry = threading.Event()  # never set: its wait is the pause between two questions


class Deployment:
    """Two processes (node ids ``a`` and ``b``) behind one nginx."""

    def __init__(self, servers: tuple[Server, Server], nginx: Nginx, prefix: str) -> None:
        self.servers = servers
        self.nginx = nginx
        self.prefix = prefix
        self.db_url = servers[0].db_url

    def by_node(self, node: str) -> Server:
        return next(s for s in self.servers if s.env["CARDROOM_NODE_ID"] == node)

    def owner(self, table_id: str) -> Server:
        """The process holding the table's lease (docs/scaling.md)."""
        client = Redis.from_url(REDIS_URL)
        try:
            node = client.get(f"{self.prefix}table:{table_id}:owner")
        finally:
            client.close()
        assert node is not None, f"nobody holds the lease of {table_id}"
        return self.by_node(node.decode())


@contextlib.contextmanager
def deployed(workdir: Path) -> Iterator[Deployment]:
    if not NGINX.is_file():
        pytest.fail(f"no nginx at {NGINX}: `make nginx` installs Debian's (make test does)")
    db = PostgresDatabase()
    prefix = f"cardroom-test-{secrets.token_hex(4)}:"
    common = {
        "CARDROOM_REDIS_URL": REDIS_URL,
        "CARDROOM_REDIS_PREFIX": prefix,
        "CARDROOM_LEASE_TTL": str(LEASE_TTL),
        "CARDROOM_SECRET": SECRET,
        "CARDROOM_METRICS_TOKEN": METRICS_TOKEN,
        "CARDROOM_TRUSTED_PROXIES": "127.0.0.1",  # as deploy/cardroom.env.example says
    }
    servers = (
        Server(db.url, workdir, CARDROOM_NODE_ID="a", **common),
        Server(db.url, workdir, CARDROOM_NODE_ID="b", **common),
    )
    home = workdir / "nginx"
    home.mkdir()
    nginx = Nginx(home, (servers[0].port, servers[1].port))
    try:
        with ThreadPoolExecutor(2) as pool:  # both at once: they take turns to migrate
            list(pool.map(Server.start, servers))
        nginx.start()
        yield Deployment(servers, nginx, prefix)
    finally:
        nginx.stop()
        for server in servers:
            server.stop()
        db.drop()
        client = Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


@pytest.fixture
def deployment(tmp_path: Path) -> Iterator[Deployment]:
    """A deployment of one's own, to kill a process of."""
    with deployed(tmp_path) as made:
        yield made


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """One deployment for the tests that leave it as they found it."""
    with deployed(tmp_path_factory.mktemp("deployment")) as made:
        yield made


def match_over(message: dict[str, Any]) -> dict[str, Any]:
    return next(e["detail"] for e in message["events"] if e["kind"] == "match_over")


async def closed(person: Person) -> None:
    """Wait until the person's socket is closed from the other end (its reader ends)."""
    assert person._reader is not None
    await asyncio.wait_for(asyncio.shield(person._reader), TIMEOUT)
    await person.close()


async def test_a_match_through_nginx_survives_its_process_killed_mid_match(deployment):
    nginx = deployment.nginx
    ada = await Person(nginx, "Ada").register()
    bob = await Person(nginx, "Bob").register()
    tid = await two_at_one_table(ada, bob, OPTIONS)
    last = await play_confirmed(ada, bob, 10, seed=3)

    dead = deployment.owner(tid)
    alive = next(s for s in deployment.servers if s is not dead)
    dead.kill()  # SIGKILL: no lease released, no socket closed properly, nothing said

    # nginx passes every request on to the living process: none fails.
    async with httpx.AsyncClient(base_url=nginx.url, verify=nginx.tls, timeout=TIMEOUT) as http:
        for _ in range(4):
            assert (await http.get("/healthz")).status_code == 200
    # ... one of them was tried on the dead process first, then on the living one.
    await nginx.logged("GET /healthz", f"127.0.0.1:{dead.port}, 127.0.0.1:{alive.port}")

    # Sockets held by the dead process are cut by nginx; those on the living one are told to
    # reconnect (1012) once it takes the table over. Both reconnect through nginx.
    await asyncio.gather(closed(ada), closed(bob))
    syncs = await reconnect_where_they_were((ada, bob), tid, last, "takeover behind nginx")
    assert deployment.owner(tid) is alive
    finals = await asyncio.gather(
        play_until_over(ada, 4, syncs["Ada"]), play_until_over(bob, 5, syncs["Bob"])
    )
    assert match_over(finals[0]) == match_over(finals[1])
    match_id = match_over(finals[0])["match"]
    record = (await ada.http.get(f"/api/matches/{match_id}/record")).json()
    assert replay(record).over
    assert sum(len(r["moves"]) for r in record["rounds"]) > 10
    info = (await bob.http.get(f"/api/tables/{tid}")).json()["table"]
    assert info["match"]["over"]
    for person in (ada, bob):
        await person.close()
    for server in deployment.servers:  # both processes served this match through nginx
        await nginx.logged(f" 127.0.0.1:{server.port} ")


def addresses_seen(deployment: Deployment, player_id: str) -> set[str]:
    """The sightings' hashed addresses of a player (league/ladder.py), as stored."""
    with psycopg.connect(deployment.db_url) as conn:
        rows = conn.execute(
            "SELECT hash FROM league_sightings WHERE player_id = %s AND kind = %s",
            (player_id, ADDRESS),
        ).fetchall()
    return {row[0] for row in rows}


def hashed(address: str) -> str:
    return sighting_hash(sighting_key(SECRET), ADDRESS, address)


async def new_guest(url: str, name: str, source: str, tls: Any = None, **headers: str) -> str:
    transport = httpx.AsyncHTTPTransport(local_address=source, verify=tls or True)
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=TIMEOUT) as http:
        response = await http.post("/api/players", json={"name": name}, headers=headers)
    assert response.status_code == 201, response.text
    return str(response.json()["player"]["id"])


async def test_the_processes_believe_nginx_about_the_client_s_address_and_nobody_else(shared):
    deployment = shared
    nginx = deployment.nginx
    a = deployment.servers[0]
    forged = {"X-Forwarded-For": FORGED}

    # Through nginx: the address nginx saw, whatever the client wrote.
    through = await new_guest(nginx.url, "Cleo", CLIENT, nginx.tls, **forged)
    assert addresses_seen(deployment, through) == {hashed(CLIENT)}

    # Straight to a process's port from elsewhere: the header is ignored.
    direct = await new_guest(a.url, "Dora", STRANGER, **forged)
    assert addresses_seen(deployment, direct) == {hashed(STRANGER)}

    # From the trusted proxy's address the header is believed: that is what nginx relies on.
    proxied = await new_guest(a.url, "Emil", "127.0.0.1", **forged)
    assert addresses_seen(deployment, proxied) == {hashed(FORGED)}


async def test_nginx_serves_tls_only_with_hsts_certbot_s_challenges_and_one_request_id(shared):
    deployment = shared
    nginx = deployment.nginx
    challenge = nginx.home / "webroot" / ".well-known" / "acme-challenge"
    challenge.mkdir(parents=True)
    (challenge / "token-1").write_text("token-1.thumbprint")
    async with httpx.AsyncClient(base_url=nginx.plain_url, timeout=TIMEOUT) as plain:
        moved = await plain.get("/league/?period=week")
        assert moved.status_code == 301
        assert moved.headers["location"] == "https://127.0.0.1/league/?period=week"
        answer = await plain.get("/.well-known/acme-challenge/token-1")
        assert answer.status_code == 200 and answer.text == "token-1.thumbprint"

    async with httpx.AsyncClient(base_url=nginx.url, verify=nginx.tls, timeout=TIMEOUT) as http:
        lobby = await http.get("/api/tables")
        assert lobby.status_code == 200
        assert lobby.headers["strict-transport-security"] == "max-age=63072000"
        missing = await http.get("/api/tables/t_missing")
        assert missing.status_code == 404
        assert "strict-transport-security" in missing.headers
        # nginx's $request_id reaches the process: one id in its answer and nginx's log.
        request_id = missing.headers["x-request-id"]
        assert re.fullmatch(r"[0-9a-f]{32}", request_id)
        assert missing.json()["error"]["request_id"] == request_id
        await nginx.logged("GET /api/tables/t_missing", request_id)
        # Metrics are for Prometheus on the processes' own ports, never through the proxy.
        bearer = {"Authorization": f"Bearer {METRICS_TOKEN}"}
        assert (await http.get("/metrics", headers=bearer)).status_code == 404
    scraped = httpx.get(f"{deployment.servers[0].url}/metrics", headers=bearer, timeout=TIMEOUT)
    assert scraped.status_code == 200 and "cardroom_tables" in scraped.text
