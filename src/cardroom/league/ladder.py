"""The ladder's rules: who may be rated, and against whom (docs/league.md, "Ladder rules").

A ranked match is rated only when
- every person in it is **eligible**: a claimed account (not a guest) with at least
  ``casual_matches`` finished casual matches;
- no two of its people are **linked**: seen signing in from one network address or one
  device within ``linked_days`` (``Sighting`` rows hold keyed hashes, never addresses);
- no pair of its people has already been rated against each other ``pair_daily`` times
  this UTC day.
Otherwise it is counted as casual, with an ``unrated`` event saying why. The ranked queue
asks the same questions before it pairs anyone (``refusal`` and ``linked_pairs``), so the
counting here is the last word, not the only one. Bots are never ineligible nor linked.
"""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, delete, func, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from cardroom.league import fairplay
from cardroom.league.models import Account, RatingHistory, Result, Sighting
from cardroom.league.periods import as_utc

ADDRESS = "address"
DEVICE = "device"
MAX_DEVICE = 128  # characters of a device token a client may send


@dataclass(frozen=True, slots=True)
class LadderRules:
    """The ladder's settings (``Settings.ladder_*``)."""

    casual_matches: int = 3  # finished casual matches before a player's first ranked one
    pair_daily: int = 3  # rated matches per pair of accounts per UTC day
    linked_days: float = 14.0  # days a sighting links two accounts, and is kept


@dataclass(frozen=True, slots=True)
class Verdict:
    """Why a ranked match is not rated: ``reason`` (``ineligible``, ``linked``,
    ``pair_limit``) and the players concerned."""

    reason: str
    players: tuple[str, ...]
    message: str

    def detail(self) -> dict[str, Any]:
        return {"reason": self.reason, "players": list(self.players), "message": self.message}


Barred = Callable[[Connection, str, datetime], str | None]
"""Whether a person is barred from ranked play at a moment, and why (a moderator's ban from
ranked play: ``moderation/sanctions.py`` supplies it, as the league sits below moderation)."""


def barred_verdict(
    conn: Connection, subjects: Sequence[str], now: datetime, barred: Barred
) -> Verdict | None:
    """Why a ranked match is not rated because one of its people is barred, or None."""
    for player in sorted({s for s in subjects if is_person(s)}):
        why = barred(conn, player, now)
        if why is not None:
            return Verdict("barred", (player,), f"not rated: a player is {why}")
    return None


def is_person(subject: str) -> bool:
    return subject.startswith("p_")


# -- sightings -------------------------------------------------------------------------------


def sighting_hash(key: bytes, kind: str, value: str) -> str:
    """The keyed hash a sighting stores: HMAC-SHA256 of the kind and value with the server's
    key, so the table tells which rows share an address and nothing of the address."""
    return hmac.new(key, f"{kind}:{value}".encode(), hashlib.sha256).hexdigest()


def record_sighting(
    conn: Connection,
    player_id: str,
    key: bytes,
    now: datetime,
    rules: LadderRules,
    *,
    address: str | None,
    device: str | None = None,
) -> None:
    """Note that ``player_id`` signed in from ``address`` (and ``device``, if the client
    sent one), and prune every sighting older than the window."""
    seen = []
    if address:
        seen.append((ADDRESS, sighting_hash(key, ADDRESS, address)))
    if device and len(device) <= MAX_DEVICE:
        seen.append((DEVICE, sighting_hash(key, DEVICE, device)))
    now = as_utc(now)
    for kind, digest in seen:
        values = {"player_id": player_id, "kind": kind, "hash": digest, "seen_at": now}
        insert = pg_insert if conn.dialect.name == "postgresql" else sqlite_insert
        statement = insert(Sighting).values(**values)
        conn.execute(
            statement.on_conflict_do_update(
                index_elements=["player_id", "kind", "hash"], set_={"seen_at": now}
            )
        )
    conn.execute(delete(Sighting).where(Sighting.seen_at < now - timedelta(days=rules.linked_days)))


def linked_pairs(
    conn: Connection, players: Iterable[str], now: datetime, rules: LadderRules
) -> set[frozenset[str]]:
    """The pairs among ``players`` seen on one address or device within the window."""
    people = sorted({p for p in players if is_person(p)})
    if len(people) < 2:
        return set()
    since = as_utc(now) - timedelta(days=rules.linked_days)
    rows = conn.execute(
        select(Sighting.player_id, Sighting.kind, Sighting.hash).where(
            Sighting.player_id.in_(people), Sighting.seen_at >= since
        )
    )
    seen_by: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        seen_by.setdefault((row.kind, row.hash), set()).add(row.player_id)
    pairs: set[frozenset[str]] = set()
    for together in seen_by.values():
        pairs.update(frozenset(p) for p in itertools.combinations(sorted(together), 2))
    return pairs


