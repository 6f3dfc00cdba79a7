"""The expert teaching: a hint for the next step from the player's own view, with its reason in
words, and a review of a finished game that finds the turns where the most was lost."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from cardroom.bots import make_bot
from cardroom.bots.advice import advise, explain, judge
from cardroom.bots.review import review
from cardroom.cli import app
from cardroom.games.base import ACTION, Step
from cardroom.games.skip import Options, SeatView, State, action_to_json, new_round, to_record, view
from cardroom.games.skip.actions import discard, play_hand, play_stock
from cardroom.sim.play import play_match

TABLE = Options(players=2, match_target=None, stock_size=5)


def position(hand: list[int], stock: int, values: list[int]) -> SeatView:
    """Seat 0 to move with this hand, stock top and building piles (the rest as dealt)."""
    state: State = new_round(TABLE, 1)
    state.hands[0] = sorted(hand)
    state.stocks[0][-1] = stock
    for slot, value in enumerate(values):
        state.building[slot] = tuple(range(1, value + 1))
        state.values[slot] = value
    state.current = 0
    return view(state, 0)


def test_the_hint_plays_the_stock_via_the_hand_cards_and_says_so() -> None:
    seen = position([5, 6, 11, 12, 9], 7, [4, 0, 0, 0])
    advice = advise(seen)
    assert advice.action == play_hand(5, 0)
    assert advice.plan[:3] == (play_hand(5, 0), play_hand(6, 0), play_stock(0))
    assert advice.reason == "plays your stock 7 on building pile 1 via the 5 and 6 from your hand"


def test_a_hint_for_a_discard_says_where_and_why() -> None:
    seen = position([12, 11, 10, 10, 9], 3, [5, 5, 5, 5])
    advice = advise(seen)
    assert advice.action.kind == "discard"
    assert "ends the turn: discard the" in advice.reason and "your discard pile" in advice.reason


def test_advice_reads_nothing_but_the_seats_view() -> None:
    """R7.2: two states that differ only in what seat 0 cannot see get the same hint."""
    seen = position([5, 6, 11, 12, 9], 7, [4, 0, 0, 0])
    other: State = new_round(TABLE, 1)
    other.hands[0] = sorted([5, 6, 11, 12, 9])
    other.stocks[0][-1] = 7
    other.building[0] = (1, 2, 3, 4)
    other.values[0] = 4
    other.current = 0
    other.hands[1] = [1, 1, 1, 1, 1]  # the opponent's hand, never seen
    assert advise(view(other, 0)) == advise(seen)


def test_judging_the_best_move_costs_nothing_and_a_worse_one_costs_something() -> None:
    seen = position([5, 6, 11, 12, 9], 7, [4, 0, 0, 0])
    assert judge(seen, play_hand(5, 0)).cost == 0
    worse = judge(seen, discard(5, 0))
    assert worse.cost > 100  # at least the stock card it gave up
    assert worse.plan[0] == play_hand(5, 0)
    assert explain(seen, worse.plan).startswith("plays your stock 7")


def played_round(seed: int = 11) -> tuple[Options, str, list[Step], object]:
    options = Options(players=2, match_target=None, stock_size=15)
    match = play_match(options, seed, [make_bot("random", 1), make_bot("expert", 2)])
    steps = [Step(ACTION, s, action_to_json(a)) for s, a in match.rounds[0].moves]
    return options, str(seed), steps, match


def test_a_review_scores_every_decision_of_the_seat_and_lists_the_costliest_first() -> None:
    options, seed, steps, _ = played_round()
    reviewed = review(options, seed, steps, 0)
    assert reviewed.decisions == sum(1 for s in steps if s.seat == 0)
    costly = reviewed.costliest()
    assert costly, "greedy loses something to the expert somewhere"
    assert [t.cost for t in costly] == sorted((t.cost for t in costly), reverse=True)
    assert all(t.reason and t.expert for t in costly)
    assert review(options, seed, steps, 1).total <= reviewed.total  # the expert, judged by itself


def test_the_review_command_prints_a_table_and_json(tmp_path: Path) -> None:
    _, _, _, match = played_round()
    record = tmp_path / "game.json"
    record.write_text(json.dumps(to_record(match)))  # type: ignore[arg-type]
    runner = CliRunner()
    shown = runner.invoke(app, ["review", str(record), "--seat", "1", "--top", "3"])
    assert shown.exit_code == 0, shown.output
    assert "costliest turns" in shown.stdout and "the expert" in shown.stdout
    data = json.loads(runner.invoke(app, ["review", str(record), "--seat", "1", "--json"]).stdout)
    assert data["seat"] == 1 and data["costliest"][0]["cost"] > 0
    assert {"round", "turn", "played", "expert", "reason"} <= set(data["costliest"][0])
    refused = runner.invoke(app, ["review", str(record), "--seat", "3"])
    assert refused.exit_code == 2
