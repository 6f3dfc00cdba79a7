"""The score keeper's HTTP API and its live view (``docs/keeper.md``, ``docs/protocol.md``
section 9): kept games owned by a player, changed one entry at a time, shared read-only by a
code and pushed to every viewer's socket as they change.

Every entry is judged by the keeper (``cardroom.keeper``), which names the field to correct;
a refused entry stores nothing. Each change is one journal step that reads the game locked,
checks it (owner, entry id already applied, revision, the keeper's rules, the caps) and writes
it, so two devices, or two server processes, cannot interleave their changes.
"""

from __future__ import annotations

import contextlib
import io
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import segno
from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from sqlalchemy import Connection
from starlette.concurrency import run_in_threadpool

from cardroom.keeper import (
    FORMAT,
    VERSION,
    KeeperError,
    KeptGame,
    from_json,
    round_from_json,
    to_csv,
    to_json,
)
from cardroom.server.auth import Identity
from cardroom.server.bodies import (
    EditRound,
    KeptRound,
    NewKeptGame,
    NewRound,
    Reorder,
    Undo,
    documented,
    read,
)
from cardroom.server.connection import Connection as Socket
from cardroom.server.keeper_hub import KeeperHub
from cardroom.server.keeper_json import (
    code_key,
    kept_json,
    kept_of,
    new_code,
    new_game_id,
    owned_games,
    shown_code,
    status_of,
)
from cardroom.server.limits import RateLimited, client_address, take_all
from cardroom.server.lobby import identity
from cardroom.server.protocol import CLOSE_TOO_DEEP, TooDeep, check_depth, dumps, error_message
from cardroom.server.sockets import RateLimit
from cardroom.store import keeper as store
from cardroom.store import repository as repo
from cardroom.tables.errors import Refusal, rule_of

log = logging.getLogger(__name__)
router = APIRouter()
T = TypeVar("T")


class KeeperRefusal(Refusal):
    """A refusal that names the field to correct (and the round), as the keeper does."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        field: str | None = None,
        round: int | None = None,
    ) -> None:
        super().__init__(status, code, message, rule_of(message))
        self.field = field
        self.round = round

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["error"].update(field=self.field, round=self.round)
        return data


def refused_entry(error: KeeperError, status: int = 400, code: str = "bad_entry") -> KeeperRefusal:
    return KeeperRefusal(status, code, str(error), field=error.field, round=error.round)


# -- helpers ---------------------------------------------------------------------------------------


async def _read(request: Request | WebSocket, reader: Callable[[Connection], T]) -> T:
    engine = request.app.state.journal.engine

    def run() -> T:
        with engine.connect() as conn:
            return reader(conn)

    return await run_in_threadpool(run)


def _hub(request: Request | WebSocket) -> KeeperHub:
    return request.app.state.keeper_hub


def _limit_writes(request: Request, me: Identity) -> None:
    g = request.app.state.guards
    address = client_address(request.scope)
    take_all(((g.keeper_player, me.id), (g.keeper_address, address)), "kept-game entries")


def _limit_lookups(request: Request | WebSocket) -> None:
    """Share codes are looked up at a bounded rate per address: they cannot be guessed."""
    g = request.app.state.guards
    take_all([(g.shared_address, client_address(request.scope))], "share-code lookups")


def not_found(game_id: str) -> KeeperRefusal:
    return KeeperRefusal(404, "not_found", f"no kept game {game_id!r}", field="id")


def _mine(row: dict[str, Any] | None, game_id: str, me: Identity) -> dict[str, Any]:
    if row is None:
        raise not_found(game_id)
    if row["owner_id"] != me.id:
        raise KeeperRefusal(
            403, "forbidden", "this kept game is someone else's: its owner enters the rounds"
        )
    return row


def _answer(row: dict[str, Any], status: int = 200, duplicate: bool = False) -> JSONResponse:
    return JSONResponse({"kept": kept_json(row, owner=True), "duplicate": duplicate}, status)


def _push(request: Request, row: dict[str, Any]) -> None:
    _hub(request).publish(row["code"], {"type": "kept", "kept": kept_json(row, owner=False)})


# -- creating and reading --------------------------------------------------------------------------


@router.post("/api/keeper/games", status_code=201, openapi_extra=documented(NewKeptGame))
async def create(request: Request) -> JSONResponse:
    """A new kept game; the same ``entry`` again answers the game it made (200)."""
    me = identity(request)
    body = await read(request, NewKeptGame)
    document = {
        "format": FORMAT,
        "version": VERSION,
        "game": body.game,
        "players": body.players,
        "options": body.options or {},
        "rounds": [],
    }
    try:
        kept = from_json(document)
    except KeeperError as error:
        raise refused_entry(error) from None
    _limit_writes(request, me)
    cap = request.app.state.settings.keeper_max_games
    now = repo.utcnow()

    def write(conn: Connection) -> tuple[dict[str, Any], bool] | Refusal:
        if body.entry is not None:
            made = store.game_created_by(conn, me.id, body.entry)
            if made is not None:
                return made, True
        if repo.get_player(conn, me.id) is None:
            return Refusal(401, "unauthorized", "this player is not known here (POST /api/players)")
        if store.games_owned(conn, me.id) >= cap:
            return Refusal(
                429,
                "too_many_games",
                f"you keep {cap} games already: delete one you no longer need",
            )
        code = new_code()
        while store.code_taken(conn, code):
            code = new_code()
        row = {
            "id": new_game_id(),
            "owner_id": me.id,
            "code": code,
            "game": kept.game,
            "status": status_of(kept),
            "revision": 1,
            "data": to_json(kept),
            "created_at": now,
            "updated_at": now,
        }
        return store.insert_game(conn, row, body.entry), False

    done = await request.app.state.journal.run(write)
    if isinstance(done, Refusal):
        raise done
    row, duplicate = done
    return _answer(row, 200 if duplicate else 201, duplicate)


@router.get("/api/keeper/games")
async def my_games(request: Request) -> dict[str, Any]:
    """The caller's kept games, the most recently changed first."""
    me = identity(request)
    return {"games": await _read(request, lambda c: owned_games(c, me.id))}


