"""Sanctions: warn, mute chat, ban from ranked play, ban, forced rename; each with its reason,
an optional end, and liftable. What a player may do right now is their ``Standing``.

A sanction is a row (``moderation_sanctions``) and an audit entry, written in one transaction;
the server's processes carry out its effects (closing a banned player's sockets, telling them)
from the audit log (``server/moderation_watch.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, insert, or_, select, update

from cardroom.league import accounts
from cardroom.league.lookalikes import is_reserved, skeleton
from cardroom.league.models import Account
from cardroom.league.periods import as_utc
from cardroom.moderation import audit
from cardroom.moderation.models import MAX_TEXT, Sanction, inserted_id
from cardroom.moderation.staff import (
    MODERATOR,
    Actor,
    ModerationError,
    may_act_on,
    name_of,
    not_found,
    require,
    role_of,
)
from cardroom.store.models import Player

WARN, MUTE, RANK_BAN, BAN, RENAME = "warn", "mute", "rank_ban", "ban", "rename"
KINDS = (WARN, MUTE, RANK_BAN, BAN, RENAME)
LASTING = (MUTE, RANK_BAN, BAN)  # the kinds that hold until they end or are lifted
MAX_MINUTES = 60 * 24 * 365 * 10  # ten years: "for good" is no end at all (minutes None)
WORDS = {
    WARN: "a warning",
    MUTE: "muted at every table's chat",
    RANK_BAN: "banned from ranked play",
    BAN: "banned from Cardroom",
    RENAME: "renamed by a moderator",
}


@dataclass(frozen=True, slots=True)
class Notice:
    """One sanction as its player is told it: what, why, until when (None: until lifted)."""

    id: int
    kind: str
    reason: str
    until: datetime | None
    at: datetime
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "words": WORDS[self.kind],
            "reason": self.reason,
            "until": as_utc(self.until).isoformat() if self.until else None,
            "at": as_utc(self.at).isoformat(),
            "details": self.details,
        }

    def holds(self, now: datetime) -> bool:
        return self.until is None or as_utc(self.until) > as_utc(now)

    def sentence(self) -> str:
        """What the player reads: ``banned from Cardroom until 2026-12-09 10:00 UTC: spam``."""
        until = (
            f" until {as_utc(self.until):%Y-%m-%d %H:%M} UTC"
            if self.until
            else " until a moderator lifts it"
        )
        return f"{WORDS[self.kind]}{until if self.kind in LASTING else ''}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Standing:
    """A player's lasting sanctions in force when read (each with its end, so a cached
    standing still tells the time right): the one of each kind that lasts longest."""

    muted: Notice | None = None
    rank_banned: Notice | None = None
    banned: Notice | None = None

    def active(self, kind: str, now: datetime) -> Notice | None:
        notice = {MUTE: self.muted, RANK_BAN: self.rank_banned, BAN: self.banned}[kind]
        return notice if notice is not None and notice.holds(now) else None


CLEAR = Standing()


def _notice(row: Any) -> Notice:
    return Notice(
        row.id, row.kind, row.reason, row.expires_at, row.created_at, dict(row.details or {})
    )


def standing(conn: Connection, player_id: str, now: datetime) -> Standing:
    """The player's mutes and bans in force at ``now`` (not lifted, not yet ended)."""
    rows = conn.execute(
        select(Sanction).where(
            Sanction.player_id == player_id,
            Sanction.kind.in_(LASTING),
            Sanction.lifted_at.is_(None),
            or_(Sanction.expires_at.is_(None), Sanction.expires_at > now),
        )
    )
    longest: dict[str, Notice] = {}
    for row in rows:
        notice = _notice(row)
        held = longest.get(row.kind)
        if held is None or (held.until is not None and _later(notice.until, held.until)):
            longest[row.kind] = notice
    return Standing(longest.get(MUTE), longest.get(RANK_BAN), longest.get(BAN))


def rank_bar(conn: Connection, player_id: str, now: datetime) -> str | None:
    """The league's ``ladder.Barred``: why the player may not be rated now (banned from ranked
    play, or banned outright), or None. The words only: the reason is the player's to read,
    not their opponents'."""
    held = standing(conn, player_id, now)
    for kind in (BAN, RANK_BAN):
        if held.active(kind, now) is not None:
            return WORDS[kind]
    return None


def _later(a: datetime | None, b: datetime) -> bool:
    return a is None or as_utc(a) > as_utc(b)


def sanction_json(row: Any) -> dict[str, Any]:
    return {
        **_notice(row).to_json(),
        "player": row.player_id,
        "by": row.created_by,
        "lifted_at": as_utc(row.lifted_at).isoformat() if row.lifted_at else None,
        "lifted_by": row.lifted_by,
        "lift_reason": row.lift_reason,
    }


