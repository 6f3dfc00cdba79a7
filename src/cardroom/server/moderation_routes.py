"""Moderation over HTTP: players report (``POST /api/reports``) and read their own sanctions;
staff work the console's API (``/api/admin/...``, ``docs/operating.md``).

Every ``/api/admin/`` route first checks the caller's role from the store (a token alone says
nothing of it): a player gets ``403`` and nothing changes. Writes go through the journal, each
with its audit entry in the same transaction, are rate-limited per staff member, and wake
every process to carry out their effects (``moderation_watch.py``). No route changes or
deletes an audit entry.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from sqlalchemy import Connection
from starlette.concurrency import run_in_threadpool

from cardroom.moderation import audit, fair_play, players, reports, roles, sanctions
from cardroom.moderation.closing import close_order
from cardroom.moderation.staff import (
    ADMIN,
    MODERATOR,
    Actor,
    ModerationError,
    actor_of,
    require,
)
from cardroom.server.auth import clean_name
from cardroom.server.bodies import (
    CloseTableOrder,
    FairPlayOrder,
    Grant,
    Lift,
    NewReport,
    NewSanction,
    ReportDecision,
    documented,
    read,
)
from cardroom.server.limits import take_all
from cardroom.server.lobby import identity, tables_of
from cardroom.server.moderation_watch import ModerationWatch
from cardroom.server.privacy import check_visible
from cardroom.tables.errors import Refusal

router = APIRouter()
T = TypeVar("T")


def _now(request: Request) -> datetime:
    return getattr(request.app.state, "moderation_clock", lambda: datetime.now(UTC))()


def _refusal(error: ModerationError) -> Refusal:
    return Refusal(error.status, error.code, error.message)


async def _read(request: Request, reader: Callable[[Connection], T]) -> T:
    engine = request.app.state.journal.engine

    def run() -> T:
        with engine.connect() as conn:
            return reader(conn)

    try:
        return await run_in_threadpool(run)
    except ModerationError as error:
        raise _refusal(error) from None


async def _store(request: Request, writer: Callable[[Connection], T]) -> T:
    """One transaction through the journal; a refusal changes nothing."""
    try:
        result: T = await request.app.state.journal.run(writer)
    except ModerationError as error:
        raise _refusal(error) from None
    return result


async def _write(request: Request, writer: Callable[[Connection], T]) -> T:
    """One transaction (the change and its audit entry), then every process carries it out;
    this one before the answer goes, so the caller sees its effect here at once."""
    result = await _store(request, writer)
    watch: ModerationWatch = request.app.state.moderation
    await watch.catch_up()
    watch.announce(watch.last)
    return result


async def staff(request: Request, role: str = MODERATOR) -> Actor:
    """The caller as a member of staff of at least ``role``: 401 without a token, 403 for
    anyone below (read from the store at every request: a role taken away ends at once)."""
    me = identity(request)
    actor = await _read(request, lambda c: actor_of(c, me.id))
    try:
        require(actor, role)
    except ModerationError as error:
        raise _refusal(error) from None
    return actor


def _limit(request: Request, actor: Actor) -> None:
    """Staff actions come at a bounded rate per staff member (a stolen token, a runaway
    script), as every write does."""
    take_all(((request.app.state.guards.moderating, actor.id or ""),), "moderation actions")


# -- players ---------------------------------------------------------------------------------------


@router.post("/api/reports", status_code=201, openapi_extra=documented(NewReport))
async def file_report(request: Request) -> dict[str, Any]:
    """Report a player. With ``table``, the report quotes the chat lines the table kept (the
    caller must be, or have been, at that table); with ``match``, that match's id (the player
    must have played it). A few reports per player at a time, and at most 20 a day."""
    me = identity(request)
    data = await read(request, NewReport)
    take_all(((request.app.state.guards.reporting, me.id),), "reports")
    chat = None
    if data.table is not None:
        actor = await tables_of(request).find(data.table)
        check_visible(
            actor.info(), me, request.query_params.get("invite"), request.app.state.invitations
        )
        chat = await actor.chat_lines(me)
    now = _now(request)

    def write(conn: Connection) -> dict[str, Any]:
        return reports.file(
            conn,
            me.id,
            data.player,
            data.reason,
            now,
            note=data.note,
            table_id=data.table,
            match_id=data.match,
            chat=chat,
        )

    return {"report": await _store(request, write)}


@router.get("/api/me/sanctions")
async def my_sanctions(request: Request) -> dict[str, Any]:
    """The caller's sanctions, in force or not: what, why, until when, lifted when."""
    me = identity(request)
    now = _now(request)
    found = await _read(request, lambda c: sanctions.history(c, me.id))
    for sanction in found:
        ended = sanction["lifted_at"] is not None or (
            sanction["until"] is not None and datetime.fromisoformat(sanction["until"]) <= now
        )
        sanction["in_force"] = sanction["kind"] in sanctions.LASTING and not ended
    return {"sanctions": found}


# -- the console: reads ----------------------------------------------------------------------------


@router.get("/api/admin/me")
async def console_me(request: Request) -> dict[str, Any]:
    """Who the console is working for, and what they may do (403 for a player)."""
    actor = await staff(request)
    return {"staff": actor.to_json(), "may_grant": actor.role == ADMIN}


@router.get("/api/admin/live")
async def live(request: Request) -> dict[str, Any]:
    """Every live process: its tables and sockets now (others' as of their last heartbeat)."""
    await staff(request)
    return {"processes": await tables_of(request).cluster.censuses()}


@router.get("/api/admin/players")
async def find_players(request: Request, q: str = "") -> dict[str, Any]:
    await staff(request)
    if len(q) > 64:
        raise Refusal(400, "bad_request", "q has at most 64 characters")
    return {"players": await _read(request, lambda c: players.find(c, q))}


