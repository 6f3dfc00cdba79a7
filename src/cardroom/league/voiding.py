"""Voiding matches and marking cheaters: a result that must not count is recomputed, never
edited by hand (docs/league.md, "Fair play").

The library API a moderator's route or command calls, each in the caller's transaction:

- ``void_match(conn, match_id, reason=…)`` / ``unvoid_match(conn, match_id)``;
- ``mark_cheater(conn, player_id, reason=…)`` / ``clear_cheater(conn, player_id)``.

Each returns a ``VoidOutcome`` (the matches voided or restored, the rated matches replayed,
every displayed rating that moved) and raises a ``FairPlayError`` with an HTTP ``status`` and
a ``code`` for an unknown match or account (404) or a state that forbids it (409).

How ratings are recomputed: in each rating pool (game, mode) the rated matches from the
earliest one voided or restored on are walked in the order the league counts them (finish
time, then match id). A match is rated again, with the league's own ``ratings.rate`` on the
facts of the one replay of its stored steps (``finish.match_facts``), when it seats anyone
whose rating may have changed (the players of the voided match at first, then everyone who
met one of them since, and so on); every other match keeps its stored history rows, which
are already what a replay would give. So the ratings afterwards are exactly those of a league
that never counted the voided matches (or always counted a restored one), and the same
history always gives the same ratings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import Connection, and_, delete, insert, or_, select, update

from cardroom.league import divisions, fairplay, ratings
from cardroom.league.finish import entrants_of, match_facts
from cardroom.league.models import (
    MODERATOR,
    CheatMark,
    DivisionPlace,
    Rating,
    RatingHistory,
    Result,
    Void,
)
from cardroom.league.periods import as_utc, season_of, system_clock
from cardroom.store import repository as repo
from cardroom.store.models import Player

MAX_REASON = 500

Key = tuple[datetime, str]  # a match's place in the league's order: finish time, match id


# -- errors ----------------------------------------------------------------------------------


class FairPlayError(ValueError):
    """A void or cheat mark that cannot be done; ``status`` and ``code`` for an API answer."""

    status: ClassVar[int] = 409
    code: ClassVar[str] = "conflict"


class BadReason(FairPlayError):
    status = 400
    code = "bad_reason"


class UnknownMatch(FairPlayError):
    status = 404
    code = "unknown_match"


class UnknownAccount(FairPlayError):
    status = 404
    code = "unknown_player"


class NotCounted(FairPlayError):
    """The match is not finished, or the league has not counted it yet: nothing to void."""

    code = "not_counted"


class AlreadyVoided(FairPlayError):
    code = "already_voided"


class NotVoided(FairPlayError):
    code = "not_voided"


class AlreadyMarked(FairPlayError):
    code = "already_marked"


class NotMarked(FairPlayError):
    code = "not_marked"


# -- outcomes --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RatingChange:
    """A displayed rating (ordinal) that moved; None: the subject had, or has, no rating."""

    subject: str
    game: str
    mode: str
    before: float | None
    after: float | None

    def to_json(self) -> dict[str, Any]:
        def shown(value: float | None) -> float | None:
            return None if value is None else round(value, 2)

        return {
            "subject": self.subject,
            "game": self.game,
            "mode": self.mode,
            "before": shown(self.before),
            "after": shown(self.after),
        }


@dataclass(frozen=True, slots=True)
class VoidOutcome:
    """What a void, an unvoid, a mark or its lifting did: ``matches`` whose counting changed
    (voided or restored; empty when another void already covered them), ``replayed`` the
    rated matches rated again, ``changes`` every displayed rating that moved."""

    matches: tuple[str, ...]
    replayed: tuple[str, ...]
    changes: tuple[RatingChange, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "matches": list(self.matches),
            "replayed": list(self.replayed),
            "changes": [c.to_json() for c in self.changes],
        }


NOTHING = VoidOutcome((), (), ())


# -- the API ---------------------------------------------------------------------------------


def void_match(
    conn: Connection,
    match_id: str,
    *,
    reason: str,
    now: datetime | None = None,
    season_months: int = 1,
) -> VoidOutcome:
    """Void a counted match: off every board and career, ratings recomputed without it.
    A match already voided by a moderator is ``AlreadyVoided``; one void only through a cheat
    mark is voided by the moderator too (so it stays void if the mark is lifted)."""
    why = _reason(reason)
    _counted(conn, match_id)
    sources = fairplay.void_sources(conn, match_id)
    if MODERATOR in sources:
        raise AlreadyVoided(f"match {match_id} is already void")
    fairplay.add_voids(conn, [match_id], MODERATOR, why, _now(now))
    if sources:
        return NOTHING  # void already (a cheat mark): nothing counts differently
    return _recount(conn, [match_id], _now(now), season_months)


def unvoid_match(
    conn: Connection, match_id: str, *, now: datetime | None = None, season_months: int = 1
) -> VoidOutcome:
    """Lift a moderator's void: the match counts again and ratings are recomputed with it."""
    _counted(conn, match_id)
    sources = fairplay.void_sources(conn, match_id)
    if MODERATOR not in sources:
        if sources:
            raise NotVoided(
                f"match {match_id} is void because {', '.join(sorted(sources))} is marked as "
                "cheating: lift the mark instead"
            )
        raise NotVoided(f"match {match_id} is not void")
    conn.execute(delete(Void).where(Void.match_id == match_id, Void.source == MODERATOR))
    if len(sources) > 1:
        return NOTHING  # still void through a cheat mark
    return _recount(conn, [match_id], _now(now), season_months)


