"""Ratings move the right way after a ranked match, and never at a casual table."""

from __future__ import annotations

from functools import cache

import pytest
from sqlalchemy import func, select

from cardroom.games.skip import Match, Options
from cardroom.league import on_match_finished
from cardroom.league.models import Rating, RatingHistory, Result, bot_subject
from cardroom.league.ratings import Entrant, Skill, rate, starting_skill

from .conftest import add_player, add_table, loser_first, played, store_match, winner_first

RANKED = Options(players=2)
CASUAL = Options(players=2, stock_size=10, match_target=None)


@cache
def ranked_match() -> Match:
    return played(RANKED, "ranked-1")


def ordinal(conn, subject: str, mode: str = "2p") -> float | None:
    return conn.scalar(select(Rating.ordinal).where(Rating.subject == subject, Rating.mode == mode))


def test_the_winner_gains_and_the_loser_drops() -> None:
    new = rate([Entrant("a", 0, 500), Entrant("b", 1, 120)], {})
    fresh = Skill.default()
    assert new["a"].mu > fresh.mu > new["b"].mu
    assert new["a"].sigma < fresh.sigma and new["b"].sigma < fresh.sigma


def test_partners_share_their_side_s_result() -> None:
    entrants = [Entrant("a", 0, 300), Entrant("b", 1, 0), Entrant("c", 0, 300), Entrant("d", 1, 0)]
    new = rate(entrants, {})
    assert new["a"].mu == pytest.approx(new["c"].mu)
    assert new["b"].mu == pytest.approx(new["d"].mu)
    assert new["a"].mu > new["b"].mu


def test_a_bot_level_playing_itself_gains_nothing() -> None:
    new = rate([Entrant("bot:easy", 0, 500), Entrant("bot:easy", 1, 100)], {})
    assert new["bot:easy"].mu == pytest.approx(Skill.default().mu)


def test_a_bot_level_starts_at_its_calibrated_skill_and_a_person_at_the_default() -> None:
    """``cardroom calibrate`` measured the levels: beating Master is worth more than beating
    Beginner from the very first match."""
    assert starting_skill("p_ada", "skip", "2p") == Skill.default()
    skills = [starting_skill(bot_subject(lv), "skip", "2p") for lv in ("beginner", "master")]
    assert skills[0].mu < skills[1].mu
    assert all(s.sigma < Skill.default().sigma for s in skills)  # measured, so surer
    beat_beginner = rate([Entrant("p", 0, 1), Entrant("b", 1, 0)], {"b": skills[0]})["p"]
    beat_master = rate([Entrant("p", 0, 1), Entrant("m", 1, 0)], {"m": skills[1]})["p"]
    assert beat_master.mu > beat_beginner.mu
    assert starting_skill(bot_subject("no-such-level"), "skip", "2p") == Skill.default()


def test_a_ranked_match_moves_player_and_bot_ratings_the_right_way(conn) -> None:
    match = ranked_match()
    add_player(conn, "p_ada")
    add_table(conn, "t_r", "p_ada", RANKED)
    store_match(conn, match, "m_1", "t_r", winner_first(match, "p_ada", ["easy"]))
    events = on_match_finished(conn, "m_1")
    assert ordinal(conn, "p_ada") > Skill.default().ordinal
    easy = starting_skill(bot_subject("easy"), "skip", "2p")
    assert ordinal(conn, bot_subject("easy")) < easy.ordinal  # from its calibrated rating
    rating = [e for e in events if e["kind"] == "rating"]
    assert len(rating) == 1 and rating[0]["detail"]["after"] > rating[0]["detail"]["before"]
    assert conn.scalar(select(func.count()).select_from(RatingHistory)) == 2

    # The same player loses the next match against the same level: the rating drops.
    add_table(conn, "t_r2", "p_ada", RANKED)
    store_match(conn, match, "m_2", "t_r2", loser_first(match, "p_ada", ["easy"]))
    before = ordinal(conn, "p_ada")
    on_match_finished(conn, "m_2")
    assert ordinal(conn, "p_ada") < before
    assert conn.scalar(select(Rating.matches).where(Rating.subject == "p_ada")) == 2


def test_a_finished_match_is_counted_once(conn) -> None:
    match = ranked_match()
    add_player(conn, "p_ada")
    add_table(conn, "t_r", "p_ada", RANKED)
    store_match(conn, match, "m_1", "t_r", winner_first(match, "p_ada", ["easy"]))
    first = on_match_finished(conn, "m_1")
    assert first
    after = ordinal(conn, "p_ada")
    assert on_match_finished(conn, "m_1") == []
    assert ordinal(conn, "p_ada") == after
    assert conn.scalar(select(func.count()).select_from(Result)) == 2


def test_a_casual_match_leaves_ratings_untouched_but_counts_for_statistics(conn) -> None:
    match = played(CASUAL, "casual-1")
    add_player(conn, "p_ada")
    add_table(conn, "t_c", "p_ada", CASUAL)
    store_match(conn, match, "m_c", "t_c", winner_first(match, "p_ada", ["easy"]))
    events = on_match_finished(conn, "m_c")
    assert not [e for e in events if e["kind"] == "rating"]
    assert conn.scalar(select(func.count()).select_from(Rating)) == 0
    assert conn.scalar(select(func.count()).select_from(RatingHistory)) == 0
    assert conn.scalar(select(Result.ranked).where(Result.subject == "p_ada")) is False


def test_assist_or_a_house_rule_makes_a_table_casual(conn) -> None:
    assert Options(players=2).ranked_standard
    assert not Options(players=2, assist=True).ranked_standard
    assert not Options(players=2, no_wild_discards=True).ranked_standard


def test_team_partners_move_together_in_the_teams_pool(conn) -> None:
    options = Options(players=4, teams=True)
    match = played(options, "teams-1")
    for p in ("p_a", "p_b", "p_c", "p_d"):
        add_player(conn, p)
    add_table(conn, "t_t", "p_a", options)
    store_match(conn, match, "m_t", "t_t", ["p_a", "p_b", "p_c", "p_d"])
    on_match_finished(conn, "m_t")
    winners = set(match.winners or ())
    assert len(winners) == 2
    values = {s: ordinal(conn, f"p_{'abcd'[s]}", "teams") for s in range(4)}
    won = [values[s] for s in winners]
    lost = [values[s] for s in range(4) if s not in winners]
    assert won[0] == pytest.approx(won[1]) and lost[0] == pytest.approx(lost[1])
    assert won[0] > Skill.default().ordinal > lost[0]
