"""The soak's probe (``/internal/probe``): off unless asked for, behind the metrics token, and
what it counts."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from tests.server.conftest import Server

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
def test_the_probe_is_off_unless_asked_for_and_needs_the_token(
    server: Server, fresh_server: Callable[..., Server]
) -> None:
    assert httpx.get(f"{server.url}/internal/probe").status_code == 404
    probed = fresh_server(CARDROOM_PROBE="1", CARDROOM_METRICS_TOKEN="probe-token")
    probed.start()
    assert httpx.get(f"{probed.url}/internal/probe").status_code == 404
    wrong = {"Authorization": "Bearer nope"}
    assert httpx.get(f"{probed.url}/internal/probe", headers=wrong).status_code == 404
    right = {"Authorization": "Bearer probe-token"}
    answer = httpx.get(f"{probed.url}/internal/probe", headers=right, timeout=60)
    assert answer.status_code == 200
    data = answer.json()
    for key in ("rss", "heap_blocks", "tasks", "threads", "fds", "db_connections", "sockets"):
        assert isinstance(data[key], int) and data[key] >= 0, key
    assert data["sizes"]["tables"] == 0 and "limiter:daily_player" in data["sizes"]
    assert data["objects"] and all(isinstance(n, int) for n in data["objects"].values())
