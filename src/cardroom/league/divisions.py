"""Divisions: bands of the displayed rating (``mu - 3 sigma``), per game and mode.

``division_of`` is the pure rule; a player's division *for a season* is stored
(``league_divisions``) so it stays put while the season runs: placed after the placement
matches, then moved at most one step up or down at each season's end (promotion, relegation).
Bands, and why these, in ``docs/league.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.dialects import postgresql, sqlite

from cardroom.league import leaderboards
from cardroom.league.models import DivisionPlace, Rating
from cardroom.league.periods import season_of, system_clock
from cardroom.league.ratings import MODES

PLACEMENT_MATCHES = 5  # rated matches in a mode before a player has a division there


@dataclass(frozen=True, slots=True)
class Division:
    id: str
    name: str
    floor: float  # the lowest displayed rating in the band
    step: int  # 0 = the bottom division

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "floor": self.floor}


DIVISIONS = (
    Division("bronze", "Bronze", float("-inf"), 0),
    Division("silver", "Silver", 8.0, 1),
    Division("gold", "Gold", 16.0, 2),
    Division("platinum", "Platinum", 22.0, 3),
    Division("champion", "Champion", 28.0, 4),
)
BY_ID = {d.id: d for d in DIVISIONS}
PLACEMENT = "placement"


def division_of(rating: float) -> Division:
    """The band a displayed rating falls in."""
    found = DIVISIONS[0]
    for division in DIVISIONS:
        if rating >= division.floor:
            found = division
    return found


def is_provisional(matches: int) -> bool:
    """A rating from fewer than the placement matches is not a division yet."""
    return matches < PLACEMENT_MATCHES


def season_end_move(current: str, rating: float) -> str:
    """The division for next season: one step towards the rating's band (or staying)."""
    now = BY_ID[current].step
    target = division_of(rating).step
    step = now + (1 if target > now else -1 if target < now else 0)
    return DIVISIONS[step].id


def badge(division_id: str | None, matches: int) -> dict[str, Any]:
    """What the lobby, the table and the profile show."""
    if division_id is None:
        left = max(0, PLACEMENT_MATCHES - matches)
        return {"id": PLACEMENT, "name": "Placement", "left": left}
    return BY_ID[division_id].to_json()


# -- stored places ---------------------------------------------------------------------------------


def place_of(conn: Connection, season_id: str, player: str, game: str, mode: str) -> str | None:
    return conn.scalar(
        select(DivisionPlace.division).where(
            DivisionPlace.season_id == season_id,
            DivisionPlace.player_id == player,
            DivisionPlace.game == game,
            DivisionPlace.mode == mode,
        )
    )


def put(
    conn: Connection,
    season_id: str,
    player: str,
    game: str,
    mode: str,
    division: str,
    how: str,
    now: datetime,
) -> None:
    """Store a season's division unless one is stored already (the first writer wins)."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(
        dialect.insert(DivisionPlace)
        .values(
            season_id=season_id,
            player_id=player,
            game=game,
            mode=mode,
            division=division,
            how=how,
            at=now,
        )
        .on_conflict_do_nothing(index_elements=["season_id", "player_id", "game", "mode"])
    )


def place_if_ready(
    conn: Connection, season_id: str, player: str, game: str, mode: str, now: datetime
) -> str | None:
    """The player's division this season: stored, or placed now if the placement matches are
    played (a newcomer, or a player who sat out a season), else None."""
    stored = place_of(conn, season_id, player, game, mode)
    if stored is not None:
        return stored
    row = conn.execute(
        select(Rating.ordinal, Rating.matches).where(
            Rating.subject == player, Rating.game == game, Rating.mode == mode
        )
    ).first()
    if row is None or is_provisional(row.matches):
        return None
    put(conn, season_id, player, game, mode, division_of(row.ordinal).id, "placement", now)
    return place_of(conn, season_id, player, game, mode)


def badges(
    conn: Connection, season_id: str, players: list[str], game: str, mode: str
) -> dict[str, dict[str, Any]]:
    """Each player's badge for this season, game and mode, in two reads (no writes)."""
    stored = dict(
        conn.execute(
            select(DivisionPlace.player_id, DivisionPlace.division).where(
                DivisionPlace.season_id == season_id,
                DivisionPlace.player_id.in_(players),
                DivisionPlace.game == game,
                DivisionPlace.mode == mode,
            )
        ).all()
    )
    rated = {
        r.subject: r
        for r in conn.execute(
            select(Rating.subject, Rating.ordinal, Rating.matches).where(
                Rating.subject.in_(players), Rating.game == game, Rating.mode == mode
            )
        )
    }
    out = {}
    for player in players:
        r = rated.get(player)
        matches = r.matches if r else 0
        division = stored.get(player)
        if division is None and r is not None and not is_provisional(matches):
            division = division_of(r.ordinal).id  # placed at their next match
        out[player] = {
            **badge(division, matches),
            "rating": round(r.ordinal, 1) if r else None,
        }
    return out


