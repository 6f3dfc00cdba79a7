"""An HTTP connection upgraded to a WebSocket lets go of its HTTP protocol at once
(``HeaderTimeoutProtocol.handle_websocket_upgrade``): uvicorn's own keeps its parser, which
holds the protocol's callbacks, a reference cycle with the upgrade request's headers that
waits for a full garbage collection (the server's thresholds make those rare)."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import uvicorn
import websockets
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from cardroom.server.slow_clients import protocol_with
from tests.server.conftest import free_port


async def _echo(scope: Any, receive: Any, send: Any) -> None:
    assert scope["type"] == "websocket"
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    while (message := await receive())["type"] != "websocket.disconnect":
        await send({"type": "websocket.send", "text": message.get("text")})


def _http_protocols_left(http: Any) -> int:
    """Serve one WebSocket (a message and its echo, then closed by the client) with garbage
    collection off; how many HTTP protocols are still in memory once it has ended."""
    port = free_port()

    async def run() -> int:
        config = uvicorn.Config(
            _echo, host="127.0.0.1", port=port, http=http, lifespan="off", log_level="warning"
        )
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        async with websockets.connect(f"ws://127.0.0.1:{port}/") as client:
            await client.send("hello")
            assert await client.recv() == "hello"
        for _ in range(100):  # until the server has seen the connection end
            await asyncio.sleep(0.02)
            if not server.server_state.connections:
                break
        left = sum(isinstance(o, HttpToolsProtocol) for o in gc.get_objects())
        server.should_exit = True
        await serving
        return left

    gc.collect()
    gc.disable()
    try:
        return asyncio.run(run())
    finally:
        gc.enable()


def test_an_upgraded_connection_s_http_protocol_is_freed_without_a_collection() -> None:
    assert _http_protocols_left(protocol_with(10.0)) == 0


def test_uvicorn_s_own_leaves_it_to_the_collector() -> None:
    """What the override is for: if uvicorn ever lets go itself, this fails and it can go."""
    assert _http_protocols_left("httptools") == 1
