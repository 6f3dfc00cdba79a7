"""The ranked queue's WebSocket (``/ws/queue``): hello with a token, then one ``queue``
message; the server answers ``queued``, then ``searching`` every second, then ``matched`` (where
to go) and closes. The ticket dies with the socket. Limits as the table sockets: message size,
rate, a hello within seconds, and a bounded number of refusals."""

from __future__ import annotations

import asyncio
import contextlib
import json
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, WebSocket

from cardroom.games import GAMES, get_game
from cardroom.moderation.sanctions import RANK_BAN
from cardroom.server import metrics
from cardroom.server.auth import Sanctioned
from cardroom.server.connection import Connection
from cardroom.server.limits import client_address, take_all
from cardroom.server.matchmaking import BOT_WAITS, modes_of
from cardroom.server.protocol import CLOSE_TOO_DEEP, TooDeep, check_depth, dumps, error_message
from cardroom.server.sockets import HELLO_TIMEOUT, MAX_REFUSALS, RateLimit, _text, texts
from cardroom.tables.errors import Refusal

router = APIRouter()

QUEUE_FIELDS = {"type", "game", "mode", "bot_after", "partner"}


def read_queue(data: Any) -> tuple[str, str, float | None, str | None]:
    """A ``queue`` message's game, mode, bot wait and partner, checked; else a refusal."""
    if not isinstance(data, dict) or data.get("type") != "queue":
        raise Refusal(400, "bad_message", "send a queue message: {type: queue, game, mode}")
    extra = set(data) - QUEUE_FIELDS
    if extra:
        raise Refusal(400, "bad_message", f"unexpected field: {sorted(extra)[0]}")
    game = data.get("game", "skip")
    try:
        game = get_game(game).name
    except (LookupError, TypeError):
        raise Refusal(400, "bad_request", f"no game {game!r}") from None
    mode = data.get("mode")
    if mode not in modes_of(game):
        raise Refusal(400, "bad_request", f"mode is one of {', '.join(modes_of(game))}")
    bot_after = data.get("bot_after")
    if bot_after not in BOT_WAITS or isinstance(bot_after, bool):
        choices = ", ".join("null" if w is None else str(w) for w in BOT_WAITS)
        raise Refusal(400, "bad_request", f"bot_after is one of {choices} (seconds)")
    partner = data.get("partner")
    if partner is not None and (not isinstance(partner, str) or not 3 <= len(partner) <= 40):
        raise Refusal(400, "bad_request", "partner is a player id")
    return game, mode, bot_after, partner


@router.websocket("/ws/queue")
async def queue(websocket: WebSocket) -> None:
    state = websocket.app.state
    settings = state.settings
    await websocket.accept()
    try:
        first = await asyncio.wait_for(websocket.receive(), HELLO_TIMEOUT)
        text = _text(first) or "null"
        check_depth(text)
        hello = json.loads(text)
        if not isinstance(hello, dict) or hello.get("type") != "hello":
            raise Refusal(401, "unauthorized", "the first message must be hello with a token")
        identity = await state.auth.verify(hello.get("token"))
    except Exception as error:  # a bad hello, a timeout, a client already gone
        with contextlib.suppress(Exception):
            if isinstance(error, Refusal | TooDeep):
                await websocket.send_text(error_message(error.code, error.message))
            if isinstance(error, TooDeep):
                await websocket.close(CLOSE_TOO_DEEP, error.message)
            else:
                await websocket.close(4401)
        return

    conn = Connection(websocket, identity)
    modes = {game: list(modes_of(game)) for game in sorted(GAMES)}
    conn.send(dumps({"type": "welcome", "modes": modes, "bot_after": BOT_WAITS}))
    try:
        async with asyncio.timeout(settings.queue_max_wait):
            await _listen(websocket, conn, state, settings)
    except TimeoutError:  # waited too long: the ticket goes (``finally``), with a word
        minutes = round(settings.queue_max_wait / 60)
        reason = f"nobody was found in {minutes} min: queue again, or play against a bot"
        conn.send(dumps({"type": "left", "reason": reason}))
    except Exception:  # the socket broke: the same as a disconnect
        pass
    finally:
        await state.queue.leave(conn)
        conn.close(1000)
        await conn.finish()


async def _listen(websocket: WebSocket, conn: Connection, state: Any, settings: Any) -> None:
    """The socket's messages until it closes or leaves: one ``queue``, pings, a ``leave``."""
    limit = RateLimit(settings.rate, settings.rate_burst)
    queued = False
    refusals = 0
    try:
        async for text in texts(websocket, conn):
            try:
                if len(text) > settings.max_message or not limit.allow():
                    raise Refusal(429, "rate_limited", "too many or too large messages")
                check_depth(text)
                data = json.loads(text)
                if isinstance(data, dict) and data.get("type") == "ping":
                    conn.send(dumps({"type": "pong", "id": data.get("id")}))
                    continue
                if isinstance(data, dict) and data.get("type") == "leave":
                    break
                if queued:
                    raise Refusal(409, "already_queued", "this socket is in the queue already")
                game, mode, bot_after, partner = read_queue(data)
                standing = await state.auth.standing(conn.identity.id)
                rank_ban = standing.active(RANK_BAN, datetime.now(UTC))
                if rank_ban is not None:
                    raise Sanctioned("rank_banned", rank_ban, "no ranked play")
                g = state.guards  # each queue entry may make a table: the tables' limits
                take_all(
                    (
                        (g.create_player, conn.identity.id),
                        (g.create_address, client_address(websocket.scope)),
                    ),
                    "queue entries",
                )
                await state.queue.join(conn, game, mode, bot_after, partner)
                queued = True
            except (Refusal, ValueError) as error:
                refusals += 1
                code = getattr(error, "code", "bad_message")
                metrics.refused(code)
                conn.send(error_message(code, getattr(error, "message", "not JSON")))
                if isinstance(error, TooDeep):  # not read at all
                    conn.close(CLOSE_TOO_DEEP, error.message)
                elif refusals > MAX_REFUSALS:
                    conn.close(4408)
    except Exception:  # the socket broke: the same as a disconnect
        pass