@router.get("/api/keeper/games/{game_id}")
async def get_game(request: Request, game_id: str) -> JSONResponse:
    me = identity(request)
    row = _mine(await _read(request, lambda c: store.get_game(c, game_id)), game_id, me)
    return _answer(row)


@router.get("/api/keeper/shared/{code}")
async def shared(request: Request, code: str) -> dict[str, Any]:
    """Read-only, for anyone with the code."""
    return {"kept": kept_json(await _shared_row(request, code), owner=False)}


async def _shared_row(request: Request, code: str) -> dict[str, Any]:
    _limit_lookups(request)
    key = code_key(code)
    row = await _read(request, lambda c: store.game_by_code(c, key)) if key else None
    if row is None:
        raise KeeperRefusal(404, "not_found", "no kept game has this share code", field="code")
    return row


@router.get("/api/keeper/shared/{code}/qr.svg")
async def shared_qr(request: Request, code: str) -> Response:
    """The share link as a QR code, for the others at the card table to scan from the scorer's
    phone: the link this server serves the read-only sheet at (its own address, as asked)."""
    row = await _shared_row(request, code)
    return Response(
        share_qr(f"{request.base_url}keeper/#/shared/{shown_code(row['code'])}"),
        media_type="image/svg+xml",
    )


def share_qr(link: str) -> bytes:
    """An SVG QR code of ``link``: dark on white whatever the page's theme (a scanner needs the
    contrast), with the quiet zone the standard asks for, drawn at any size by the page."""
    out = io.BytesIO()
    segno.make_qr(link, error="m").save(
        out, kind="svg", dark="#000", light="#fff", border=4, omitsize=True,
        title="QR code", xmldecl=False, svgns=True,
    )  # fmt: skip
    return out.getvalue()


# -- exports ---------------------------------------------------------------------------------------


def _export(row: dict[str, Any], kind: str) -> Response:
    kept = kept_of(row)
    name = f"{kept.game}-{shown_code(row['code'])}.{kind}"
    disposition = {"Content-Disposition": f'attachment; filename="{name}"'}
    if kind == "csv":
        return Response(to_csv(kept), media_type="text/csv; charset=utf-8", headers=disposition)
    return JSONResponse(to_json(kept, results=True), headers=disposition)


@router.get("/api/keeper/games/{game_id}/export.csv")
async def export_csv(request: Request, game_id: str) -> Response:
    me = identity(request)
    row = _mine(await _read(request, lambda c: store.get_game(c, game_id)), game_id, me)
    return _export(row, "csv")


@router.get("/api/keeper/games/{game_id}/export.json")
async def export_json(request: Request, game_id: str) -> Response:
    me = identity(request)
    row = _mine(await _read(request, lambda c: store.get_game(c, game_id)), game_id, me)
    return _export(row, "json")


