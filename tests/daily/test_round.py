"""The deal of the day without a server: the day's seed, an attempt replayed from its moves
(the same cards, the same bot answers), what the person is shown, the share text, streaks."""

from __future__ import annotations

import json
import random
from datetime import UTC, date, datetime

import pytest

from cardroom.bots.specs import make_bot_from_spec
from cardroom.daily.attempts import Attempt, streak
from cardroom.daily.days import DayError, day_seed, number, parse_day
from cardroom.daily.round import DailyRound, NoDaily, rules_of
from cardroom.daily.share import card_svg, share_text
from cardroom.games import get_game

DAY = date(2026, 12, 5)
NOON = datetime(2026, 12, 5, 12, tzinfo=UTC)
SECRET = "a-test-secret"


def expert_moves(day_round: DailyRound, game: str) -> None:
    """Play the attempt to its end with a bot choosing from the person's own view."""
    bot = make_bot_from_spec("expert" if game == "skip" else "hard", "player", game=game)
    for _ in range(1000):
        if day_round.over:
            return
        view = day_round.session.match.view(0)
        refusal = day_round.play(get_game(game).action_to_json(bot.choose(view)))
        assert refusal is None, refusal
    raise AssertionError("the round did not end")


def test_a_days_seed_is_keyed_by_the_secret_the_game_and_the_day() -> None:
    seed = day_seed(SECRET, "skip", DAY)
    assert seed == day_seed(SECRET, "skip", DAY)
    others = {
        day_seed("another-secret", "skip", DAY),
        day_seed(SECRET, "skyjo", DAY),
        day_seed(SECRET, "skip", date(2026, 12, 6)),
    }
    assert seed not in others and len(others) == 3
    assert number(date(2026, 12, 1)) == 1 and number(DAY) == 5


@pytest.mark.parametrize(
    "text", ["2026-12-06", "2027-01-01", "2026-11-30", "12/05/2026", 5, "x" * 99]
)
def test_a_day_to_come_or_not_a_date_is_refused(text: object) -> None:
    with pytest.raises(DayError):
        parse_day(text, NOON)


def test_today_and_past_days_are_days() -> None:
    assert parse_day(None, NOON) == DAY == parse_day("today", NOON)
    assert parse_day("2026-12-02", NOON) == date(2026, 12, 2)


def test_a_skip_solo_attempt_replays_from_its_moves() -> None:
    seed = day_seed(SECRET, "skip", DAY)
    played = DailyRound("skip", DAY, seed)
    expert_moves(played, "skip")
    outcome = played.outcome()
    assert outcome is not None and outcome.result is not None
    assert outcome.result == played.session.view()["turn"]
    assert len(played.marks()) == outcome.result  # one mark per turn
    again = DailyRound("skip", DAY, seed, moves=played.moves)
    assert again.state_json() == played.state_json()


def test_the_skyjo_bots_answer_the_same_moves_with_the_same_moves() -> None:
    seed = day_seed(SECRET, "skyjo", DAY)
    played = DailyRound("skyjo", DAY, seed)
    expert_moves(played, "skyjo")
    outcome = played.outcome()
    assert outcome is not None and 1 <= outcome.place <= 3
    again = DailyRound("skyjo", DAY, seed, moves=played.moves)
    assert again.events() == played.events()
    assert again.outcome() == outcome
    # A different first move changes what follows; the deal stays the day's.
    other = DailyRound("skyjo", DAY, seed)
    first = random.Random(3).choice(other.session.legal()[1:])
    assert other.play(first) is None
    assert other.events()[0] == played.events()[0]  # the same deal: the same discard


def test_the_person_sees_their_own_view_and_never_the_seed() -> None:
    seed = day_seed(SECRET, "skyjo", DAY)
    state = DailyRound("skyjo", DAY, seed).state_json()
    text = json.dumps(state)
    assert seed not in text and SECRET not in text
    assert state["view"]["seat"] == 0
    for grid in state["view"]["grids"][1:]:
        assert {card for column in grid for card in column} == {"?"}  # nothing revealed yet
    assert state["outcome"] is None and state["marks"] is None


def test_a_refused_move_changes_nothing() -> None:
    seed = day_seed(SECRET, "skip", DAY)
    day_round = DailyRound("skip", DAY, seed)
    before = day_round.state_json()
    refusal = day_round.play({"type": "play", "from": "hand", "card": 99, "to": 1})
    assert refusal is not None
    refusal = day_round.play({"type": "discard", "card": "W", "pile": 9})
    assert refusal is not None and refusal.message
    assert day_round.state_json() == before and day_round.moves == []


def test_the_scored_round_has_no_hints_and_practice_has() -> None:
    seed = day_seed(SECRET, "skip", DAY)
    refused = DailyRound("skip", DAY, seed).hint()
    assert not isinstance(refused, dict) and refused.rule == "R7.6"
    assert isinstance(DailyRound("skip", DAY, seed, practice=True).hint(), dict)
    # Practice deals the same cards.
    assert (
        DailyRound("skip", DAY, seed, practice=True).state_json()["view"]["hand"]
        == DailyRound("skip", DAY, seed).state_json()["view"]["hand"]
    )


def test_the_share_text_and_card_tell_the_result_and_the_marks_only() -> None:
    seed = day_seed(SECRET, "skip", DAY)
    played = DailyRound("skip", DAY, seed)
    expert_moves(played, "skip")
    outcome = played.outcome()
    assert outcome is not None
    text = share_text("Skip solo", "turns", DAY, outcome.to_json(), played.marks(), False)
    lines = text.splitlines()
    assert lines[0] == "Cardroom daily #5 · 2026-12-05"
    assert lines[1] == f"Skip solo: {outcome.result} turns"
    assert set("".join(lines[2:])) <= set(rules_of("skip").legend)
    svg = card_svg("Cardroom daily #5", DAY, lines[1], played.marks(), "Ada")
    assert svg.startswith("<svg") and f"{outcome.result} turns" in svg and "Ada" in svg
    assert svg.count("<rect") == 1 + len(played.marks())


def attempt(day: date, finished: bool = True) -> Attempt:
    return Attempt(
        "d_x", "p_x", "skip", day, True, [], 0, "finished" if finished else "playing",
        30, 1, "", "", NOON, NOON,
    )  # fmt: skip


def test_streaks_count_days_in_a_row() -> None:
    days = [date(2026, 12, d) for d in (1, 2, 3, 5, 6)]
    assert streak([attempt(d) for d in days], date(2026, 12, 6)) == {
        "current": 2, "best": 3, "played": 5,
    }  # fmt: skip
    assert streak([attempt(d) for d in days], date(2026, 12, 7))["current"] == 2
    assert streak([attempt(d) for d in days], date(2026, 12, 8))["current"] == 0
    unfinished = [attempt(date(2026, 12, 7), finished=False)]
    assert streak([attempt(d) for d in days] + unfinished, date(2026, 12, 7))["current"] == 2


def test_a_game_without_a_daily_deal_says_so() -> None:
    from cardroom.games import GAMES

    for name, game in GAMES.items():
        if getattr(game, "daily", None) is None:
            with pytest.raises(NoDaily):
                rules_of(name)
