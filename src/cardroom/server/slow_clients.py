"""Connections that send their request head too slowly are closed.

uvicorn starts no timer until a request's head is complete, so a client that opens a
connection and sends a few header bytes now and then (a "slowloris") holds a connection,
and its buffers, for as long as it likes: 800 such connections stayed open 40 s in a probe.
This protocol (uvicorn's own HTTP protocol, one timer added) gives every request head
``header_timeout`` seconds from its first byte, or from the connection's opening, and closes
the connection when it runs out. A WebSocket's own limit is the ``hello`` deadline.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT = 10.0


class HeaderTimeoutProtocol(HttpToolsProtocol):
    header_timeout = HEADER_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_websocket_upgrade(self) -> None:
        """Hand the connection to the WebSocket's protocol, then let go of this one. uvicorn
        drops its parser when a connection is lost, but an upgraded connection is never lost
        here: the parser (which holds this protocol's callbacks) and this protocol were a
        reference cycle, with the upgrade request's headers, left for a full collection."""
        super().handle_websocket_upgrade()  # after on_headers_complete: the timer is off
        self.parser = None  # type: ignore[assignment]

    def _arm(self) -> None:
        self._disarm()
        self._head_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.close()


def protocol_with(timeout: float) -> type[HeaderTimeoutProtocol]:
    """The protocol class with this process's head timeout (uvicorn makes one per connection)."""
    return type("HeaderTimeout", (HeaderTimeoutProtocol,), {"header_timeout": timeout})
