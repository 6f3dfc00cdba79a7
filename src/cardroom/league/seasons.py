"""Seasons: open while they run, then frozen into standings with trophies for the top three
of every board and of every division's ranked board; then everyone placed in a division moves
up, down or stays for the next season (``divisions.promote``).

``roll_over(conn, now)`` is cheap when nothing is due, so the match hook and the board pages
call it freely; with several server processes the first to claim a season (an atomic status
change) freezes it and the others skip it. The clock is always passed in.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.dialects import postgresql, sqlite

from cardroom.games import GAMES
from cardroom.league import divisions, rewards
from cardroom.league import leaderboards as boards
from cardroom.league.models import BOT_PREFIX, DivisionPlace, Season, Standing, Trophy
from cardroom.league.periods import SEASON_MONTHS, SeasonSpan, Window, as_utc, season_of
from cardroom.league.ratings import MODES

ARCHIVE_SIZE = 100  # places kept per frozen board
TROPHY_PLACES = 3


def ensure(conn: Connection, span: SeasonSpan) -> None:
    """Create the season's row unless another process already has."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(
        dialect.insert(Season)
        .values(id=span.id, starts_at=span.start, ends_at=span.end, status="open")
        .on_conflict_do_nothing(index_elements=["id"])
    )


def roll_over(conn: Connection, now: datetime, months: int = SEASON_MONTHS) -> list[str]:
    """Open the current season and freeze every open season that has ended; the frozen ids."""
    now = as_utc(now)
    ensure(conn, season_of(now, months))
    due = conn.scalars(
        select(Season.id).where(Season.status == "open", Season.ends_at <= now).order_by(Season.id)
    ).all()
    frozen = []
    for season_id in due:
        claimed = conn.execute(
            update(Season)
            .where(Season.id == season_id, Season.status == "open")
            .values(status="closing")
        ).rowcount
        if claimed != 1:
            continue
        following = season_of(_ends_at(conn, season_id), months)
        ensure(conn, following)
        for game in sorted(GAMES):  # every game's boards, as the registry lists them
            freeze(conn, season_id, now, game)
            for mode in MODES:
                divisions.promote(conn, season_id, following.id, game, mode, now)
        for player in _rewarded(conn, season_id):  # trophies and new divisions unlock rewards
            rewards.unlock_earned(conn, player, now)
        conn.execute(
            update(Season).where(Season.id == season_id).values(status="closed", closed_at=now)
        )
        frozen.append(season_id)
    return frozen


def _rewarded(conn: Connection, season_id: str) -> list[str]:
    """Players with a trophy of the season or a division in it."""
    won = select(Trophy.player_id).where(Trophy.season_id == season_id)
    placed = select(DivisionPlace.player_id).where(DivisionPlace.season_id == season_id)
    return sorted(set(conn.scalars(won)) | set(conn.scalars(placed)))


def _ends_at(conn: Connection, season_id: str) -> datetime:
    ends_at = conn.scalar(select(Season.ends_at).where(Season.id == season_id))
    assert ends_at is not None  # the caller has just claimed this season's row
    return as_utc(ends_at)


def _boards() -> list[tuple[str, str]]:
    pairs = [(board, boards.ALL_MODES) for board in ("scores", "winners")]
    pairs += [(board, mode) for board in boards.BOARDS for mode in MODES]
    return pairs


def freeze(conn: Connection, season_id: str, now: datetime, game: str) -> None:
    """Copy the season's boards (and each division's) into standings and give the top three
    players of each trophies."""
    row = conn.execute(select(Season.__table__).where(Season.id == season_id)).one()
    span = Window(as_utc(row.starts_at), as_utc(row.ends_at))
    for board, mode in _boards():
        top = boards.entries(conn, boards.Query(board, game, mode, None, span), limit=ARCHIVE_SIZE)
        players = boards.Query(board, game, mode, None, span, bots=False)
        podium = boards.entries(conn, players, limit=TROPHY_PLACES * 2)
        _archive(conn, season_id, board, game, mode, top, podium, now)
    for mode in MODES:  # each division's ranked board, with its own podium
        for division in divisions.DIVISIONS:
            rows = divisions.board(conn, season_id, game, mode, division.id, span)
            _archive(conn, season_id, division.id, game, mode, rows[:ARCHIVE_SIZE], rows, now)


def _archive(
    conn: Connection,
    season_id: str,
    board: str,
    game: str,
    mode: str,
    top: list[dict[str, Any]],
    podium: list[dict[str, Any]],
    now: datetime,
) -> None:
    """Store a frozen board and give its players ranked 1 to 3 their trophies."""
    if top:
        conn.execute(
            insert(Standing),
            [
                {
                    "season_id": season_id,
                    "board": board,
                    "game": game,
                    "mode": mode,
                    "position": position,
                    "rank": entry["rank"],
                    "subject": _subject(entry),
                    "name": (entry["name"] or "?")[:64],
                    "value": entry["value"],
                    "matches": entry["matches"],
                }
                for position, entry in enumerate(top, start=1)
            ],
        )
    podium = [e for e in podium if e["player"] and e["rank"] <= TROPHY_PLACES]
    if podium:
        conn.execute(
            insert(Trophy),
            [
                {
                    "season_id": season_id,
                    "board": board,
                    "game": game,
                    "mode": mode,
                    "player_id": e["player"],
                    "place": e["rank"],
                    "value": e["value"],
                    "awarded_at": now,
                }
                for e in podium
            ],
        )


def _subject(entry: dict[str, Any]) -> str:
    return entry["player"] if entry["player"] else BOT_PREFIX + entry["bot"]


def seasons_json(conn: Connection) -> list[dict[str, Any]]:
    rows = conn.execute(select(Season.__table__).order_by(Season.starts_at.desc())).all()
    return [
        {
            "id": s.id,
            "starts_at": as_utc(s.starts_at).isoformat(),
            "ends_at": as_utc(s.ends_at).isoformat(),
            "status": s.status,
        }
        for s in rows
    ]


def trophies_of(conn: Connection, player_id: str) -> list[dict[str, Any]]:
    rows = conn.execute(
        select(Trophy.__table__)
        .where(Trophy.player_id == player_id)
        .order_by(Trophy.season_id.desc(), Trophy.board, Trophy.mode)
    ).all()
    return [
        {
            "season": t.season_id,
            "board": t.board,
            "game": t.game,
            "mode": t.mode,
            "place": t.place,
            "value": t.value,
        }
        for t in rows
    ]


def due(conn: Connection, now: datetime, months: int = SEASON_MONTHS) -> bool:
    """Whether ``roll_over`` has work: the current season is missing or an open one has ended."""
    now = as_utc(now)
    current = season_of(now, months)
    if conn.scalar(select(Season.id).where(Season.id == current.id)) is None:
        return True
    ended = select(Season.id).where(Season.status == "open", Season.ends_at <= now).limit(1)
    return conn.scalar(ended) is not None
