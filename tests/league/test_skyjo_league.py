"""Skyjo in the league: results, ratings and boards where the lower total wins, and Skyjo's
own achievements, all from the facts the Skyjo engine counts."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from sqlalchemy import select

from cardroom.games.base import ACTION, NEXT_ROUND, Step
from cardroom.games.skyjo import Match, Options, action_to_json
from cardroom.games.skyjo.facts import SeatFacts
from cardroom.league import leaderboards, on_match_finished, ratings
from cardroom.league.achievements import BY_GAME, SKYJO_ACHIEVEMENTS, earned
from cardroom.league.models import Result
from cardroom.store import repository as repo

from .conftest import NOW, add_player

RANKED = Options(players=2)  # the published rules: ranked


def random_match(options: Options, seed: str) -> tuple[Match, list[Step]]:
    """A Skyjo match of random legal actions to its end, and its steps."""
    match, rng, steps = Match(options, seed), random.Random(seed), []
    while not match.over:
        if match.between_rounds:
            step = Step(NEXT_ROUND)
        else:
            seat = match.current
            action = rng.choice(match.view(seat).legal_actions())
            step = Step(ACTION, seat, action_to_json(action))
        match.apply_step(step)
        steps.append(step)
    return match, steps


def store(conn, match: Match, steps: list[Step], match_id: str, who: list[str]) -> None:
    """A finished Skyjo match as the server stores one: table, match row and every step."""
    repo.insert_table(
        conn,
        {
            "id": f"t_{match_id}",
            "name": None,
            "public": True,
            "game": "skyjo",
            "owner_id": who[0],
            "options": match.options.to_json(),
            "abandon_after": 300.0,
            "status": "finished",
        },
        [],
    )
    seats = [
        {"table_seat": i, "name": w, "player_id": w, "bot": None}
        if w.startswith("p_")
        else {"table_seat": i, "name": f"{w} bot", "player_id": None, "bot": w}
        for i, w in enumerate(who)
    ]
    repo.insert_match(
        conn,
        {
            "id": match_id,
            "table_id": f"t_{match_id}",
            "game": "skyjo",
            "options": match.options.to_json(),
            "seed": match.seed,
            "seats": seats,
            "status": "finished",
            "scores": list(match.scores),
            "winners": list(match.winners or ()),
            "rounds": match.round_number,
            "finished_at": NOW,
        },
    )
    rounds = 1
    for number, step in enumerate(steps, start=1):
        rounds += step.kind == NEXT_ROUND
        repo.insert_move(conn, match_id, number, rounds, step.kind, step.seat, step.action)


def test_a_finished_skyjo_match_is_counted_with_the_lowest_total_winning(conn) -> None:
    match, steps = random_match(RANKED, "league-1")
    add_player(conn, "p_ada")
    add_player(conn, "p_bea")
    store(conn, match, steps, "m_s1", ["p_ada", "p_bea"])
    events = on_match_finished(conn, "m_s1", now=NOW)
    rows = {r.subject: r for r in conn.execute(select(Result).where(Result.match_id == "m_s1"))}
    assert {r.game for r in rows.values()} == {"skyjo"}
    winners = {f"p_{'ada' if s == 0 else 'bea'}" for s in match.winners}
    assert {s for s, r in rows.items() if r.won} == winners
    assert [rows["p_ada"].points, rows["p_bea"].points] == match.scores
    # The winner's rating rises, the other's falls: ranked by the lower total (S5.1).
    changes = {e["seat"]: e["detail"] for e in events if e["kind"] == "rating"}
    if len(match.winners) == 1:
        (won,) = match.winners
        assert changes[won]["after"] > changes[won]["before"]
        assert changes[1 - won]["after"] < changes[1 - won]["before"]
    # Skyjo's own achievements, never Skip's.
    awarded = {e["detail"]["achievement"]["id"] for e in events if e["kind"] == "achievement"}
    assert "skyjo_first_game" in awarded
    assert all(a.startswith("skyjo_") for a in awarded)


def test_the_skyjo_scores_board_puts_the_lowest_total_first(conn) -> None:
    for n, who in enumerate((["p_ada", "easy"], ["p_bea", "easy"], ["p_cy", "easy"])):
        add_player(conn, who[0])
        match, steps = random_match(RANKED, f"board-{n}")
        store(conn, match, steps, f"m_b{n}", who)
        on_match_finished(conn, f"m_b{n}", now=NOW)
    q = leaderboards.query_for("scores", game="skyjo", now=NOW)
    values = [e["value"] for e in leaderboards.entries(conn, q)]
    assert values == sorted(values) and len(values) >= 3
    assert ratings.load(conn, ["p_ada"], "skyjo", "2p")  # rated in Skyjo's own pool


def base_facts(**changes: Any) -> SeatFacts:
    facts = SeatFacts(seat=0, players=2, mode="2p", ranked=False, end_score=100)
    return dataclasses.replace(facts, **changes)


THRESHOLDS = {
    "skyjo_first_game": ({}, None),
    "skyjo_first_win": ({"won": True}, {"won": True, "players": 1}),
    "skyjo_column": ({"columns_removed": 1}, {"columns_removed": 0}),
    "skyjo_column_hunter": ({"columns_removed": 3}, {"columns_removed": 2}),
    "skyjo_below_zero": ({"best_round": -1}, {"best_round": 0}),
    "skyjo_deep_freeze": ({"best_round": -10}, {"best_round": -9}),
    "skyjo_clean_close": (
        {"rounds_closed": 1, "closer_doubled": 0},
        {"rounds_closed": 1, "closer_doubled": 1},
    ),
    "skyjo_doubled": ({"closer_doubled": 1}, {"closer_doubled": 0}),
    "skyjo_under_fifty": ({"won": True, "points": 49}, {"won": True, "points": 50}),
    "skyjo_big_table": ({"won": True, "players": 6}, {"won": True, "players": 5}),
    "skyjo_machine_tamer": (
        {"won": True, "beat_bot_levels": ["easy"]},
        {"won": False, "beat_bot_levels": ["easy"]},
    ),
}


def test_skyjo_has_its_own_list_of_at_least_eight_achievements() -> None:
    ids = [a.id for a in SKYJO_ACHIEVEMENTS]
    assert len(ids) >= 8 and len(set(ids)) == len(ids) and set(ids) == set(THRESHOLDS)
    assert all(a.game == "skyjo" and a.description.endswith(".") for a in SKYJO_ACHIEVEMENTS)
    assert not set(ids) & {a.id for a in BY_GAME["skip"]}


@pytest.mark.parametrize("achievement", sorted(THRESHOLDS))
def test_each_skyjo_achievement_holds_exactly_at_its_threshold(achievement: str) -> None:
    holds, short = THRESHOLDS[achievement]
    assert achievement in {a.id for a in earned(base_facts(**holds), "skyjo")}
    if short is not None:
        assert achievement not in {a.id for a in earned(base_facts(**short), "skyjo")}
