"""The ladder's rules in the league's counting (docs/league.md, "Ladder rules"): who may be
rated, against whom, how often, and a forfeit rated as a loss."""

from __future__ import annotations

from datetime import timedelta
from functools import cache

from sqlalchemy import func, insert, select

from cardroom.bots import make_bot
from cardroom.games.base import FORFEIT, Step
from cardroom.games.skip import Match, Options
from cardroom.league import ladder, on_match_finished
from cardroom.league.accounts import claim
from cardroom.league.models import Rating, Result, Sighting
from cardroom.league.ratings import Skill
from cardroom.store import repository as repo
from cardroom.store.models import Move

from .conftest import NOW, add_player, add_table, played, store_match

RANKED = Options(players=2)
CASUAL = Options(players=2, stock_size=5, match_target=None)
RULES = ladder.LadderRules(casual_matches=3, pair_daily=3, linked_days=14)
KEY = b"the server's secret"


@cache
def ranked_match() -> Match:
    return played(RANKED, "ladder-1")


@cache
def casual_match() -> Match:
    return played(CASUAL, "ladder-casual")


def forfeited(leaver: int, moves: int = 12) -> Match:
    """A ranked match played a little by bots, then forfeited by ``leaver``."""
    match = Match(RANKED, "ladder-forfeit")
    bots = [make_bot("greedy", f"f/{s}") for s in range(2)]
    for _ in range(moves):
        seat = match.current
        match.apply(bots[seat].choose(match.view(seat)), seat=seat)
    match.apply_step(Step(FORFEIT, leaver))
    return match


def ordinal(conn, subject: str) -> float | None:
    return conn.scalar(select(Rating.ordinal).where(Rating.subject == subject, Rating.mode == "2p"))


def account(conn, player_id: str) -> str:
    add_player(conn, player_id)
    claim(conn, player_id, "argon2-hash-of-a-password", player_id.removeprefix("p_").title(), NOW)
    return player_id


def casual_games(conn, a: str, b: str, count: int = 3) -> None:
    """``count`` finished casual matches between ``a`` and ``b`` (each counts for both)."""
    add_table(conn, f"t_casual_{a}_{b}", a, CASUAL)
    for n in range(count):
        match_id = f"m_casual_{a}_{b}_{n}"
        store_match(conn, casual_match(), match_id, f"t_casual_{a}_{b}", [a, b])
        on_match_finished(conn, match_id, now=NOW - timedelta(days=1), ladder=RULES)


def ranked(conn, match_id: str, who: list[str], match: Match | None = None, at=NOW) -> list:
    add_table(conn, f"t_{match_id}", who[0], RANKED)
    store_match(conn, match or ranked_match(), match_id, f"t_{match_id}", who, finished_at=at)
    return on_match_finished(conn, match_id, now=at, ladder=RULES)


def unrated(events: list) -> dict | None:
    return next((e["detail"] for e in events if e["kind"] == "unrated"), None)


# -- eligibility --------------------------------------------------------------------------------


def test_a_guest_and_a_fresh_account_are_refused_ranked_play_with_what_is_missing(conn) -> None:
    add_player(conn, "p_guest")
    account(conn, "p_fresh")
    guest = ladder.refusal(conn, "p_guest", RULES)
    assert guest is not None and guest["code"] == "ranked_locked"
    assert guest["missing"] == {"claim": True, "casual_matches": 3}
    assert "claim your name" in guest["message"]
    fresh = ladder.refusal(conn, "p_fresh", RULES)
    assert fresh is not None and fresh["missing"] == {"casual_matches": 3}
    assert "finish 3 more casual matches" in fresh["message"]
    add_player(conn, "p_bot_friend")
    casual_games(conn, "p_fresh", "p_bot_friend", count=1)
    assert ladder.refusal(conn, "p_fresh", RULES)["missing"] == {"casual_matches": 2}
    casual_games(conn, "p_fresh", "p_guest", count=2)
    assert ladder.refusal(conn, "p_fresh", RULES) is None
    assert ladder.refusal(conn, "p_guest", RULES)["missing"] == {"claim": True, "casual_matches": 1}


def test_a_ranked_match_with_a_guest_is_counted_as_casual_and_says_why(conn) -> None:
    account(conn, "p_ada")
    add_player(conn, "p_guest")
    account(conn, "p_other")
    casual_games(conn, "p_ada", "p_other")
    events = ranked(conn, "m_1", ["p_ada", "p_guest"])
    why = unrated(events)
    assert why is not None and why["reason"] == "ineligible" and why["players"] == ["p_guest"]
    assert ordinal(conn, "p_ada") is None and ordinal(conn, "p_guest") is None
    assert not conn.scalar(select(Result.ranked).where(Result.match_id == "m_1").limit(1))
    assert not [e for e in events if e["kind"] == "rating"]


def test_eligible_accounts_are_rated_against_each_other_and_against_bots(conn) -> None:
    account(conn, "p_ada")
    account(conn, "p_bea")
    casual_games(conn, "p_ada", "p_bea")
    events = ranked(conn, "m_1", ["p_ada", "p_bea"])
    assert unrated(events) is None
    assert ordinal(conn, "p_ada") is not None and ordinal(conn, "p_bea") is not None
    assert unrated(ranked(conn, "m_2", ["p_ada", "easy"])) is None