def mark_cheater(
    conn: Connection,
    player_id: str,
    *,
    reason: str,
    now: datetime | None = None,
    season_months: int = 1,
) -> VoidOutcome:
    """Mark an account as cheating: every match it played is void (its opponents' ratings
    recomputed as if those matches were never rated), its later matches are void as they are
    counted, and it is hidden from every board; its profile says so."""
    why = _reason(reason)
    _account(conn, player_id)
    if fairplay.mark_of(conn, player_id) is not None:
        raise AlreadyMarked(f"player {player_id} is already marked as cheating")
    moment = _now(now)
    conn.execute(insert(CheatMark).values(player_id=player_id, reason=why, marked_at=moment))
    played = set(conn.scalars(select(Result.match_id).where(Result.subject == player_id)))
    newly = played - fairplay.voided_among(conn, played)
    fairplay.add_voids(conn, played, player_id, f"the account is marked as cheating: {why}", moment)
    return _recount(conn, sorted(newly), moment, season_months)


def clear_cheater(
    conn: Connection, player_id: str, *, now: datetime | None = None, season_months: int = 1
) -> VoidOutcome:
    """Lift a cheat mark: the account's matches count again (but those a moderator voided, or
    another mark still voids) and every rating is recomputed with them."""
    _account(conn, player_id)
    if fairplay.mark_of(conn, player_id) is None:
        raise NotMarked(f"player {player_id} is not marked as cheating")
    conn.execute(delete(CheatMark).where(CheatMark.player_id == player_id))
    voided = set(conn.scalars(select(Void.match_id).where(Void.source == player_id)))
    conn.execute(delete(Void).where(Void.source == player_id))
    restored = voided - fairplay.voided_among(conn, voided)
    return _recount(conn, sorted(restored), _now(now), season_months)


# -- recomputing -----------------------------------------------------------------------------


@dataclass(slots=True)
class _Pool:
    """The replay of one rating pool: from ``start`` on, the subjects that may have moved."""

    game: str
    mode: str
    start: Key
    dirty: set[str]


