"""The facts the league counts come from the one replay's events, every round's opening turn
included (R3.4: the round starts with a turn like any other)."""

from __future__ import annotations

import pytest

from cardroom.bots import make_bot
from cardroom.games.skip import Options, to_record
from cardroom.games.skip.facts import analyse_record
from cardroom.sim.play import play_match

TURN_ENDERS = ("discard", "pass", "timeout")


def turns_by_hand(match) -> list[int]:
    """Each seat's turns, counted from the move log without the events: a turn ends with a
    discard, a pass or a timeout, and the round's last turn ends with the round."""
    turns = [0] * match.options.players
    for log in match.rounds:
        last = None
        for seat, action in log.moves:
            last = seat
            if action.kind in TURN_ENDERS:
                turns[seat] += 1
                last = None
        if last is not None:
            turns[last] += 1
    return turns


@pytest.mark.parametrize(("players", "seed"), [(2, "facts-1"), (3, "facts-2"), (4, "facts-3")])
def test_R3_4_every_turn_is_counted_the_opening_turn_of_every_round_too(players, seed):
    options = Options(players=players, stock_size=5, match_target=200)
    bots = [make_bot("greedy", f"{seed}/{s}") for s in range(players)]
    match = play_match(options, seed, bots)
    assert match.round_number > 1
    facts = analyse_record(to_record(match))
    assert [f.turns for f in facts.seats] == turns_by_hand(match)
    assert sum(f.turns for f in facts.seats) == sum(log.turns for log in match.rounds)
