"""Reports: a player reports another from a table (a chat line, the name, stalling), from a
profile or from a match's record. The report carries its context as the server knows it (the
chat lines the table kept, quoted by the caller from the table; the match id), and waits in the
queue until a moderator handles it (with the action taken) or dismisses it.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from cardroom.league.periods import as_utc
from cardroom.moderation import audit
from cardroom.moderation.models import MAX_TEXT, Report, inserted_id
from cardroom.moderation.sanctions import check_reason
from cardroom.moderation.staff import MODERATOR, Actor, ModerationError, not_found, require
from cardroom.store.models import Match, Player

REASONS = ("chat", "name", "stalling", "cheating", "other")
OPEN, HANDLED, DISMISSED = "open", "handled", "dismissed"
STATUSES = (OPEN, HANDLED, DISMISSED)
DAILY = 20  # reports one player may file a day, on every process together
MAX_QUOTED = 30  # chat lines a report keeps (the table keeps as many)


def report_json(row: Any, names: dict[str, str] | None = None) -> dict[str, Any]:
    names = names or {}
    return {
        "id": row.id,
        "reporter": {"id": row.reporter_id, "name": names.get(row.reporter_id)},
        "target": {"id": row.target_id, "name": names.get(row.target_id)},
        "reason": row.reason,
        "note": row.note,
        "table": row.table_id,
        "match": row.match_id,
        "context": row.context or {},
        "status": row.status,
        "created_at": as_utc(row.created_at).isoformat(),
        "handled_by": row.handled_by,
        "handled_at": as_utc(row.handled_at).isoformat() if row.handled_at else None,
        "outcome": row.outcome,
    }


def _names(conn: Connection, ids: set[str]) -> dict[str, str]:
    if not ids:
        return {}
    return dict(conn.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())


def file(
    conn: Connection,
    reporter_id: str,
    target_id: str,
    reason: str,
    now: datetime,
    *,
    note: str | None = None,
    table_id: str | None = None,
    match_id: str | None = None,
    chat: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Queue a report; refused for an unknown player or match (404), oneself, a second open
    report of the same player, or past ``DAILY`` reports a day (429)."""
    if reason not in REASONS:
        raise ModerationError(400, "bad_request", f"reason is one of {', '.join(REASONS)}")
    if note is not None and (not isinstance(note, str) or len(note) > MAX_TEXT):
        raise ModerationError(400, "bad_request", f"a note has at most {MAX_TEXT} characters")
    if target_id == reporter_id:
        raise ModerationError(400, "bad_request", "you cannot report yourself")
    if conn.scalar(select(Player.id).where(Player.id == target_id)) is None:
        raise not_found(f"no player {target_id!r}")
    if match_id is not None:
        seats = conn.scalar(select(Match.seats).where(Match.id == match_id))
        if seats is None:
            raise not_found(f"no match {match_id!r}")
        if not any(isinstance(s, dict) and s.get("player_id") == target_id for s in seats):
            raise ModerationError(400, "bad_request", "that player did not play that match")
    filed_today = conn.scalar(
        select(func.count())
        .select_from(Report)
        .where(Report.reporter_id == reporter_id, Report.created_at > now - timedelta(days=1))
    )
    if int(filed_today or 0) >= DAILY:
        raise ModerationError(429, "rate_limited", f"at most {DAILY} reports a day; thank you")
    pending = conn.scalar(
        select(Report.id).where(
            Report.reporter_id == reporter_id, Report.target_id == target_id, Report.status == OPEN
        )
    )
    if pending is not None:
        raise ModerationError(
            409, "conflict", "you have reported this player already; a moderator will look"
        )
    context: dict[str, Any] = {}
    if chat is not None:
        context["chat"] = chat[-MAX_QUOTED:]
    result = conn.execute(
        insert(Report).values(
            reporter_id=reporter_id,
            target_id=target_id,
            reason=reason,
            note=" ".join(note.split()) if note else None,
            table_id=table_id,
            match_id=match_id,
            context=context,
            status=OPEN,
            created_at=now,
        )
    )
    report_id = inserted_id(result)
    return get(conn, report_id)


def get(conn: Connection, report_id: int) -> dict[str, Any]:
    row = conn.execute(select(Report).where(Report.id == report_id)).first()
    if row is None:
        raise not_found(f"no report {report_id}")
    return report_json(row, _names(conn, {row.reporter_id, row.target_id}))


def queue(
    conn: Connection,
    status: str = OPEN,
    *,
    target: str | None = None,
    reporter: str | None = None,
    limit: int = 100,
) -> list[dict[str, Any]]:
    """Reports of one status (``all``: every one), the oldest open first (first come, first
    served), handled ones the newest first."""
    query = select(Report).limit(max(1, min(limit, 500)))
    if status != "all":
        if status not in STATUSES:
            raise ModerationError(400, "bad_request", f"status is one of {', '.join(STATUSES)}")
        query = query.where(Report.status == status)
    if target is not None:
        query = query.where(Report.target_id == target)
    if reporter is not None:
        query = query.where(Report.reporter_id == reporter)
    order = Report.id.asc() if status == OPEN else Report.id.desc()
    rows = conn.execute(query.order_by(order)).all()
    names = _names(conn, {r.reporter_id for r in rows} | {r.target_id for r in rows})
    return [report_json(row, names) for row in rows]


def counts(conn: Connection) -> dict[str, int]:
    rows = conn.execute(select(Report.status, func.count()).group_by(Report.status))
    return {status: 0 for status in STATUSES} | {r[0]: int(r[1]) for r in rows}


def resolve(
    conn: Connection, actor: Actor, report_id: int, status: str, outcome: str, now: datetime
) -> dict[str, Any]:
    """Close an open report: ``handled`` (``outcome`` says the action taken) or ``dismissed``."""
    require(actor, MODERATOR)
    if status not in (HANDLED, DISMISSED):
        raise ModerationError(400, "bad_request", "status is handled or dismissed")
    outcome = check_reason(outcome, "an outcome")
    row = conn.execute(select(Report).where(Report.id == report_id)).first()
    if row is None:
        raise not_found(f"no report {report_id}")
    if row.status != OPEN:
        raise ModerationError(409, "conflict", f"this report is {row.status} already")
    conn.execute(
        update(Report)
        .where(Report.id == report_id, Report.status == OPEN)
        .values(status=status, handled_by=actor.id, handled_at=now, outcome=outcome)
    )
    audit.record(
        conn,
        actor,
        "report",
        f"report:{report_id}",
        outcome,
        now,
        {"status": status, "player": row.target_id},
    )
    return get(conn, report_id)
