"""A table's WebSocket goes straight to its handler (``CardroomApp``), skipping the router and
the HTTP middleware whose frames would stay on every open socket's stack: an open socket costs
about 30 KB instead of 47 (measured from outside, docs/performance.md). Everything else takes
the whole stack."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from cardroom.server import app as app_module
from cardroom.server.app import create_app
from cardroom.server.settings import Settings


@pytest.mark.parametrize(
    ("path", "short_cut"),
    [
        ("/ws/tables/t_1234", "t_1234"),
        ("/ws/tables/", None),  # no id: the router refuses it
        ("/ws/tables/t_1/more", None),  # not a table's socket
    ],
)
def test_only_a_table_s_socket_takes_the_short_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str, short_cut: str | None
) -> None:
    app = create_app(Settings(db_url=f"sqlite:///{tmp_path / 'short.db'}", bot_executor="inline"))
    handled: list[tuple[str, Any]] = []

    async def play(websocket: Any, table_id: str) -> None:
        handled.append((table_id, websocket.app))

    monkeypatch.setattr(app_module.sockets, "play", play)
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "websocket.connect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "websocket",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": b"",
        "headers": [],
        "scheme": "ws",
        "server": ("127.0.0.1", 8000),
        "client": ("127.0.0.1", 50000),
        "subprotocols": [],
        "asgi": {"version": "3.0"},
    }
    asyncio.run(app(scope, receive, send))
    if short_cut is None:
        assert handled == []
        assert sent and sent[0]["type"] == "websocket.close"  # refused by the router
    else:
        assert handled == [(short_cut, app)]  # the handler sees the app, as through the router
