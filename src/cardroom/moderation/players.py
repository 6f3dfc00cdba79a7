"""Finding players for the console: by name or id, and everything a moderator weighs about
one (role, recent matches, reports by and about them, sanctions)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, or_, select

from cardroom.league import fairplay
from cardroom.league.accounts import name_key
from cardroom.league.models import MODERATOR as MODERATOR_VOID
from cardroom.league.models import Account, Result
from cardroom.league.periods import as_utc
from cardroom.moderation import reports, sanctions
from cardroom.moderation.staff import PLAYER, ModerationError, not_found
from cardroom.store.models import Player

MAX_FOUND = 25
RECENT = 20


def find(conn: Connection, text: str, limit: int = MAX_FOUND) -> list[dict[str, Any]]:
    """Players whose id is ``text``, or whose name contains it (case not counting): accounts
    first, then the newest guests."""
    words = " ".join(text.split())
    if not words:
        return []
    pattern = "%" + words.casefold().replace("\\", "\\\\").replace("%", r"\%").replace("_", r"\_")
    rows = conn.execute(
        select(Player.id, Player.name, Player.created_at, Account.role)
        .outerjoin(Account, Account.player_id == Player.id)
        .where(or_(Player.id == words, func.lower(Player.name).like(pattern + "%", escape="\\")))
        .order_by(Account.role.is_(None), Player.created_at.desc())
        .limit(max(1, min(limit, MAX_FOUND)))
    )
    return [_player_json(r) for r in rows]


def _player_json(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "created_at": as_utc(row.created_at).isoformat(),
        "claimed": row.role is not None,
        "role": row.role or PLAYER,
    }


def find_one(conn: Connection, text: str) -> str:
    """The player id that ``text`` names: an id, an account's name, or a guest's name that one
    player alone holds; else 404 (or 409 naming the ids when several guests share it)."""
    if conn.scalar(select(Player.id).where(Player.id == text)) is not None:
        return text
    account = conn.scalar(select(Account.player_id).where(Account.name_key == name_key(text)))
    if account is not None:
        return account
    ids = conn.scalars(select(Player.id).where(Player.name == text).limit(5)).all()
    if len(ids) == 1:
        return ids[0]
    if not ids:
        raise not_found(f"no player named {text!r} (give a name or a p_… id)")
    raise ModerationError(
        409, "conflict", f"several guests are named {text!r}: give one id of {', '.join(ids)}"
    )


def dossier(conn: Connection, player_id: str, now: datetime) -> dict[str, Any]:
    """What the console shows of one player; 404 for an unknown one."""
    row = conn.execute(
        select(Player.id, Player.name, Player.created_at, Account.role, Account.signed_in_at)
        .outerjoin(Account, Account.player_id == Player.id)
        .where(Player.id == player_id)
    ).first()
    if row is None:
        raise not_found(f"no player {player_id!r}")
    recent = conn.execute(  # a list: read twice (the voids, then the rows)
        select(Result.match_id, Result.game, Result.mode, Result.ranked, Result.won)
        .add_columns(Result.points, Result.players, Result.finished_at)
        .where(Result.subject == player_id)
        .order_by(Result.finished_at.desc())
        .limit(RECENT)
    ).all()
    standing = sanctions.standing(conn, player_id, now)
    voids = {r.match_id: fairplay.void_sources(conn, r.match_id) for r in recent}
    return {
        "player": {
            **_player_json(row),
            "signed_in_at": as_utc(row.signed_in_at).isoformat() if row.signed_in_at else None,
        },
        "standing": {
            kind: notice.to_json() if notice is not None else None
            for kind, notice in (
                ("muted", standing.muted),
                ("rank_banned", standing.rank_banned),
                ("banned", standing.banned),
            )
        },
        "recent": [
            {
                "match": r.match_id,
                "game": r.game,
                "mode": r.mode,
                "ranked": r.ranked,
                "won": r.won,
                "points": r.points,
                "players": r.players,
                "finished_at": as_utc(r.finished_at).isoformat(),
                # void: by a moderator (which a moderator may lift) and/or by cheat marks
                "voided": bool(voids[r.match_id]),
                "voided_by_moderator": MODERATOR_VOID in voids[r.match_id],
            }
            for r in recent
        ],
        "fair_play": fairplay.mark_of(conn, player_id),
        "reports_about": reports.queue(conn, "all", target=player_id, limit=50),
        "reports_by": reports.queue(conn, "all", reporter=player_id, limit=50),
        "sanctions": sanctions.history(conn, player_id),
    }