@router.get("/api/keeper/shared/{code}/export.csv")
async def shared_csv(request: Request, code: str) -> Response:
    return _export(await _shared_row(request, code), "csv")


@router.get("/api/keeper/shared/{code}/export.json")
async def shared_json(request: Request, code: str) -> Response:
    return _export(await _shared_row(request, code), "json")


# -- changes ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Change:
    """One entry for a kept game: what it does to the game, and what it was based on."""

    kind: str  # round | edit | undo | order
    entry: str
    based_on: int | None
    apply: Callable[[KeptGame], KeptGame]


async def _change(request: Request, game_id: str, change: Change) -> JSONResponse:
    me = identity(request)
    _limit_writes(request, me)
    settings = request.app.state.settings
    now = repo.utcnow()

    def write(conn: Connection) -> tuple[dict[str, Any], bool] | Refusal:
        row = store.get_game(conn, game_id, lock=True)
        try:
            row = _mine(row, game_id, me)
        except Refusal as refusal:
            return refusal
        if store.entry_applied(conn, game_id, change.entry):
            return row, True
        if row["status"] == "closed":
            return KeeperRefusal(
                409, "closed", "this kept game was finished: it takes no more changes"
            )
        if change.based_on is not None and change.based_on != row["revision"]:
            return KeeperRefusal(
                409,
                "stale",
                f"this kept game changed since revision {change.based_on} (it is at "
                f"{row['revision']} now): look at it again, then make the change again",
                field="based_on",
            )
        if row["revision"] > settings.keeper_max_changes:
            return Refusal(
                429, "too_many_changes", f"a kept game takes {settings.keeper_max_changes} changes"
            )
        kept = kept_of(row)
        try:
            changed = change.apply(kept)
        except KeeperError as error:
            if change.kind == "round" and kept.over:
                return refused_entry(error, 409, "game_over")
            return refused_entry(error)
        if len(changed.rounds) > settings.keeper_max_rounds:
            return KeeperRefusal(
                400,
                "bad_entry",
                f"a kept game holds at most {settings.keeper_max_rounds} rounds",
                field="round",
                round=len(changed.rounds),
            )
        saved = {
            **row,
            "data": to_json(changed),
            "status": status_of(changed),
            "revision": row["revision"] + 1,
            "updated_at": now,
        }
        store.save_change(
            conn,
            game_id,
            data=saved["data"],
            status=saved["status"],
            revision=saved["revision"],
            entry=change.entry,
            kind=change.kind,
            now=now,
        )
        return saved, False

    done = await request.app.state.journal.run(write)
    if isinstance(done, Refusal):
        raise done
    row, duplicate = done
    if not duplicate:
        _push(request, row)
    return _answer(row, duplicate=duplicate)


def _entered(raw: KeptRound, number: int | None = None) -> Callable[[KeptGame], KeptGame]:
    """Add the round (``number`` None) or correct round ``number``, read in the file's form."""

    def apply(kept: KeptGame) -> KeptGame:
        try:
            entry = round_from_json(kept, raw.to_json())
        except KeeperError as error:
            where = number if number is not None else len(kept.rounds) + 1
            raise KeeperError(error.field, error.message, round=where) from None
        return kept.add_round(entry) if number is None else kept.edit_round(number, entry)

    return apply


@router.post("/api/keeper/games/{game_id}/rounds", openapi_extra=documented(NewRound))
async def add_round(request: Request, game_id: str) -> JSONResponse:
    """The next round (S6.1, S6.3)."""
    body = await read(request, NewRound)
    return await _change(request, game_id, Change("round", body.entry, None, _entered(body.round)))


@router.put("/api/keeper/games/{game_id}/rounds/{number}", openapi_extra=documented(EditRound))
async def edit_round(request: Request, game_id: str, number: int) -> JSONResponse:
    """Correct round ``number`` (S6.4), made on revision ``based_on``."""
    body = await read(request, EditRound)
    change = Change("edit", body.entry, body.based_on, _entered(body.round, number))
    return await _change(request, game_id, change)


@router.post("/api/keeper/games/{game_id}/undo", openapi_extra=documented(Undo))
async def undo(request: Request, game_id: str) -> JSONResponse:
    """Take back the last round (S6.4), made on revision ``based_on``."""
    body = await read(request, Undo)
    return await _change(request, game_id, Change("undo", body.entry, body.based_on, _undo))


