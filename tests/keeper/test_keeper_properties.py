"""The keeper against the engines: rounds played by the engines, entered as people would
enter them (S6.1: Skyjo's un-doubled sums and the closer; S6.3: Skip's winner and the stocks
left), give the engines' points, totals, end and winners.

Derandomized (the same examples every run). Skyjo rounds are played with random legal
actions, Skip matches by greedy bots (``cardroom.sim.play.play_match``).
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.bots import make_bot
from cardroom.games.skip import Options as SkipOptions
from cardroom.games.skyjo import Match as SkyjoMatch
from cardroom.games.skyjo import Options as SkyjoOptions
from cardroom.keeper import (
    HIGHEST_SUM,
    LOWEST_SUM,
    KeptGame,
    SkipSettings,
    SkyjoSettings,
    from_json,
    new_game,
    to_json,
)
from cardroom.sim.play import play_match

KEEPER_SETTINGS = settings(
    derandomize=True,
    deadline=None,
    database=None,
    max_examples=40,
    suppress_health_check=[HealthCheck.too_slow],
)
NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve", "Fay", "Gus", "Hal")
MAX_STEPS = 50_000


def play_skyjo(options: SkyjoOptions, seed: int) -> SkyjoMatch:
    """A whole match of random legal actions."""
    match = SkyjoMatch(options, seed)
    rng = random.Random(seed)
    for _ in range(MAX_STEPS):
        if match.over:
            return match
        if match.between_rounds:
            match.next_round()
        else:
            seat = match.current
            match.apply(rng.choice(match.view(seat).legal_actions()), seat=seat)
    raise AssertionError("the match did not end")


def _same_after_json(game: KeptGame) -> None:
    assert from_json(to_json(game)) == game


@KEEPER_SETTINGS
@given(
    players=st.integers(2, 8),
    end_score=st.sampled_from([10, 100, 300]),
    seed=st.integers(0, 10**6),
)
def test_S6_1_S6_2_skyjo_rounds_entered_give_the_engines_scores(players, end_score, seed):
    match = play_skyjo(SkyjoOptions(players=players, end_score=end_score), seed)
    names = NAMES[:players]
    game = new_game("skyjo", names, SkyjoSettings(end_score=end_score))
    for log in match.rounds:
        result = log.result
        assert result is not None
        assert all(LOWEST_SUM <= s <= HIGHEST_SUM for s in result.sums)  # S6.1's bound holds
        sums = dict(zip(names, result.sums, strict=True))
        game = game.add_round(game.skyjo_round(sums, names[result.closer]))
        line = game.sheet.lines[-1]
        assert line.points == result.points
        assert line.doubled == result.doubled
    assert list(game.sheet.totals) == match.scores
    assert game.sheet.winners == match.winners
    assert game.sheet.ended_at == match.round_number
    _same_after_json(game)


@KEEPER_SETTINGS
@given(
    players=st.integers(2, 8),
    teams=st.booleans(),
    stock=st.integers(2, 10),
    target=st.sampled_from([None, 25, 200]),
    seed=st.integers(0, 10**6),
)
def test_S6_3_skip_rounds_entered_give_the_engines_scores(players, teams, stock, target, seed):
    teams = teams and players in (4, 6, 8)
    options = SkipOptions(players=players, teams=teams, stock_size=stock, match_target=target)
    match = play_match(options, seed, [make_bot("greedy", s) for s in range(players)])
    assert match.over
    names = NAMES[:players]
    half = players // 2
    pairs = tuple((names[s], names[s + half]) for s in range(half)) if teams else ()
    game = new_game("skip", names, SkipSettings(match_target=target, stock_size=stock, teams=pairs))
    for log in match.rounds:
        result = log.result
        assert result is not None
        went_out = names[result.winners[-1]] if result.winners else None
        stocks = {
            name: left
            for seat, (name, left) in enumerate(zip(names, result.stock_left, strict=True))
            if seat not in result.winners
        }
        game = game.add_round(game.skip_round(went_out, stocks))
        assert game.sheet.lines[-1].points == result.points
    assert list(game.sheet.totals) == match.scores
    assert game.sheet.winners == match.winners
    assert game.sheet.ended_at == match.round_number
    _same_after_json(game)


@KEEPER_SETTINGS
@given(
    rounds=st.lists(
        st.tuples(
            st.lists(st.integers(LOWEST_SUM, HIGHEST_SUM), min_size=3, max_size=3),
            st.integers(0, 2),
        ),
        min_size=1,
        max_size=8,
    ),
    data=st.data(),
)
def test_S6_4_a_correction_gives_the_sheet_of_the_corrected_rounds(rounds, data):
    """Correcting round N is the same as having entered the corrected round N: whenever the
    keeper accepts it, and it refuses only when the game would end before a later round."""
    names = NAMES[:3]
    game = new_game("skyjo", names)
    for sums, closer in rounds:
        if game.over:
            break
        game = game.add_round(game.skyjo_round(dict(zip(names, sums, strict=True)), names[closer]))
    number = data.draw(st.integers(1, len(game.rounds)))
    sums = data.draw(st.lists(st.integers(LOWEST_SUM, HIGHEST_SUM), min_size=3, max_size=3))
    closer = data.draw(st.integers(0, 2))
    entry = game.skyjo_round(dict(zip(names, sums, strict=True)), names[closer])
    afresh = new_game("skyjo", names)
    refusal = None
    for n, old in enumerate(game.rounds, start=1):
        if afresh.over:
            refusal = n
            break
        afresh = afresh.add_round(entry if n == number else old)
    try:
        edited = game.edit_round(number, entry)
    except ValueError as error:
        assert refusal is not None and f"before round {refusal}" in str(error)
        return
    assert refusal is None
    assert edited == afresh and edited.sheet == afresh.sheet
    if number == len(game.rounds):
        assert edited.undo() == game.undo()