def _recount(
    conn: Connection, match_ids: Iterable[str], now: datetime, season_months: int
) -> VoidOutcome:
    """Recompute every rating that the matches' counting (void or not, as stored now) can
    have changed, and the season's placements that rest on them."""
    ids = sorted(set(match_ids))
    if not ids:
        return NOTHING
    conn.execute(delete(RatingHistory).where(RatingHistory.match_id.in_(ids)))
    pools: dict[tuple[str, str], _Pool] = {}
    rows = conn.execute(
        select(Result.match_id, Result.subject, Result.game, Result.mode, Result.finished_at)
        .where(Result.match_id.in_(ids), Result.ranked.is_(True))
        .order_by(Result.match_id, Result.seat)
    )
    for r in rows:
        key = (as_utc(r.finished_at), r.match_id)
        pool = pools.setdefault((r.game, r.mode), _Pool(r.game, r.mode, key, set()))
        pool.start = min(pool.start, key)
        pool.dirty.add(r.subject)
    replayed: list[str] = []
    changes: list[RatingChange] = []
    for _, pool in sorted(pools.items()):
        done, moved = _replay(conn, pool)
        replayed += done
        changes += moved
        _replace(conn, pool, now, season_months)
    return VoidOutcome(tuple(ids), tuple(replayed), tuple(changes))


def _replay(conn: Connection, pool: _Pool) -> tuple[list[str], list[RatingChange]]:
    """Rate again, in order, every counted rated match of the pool from its start that seats
    a subject whose rating may have moved, then store each moved subject's newest rating."""
    game, mode = pool.game, pool.mode
    # PostgreSQL: a match of this pool finishing meanwhile waits for the replay's end.
    before = {
        r.subject: r.ordinal
        for r in conn.execute(
            select(Rating.subject, Rating.ordinal)
            .where(Rating.game == game, Rating.mode == mode)
            .with_for_update()
        )
    }
    later = _rated_since(conn, game, mode, pool.start)
    skills: dict[str, ratings.Skill] = {}
    replayed: list[str] = []
    for key, subjects in later:
        if pool.dirty.isdisjoint(subjects):
            continue  # nobody in it moved: its stored history is what a replay gives
        match_id = key[1]
        row = repo.get_match(conn, match_id)
        assert row is not None  # results rows exist only for stored matches
        game_of, facts, seated = match_facts(conn, row)
        for subject in set(seated) - skills.keys():
            skills[subject] = _skill_before(conn, subject, game, mode, key)
        rated = ratings.rate(entrants_of(facts, seated, game_of.lower_scores_win), skills)
        conn.execute(delete(RatingHistory).where(RatingHistory.match_id == match_id))
        if rated:
            conn.execute(
                insert(RatingHistory),
                [
                    {
                        "subject": subject,
                        "game": game,
                        "mode": mode,
                        "match_id": match_id,
                        "table_id": row["table_id"],
                        "mu": skill.mu,
                        "sigma": skill.sigma,
                        "ordinal": skill.ordinal,
                        "at": key[0],
                    }
                    for subject, skill in rated.items()
                ],
            )
        skills.update(rated)
        pool.dirty.update(seated)
        replayed.append(match_id)
    moved = []
    for subject in sorted(pool.dirty):
        after = _store_newest(conn, subject, game, mode)
        if before.get(subject) != after:
            moved.append(RatingChange(subject, game, mode, before.get(subject), after))
    return replayed, moved


def _rated_since(
    conn: Connection, game: str, mode: str, start: Key
) -> list[tuple[Key, frozenset[str]]]:
    """The pool's counted rated matches from ``start`` on, in the league's order, with the
    subjects each seats."""
    rows = conn.execute(
        select(Result.match_id, Result.subject, Result.finished_at).where(
            Result.game == game,
            Result.mode == mode,
            Result.ranked.is_(True),
            Result.finished_at >= start[0],
            fairplay.counts(Result.match_id),
        )
    )
    seated: dict[Key, set[str]] = {}
    for r in rows:
        key = (as_utc(r.finished_at), r.match_id)
        if key >= start:
            seated.setdefault(key, set()).add(r.subject)
    return [(key, frozenset(seated[key])) for key in sorted(seated)]


