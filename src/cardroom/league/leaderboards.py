"""Leaderboards: top scores, top winners and top ranked, by period, mode and table.

Every board is one grouped query over facts stored once per match (``league_results``,
``league_rating_history``), so any period, mode or table can be asked for without keeping
counters up to date. Places are competition ranks (1, 2, 2, 4) computed by the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, Connection, Integer, Select, cast, func, select

from cardroom.bots.levels import LEVELS
from cardroom.games import lower_scores_win
from cardroom.league import fairplay
from cardroom.league.models import BOT_PREFIX, RatingHistory, Result, Season, Standing
from cardroom.league.periods import PERIODS, Window, window
from cardroom.league.ratings import MODES
from cardroom.store.models import Player

BOARDS = ("scores", "winners", "ranked")
ALL_TIME = Window(None, None)
ALL_MODES = "all"
PAGE_SIZE = 20
MAX_PAGE_SIZE = 100


class BoardError(ValueError):
    """A board request that makes no sense (unknown board, period, mode, page)."""


class SeasonNotClosed(BoardError):
    """A frozen board asked of a season that never was, or is still being played."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status  # 404: no such season; 409: still open


@dataclass(frozen=True, slots=True)
class Query:
    """What a board shows: which board, for which game, mode, table and time window."""

    board: str
    game: str = "skip"
    mode: str = ALL_MODES
    table_id: str | None = None
    window: Window = ALL_TIME
    bots: bool | None = None  # None: bots on the ranked board only (to show each level)

    def __post_init__(self) -> None:
        if self.board not in BOARDS:
            raise BoardError(f"unknown board {self.board!r}; choose one of {', '.join(BOARDS)}")
        modes = MODES if self.board == "ranked" else (ALL_MODES, *MODES)
        if self.mode not in modes:
            raise BoardError(
                f"mode is one of {', '.join(modes)} for {self.board}, not {self.mode!r}"
            )

    @property
    def with_bots(self) -> bool:
        return self.board == "ranked" if self.bots is None else self.bots


def query_for(
    board: str,
    *,
    period: str = "all",
    mode: str | None = None,
    table_id: str | None = None,
    game: str = "skip",
    now: datetime,
    season_months: int = 1,
) -> Query:
    """A board query from the API's words (``period=week&mode=2p``)."""
    if period not in PERIODS:
        raise BoardError(f"unknown period {period!r}; choose one of {', '.join(PERIODS)}")
    if mode is None:
        mode = "2p" if board == "ranked" else ALL_MODES
    return Query(board, game, mode, table_id or None, window(period, now, season_months))


def _grouped(q: Query) -> Select[str, Any, int]:
    """(subject, value, matches) per subject for the board."""
    if q.board == "ranked":
        h = RatingHistory
        latest = (
            select(
                h.subject,
                h.ordinal.label("value"),
                func.row_number()
                .over(partition_by=h.subject, order_by=(h.at.desc(), h.id.desc()))
                .label("newest"),
                func.count().over(partition_by=h.subject).label("matches"),
            )
            .where(h.game == q.game, h.mode == q.mode)
            .where(*_filters(q, h.at, h.table_id, h.subject))
            .subquery()
        )
        return select(latest.c.subject, latest.c.value, latest.c.matches).where(
            latest.c.newest == 1
        )
    r = Result
    value: ColumnElement[int]
    if q.board == "scores":  # the best final total: the lowest in a game like Skyjo
        value = func.min(r.points) if lower_scores_win(q.game) else func.max(r.points)
    else:
        value = func.sum(cast(r.won, Integer))
    query = (
        select(r.subject, value.label("value"), func.count().label("matches"))
        .where(r.game == q.game, *_filters(q, r.finished_at, r.table_id, r.subject))
        .where(fairplay.counts(r.match_id))  # a void match counts for nobody
        .group_by(r.subject)
    )
    if q.mode != ALL_MODES:
        query = query.where(r.mode == q.mode)
    if q.board == "winners":
        query = query.having(value > 0)
    return query


def _best_first(q: Query, value: Any) -> Any:
    """Boards rank the highest value first, but the lowest total in a lower-wins game."""
    return value.asc() if q.board == "scores" and lower_scores_win(q.game) else value.desc()


def _filters(q: Query, at: Any, table: Any, subject: Any) -> list[Any]:
    out = [fairplay.shown(subject)]  # an account marked as cheating is on no board
    if q.window.start is not None:
        out.append(at >= q.window.start)
    if q.window.end is not None:
        out.append(at < q.window.end)
    if q.table_id is not None:
        out.append(table == q.table_id)
    if not q.with_bots:
        out.append(~subject.startswith(BOT_PREFIX))
    return out