def history(conn: Connection, player_id: str, limit: int = 100) -> list[dict[str, Any]]:
    """Every sanction of the player, the newest first (lifted and ended ones too)."""
    rows = conn.execute(
        select(Sanction)
        .where(Sanction.player_id == player_id)
        .order_by(Sanction.id.desc())
        .limit(limit)
    )
    return [sanction_json(row) for row in rows]


def check_reason(reason: object, what: str = "a reason") -> str:
    """A reason is said in words: 3 to 500 characters (it is shown to the player)."""
    text = " ".join(str(reason or "").split())
    if not isinstance(reason, str) or not 3 <= len(text) <= MAX_TEXT:
        raise ModerationError(400, "bad_request", f"{what} has 3 to {MAX_TEXT} characters")
    return text


def impose(
    conn: Connection,
    actor: Actor,
    player_id: str,
    kind: str,
    reason: str,
    now: datetime,
    *,
    minutes: float | None = None,
    new_name: str | None = None,
) -> dict[str, Any]:
    """Sanction ``player_id``: the sanction row and its audit entry in one transaction.
    ``minutes``: how long a mute or a ban lasts (None: until lifted; a mute needs one);
    ``new_name``: a forced rename's name (already checked as a name by the caller)."""
    require(actor, MODERATOR)
    if kind not in KINDS:
        raise ModerationError(400, "bad_request", f"kind is one of {', '.join(KINDS)}")
    reason = check_reason(reason)
    old_name = name_of(conn, player_id)
    may_act_on(actor, player_id, role_of(conn, player_id))
    until = _until(kind, minutes, now)
    details: dict[str, Any] = {}
    if kind == RENAME:
        details = {"from": old_name, "to": _rename(conn, player_id, new_name)}
    elif new_name is not None:
        raise ModerationError(400, "bad_request", "a name is given with a rename only")
    result = conn.execute(
        insert(Sanction).values(
            player_id=player_id,
            kind=kind,
            reason=reason,
            details=details,
            created_by=actor.id,
            created_at=now,
            expires_at=until,
        )
    )
    sanction_id = inserted_id(result)
    notice = Notice(sanction_id, kind, reason, until, now, details)
    audit.record(conn, actor, "sanction", player_id, reason, now, notice.to_json())
    return {**notice.to_json(), "player": player_id, "by": actor.id}


def _until(kind: str, minutes: float | None, now: datetime) -> datetime | None:
    if kind not in LASTING:
        if minutes is not None:
            raise ModerationError(400, "bad_request", f"a {kind} has no duration")
        return None
    if minutes is None:
        if kind == MUTE:
            raise ModerationError(400, "bad_request", "a mute lasts some minutes: give minutes")
        return None
    if isinstance(minutes, bool) or not 1 <= minutes <= MAX_MINUTES:
        raise ModerationError(
            400, "bad_request", f"minutes is 1 to {MAX_MINUTES} (none: until lifted)"
        )
    return now + timedelta(minutes=minutes)


def _rename(conn: Connection, player_id: str, new_name: str | None) -> str:
    """Give the player ``new_name``; an account's claim moves to it (its look-alikes too)."""
    if not new_name:
        raise ModerationError(400, "bad_request", "a rename needs the new name")
    if is_reserved(new_name):
        raise ModerationError(409, "name_reserved", f"the name {new_name!r} {accounts.RESERVED}")
    if accounts.name_is_claimed(conn, new_name, player_id):
        raise ModerationError(
            409, "name_claimed", f"the name {new_name!r} is taken{accounts.TAKEN}"
        )
    conn.execute(update(Player).where(Player.id == player_id).values(name=new_name))
    conn.execute(
        update(Account)
        .where(Account.player_id == player_id)
        .values(name_key=accounts.name_key(new_name), name_skeleton=skeleton(new_name))
    )
    return new_name


def lift(
    conn: Connection, actor: Actor, sanction_id: int, reason: str, now: datetime
) -> dict[str, Any]:
    """End a sanction now (a rename keeps its name: the player renames themself if allowed)."""
    require(actor, MODERATOR)
    reason = check_reason(reason)
    row = conn.execute(select(Sanction).where(Sanction.id == sanction_id)).first()
    if row is None:
        raise not_found(f"no sanction {sanction_id}")
    may_act_on(actor, row.player_id, role_of(conn, row.player_id))
    if row.lifted_at is not None:
        raise ModerationError(409, "conflict", "this sanction was lifted already")
    conn.execute(
        update(Sanction)
        .where(Sanction.id == sanction_id)
        .values(lifted_at=now, lifted_by=actor.id, lift_reason=reason)
    )
    lifted = {**_notice(row).to_json(), "lifted": True}
    audit.record(conn, actor, "lift", row.player_id, reason, now, lifted)
    return {**sanction_json(row), "lifted_at": now.isoformat(), "lift_reason": reason}
