"""OpenSkill ratings (Plackett-Luce) per game and mode, for players and bot levels alike.

A ranked match updates everyone once, ranked by final score (partners as one team while the
teams lasted, R2.5). Bot levels are rated like players, so the ranked board shows how strong
each level is. Every update leaves a history row, for plots and past periods' boards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from openskill.models import PlackettLuce
from sqlalchemy import Connection, insert, select, update

from cardroom.bots.calibrated import starting_skill as starting_skill_of_level
from cardroom.league.models import BOT_PREFIX, Rating, RatingHistory

MODEL = PlackettLuce()
MODES = ("2p", "3p+", "teams")


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating people are ranked by: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @classmethod
    def default(cls) -> Skill:
        fresh = MODEL.rating()
        return cls(fresh.mu, fresh.sigma)


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat in a rated match: who (subject), on which side, and the side's final score;
    ``forfeited``: the seat forfeited the match (the ladder), so its side ranks last whatever
    the score."""

    subject: str
    side: int
    score: int
    forfeited: bool = False


def rate(entrants: Sequence[Entrant], current: dict[str, Skill]) -> dict[str, Skill]:
    """New skills after one match. A subject in several seats (two bots of one level) gets the
    sum of its seats' changes, so a level playing itself gains nothing."""
    sides = sorted({e.side for e in entrants})
    lost = {e.side for e in entrants if e.forfeited}
    score_of = {e.side: (e.side not in lost, e.score) for e in entrants}
    if len(sides) < 2:
        return {}
    teams = []
    members: list[list[Entrant]] = []
    for side in sides:
        seated = [e for e in entrants if e.side == side]
        members.append(seated)
        teams.append(
            [
                MODEL.rating(mu=s.mu, sigma=s.sigma)
                for s in (current.get(e.subject, Skill.default()) for e in seated)
            ]
        )
    ordered = sorted({score_of[s] for s in sides}, reverse=True)
    ranks: list[float] = [ordered.index(score_of[side]) + 1 for side in sides]
    rated = MODEL.rate(teams, ranks=ranks)
    out: dict[str, Skill] = {}
    for seated, new_team in zip(members, rated, strict=True):
        for entrant, new in zip(seated, new_team, strict=True):
            before = current.get(entrant.subject, Skill.default())
            was = out.get(entrant.subject, before)
            out[entrant.subject] = Skill(was.mu + (new.mu - before.mu), min(was.sigma, new.sigma))
    return out


def starting_skill(subject: str, game: str, mode: str) -> Skill:
    """Where a subject's rating starts: a person at OpenSkill's default, a bot level at its
    calibrated skill (``cardroom calibrate``), so beating Master is worth more than beating
    Beginner from the very first match, and a level's rating is right before it plays."""
    if subject.startswith(BOT_PREFIX):
        calibrated = starting_skill_of_level(game, subject[len(BOT_PREFIX) :], mode)
        if calibrated is not None:
            return Skill(*calibrated)
    return Skill.default()


def load(
    conn: Connection, subjects: Sequence[str], game: str, mode: str, lock: bool = False
) -> dict[str, Skill]:
    query = select(Rating.subject, Rating.mu, Rating.sigma).where(
        Rating.subject.in_(set(subjects)), Rating.game == game, Rating.mode == mode
    )
    if lock:
        query = query.with_for_update()  # PostgreSQL: two tables finishing at once
    return {r.subject: Skill(r.mu, r.sigma) for r in conn.execute(query)}


def update_match(
    conn: Connection,
    entrants: Sequence[Entrant],
    *,
    game: str,
    mode: str,
    match_id: str,
    table_id: str,
    now: datetime,
) -> dict[str, tuple[Skill, Skill]]:
    """Rate one finished match and store it; (before, after) per subject."""
    subjects = [e.subject for e in entrants]
    current = load(conn, subjects, game, mode, lock=True)
    starts = {s: starting_skill(s, game, mode) for s in subjects if s not in current}
    new = rate(entrants, {**starts, **current})
    changes: dict[str, tuple[Skill, Skill]] = {}
    for subject, after in new.items():
        before = current.get(subject)
        values = {"mu": after.mu, "sigma": after.sigma, "ordinal": after.ordinal, "updated_at": now}
        if before is None:
            conn.execute(
                insert(Rating).values(subject=subject, game=game, mode=mode, matches=1, **values)
            )
        else:
            conn.execute(
                update(Rating)
                .where(Rating.subject == subject, Rating.game == game, Rating.mode == mode)
                .values(matches=Rating.matches + 1, **values)
            )
        changes[subject] = (before or starts[subject], after)
    if new:
        conn.execute(
            insert(RatingHistory),
            [
                {
                    "subject": subject,
                    "game": game,
                    "mode": mode,
                    "match_id": match_id,
                    "table_id": table_id,
                    "mu": after.mu,
                    "sigma": after.sigma,
                    "ordinal": after.ordinal,
                    "at": now,
                }
                for subject, after in new.items()
            ],
        )
    return changes


def ratings_of(conn: Connection, subject: str, game: str | None = None) -> list[dict[str, object]]:
    query = select(Rating.__table__).where(Rating.subject == subject).order_by(Rating.mode)
    if game is not None:
        query = query.where(Rating.game == game)
    return [
        {
            "game": r.game,
            "mode": r.mode,
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "ordinal": round(r.ordinal, 3),
            "matches": r.matches,
        }
        for r in conn.execute(query)
    ]


def history_of(
    conn: Connection, subject: str, game: str, mode: str
) -> list[tuple[datetime, Skill]]:
    rows = conn.execute(
        select(RatingHistory.at, RatingHistory.mu, RatingHistory.sigma)
        .where(
            RatingHistory.subject == subject,
            RatingHistory.game == game,
            RatingHistory.mode == mode,
        )
        .order_by(RatingHistory.at, RatingHistory.id)
    )
    return [(r.at, Skill(r.mu, r.sigma)) for r in rows]
