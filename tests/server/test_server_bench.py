"""``cardroom bench server`` in a short version: its own server and echo, every run measured.

The figures themselves are the bench's to print (never a test's to judge: this machine's speed
swings); what is checked is that each run happened and nothing failed. README.md's command
is checked here (tests/engine/test_documented_commands.py, ``RUN_ELSEWHERE``).
"""

from __future__ import annotations

from typing import Any

import pytest

from cardroom.benchmarks import server_load


def test_the_server_bench_runs_short_with_churn(
    monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """What ``cardroom bench server`` runs (``main``: the in-process tables, the server runs,
    the printout), with what it measured kept to check."""
    measured: list[Any] = []

    def run(*args: Any, **kwargs: Any) -> Any:
        measured.append(measure(*args, **kwargs))
        return measured[-1]

    measure = server_load.run
    monkeypatch.setattr(server_load, "run", run)
    server_load.main(tables=3, seconds=1.0, think=0.2, churn=10)
    printed = capfd.readouterr().out
    assert "memory per busy table" in printed and "in-process, 3 busy tables" in printed
    [(results, memory)] = measured
    runs = {r.what: r for r in results}
    assert set(runs) == {
        "server, thinking 0.2 s",
        "server, flat out",
        "server, thinking 0.2 s, 10 watchers/s",
        "server, flat out, metrics off",
        "bare echo, thinking 0.2 s",
        "bare echo, flat out",
    }
    for r in results:
        assert r.moves > 0 and r.errors == 0, r
        assert r.events >= r.moves and r.latencies, r
    churned = runs["server, thinking 0.2 s, 10 watchers/s"]
    # Watchers came and went (how many fit in its one second depends on the machine's load).
    assert churned.watches >= 1 and churned.watch_errors == 0, churned
    assert len(churned.watch_latencies) == churned.watches
    assert all(not r.watches for r in results if r is not churned)
    # The server's memory after each of its three runs, and its stored moves.
    assert len(memory.busy) == 3 and all(rss > memory.empty > 0 for rss in memory.busy)
    assert memory.moves > 0 and memory.move_bytes > 0
