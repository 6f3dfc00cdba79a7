"""Skyjo reviews: each decision of one seat weighed by the Master level from that seat's view,
in expected points; the Master judged by itself gives nothing away."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardroom.bots import make_bot
from cardroom.bots.reviews import review_match
from cardroom.bots.skyjo.counter import CounterBot
from cardroom.bots.skyjo.review import closes, judge_settings, review
from cardroom.bots.skyjo.search import SearchBot
from cardroom.cli import app
from cardroom.games.base import ACTION, NEXT_ROUND, Step
from cardroom.games.skyjo import Match, Options, action_to_json, to_record
from cardroom.games.skyjo.actions import DRAW, discard, exchange, take

SLIPPING = {"slip": 0.2, "counting": 0, "column": 0.3, "gift": 0.0}


def played(seed: int, players: int = 2) -> tuple[Options, str, list[Step], Match]:
    """A short game: seat 0 the review's own judge (the Master with the review's budget), the
    others a counter that slips."""
    options = Options(players=players, end_score=40)
    match = Match(options, str(seed))
    bots = [SearchBot("review", **judge_settings())] + [
        make_bot("casual", seed + s, SLIPPING, game="skyjo") for s in range(1, players)
    ]
    steps: list[Step] = []
    while not match.over:
        if match.between_rounds:
            steps.append(Step(NEXT_ROUND))
            match.apply_step(steps[-1])
            continue
        seat = match.current
        assert seat is not None
        action = bots[seat].choose(match.view(seat))
        steps.append(Step(ACTION, seat, action_to_json(action)))
        match.apply(action, seat=seat)
    return options, str(seed), steps, match


def test_the_master_judged_by_itself_gives_nothing_away() -> None:
    for seed in range(3):
        options, seed_text, steps, _ = played(seed, players=2 + seed % 2)
        reviewed = review(options, seed_text, steps, 0)
        assert reviewed.decisions == sum(1 for s in steps if s.kind == ACTION and s.seat == 0)
        assert reviewed.total == 0 and reviewed.costliest() == []


def test_slips_cost_points_and_the_costliest_come_first_with_a_reason() -> None:
    options, seed, steps, _ = played(7)
    reviewed = review_match("skyjo", options, seed, steps, 1)
    costly = reviewed.costliest()
    assert costly, "a counter slipping one move in five gives points away"
    assert [t.cost for t in costly] == sorted((t.cost for t in costly), reverse=True)
    for turn in costly:
        assert turn.reason and len(turn.expert) == 1 and turn.instead_of in turn.played
        assert turn.expert[0] != turn.instead_of
    data = reviewed.to_json(3)
    assert data["unit"] == "points" and data["judge"] == "the Master level"
    assert len(data["costliest"]) <= 3 and data["costliest"][0]["cost"] > 0
    assert data["costliest"][0]["expert"][0]["type"] in {"draw", "take", "exchange", "discard"}


def test_the_counters_values_rank_its_own_choice_best() -> None:
    """``values`` weighs every legal action; ``choose`` plays one of the least."""
    _, _, steps, match = played(3)
    weigher, chooser = CounterBot("w"), CounterBot("w")
    replay = Match(match.options, match.seed)
    for step in steps:
        if step.kind == ACTION and step.seat == 0 and replay.state.result is None:
            seen = replay.view(0)
            values = weigher.values(seen)
            chosen = chooser.choose(seen)
            assert set(values) == set(seen.legal_actions())
            assert values[chosen] == min(values.values())
            weigher.played(seen, chosen)
        replay.apply_step(step)


def test_closing_is_turning_the_last_face_down_card() -> None:
    match = Match(Options(players=2), "close")
    seen = match.view(match.current or 0)
    assert not closes(seen, DRAW) and not closes(seen, take(0))
    grid = ["?"] + [5] * 11
    last = seen._replace(grids=(tuple(grid), seen.grids[1]), phase="play")
    assert closes(last, take(0)) and closes(last, exchange(0)) and closes(last, discard(0))
    assert not closes(last, exchange(1))
    assert not closes(last._replace(closer=1), take(0))  # the round is closed already


def test_the_review_command_reads_a_skyjo_record(tmp_path: Path) -> None:
    _, _, _, match = played(7)
    record = tmp_path / "skyjo.json"
    record.write_text(json.dumps(to_record(match)))
    runner = CliRunner()
    shown = runner.invoke(app, ["review", str(record), "--seat", "2", "--top", "3"])
    assert shown.exit_code == 0, shown.output
    assert "costliest turns" in shown.stdout and "the Master level" in shown.stdout
    assert "expected points" in shown.stdout
    data = json.loads(runner.invoke(app, ["review", str(record), "--seat", "1", "--json"]).stdout)
    assert data["seat"] == 1 and data["total_cost"] == 0 and data["unit"] == "points"
