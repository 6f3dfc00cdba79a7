"""Leaderboards by period, mode and table, pages, and a season rolling over (injected clock)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache

import pytest
from sqlalchemy import func, select

from cardroom.games.skip import Match, Options
from cardroom.league import leaderboards as boards
from cardroom.league import on_match_finished, seasons
from cardroom.league.models import Season, Standing, Trophy
from cardroom.league.periods import season_of, window

from .conftest import NOW, add_player, add_table, played, store_match, winner_first

QUICK2 = Options(players=2, stock_size=5, match_target=None)
QUICK3 = Options(players=3, stock_size=5, match_target=None)


@cache
def quick(options: Options, n: int) -> Match:
    return played(options, f"board-{options.players}-{n}")


def win(conn, player: str, when: datetime, table: str = "t_a", options: Options = QUICK2) -> None:
    """``player`` wins a short match against bots at ``when``."""
    number = conn.scalar(select(func.count()).select_from(Season)) or 0
    match_id = f"m_{player}_{when.isoformat()}_{table}_{number}"
    match = quick(options, abs(hash(match_id)) % 5)
    others = ["easy", "beginner"][: options.players - 1]
    store_match(conn, match, match_id, table, winner_first(match, player, others), when)
    on_match_finished(conn, match_id)


def board(conn, name: str, period: str = "all", now: datetime = NOW, **kw) -> list[tuple]:
    query = boards.query_for(name, period=period, now=now, **kw)
    return [(e["player"] or e["bot"], e["value"], e["rank"]) for e in boards.entries(conn, query)]


@pytest.fixture
def club(conn):
    for p in ("p_ada", "p_bob", "p_cy"):
        add_player(conn, p)
    add_table(conn, "t_a", "p_ada", QUICK2)
    add_table(conn, "t_b", "p_bob", QUICK3)
    return conn


def test_periods_are_calendar_windows_in_utc() -> None:
    assert window("today", NOW).start == datetime(2026, 11, 18, tzinfo=UTC)
    assert window("week", NOW).start == datetime(2026, 11, 16, tzinfo=UTC)  # Monday
    assert window("month", NOW).end == datetime(2026, 12, 1, tzinfo=UTC)
    assert season_of(NOW).id == "2026-11"
    assert season_of(datetime(2026, 12, 31, 23, 59, tzinfo=UTC)).end == datetime(
        2027, 1, 1, tzinfo=UTC
    )
    assert season_of(NOW, months=3).id == "2026-S4"
    with pytest.raises(ValueError):
        window("fortnight", NOW)


def test_top_winners_by_period(club) -> None:
    conn = club
    win(conn, "p_ada", NOW - timedelta(hours=1))  # today
    win(conn, "p_bob", NOW - timedelta(days=2))  # this week (Monday)
    win(conn, "p_bob", NOW - timedelta(days=10))  # this month
    win(conn, "p_cy", NOW - timedelta(days=40))  # last month: all time only
    win(conn, "p_cy", NOW - timedelta(days=41))
    win(conn, "p_cy", NOW - timedelta(days=42))
    assert board(conn, "winners", "today") == [("p_ada", 1, 1)]
    assert board(conn, "winners", "week") == [("p_ada", 1, 1), ("p_bob", 1, 1)]
    assert board(conn, "winners", "month") == [("p_bob", 2, 1), ("p_ada", 1, 2)]
    assert board(conn, "winners", "season") == board(conn, "winners", "month")
    assert board(conn, "winners", "all") == [("p_cy", 3, 1), ("p_bob", 2, 2), ("p_ada", 1, 3)]


def test_mode_and_table_filters(club) -> None:
    conn = club
    win(conn, "p_ada", NOW, "t_a", QUICK2)
    win(conn, "p_bob", NOW, "t_b", QUICK3)
    win(conn, "p_bob", NOW - timedelta(minutes=1), "t_b", QUICK3)
    assert board(conn, "winners", mode="2p") == [("p_ada", 1, 1)]
    assert board(conn, "winners", mode="3p+") == [("p_bob", 2, 1)]
    assert board(conn, "winners", table_id="t_a") == [("p_ada", 1, 1)]
    scores = board(conn, "scores", table_id="t_b")
    assert [e[0] for e in scores] == ["p_bob"] and scores[0][1] > 0
    with pytest.raises(boards.BoardError):
        board(conn, "winners", mode="5p")
    with pytest.raises(boards.BoardError):
        board(conn, "fastest")


def test_pages_and_shared_ranks(conn) -> None:
    add_table(conn, "t_a", add_player(conn, "p_owner"), QUICK2)
    for i in range(5):
        add_player(conn, f"p_{i}")
        for k in range(1 + i // 2):  # wins: 1, 1, 2, 2, 3
            win(conn, f"p_{i}", NOW - timedelta(minutes=10 * i + k))
    query = boards.query_for("winners", now=NOW)
    first = boards.page(conn, query, 1, size=2)
    second = boards.page(conn, query, 2, size=2)
    third = boards.page(conn, query, 3, size=2)
    assert first["total"] == 5 and first["pages"] == 3
    assert [(e["player"], e["rank"]) for e in first["entries"]] == [("p_4", 1), ("p_2", 2)]
    assert [e["rank"] for e in second["entries"]] == [2, 4]
    assert [(e["player"], e["rank"]) for e in third["entries"]] == [("p_1", 4)]
    with pytest.raises(boards.BoardError):
        boards.page(conn, query, 0)


def test_bots_are_on_the_ranked_board_but_not_the_others(conn) -> None:
    options = Options(players=2)
    add_table(conn, "t_r", add_player(conn, "p_ada"), options)
    match = played(options, "ranked-board")
    store_match(conn, match, "m_r", "t_r", winner_first(match, "p_ada", ["easy"]))
    on_match_finished(conn, "m_r")
    ranked = board(conn, "ranked", mode="2p")
    assert [e[0] for e in ranked] == ["easy", "p_ada"]  # Easy starts at its calibrated rating
    assert [e[0] for e in board(conn, "scores")] == ["p_ada"]
    assert board(conn, "ranked", mode="3p+") == []


def test_a_season_rolls_over_frozen_with_trophies(club) -> None:
    conn = club
    november = datetime(2026, 11, 20, tzinfo=UTC)
    win(conn, "p_ada", november)
    win(conn, "p_ada", november + timedelta(hours=1))
    win(conn, "p_bob", november + timedelta(hours=2))
    win(conn, "p_cy", november + timedelta(hours=3), "t_b", QUICK3)
    assert conn.scalar(select(Season.status).where(Season.id == "2026-11")) == "open"
    assert seasons.roll_over(conn, datetime(2026, 11, 30, 23, 59, tzinfo=UTC)) == []

    december = datetime(2026, 12, 1, 0, 0, 1, tzinfo=UTC)
    assert seasons.due(conn, december)
    assert seasons.roll_over(conn, december) == ["2026-11"]
    assert seasons.roll_over(conn, december) == []  # once
    assert not seasons.due(conn, december)
    assert conn.scalar(select(Season.status).where(Season.id == "2026-11")) == "closed"
    assert conn.scalar(select(Season.status).where(Season.id == "2026-12")) == "open"

    frozen = boards.archived_page(conn, "2026-11", "winners", "all")
    assert [(e["player"], e["value"], e["rank"]) for e in frozen["entries"]] == [
        ("p_ada", 2, 1),
        ("p_bob", 1, 2),
        ("p_cy", 1, 2),
    ]
    places = dict(
        conn.execute(
            select(Trophy.player_id, Trophy.place).where(
                Trophy.board == "winners", Trophy.mode == "all"
            )
        ).all()
    )
    assert places == {"p_ada": 1, "p_bob": 2, "p_cy": 2}

    # December's wins change December's live board, never November's archive.
    win(conn, "p_cy", december + timedelta(days=1))
    win(conn, "p_cy", december + timedelta(days=1, hours=1))
    assert boards.archived_page(conn, "2026-11", "winners", "all")["entries"] == frozen["entries"]
    live = board(conn, "winners", "season", now=december + timedelta(days=2))
    assert live == [("p_cy", 2, 1)]
    assert conn.scalar(select(func.count()).select_from(Standing)) > 0


def test_a_match_finishing_in_a_new_month_closes_the_old_season(club) -> None:
    conn = club
    win(conn, "p_ada", datetime(2026, 10, 31, 23, 0, tzinfo=UTC))
    win(conn, "p_bob", datetime(2026, 11, 1, 0, 30, tzinfo=UTC))  # the hook rolls over
    assert conn.scalar(select(Season.status).where(Season.id == "2026-10")) == "closed"
    october = boards.archived_page(conn, "2026-10", "winners", "all")["entries"]
    assert [e["player"] for e in october] == ["p_ada"]