# -- linked accounts ----------------------------------------------------------------------------


def test_accounts_seen_on_one_address_are_linked_and_never_rated_together(conn) -> None:
    for player in ("p_ada", "p_bea", "p_cal"):
        account(conn, player)
    ladder.record_sighting(conn, "p_ada", KEY, NOW, RULES, address="203.0.113.7")
    ladder.record_sighting(conn, "p_bea", KEY, NOW, RULES, address="203.0.113.7")
    ladder.record_sighting(conn, "p_cal", KEY, NOW, RULES, address="198.51.100.2")
    stored = conn.scalars(select(Sighting.hash)).all()
    assert stored and not any("203.0.113.7" in h for h in stored)  # a keyed hash, never the address
    assert ladder.linked_pairs(conn, ["p_ada", "p_bea", "p_cal"], NOW, RULES) == {
        frozenset({"p_ada", "p_bea"})
    }
    casual_games(conn, "p_ada", "p_bea")
    casual_games(conn, "p_cal", "p_bea")
    why = unrated(ranked(conn, "m_1", ["p_ada", "p_bea"]))
    assert why is not None and why["reason"] == "linked"
    assert ordinal(conn, "p_ada") is None
    assert unrated(ranked(conn, "m_2", ["p_cal", "p_bea"])) is None  # others still rated


def test_a_shared_device_links_accounts_and_old_sightings_are_forgotten(conn) -> None:
    account(conn, "p_ada")
    account(conn, "p_bea")
    ladder.record_sighting(conn, "p_ada", KEY, NOW, RULES, address="a1", device="browser-1")
    ladder.record_sighting(conn, "p_bea", KEY, NOW, RULES, address="b1", device="browser-1")
    assert ladder.linked_pairs(conn, ["p_ada", "p_bea"], NOW, RULES)
    later = NOW + timedelta(days=15)
    assert not ladder.linked_pairs(conn, ["p_ada", "p_bea"], later, RULES)
    ladder.record_sighting(conn, "p_ada", KEY, later, RULES, address="a2")  # prunes the old
    assert conn.scalar(select(func.count()).select_from(Sighting)) == 1


# -- pairs per day ------------------------------------------------------------------------------


def test_a_pair_s_fourth_match_of_the_day_is_not_rated(conn) -> None:
    account(conn, "p_ada")
    account(conn, "p_bea")
    casual_games(conn, "p_ada", "p_bea")
    for n in range(3):
        at = NOW + timedelta(minutes=10 * n)
        assert unrated(ranked(conn, f"m_{n}", ["p_ada", "p_bea"], at=at)) is None
    rated = ordinal(conn, "p_ada")
    why = unrated(ranked(conn, "m_3", ["p_ada", "p_bea"], at=NOW + timedelta(hours=1)))
    assert why is not None and why["reason"] == "pair_limit"
    assert ordinal(conn, "p_ada") == rated
    tomorrow = NOW.replace(hour=0, minute=5) + timedelta(days=1)  # a new UTC day
    assert unrated(ranked(conn, "m_4", ["p_ada", "p_bea"], at=tomorrow)) is None


# -- forfeits -----------------------------------------------------------------------------------


def test_a_forfeit_is_rated_as_a_loss_for_the_leaver_whatever_the_score(conn) -> None:
    account(conn, "p_ada")
    account(conn, "p_bea")
    casual_games(conn, "p_ada", "p_bea")
    match = forfeited(leaver=0)
    add_table(conn, "t_f", "p_ada", RANKED)
    store_match(conn, match, "m_f", "t_f", ["p_ada", "p_bea"])
    number = conn.scalar(select(func.max(Move.number)).where(Move.match_id == "m_f"))
    step = repo.move_row("m_f", number + 1, match.round_number, FORFEIT, 0, None)
    conn.execute(insert(Move), [step.params])
    events = on_match_finished(conn, "m_f", now=NOW, ladder=RULES)
    assert unrated(events) is None
    assert ordinal(conn, "p_ada") < Skill.default().ordinal < ordinal(conn, "p_bea")
    rows = conn.execute(select(Result.subject, Result.won).where(Result.match_id == "m_f"))
    won = {r.subject: r.won for r in rows}
    assert won == {"p_ada": False, "p_bea": True}


def test_linked_accounts_share_a_queue_mark_and_others_do_not(conn) -> None:
    for player in ("p_ada", "p_alt", "p_bea"):
        add_player(conn, player)
    ladder.record_sighting(conn, "p_ada", KEY, NOW, RULES, address="203.0.113.7")
    ladder.record_sighting(conn, "p_alt", KEY, NOW, RULES, address="203.0.113.7")
    ladder.record_sighting(conn, "p_bea", KEY, NOW, RULES, address="198.51.100.2")
    ada, alt, bea = (ladder.marks(conn, [p], NOW, RULES) for p in ("p_ada", "p_alt", "p_bea"))
    assert ada == alt and not ada & bea
