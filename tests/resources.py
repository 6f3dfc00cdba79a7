"""What each test worker owns, so workers running side by side (pytest-xdist) never meet.

Ports: each worker takes free ports from a range of its own, below the kernel's ephemeral range
(32768 and up on Linux), so no other worker's port and no outgoing connection's port can be
handed to it between the check and the server's bind. PostgreSQL databases and Redis key
prefixes are named afresh by every test (tests/server/conftest.py, the Redis fixtures);
browsers and temporary folders are per worker already (session fixtures, ``tmp_path``).
"""

from __future__ import annotations

import itertools
import os
import select
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx

FIRST_PORT = int(os.environ.get("CARDROOM_TEST_PORTS", "10000"))
"""Where the workers' ranges start: two suites sharing a machine set it apart (e.g. 20000)."""
PORTS_PER_WORKER = 500
MAX_WORKERS = 20  # 10,000 + 20 x 500 stays below 20,000; 20,000 + 20 x 500 below 32,768


def worker_number() -> int:
    """0 for ``gw0`` (or a run without xdist), 1 for ``gw1``, ..."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    number = int(name.removeprefix("gw") or 0)
    if number >= MAX_WORKERS:
        raise RuntimeError(f"at most {MAX_WORKERS} test workers share this machine's ports")
    return number


_candidates = itertools.cycle(
    range(
        FIRST_PORT + worker_number() * PORTS_PER_WORKER,
        FIRST_PORT + (worker_number() + 1) * PORTS_PER_WORKER,
    )
)


def free_port() -> int:
    """A port of this worker's range that nothing listens on now (the next one that binds)."""
    for _ in range(PORTS_PER_WORKER):
        port = next(_candidates)
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("every port of this test worker's range is taken")


def wait_until_serving(url: str, process: subprocess.Popen[Any], log: Path) -> None:
    """Return once the server at ``url`` answers ``/healthz``; fail at once if its process
    exits, and after a minute if it never answers. Every test server is waited for here."""
    deadline = time.monotonic() + SERVER_START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log.read_text()[-3000:]}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        _retry.wait(0.05)  # the server's socket is not open yet: ask again shortly
    raise RuntimeError(f"the server did not come up:\n{log.read_text()[-3000:]}")


SERVER_START_SECONDS = 60.0  # generous: a loaded 2-core machine must not fail a correct server
_retry = threading.Event()  # never set: its wait is the pause between two questions


def processes_left(*words: str, within: float = 10.0) -> list[str]:
    """The live processes (zombies aside) whose command line holds every one of ``words``,
    once they have had up to ``within`` seconds to end: a process killed with SIGKILL dies
    moments after the kill returns. Each one found is awaited on a pidfd (a killed program's
    children are no child of ours to wait for), then /proc is read again, for any it started
    meanwhile."""
    deadline = time.monotonic() + within
    while True:
        found = _processes_with(words)
        if not found or time.monotonic() > deadline:
            return list(found.values())
        for pid in found:
            exited(pid, within=max(0.0, deadline - time.monotonic()))


def _processes_with(words: tuple[str, ...]) -> dict[int, str]:
    """The live processes whose command line holds every one of ``words``: pid, command."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue  # it ended meanwhile
        if state != "Z" and all(word in command for word in words):
            found[int(entry.name)] = command
    return found


def exited(pid: int, within: float) -> bool:
    """Whether process ``pid`` is gone (or a zombie) within ``within`` seconds, any process,
    not only a child of ours: its pidfd becomes readable the moment it exits."""
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return True  # gone already
    try:
        readable, _, _ = select.select([pidfd], [], [], within)
        return bool(readable)
    finally:
        os.close(pidfd)