# -- boards and the season's end -------------------------------------------------------------------

EVERYONE = 100_000  # enough rows for any division's board


def members(conn: Connection, season_id: str, game: str, mode: str) -> dict[str, str]:
    """Player id -> division, for everyone placed this season in this game and mode."""
    rows = conn.execute(
        select(DivisionPlace.player_id, DivisionPlace.division).where(
            DivisionPlace.season_id == season_id,
            DivisionPlace.game == game,
            DivisionPlace.mode == mode,
        )
    ).all()
    return dict(rows)


def board(
    conn: Connection,
    season_id: str,
    game: str,
    mode: str,
    division: str,
    window: Any,
    limit: int = EVERYONE,
) -> list[dict[str, Any]]:
    """The season's ranked board of one division: its members only, ranked among themselves
    (competition ranks, 1, 2, 2, 4)."""
    placed = members(conn, season_id, game, mode)
    query = leaderboards.Query("ranked", game, mode, None, window, bots=False)
    rows = [
        e
        for e in leaderboards.entries(conn, query, limit=EVERYONE)
        if placed.get(e["player"]) == division
    ]
    out: list[dict[str, Any]] = []
    for position, entry in enumerate(rows, start=1):
        same = out and out[-1]["value"] == entry["value"]
        out.append({**entry, "rank": out[-1]["rank"] if same else position})
    return out[:limit]


def promote(
    conn: Connection, ended: str, following: str, game: str, mode: str, now: datetime
) -> dict[str, int]:
    """Place everyone of the ended season in the following one: one step up or down towards
    their rating's band, or staying. Counts by how (promoted, relegated, stayed)."""
    placed = members(conn, ended, game, mode)
    if not placed:
        return {}
    rating = dict(
        conn.execute(
            select(Rating.subject, Rating.ordinal).where(
                Rating.subject.in_(list(placed)), Rating.game == game, Rating.mode == mode
            )
        ).all()
    )
    counts: dict[str, int] = {}
    for player, current in sorted(placed.items()):
        nxt = season_end_move(current, rating.get(player, BY_ID[current].floor))
        step = BY_ID[nxt].step - BY_ID[current].step
        how = "promoted" if step > 0 else "relegated" if step < 0 else "stayed"
        put(conn, following, player, game, mode, nxt, how, now)
        counts[how] = counts.get(how, 0) + 1
    return counts


# -- a player's divisions --------------------------------------------------------------------------


def best_seasons(conn: Connection, player: str, game: str) -> dict[str, dict[str, Any]]:
    """Per mode, the season in which the player held their highest division."""
    rows = conn.execute(
        select(DivisionPlace.season_id, DivisionPlace.mode, DivisionPlace.division).where(
            DivisionPlace.player_id == player, DivisionPlace.game == game
        )
    ).all()
    best: dict[str, dict[str, Any]] = {}
    for r in rows:
        d = BY_ID.get(r.division)
        if d is None:
            continue
        held = best.get(r.mode)
        if held is None or (d.step, r.season_id) > (held["step"], held["season"]):
            best[r.mode] = {"season": r.season_id, "mode": r.mode, "step": d.step, **d.to_json()}
    return best


def current_of(
    conn: Connection, player: str, game: str, now: datetime | None = None
) -> dict[str, dict[str, Any]]:
    """The player's badge this season in every mode of the game."""
    season = season_of(now or system_clock()).id
    return {mode: badges(conn, season, [player], game, mode)[player] for mode in MODES}
