"""Achievements: a declarative list, computed from the engine's events, each awarded once."""

from __future__ import annotations

import dataclasses

import pytest
from sqlalchemy import func, select

from cardroom.games.skip import Match, Options, action_from_json
from cardroom.games.skip.facts import SeatFacts, analyse
from cardroom.games.skip.options import HAND_SIZE
from cardroom.league import on_match_finished
from cardroom.league.achievements import ACHIEVEMENTS, BY_ID, earned, strongest_level
from cardroom.league.models import Award
from cardroom.store import repository as repo

from .conftest import add_player, add_table, loser_first, played, store_match, winner_first

QUICK = Options(players=2, stock_size=5, match_target=None)


def facts(**changes: object) -> SeatFacts:
    """A seat that did nothing remarkable, with ``changes`` applied."""
    base = SeatFacts(seat=0, players=2, mode="2p", ranked=False, teams=False, match_target=500)
    return dataclasses.replace(base, **changes)


# Each achievement at its threshold, and one step short of it.
THRESHOLDS = {
    "first_match": ({"career_matches": 1}, {"career_matches": 0}),
    "first_win": ({"won": True}, {"won": True, "players": 1}),
    "wins_10": ({"won": True, "career_wins": 10}, {"won": True, "career_wins": 9}),
    "wins_100": ({"won": True, "career_wins": 100}, {"won": True, "career_wins": 99}),
    "matches_100": ({"career_matches": 100}, {"career_matches": 99}),
    "ranked_debut": ({"ranked": True}, {"ranked": False}),
    "hand_sweep": ({"hand_sweeps": 1}, {"hand_sweeps": 0}),
    "stock_rush": ({"max_stock_in_turn": 5}, {"max_stock_in_turn": 4}),
    "one_turn_pile": ({"one_turn_piles": 1}, {"one_turn_piles": 0}),
    "double_complete": ({"max_completed_in_turn": 2}, {"max_completed_in_turn": 1}),
    "marathon_turn": ({"max_plays_in_turn": 15}, {"max_plays_in_turn": 14}),
    "wild_trio": ({"max_wilds_in_turn": 3}, {"max_wilds_in_turn": 2}),
    "whitewash": ({"whitewash_rounds_won": 1}, {"whitewash_rounds_won": 0}),
    "speed_demon": ({"fastest_round_win": 10}, {"fastest_round_win": 11}),
    "last_standing": ({"stalemate_rounds_won": 1}, {"stalemate_rounds_won": 0}),
    "purist": ({"won": True, "wilds_played": 0}, {"won": True, "wilds_played": 1}),
    "team_win": ({"won": True, "team_win": True}, {"won": True, "team_win": False}),
    "helping_hand": ({"partner_stock_played": 1}, {"partner_stock_played": 0}),
    "crowd_pleaser": ({"won": True, "players": 4}, {"won": True, "players": 3}),
    "machine_tamer": ({"won": True, "beat_bot_levels": ["easy"]}, {"won": False}),
    "giant_slayer": (
        {"won": True, "beat_bot_levels": [strongest_level()]},
        {"won": True, "beat_bot_levels": ["__weaker__"]},
    ),
    "five_hundred": (
        {"won": True, "points": 500},
        {"won": True, "points": 500, "match_target": 200},
    ),
    "comeback": ({"won": True, "max_deficit": 100}, {"won": True, "max_deficit": 95}),
    "shutout": ({"won": True, "rounds": 2}, {"won": True, "rounds": 2, "opponents_points": 25}),
}


def test_the_list_is_data_with_at_least_fifteen_distinct_achievements() -> None:
    ids = [a.id for a in ACHIEVEMENTS]
    assert len(ids) >= 15 and len(set(ids)) == len(ids)
    assert all(a.name and a.description.endswith(".") for a in ACHIEVEMENTS)
    assert set(THRESHOLDS) == {a.id for a in ACHIEVEMENTS}
    assert set(BY_ID) >= set(THRESHOLDS)  # every game's achievements, Skip's among them


@pytest.mark.parametrize("achievement", sorted(THRESHOLDS))
def test_each_achievement_holds_exactly_at_its_threshold(achievement: str) -> None:
    at, short = THRESHOLDS[achievement]
    assert BY_ID[achievement].earned(facts(**at))
    assert not BY_ID[achievement].earned(facts(**short))


def test_a_quiet_match_earns_nothing() -> None:
    assert earned(facts()) == []