@router.get("/api/admin/players/{player_id}")
async def player_dossier(request: Request, player_id: str) -> dict[str, Any]:
    await staff(request)
    now = _now(request)
    return await _read(request, lambda c: players.dossier(c, player_id, now))


@router.get("/api/admin/reports")
async def report_queue(request: Request, status: str = reports.OPEN) -> dict[str, Any]:
    await staff(request)

    def load(conn: Connection) -> dict[str, Any]:
        return {"reports": reports.queue(conn, status), "counts": reports.counts(conn)}

    return await _read(request, load)


@router.get("/api/admin/audit")
async def audit_log(
    request: Request, before: int | None = None, limit: int = 50, target: str | None = None
) -> dict[str, Any]:
    """The audit log, newest first; a page ends where ``before`` says."""
    await staff(request)
    return {
        "entries": await _read(
            request, lambda c: audit.entries(c, before=before, limit=limit, target=target)
        )
    }


@router.get("/api/admin/staff")
async def staff_list(request: Request) -> dict[str, Any]:
    await staff(request)
    return {"staff": await _read(request, roles.staff)}


# -- the console: actions --------------------------------------------------------------------------


@router.post("/api/admin/sanctions", status_code=201, openapi_extra=documented(NewSanction))
async def sanction(request: Request) -> dict[str, Any]:
    """Sanction a player (and, with ``report``, close that report as handled by it)."""
    actor = await staff(request)
    data = await read(request, NewSanction)
    _limit(request, actor)
    new_name = clean_name(data.name) if data.name is not None else None
    now = _now(request)

    def write(conn: Connection) -> dict[str, Any]:
        made = sanctions.impose(
            conn,
            actor,
            data.player,
            data.kind,
            data.reason,
            now,
            minutes=data.minutes,
            new_name=new_name,
        )
        if data.report is not None:
            outcome = f"{made['words']} (sanction {made['id']}): {made['reason']}"
            reports.resolve(conn, actor, data.report, reports.HANDLED, outcome, now)
        return made

    return {"sanction": await _write(request, write)}


@router.post("/api/admin/sanctions/{sanction_id}/lift", openapi_extra=documented(Lift))
async def lift(request: Request, sanction_id: int) -> dict[str, Any]:
    actor = await staff(request)
    data = await read(request, Lift)
    _limit(request, actor)
    now = _now(request)
    return {
        "sanction": await _write(
            request, lambda c: sanctions.lift(c, actor, sanction_id, data.reason, now)
        )
    }


@router.post("/api/admin/reports/{report_id}", openapi_extra=documented(ReportDecision))
async def decide_report(request: Request, report_id: int) -> dict[str, Any]:
    """Close a report: handled (the outcome says what was done) or dismissed."""
    actor = await staff(request)
    data = await read(request, ReportDecision)
    _limit(request, actor)
    now = _now(request)
    return {
        "report": await _write(
            request,
            lambda c: reports.resolve(c, actor, report_id, data.status, data.outcome, now),
        )
    }


@router.post("/api/admin/tables/{table_id}/close", openapi_extra=documented(CloseTableOrder))
async def close_table(request: Request, table_id: str) -> dict[str, Any]:
    """Close an open table on whichever process runs it: everyone there is told why."""
    actor = await staff(request)
    data = await read(request, CloseTableOrder)
    _limit(request, actor)
    now = _now(request)

    def write(conn: Connection) -> dict[str, Any]:
        return close_order(conn, actor, table_id, data.reason, now)

    return {"closed": await _write(request, write)}


async def _fair_play(
    request: Request,
    action: Callable[[Connection, Actor, str, str, datetime], dict[str, Any]],
    target: str,
) -> dict[str, Any]:
    actor = await staff(request)
    data = await read(request, FairPlayOrder)
    _limit(request, actor)
    now = _now(request)
    return await _write(request, lambda c: action(c, actor, target, data.reason, now))


@router.post("/api/admin/matches/{match_id}/void", openapi_extra=documented(FairPlayOrder))
async def void_match(request: Request, match_id: str) -> dict[str, Any]:
    """Void a counted match: it counts for nobody, and every rating after it is recomputed
    as if it had never been rated (docs/league.md, "Fair play")."""
    return await _fair_play(request, fair_play.void, match_id)


@router.post("/api/admin/matches/{match_id}/unvoid", openapi_extra=documented(FairPlayOrder))
async def unvoid_match(request: Request, match_id: str) -> dict[str, Any]:
    """Lift a moderator's void: the match counts again, ratings recomputed from it on."""
    return await _fair_play(request, fair_play.unvoid, match_id)


@router.post("/api/admin/players/{player_id}/cheat", openapi_extra=documented(FairPlayOrder))
async def mark_cheater(request: Request, player_id: str) -> dict[str, Any]:
    """Mark an account as cheating: its results void, its opponents recomputed, the account
    hidden from every board."""
    return await _fair_play(request, fair_play.mark, player_id)


@router.post("/api/admin/players/{player_id}/cheat/clear", openapi_extra=documented(FairPlayOrder))
async def clear_cheater(request: Request, player_id: str) -> dict[str, Any]:
    """Clear a cheat mark: the account's results count again."""
    return await _fair_play(request, fair_play.clear, player_id)


@router.post("/api/admin/roles", openapi_extra=documented(Grant))
async def grant(request: Request) -> dict[str, Any]:
    """Give an account a role (admins only)."""
    actor = await staff(request, ADMIN)
    data = await read(request, Grant)
    _limit(request, actor)
    now = _now(request)
    return await _write(
        request, lambda c: roles.grant(c, actor, data.player, data.role, data.reason, now)
    )