def marks(conn: Connection, players: Iterable[str], now: datetime, rules: LadderRules) -> set[str]:
    """The sightings of ``players`` within the window, as the ranked queue's ticket marks
    (a prefix of each keyed hash: enough to tell them apart, short in a shared store)."""
    since = as_utc(now) - timedelta(days=rules.linked_days)
    rows = conn.execute(
        select(Sighting.kind, Sighting.hash).where(
            Sighting.player_id.in_(list(players)), Sighting.seen_at >= since
        )
    )
    return {f"{r.kind[0]}{r.hash[:16]}" for r in rows}


# -- eligibility -----------------------------------------------------------------------------


def missing(conn: Connection, player_id: str, rules: LadderRules) -> dict[str, Any] | None:
    """What ``player_id`` still lacks for ranked play, or None: ``{"claim": True}`` for a
    guest, ``{"casual_matches": n}`` for the casual matches still to finish."""
    lacking: dict[str, Any] = {}
    claimed = conn.scalar(select(Account.player_id).where(Account.player_id == player_id))
    if claimed is None:
        lacking["claim"] = True
    if rules.casual_matches > 0:
        played = conn.scalar(
            select(func.count())
            .select_from(Result)
            .where(Result.subject == player_id, Result.ranked.is_(False), Result.players >= 2)
            .where(fairplay.counts(Result.match_id))
        )
        left = rules.casual_matches - int(played or 0)
        if left > 0:
            lacking["casual_matches"] = left
    return lacking or None


def lacking_words(lacking: dict[str, Any]) -> str:
    """What is missing, as the person reads it."""
    parts = []
    if lacking.get("claim"):
        parts.append("claim your name (set a password)")
    left = lacking.get("casual_matches")
    if left:
        parts.append(f"finish {left} more casual match{'es' if left != 1 else ''}")
    return " and ".join(parts)


def refusal(conn: Connection, player_id: str, rules: LadderRules) -> dict[str, Any] | None:
    """The ranked queue's refusal for ``player_id`` (code ``ranked_locked``), or None."""
    lacking = missing(conn, player_id, rules)
    if lacking is None:
        return None
    return {
        "code": "ranked_locked",
        "message": f"ranked play opens once you {lacking_words(lacking)}",
        "missing": lacking,
    }


def rated_today(conn: Connection, a: str, b: str, now: datetime) -> int:
    """How many matches rated ``a`` and ``b`` together this UTC day (any game)."""
    start = as_utc(now).replace(hour=0, minute=0, second=0, microsecond=0)
    end = start + timedelta(days=1)
    mine = select(RatingHistory.match_id).where(
        RatingHistory.subject == a, RatingHistory.at >= start, RatingHistory.at < end
    )
    query = select(func.count(func.distinct(RatingHistory.match_id))).where(
        RatingHistory.subject == b,
        RatingHistory.at >= start,
        RatingHistory.at < end,
        RatingHistory.match_id.in_(mine),
    )
    return int(conn.scalar(query) or 0)


def verdict(
    conn: Connection,
    subjects: Sequence[str],
    now: datetime,
    rules: LadderRules,
    *,
    sides: Sequence[Sequence[str]] | None = None,
) -> Verdict | None:
    """Why a ranked match between ``subjects`` is not to be rated, or None: rate it.
    ``sides``: each seat's side (itself and its partner); partners are not opponents, so
    only people on different sides may not be linked."""
    people = sorted({s for s in subjects if is_person(s)})
    for player in people:
        lacking = missing(conn, player, rules)
        if lacking is not None:
            return Verdict(
                "ineligible", (player,), f"not rated: a player must first {lacking_words(lacking)}"
            )
    partners = {frozenset(p) for side in sides or () for p in itertools.combinations(side, 2)}
    opponents = [
        (a, b) for a, b in itertools.combinations(people, 2) if frozenset((a, b)) not in partners
    ]
    linked = linked_pairs(conn, people, now, rules)
    for a, b in opponents:
        if frozenset((a, b)) in linked:
            return Verdict(
                "linked",
                (a, b),
                "not rated: these accounts were seen on one network or device lately",
            )
    for a, b in opponents:
        if rated_today(conn, a, b, now) >= rules.pair_daily:
            return Verdict(
                "pair_limit",
                (a, b),
                f"not rated: this pair has played {rules.pair_daily} rated matches today (UTC)",
            )
    return None
