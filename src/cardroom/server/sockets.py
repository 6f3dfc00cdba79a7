"""The WebSocket endpoint: a thin shell that checks each message (size, rate, shape, token)
and hands it to the table's actor. Game decisions never happen here."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, WebSocket

from cardroom.moderation.sanctions import MUTE
from cardroom.server import metrics
from cardroom.server.connection import Connection
from cardroom.server.privacy import check_visible
from cardroom.server.protocol import (
    CLOSE_TOO_DEEP,
    ActionRequest,
    ChatRequest,
    Hello,
    HintRequest,
    Ping,
    ProtocolError,
    ReadyRequest,
    Resync,
    TooDeep,
    action_id_of,
    dumps,
    error_message,
    parse,
)
from cardroom.tables.errors import Refusal

router = APIRouter()

HELLO_TIMEOUT = 10.0
MAX_REFUSALS = 100  # refused messages (flooding, junk) before a socket is closed
CLOSE_CODES = {404: 4404, 429: 4429}  # a refused hello's close code, by the refusal's status
CLOSE_FORBIDDEN = 4403  # a banned player's hello (and sockets open when the ban came)


class RateLimit:
    """A token bucket: ``rate`` messages per second on average, bursts of ``burst``."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, float(burst)
        self.tokens = float(burst)
        self.last = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        metrics.rate_limited("socket_messages")
        return False


async def texts(websocket: WebSocket, conn: Connection) -> AsyncIterator[str]:
    """A socket's messages as text, until it is gone or the server closed ``conn``: a
    binary frame is read as UTF-8 (not UTF-8: an empty text, which the parser refuses)."""
    while not conn.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        text = _text(message)
        if text is not None:
            yield text


def _text(message: Mapping[str, Any]) -> str | None:
    if message.get("text") is not None:
        return message["text"]
    raw = message.get("bytes")
    if raw is None:
        return None
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return ""


async def muted_notice(state: Any, player_id: str) -> str | None:
    """The ``muted`` refusal of a chat line, or None when the player may speak. Checked here,
    at the socket's own process, from the player's standing (the store's, cached briefly and
    dropped at once when a sanction is made anywhere: ``moderation_watch.py``)."""
    standing = await state.auth.standing(player_id)
    mute = standing.active(MUTE, datetime.now(UTC))
    if mute is None:
        return None
    return dumps(
        {
            "type": "error",
            "id": None,
            "about": "chat",
            "code": "muted",
            "rule": None,
            "message": f"you are {mute.sentence()}",
            "until": mute.to_json()["until"],
            "sanction": mute.to_json(),
        }
    )


@router.websocket("/ws/tables/{table_id}")
async def play(websocket: WebSocket, table_id: str) -> None:
    state = websocket.app.state
    settings = state.settings
    await websocket.accept()
    try:
        first = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        text = _text(first)
        hello = parse(text) if text is not None else None
        if not isinstance(hello, Hello):
            raise ProtocolError("unauthorized", "the first message must be hello with a token")
        identity = await state.auth.verify(hello.token)  # the stored name, a live generation
        actor = await state.tables.find(table_id)
        invite = websocket.query_params.get("invite")
        check_visible(actor.info(), identity, invite, state.invitations)
    except (TimeoutError, ProtocolError, Refusal) as error:
        code = 4404 if isinstance(error, Refusal) and error.status == 404 else 4401
        if isinstance(error, Refusal) and error.status == 403:
            code = CLOSE_FORBIDDEN
        message = getattr(error, "message", "say hello with your token first")
        reason = None
        if isinstance(error, TooDeep):
            code, reason = CLOSE_TOO_DEEP, error.message
        with contextlib.suppress(Exception):
            await websocket.send_text(
                error_message(getattr(error, "code", "unauthorized"), message)
            )
            await websocket.close(code, reason)
        return
    except Exception:  # the client went away before saying hello
        return

    conn = Connection(websocket, identity, hello.batch)
    try:
        await actor.ask(actor.connect, conn, hello.since)
    except Refusal as error:
        await conn.finish()
        with contextlib.suppress(Exception):
            await websocket.send_text(error_message(error.code, error.message))
            await websocket.close(CLOSE_CODES.get(error.status, 4404))
        return
    limit = RateLimit(settings.rate, settings.rate_burst)
    refusals = 0
    try:
        async for text in texts(websocket, conn):
            try:
                if len(text) > settings.max_message:
                    raise ProtocolError(
                        "too_large", f"a message is at most {settings.max_message} bytes"
                    )
                if not limit.allow():
                    raise ProtocolError(
                        "rate_limited", "too many messages; slow down", action_id_of(text)
                    )
                request = parse(text)
            except ProtocolError as error:
                metrics.refused(error.code)
                refusals += 1
                conn.send(
                    error_message(
                        error.code, error.message, action_id=error.action_id, field=error.field
                    )
                )
                if isinstance(error, TooDeep):  # not read at all: the sender is not a client
                    conn.close(CLOSE_TOO_DEEP, error.message)
                elif refusals > MAX_REFUSALS:
                    conn.close(4408)
                continue
            if isinstance(request, ActionRequest):
                actor.tell(actor.handle_action, conn, request)
            elif isinstance(request, Ping):
                conn.send(dumps({"type": "pong", "id": request.id}))
            elif isinstance(request, Resync):
                actor.tell(actor.resync, conn)
            elif isinstance(request, ChatRequest):
                muted = await muted_notice(state, identity.id)
                if muted is not None:
                    metrics.refused("muted")
                    conn.send(muted)
                else:
                    actor.tell(actor.chat, conn, request.text)
            elif isinstance(request, HintRequest):
                actor.tell(actor.hint, conn)
            elif isinstance(request, ReadyRequest):
                actor.tell(actor.ready, conn)
            else:
                conn.send(error_message("bad_message", "hello is sent once, first"))
    except Exception:  # the socket broke: same as a disconnect
        pass
    finally:
        actor.tell(actor.disconnect, conn)
        await conn.finish()
