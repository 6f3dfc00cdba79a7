"""The league counts finished matches off the writer, once each, and catches up at start."""

from __future__ import annotations

import asyncio

from sqlalchemy import func, select

from cardroom.games.skip import Options
from cardroom.league import unrated_matches
from cardroom.league.models import Result
from cardroom.server.league_worker import LeagueWorker

from .conftest import add_player, add_table, played, store_match


def results(engine) -> int:
    with engine.connect() as conn:
        return conn.scalar(select(func.count()).select_from(Result))


def test_a_match_a_stopped_server_left_uncounted_is_counted_at_the_next_start(engine) -> None:
    match = played(Options(players=2, stock_size=5, match_target=None), "catch-up")
    with engine.begin() as conn:
        add_player(conn, "p_ada")
        add_table(conn, "t_1", "p_ada", match.options)
        store_match(conn, match, "m_1", "t_1", ["p_ada", "easy"])  # final move, no results
    with engine.connect() as conn:
        assert unrated_matches(conn) == ["m_1"]
    worker = LeagueWorker(engine)
    try:
        assert asyncio.run(worker.catch_up()) == 1
        assert results(engine) == 2  # one row per seat
        assert asyncio.run(worker.catch_up()) == 0  # counted once
        assert asyncio.run(worker.count("m_1")) == []  # and never again
        assert results(engine) == 2
    finally:
        worker.close()


def test_counting_a_match_announces_what_the_table_tells(engine) -> None:
    match = played(Options(players=2, stock_size=5, match_target=None), "announce")
    with engine.begin() as conn:
        add_player(conn, "p_ada")
        add_table(conn, "t_1", "p_ada", match.options)
        store_match(conn, match, "m_2", "t_1", ["p_ada", "easy"])
    worker = LeagueWorker(engine)
    try:
        events = asyncio.run(worker.count("m_2"))
    finally:
        worker.close()
    kinds = {e["kind"] for e in events}
    assert "achievement" in kinds  # at least "first_match" for Ada
    assert all(e["seat"] == 0 for e in events)  # the bot collects none