def _undo(kept: KeptGame) -> KeptGame:
    return kept.undo()


@router.post("/api/keeper/games/{game_id}/order", openapi_extra=documented(Reorder))
async def reorder(request: Request, game_id: str) -> JSONResponse:
    """The same players in another table order; the rounds follow them."""
    body = await read(request, Reorder)
    players = list(body.players)
    change = Change("order", body.entry, body.based_on, lambda kept: kept.reorder(players))
    return await _change(request, game_id, change)


@router.post("/api/keeper/games/{game_id}/finish")
async def finish(request: Request, game_id: str) -> JSONResponse:
    """Close the game for changes (people stopped playing); its sheet stays as it is."""
    me = identity(request)
    _limit_writes(request, me)
    now = repo.utcnow()

    def write(conn: Connection) -> tuple[dict[str, Any], bool] | Refusal:
        try:
            row = _mine(store.get_game(conn, game_id, lock=True), game_id, me)
        except Refusal as refusal:
            return refusal
        if row["status"] == "closed":
            return row, False
        saved = {**row, "status": "closed", "revision": row["revision"] + 1, "updated_at": now}
        store.save_change(
            conn,
            game_id,
            data=row["data"],
            status="closed",
            revision=saved["revision"],
            entry=None,
            kind="finish",
            now=now,
        )
        return saved, True

    done = await request.app.state.journal.run(write)
    if isinstance(done, Refusal):
        raise done
    row, closed_now = done
    if closed_now:
        _push(request, row)
    return _answer(row)


@router.delete("/api/keeper/games/{game_id}")
async def delete(request: Request, game_id: str) -> dict[str, Any]:
    """Delete the game and its share code; viewers are told it is gone."""
    me = identity(request)
    _limit_writes(request, me)

    def write(conn: Connection) -> str | Refusal:
        try:
            row = _mine(store.get_game(conn, game_id, lock=True), game_id, me)
        except Refusal as refusal:
            return refusal
        store.delete_game(conn, game_id)
        return row["code"]

    done = await request.app.state.journal.run(write)
    if isinstance(done, Refusal):
        raise done
    _hub(request).publish(done, {"type": "gone"})
    return {"deleted": game_id}


# -- the live view ---------------------------------------------------------------------------------


@router.websocket("/ws/keeper/{code}")
async def watch(websocket: WebSocket, code: str) -> None:
    """A shared kept game, pushed as it changes: ``kept`` at once and after every change,
    ``gone`` when deleted. Nothing to send but ``ping``; no token: the code is the key."""
    state = websocket.app.state
    await websocket.accept()
    key = code_key(code)
    try:
        _limit_lookups(websocket)
    except RateLimited as error:
        await _refuse(websocket, "rate_limited", error.message, 4429)
        return
    if key is None:
        await _refuse(websocket, "not_found", "no kept game has this share code", 4404)
        return
    conn = Socket(websocket, Identity("viewer", ""))
    hub = _hub(websocket)
    if not hub.join(key, conn):
        await conn.finish()
        await _refuse(websocket, "too_many_sockets", "this game has all the viewers it may", 4429)
        return
    try:
        # Joined first, read second: a change committed meanwhile is pushed, not missed.
        row = await _read(websocket, lambda c: store.game_by_code(c, key))
        if row is None:
            conn.send(error_message("not_found", "no kept game has this share code"))
            conn.close(4404)
        else:
            conn.send(dumps({"type": "kept", "kept": kept_json(row, owner=False)}))
        await _listen(websocket, conn, state.settings)
    finally:
        hub.leave(key, conn)
        await conn.finish()


async def _listen(websocket: WebSocket, conn: Socket, settings: Any) -> None:
    limit = RateLimit(settings.rate, settings.rate_burst)
    with contextlib.suppress(Exception):  # a broken socket is a disconnect
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text") or ""
            if len(text) > settings.max_message or not limit.allow():
                conn.close(4408)
                return
            try:
                check_depth(text)
                ping = json.loads(text)
            except TooDeep as error:  # not read at all
                conn.send(error_message(error.code, error.message))
                conn.close(CLOSE_TOO_DEEP, error.message)
                return
            except ValueError:
                ping = None
            if isinstance(ping, dict) and ping.get("type") == "ping":
                conn.send(dumps({"type": "pong", "id": ping.get("id")}))
            else:
                conn.send(error_message("bad_message", "a shared kept game is read-only"))


async def _refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(error_message(code, message))
        await websocket.close(close)