def _skill_before(conn: Connection, subject: str, game: str, mode: str, key: Key) -> ratings.Skill:
    """The subject's skill just before the match at ``key``: its newest history row before
    it, or where a rating starts (a person at the default, a bot level at its calibration)."""
    h = RatingHistory
    at, match_id = key
    row = conn.execute(
        select(h.mu, h.sigma)
        .where(
            h.subject == subject,
            h.game == game,
            h.mode == mode,
            or_(h.at < at, and_(h.at == at, h.match_id < match_id)),
        )
        .order_by(h.at.desc(), h.match_id.desc(), h.id.desc())
        .limit(1)
    ).first()
    if row is None:
        return ratings.starting_skill(subject, game, mode)
    return ratings.Skill(row.mu, row.sigma)


def _store_newest(conn: Connection, subject: str, game: str, mode: str) -> float | None:
    """Make the subject's current rating its newest history row (or none at all); the
    displayed rating it now has."""
    h = RatingHistory
    where = (h.subject == subject, h.game == game, h.mode == mode)
    rows = conn.execute(
        select(h.mu, h.sigma, h.at).where(*where).order_by(h.at, h.match_id, h.id)
    ).all()
    current = (Rating.subject == subject, Rating.game == game, Rating.mode == mode)
    if not rows:
        conn.execute(delete(Rating).where(*current))
        return None
    newest = rows[-1]
    skill = ratings.Skill(newest.mu, newest.sigma)
    values = {
        "mu": skill.mu,
        "sigma": skill.sigma,
        "ordinal": skill.ordinal,
        "matches": len(rows),
        "updated_at": as_utc(newest.at),
    }
    if conn.execute(update(Rating).where(*current).values(**values)).rowcount == 0:
        conn.execute(insert(Rating).values(subject=subject, game=game, mode=mode, **values))
    return skill.ordinal


def _replace(conn: Connection, pool: _Pool, now: datetime, season_months: int) -> None:
    """This season's placements rest on ratings: a player of the replay placed this season is
    placed again by the recomputed rating (or back to placement matches, if a void took one),
    and one rated this season but not placed is placed if the placement matches are now
    played, as counting would have. Moves made at a season's end, and closed seasons' frozen
    standings, are history and stay."""
    span = season_of(now, season_months)
    people = [s for s in pool.dirty if s.startswith("p_")]
    rated = set(
        conn.scalars(
            select(RatingHistory.subject).where(
                RatingHistory.subject.in_(people),
                RatingHistory.game == pool.game,
                RatingHistory.mode == pool.mode,
                RatingHistory.at >= span.start,
            )
        )
    )
    stored = dict(
        conn.execute(
            select(DivisionPlace.player_id, DivisionPlace.how).where(
                DivisionPlace.season_id == span.id,
                DivisionPlace.player_id.in_(people),
                DivisionPlace.game == pool.game,
                DivisionPlace.mode == pool.mode,
            )
        ).all()
    )
    for player in sorted(people):
        how = stored.get(player)
        if how == divisions.PLACEMENT:
            conn.execute(
                delete(DivisionPlace).where(
                    DivisionPlace.season_id == span.id,
                    DivisionPlace.player_id == player,
                    DivisionPlace.game == pool.game,
                    DivisionPlace.mode == pool.mode,
                )
            )
        if how == divisions.PLACEMENT or (how is None and player in rated):
            divisions.place_if_ready(conn, span.id, player, pool.game, pool.mode, now)


# -- checks ----------------------------------------------------------------------------------


def _reason(reason: str) -> str:
    why = " ".join(str(reason).split())
    if not why or len(why) > MAX_REASON:
        raise BadReason(f"a reason of 1 to {MAX_REASON} characters is required")
    return why


def _counted(conn: Connection, match_id: str) -> None:
    row = repo.get_match(conn, match_id)
    if row is None:
        raise UnknownMatch(f"no match {match_id!r}")
    counted = conn.scalar(select(Result.match_id).where(Result.match_id == match_id).limit(1))
    if row["status"] != "finished" or counted is None:
        raise NotCounted(f"match {match_id} has not been counted by the league (not finished?)")


def _account(conn: Connection, player_id: str) -> None:
    if conn.scalar(select(Player.id).where(Player.id == player_id)) is None:
        raise UnknownAccount(f"no player {player_id!r}")


def _now(now: datetime | None) -> datetime:
    return as_utc(now or system_clock())
