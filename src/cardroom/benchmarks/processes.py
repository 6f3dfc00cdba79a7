"""The benchmarks' own processes: a free port, a server started and stopped, and what the
operating system says of a process's CPU time and resident memory (Linux ``/proc``)."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(command: list[str], port: int, env: dict[str, str], cwd: str) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        command, env={**os.environ, **env}, cwd=cwd, stdout=subprocess.DEVNULL, stderr=sys.stderr
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:  # it never listened (its port taken meanwhile, ...)
            raise RuntimeError(f"{command[0]} exited ({process.returncode}) before it served")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise RuntimeError(f"{command[0]} did not start on port {port}")


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU time so far (Linux ``/proc``; NaN elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid: int) -> int:
    """A process's resident memory (Linux ``/proc``; 0 elsewhere)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    match = re.search(r"^VmRSS:\s+(\d+) kB", status, re.MULTILINE)
    return int(match.group(1)) * 1024 if match else 0


def stop(process: subprocess.Popen[bytes]) -> None:
    process.send_signal(signal.SIGINT)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()
