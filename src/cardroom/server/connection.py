"""One open WebSocket as the tables see it: who it is, and a queue of messages to send.

Tables push text without waiting, so a slow client never holds up a table; a client that falls
too far behind is disconnected instead of growing the queue without end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket

from cardroom.cancelling import cancel_and_wait
from cardroom.server import metrics
from cardroom.server.auth import Identity

log = logging.getLogger(__name__)

MAX_QUEUED = 2000
LIVE: dict[str, set[Connection]] = {}
"""This process's open sockets (tables and ranked queue) by player: what a sanction reaches."""
FLUSH_SECONDS = 2.0
"""How long a socket we close gets to receive what was queued before its close frame."""


class Connection:
    def __init__(self, websocket: WebSocket, identity: Identity, batch: bool = False) -> None:
        self.websocket = websocket
        self.identity = identity
        self.batch = batch  # said in its hello: what one command tells it comes as one frame
        self.closed = False
        self._close_code: int | None = None
        self._close_reason: str | None = None
        self._outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write(), name=f"ws-writer-{identity.id}")
        self._counted = True  # among the open sockets (``cardroom_sockets``) until finished
        metrics.socket_opened()
        LIVE.setdefault(identity.id, set()).add(self)

    @property
    def player_id(self) -> str:
        return self.identity.id

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self._outbox.qsize() >= MAX_QUEUED:
            log.warning(
                "closing a socket of %s: too far behind",
                self.player_id,
                extra={"player": self.player_id},
            )
            self.close(4408)
            return
        self._outbox.put_nowait(text)

    def close(self, code: int = 1000, reason: str | None = None) -> None:
        """Close after what is queued, with ``code`` and ``reason`` in the close frame."""
        if self.closed:
            return
        self.closed = True
        self._outbox.put_nowait(None)
        self._close_code = code
        self._close_reason = reason

    async def _write(self) -> None:
        try:
            while True:
                text = await self._outbox.get()
                if text is None:
                    with contextlib.suppress(Exception):
                        await self.websocket.close(self._close_code or 1000, self._close_reason)
                    return
                await self.websocket.send_text(text)
                del text  # not held while waiting for the next one (a sync is kilobytes)
        except Exception:  # the socket went away; the reader notices and cleans up
            self.closed = True

    async def finish(self) -> None:
        """Stop the writer once the socket is gone. A socket the server closed (a flood, a
        client too far behind) first gets what was queued, then the close frame with its code
        (e.g. 4408), within ``FLUSH_SECONDS``: a client learns why, rather than seeing 1006."""
        if self._close_code is not None and not self._writer.done():
            with contextlib.suppress(TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), FLUSH_SECONDS)
        self.closed = True
        if self._counted:
            self._counted = False
            metrics.socket_closed()
            mine = LIVE.get(self.identity.id)
            if mine is not None:
                mine.discard(self)
                if not mine:
                    del LIVE[self.identity.id]
        await cancel_and_wait(self._writer)


def sockets_of(player_id: str) -> list[Connection]:
    """The player's sockets open to this process (a copy: closing one changes the set)."""
    return list(LIVE.get(player_id, ()))


def live_sockets() -> int:
    return sum(len(conns) for conns in LIVE.values())