def _oracle(match_options: Options, seed: str, moves: list[dict]) -> dict[int, dict[str, int]]:
    """Counts from the engine's state between moves (not its events): the independent check."""
    match = Match(match_options, seed)
    out = {s: {"sweeps": 0, "stock": 0, "max_stock": 0} for s in range(match_options.players)}
    turn_key, stock_in_turn, hand_plays = None, 0, 0
    for move in moves:
        if move["kind"] == "next_round":
            match.next_round()
            continue
        state = match.state
        seat = state.current
        key = (match.round_number, state.turn)
        if key != turn_key:
            turn_key, stock_in_turn, hand_plays = key, 0, 0
        action = action_from_json(move["action"], allow_timeout=True)
        hand_before = len(state.hands[seat])
        match.apply(action, seat=seat)
        if action.kind == "play" and action.source == "stock":
            stock_in_turn += 1
            out[seat]["stock"] += 1
            out[seat]["max_stock"] = max(out[seat]["max_stock"], stock_in_turn)
        if action.kind == "play" and action.source == "hand":
            hand_plays += 1
            refilled = hand_before == 1 and len(match.state.hands[seat]) > 0
            if refilled and state.result is None:
                if hand_plays >= HAND_SIZE:
                    out[seat]["sweeps"] += 1
                hand_plays = 0
    return out


@pytest.mark.parametrize("seed", ["sweep-1", "sweep-2"])
def test_sweeps_and_stock_runs_agree_with_the_engine_state(conn, seed: str) -> None:
    match = played(Options(players=2, match_target=200), seed)
    add_player(conn, "p_ada")
    add_table(conn, "t_1", "p_ada", match.options)
    store_match(conn, match, "m_1", "t_1", ["p_ada", "easy"])
    moves = repo.match_moves(conn, "m_1")
    found = analyse(match.options, match.seed, repo.steps_of(moves))
    oracle = _oracle(match.options, match.seed, moves)
    for seat in found.seats:
        assert seat.hand_sweeps == oracle[seat.seat]["sweeps"]
        assert seat.stock_played == oracle[seat.seat]["stock"]
        assert seat.max_stock_in_turn == oracle[seat.seat]["max_stock"]
    assert sum(s.hand_sweeps for s in found.seats) > 0  # the check is not vacuous


def held(conn, player: str) -> set[str]:
    return set(conn.scalars(select(Award.achievement).where(Award.player_id == player)))


def test_wins_are_awarded_once_exactly_at_the_first_and_tenth_win(conn) -> None:
    add_player(conn, "p_ada")
    add_table(conn, "t_q", "p_ada", QUICK)
    announced: list[list[str]] = []
    for n in range(11):
        match = played(QUICK, f"quick-{n}")
        who = (
            loser_first(match, "p_ada", ["easy"])
            if n == 0
            else winner_first(match, "p_ada", ["easy"])
        )
        store_match(conn, match, f"m_{n}", "t_q", who)
        events = on_match_finished(conn, f"m_{n}")
        announced.append(
            [e["detail"]["achievement"]["id"] for e in events if e["kind"] == "achievement"]
        )
    assert "first_match" in announced[0] and "first_win" not in announced[0]
    assert "first_win" in announced[1]
    assert all("first_win" not in a and "first_match" not in a for a in announced[2:])
    assert all("wins_10" not in a for a in announced[:10])
    assert "wins_10" in announced[10]  # the 10th win (match 0 was a loss)
    ids = [i for a in announced for i in a]
    assert len(ids) == len(set(ids))  # never announced twice
    assert conn.scalar(select(func.count()).select_from(Award)) == len(ids)


def test_an_announcement_names_the_player_and_seat(conn) -> None:
    match = played(QUICK, "quick-a")
    add_player(conn, "p_ada", "Ada")
    add_table(conn, "t_q", "p_ada", QUICK)
    who = winner_first(match, "p_ada", ["easy"])
    store_match(conn, match, "m_a", "t_q", who)
    events = [e for e in on_match_finished(conn, "m_a") if e["kind"] == "achievement"]
    assert {e["seat"] for e in events} == {who.index("p_ada")}
    assert events[0]["detail"]["player"]["id"] == "p_ada"
    assert {"machine_tamer", "first_win", "first_match"} <= held(conn, "p_ada")


def test_bots_collect_no_achievements(conn) -> None:
    match = played(QUICK, "quick-b")
    add_player(conn, "p_ada")
    add_table(conn, "t_q", "p_ada", QUICK)
    store_match(conn, match, "m_b", "t_q", ["easy", "beginner"])
    assert on_match_finished(conn, "m_b") == []
    assert conn.scalar(select(func.count()).select_from(Award)) == 0


def test_a_team_win_and_the_partner_s_stock(conn) -> None:
    options = Options(players=4, teams=True, stock_size=5, match_target=None)
    match = played(options, "team-q")
    for p in ("p_a", "p_b", "p_c", "p_d"):
        add_player(conn, p)
    add_table(conn, "t_t", "p_a", options)
    store_match(conn, match, "m_t", "t_t", ["p_a", "p_b", "p_c", "p_d"])
    on_match_finished(conn, "m_t")
    for s in match.winners or ():
        assert "team_win" in held(conn, f"p_{'abcd'[s]}")
    for s in set(range(4)) - set(match.winners or ()):
        assert "team_win" not in held(conn, f"p_{'abcd'[s]}")
