"""Profiles: a player's career statistics, ratings, achievements and trophies, in one read.

Career figures are sums over ``league_results`` (one row per seat per finished match), so they
are the same whichever device or table the matches were played on.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, Integer, cast, func, select

from cardroom.games import lower_scores_win
from cardroom.league import achievements, divisions, fairplay, ratings, rewards, seasons
from cardroom.league.accounts import is_claimed
from cardroom.league.models import Result
from cardroom.league.periods import as_utc
from cardroom.store.models import Player, Table

RECENT = 10


def career(conn: Connection, subject: str, game: str = "skip") -> dict[str, Any]:
    """Totals overall and per mode: matches, rounds, wins, win rate, points per round (a match's
    final points over its rounds), stock cards per turn, best round, best season and division."""
    r = Result
    best = func.min if lower_scores_win(game) else func.max  # Skyjo: the lowest round and total
    columns = (
        r.mode,
        func.count().label("matches"),
        func.sum(cast(r.won, Integer)).label("wins"),
        func.sum(r.turns).label("turns"),
        func.sum(r.stock_played).label("stock_played"),
        func.sum(r.rounds_won).label("rounds_won"),
        func.sum(r.rounds).label("rounds"),
        func.sum(r.points).label("points"),
        best(r.best_round).label("best_round"),
        best(r.points).label("best_match"),
    )
    rows = conn.execute(
        select(*columns)
        .where(r.subject == subject, r.game == game, fairplay.counts(r.match_id))
        .group_by(r.mode)
    ).all()
    by_mode = {row.mode: _figures(row) for row in rows}
    total = {
        key: sum(m[key] for m in by_mode.values())
        for key in ("matches", "wins", "turns", "stock_played", "rounds_won", "rounds", "points")
    }
    pick = min if lower_scores_win(game) else max
    total["best_round"] = pick((m["best_round"] for m in by_mode.values()), default=0)
    total["best_match"] = pick((m["best_match"] for m in by_mode.values()), default=0)
    best_seasons = divisions.best_seasons(conn, subject, game)
    for mode, figures in by_mode.items():
        figures["best_season"] = best_seasons.get(mode)
    return {**_rates(total), "best_season": _best_of(best_seasons.values()), "by_mode": by_mode}


def _best_of(seasons_: Any) -> dict[str, Any] | None:
    """The highest division ever held, the latest season first among equals."""
    return max(seasons_, key=lambda s: (s["step"], s["season"]), default=None)


def _figures(row: Any) -> dict[str, Any]:
    return _rates(
        {
            "matches": int(row.matches),
            "wins": int(row.wins or 0),
            "turns": int(row.turns or 0),
            "stock_played": int(row.stock_played or 0),
            "rounds_won": int(row.rounds_won or 0),
            "rounds": int(row.rounds or 0),
            "points": int(row.points or 0),
            "best_round": int(row.best_round or 0),
            "best_match": int(row.best_match or 0),
        }
    )


def _rates(figures: dict[str, Any]) -> dict[str, Any]:
    matches, turns, rounds = figures["matches"], figures["turns"], figures["rounds"]
    return {
        **figures,
        "points_per_round": round(figures["points"] / rounds, 2) if rounds else 0.0,
        "win_rate": round(figures["wins"] / matches, 3) if matches else 0.0,
        "stock_per_turn": round(figures["stock_played"] / turns, 3) if turns else 0.0,
    }


def recent_matches(conn: Connection, subject: str, limit: int = RECENT) -> list[dict[str, Any]]:
    # A private table's id is no one else's business: it is given for public tables only.
    rows = conn.execute(
        select(Result.__table__, Table.public.label("table_public"))
        .outerjoin(Table, Table.id == Result.table_id)
        .where(Result.subject == subject)
        .order_by(Result.finished_at.desc(), Result.match_id)
        .limit(limit)
    ).all()
    void = fairplay.voided_among(conn, [row.match_id for row in rows])
    return [
        {
            "match": row.match_id,
            "table": row.table_id if row.table_public else None,
            "game": row.game,
            "mode": row.mode,
            "ranked": row.ranked,
            # Why it counts as it does: void (counts for nobody), forfeited by this player,
            # or not rated at ranked rules (the ladder's reason: ineligible, linked, pair_limit)
            "voided": row.match_id in void,
            "forfeited": bool(row.forfeited),
            "unrated": row.unrated,
            "won": row.won,
            "points": row.points,
            "rounds": row.rounds,
            "finished_at": as_utc(row.finished_at).isoformat(),
        }
        for row in rows
    ]


def profile(conn: Connection, player_id: str, game: str = "skip") -> dict[str, Any] | None:
    """Everything the public profile page shows, or None for an unknown player."""
    player = conn.execute(
        select(Player.id, Player.name, Player.created_at).where(Player.id == player_id)
    ).first()
    if player is None:
        return None
    return {
        "player": {
            "id": player.id,
            "name": player.name,
            "created_at": as_utc(player.created_at).isoformat(),
            "claimed": is_claimed(conn, player_id),
        },
        # A cheat mark ({"reason", "marked_at"}) or None: a marked account's results are void
        "fair_play": fairplay.mark_of(conn, player_id),
        "career": career(conn, player_id, game),
        "ratings": ratings.ratings_of(conn, player_id, game),
        "achievements": [
            {**a, "awarded_at": as_utc(a["awarded_at"]).isoformat() if a["awarded_at"] else None}
            for a in achievements.player_achievements(conn, player_id)
        ],
        "trophies": seasons.trophies_of(conn, player_id),
        "divisions": divisions.current_of(conn, player_id, game),
        "rewards": rewards.rewards_json(conn, player_id),
        "recent": recent_matches(conn, player_id),
    }