def entries(conn: Connection, q: Query, *, offset: int = 0, limit: int = PAGE_SIZE) -> list[dict]:
    """One page of the board, best first, each with its competition rank and a display name."""
    grouped = _grouped(q).subquery()
    ranked = select(
        grouped.c.subject,
        grouped.c.value,
        grouped.c.matches,
        func.rank().over(order_by=_best_first(q, grouped.c.value)).label("rank"),
    ).subquery()
    rows = conn.execute(
        select(ranked).order_by(ranked.c.rank, ranked.c.subject).offset(offset).limit(limit)
    ).all()
    names = display_names(conn, [r.subject for r in rows])
    return [
        {
            "rank": int(r.rank),
            **describe(r.subject, names),
            "value": round(float(r.value), 2) if q.board == "ranked" else int(r.value),
            "matches": int(r.matches),
        }
        for r in rows
    ]


def count(conn: Connection, q: Query) -> int:
    return int(conn.scalar(select(func.count()).select_from(_grouped(q).subquery())) or 0)


def page(conn: Connection, q: Query, number: int = 1, size: int = PAGE_SIZE) -> dict[str, Any]:
    """A page of a live board, as the API returns it."""
    if number < 1 or not 1 <= size <= MAX_PAGE_SIZE:
        raise BoardError(f"pages start at 1 and hold 1 to {MAX_PAGE_SIZE} entries")
    total = count(conn, q)
    return {
        "board": q.board,
        "game": q.game,
        "mode": q.mode,
        "table": q.table_id,
        "from": q.window.start.isoformat() if q.window.start else None,
        "to": q.window.end.isoformat() if q.window.end else None,
        "page": number,
        "size": size,
        "total": total,
        "pages": max(1, -(-total // size)),
        "entries": entries(conn, q, offset=(number - 1) * size, limit=size),
    }


def archived_page(
    conn: Connection,
    season_id: str,
    board: str,
    mode: str,
    game: str = "skip",
    number: int = 1,
    size: int = PAGE_SIZE,
) -> dict[str, Any]:
    """A page of a closed season's frozen board; ``SeasonNotClosed`` for a season that never
    was or is still open (its board is the live one)."""
    if number < 1 or not 1 <= size <= MAX_PAGE_SIZE:
        raise BoardError(f"pages start at 1 and hold 1 to {MAX_PAGE_SIZE} entries")
    status = conn.scalar(select(Season.status).where(Season.id == season_id[:16]))
    if status is None or len(season_id) > 16:
        shown = season_id if len(season_id) <= 16 else f"{season_id[:16]}…"
        raise SeasonNotClosed(f"no season {shown!r} (GET /api/seasons lists them)", 404)
    if status != "closed":
        raise SeasonNotClosed(
            f"season {season_id} is still being played: leave out season= for its live board", 409
        )
    where = (
        Standing.season_id == season_id,
        Standing.board == board,
        Standing.game == game,
        Standing.mode == mode,
    )
    # An account marked as cheating since is left out, and the places below it move up.
    hidden = sorted(
        conn.scalars(select(Standing.rank).where(*where, ~fairplay.shown(Standing.subject)))
    )
    total = int(
        conn.scalar(select(func.count()).where(*where, fairplay.shown(Standing.subject))) or 0
    )
    rows = conn.execute(
        select(Standing.__table__)
        .where(*where, fairplay.shown(Standing.subject))
        .order_by(Standing.position)
        .offset((number - 1) * size)
        .limit(size)
    ).all()
    return {
        "board": board,
        "game": game,
        "mode": mode,
        "season": season_id,
        "frozen": True,
        "page": number,
        "size": size,
        "total": total,
        "pages": max(1, -(-total // size)),
        "entries": [
            {
                "rank": r.rank - sum(1 for above in hidden if above < r.rank),
                **describe(r.subject, {r.subject: r.name}),
                "value": round(r.value, 2) if board == "ranked" else int(r.value),
                "matches": r.matches,
            }
            for r in rows
        ],
    }


def display_names(conn: Connection, subjects: list[str]) -> dict[str, str]:
    ids = [s for s in subjects if not s.startswith(BOT_PREFIX)]
    names = {}
    if ids:
        names = dict(conn.execute(select(Player.id, Player.name).where(Player.id.in_(ids))).all())
    for s in subjects:
        if s.startswith(BOT_PREFIX):
            level = LEVELS.get(s[len(BOT_PREFIX) :])
            names[s] = f"{level.name if level else s[len(BOT_PREFIX) :]} bot"
    return names


def describe(subject: str, names: dict[str, str]) -> dict[str, Any]:
    """An entry's who: a player (linked to a profile) or a bot level."""
    if subject.startswith(BOT_PREFIX):
        return {"player": None, "bot": subject[len(BOT_PREFIX) :], "name": names.get(subject)}
    return {"player": subject, "bot": None, "name": names.get(subject, "?")}
