"""Bots decide from their seat's view alone (R7.2), never raise, and always act legally."""

from __future__ import annotations

import random

import pytest
from bot_positions import positions
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bots import Bot, make_bot
from cardroom.games.skip import State, check, view
from cardroom.games.skip.sampling import determinize

# small search budgets and no time cap: the same seed must give the same choice
BOTS: dict[str, dict[str, object]] = {
    "random": {},
    "greedy": {},
    "planner": {},
    "expert": {"samples": 2, "candidates": 2, "time_cap": None, "endgame": 99},  # always search
}


def fresh(name: str, seed: int) -> Bot:
    return make_bot(name, seed, BOTS[name])


def hidden(state: State) -> tuple[object, ...]:
    seat = state.current
    others = tuple(tuple(sorted(h)) for s, h in enumerate(state.hands) if s != seat)
    return (state.draw, tuple(tuple(s[:-1]) for s in state.stocks), others)


@pytest.mark.parametrize("name", sorted(BOTS))
@settings(max_examples=10, deadline=None)
@given(state=positions(), seed=st.integers(0, 1000))
def test_hidden_cards_do_not_change_the_choice(name: str, state: State, seed: int) -> None:
    """Two rounds that differ only in cards the seat cannot see get the same action."""
    seat = state.current
    twin = determinize(view(state, seat), random.Random(seed))
    assert view(twin, seat) == view(state, seat)
    if hidden(twin) == hidden(state):  # nothing hidden left to differ (rare, late rounds)
        return
    assert fresh(name, seed).choose(view(state, seat)) == fresh(name, seed).choose(view(twin, seat))


@pytest.mark.parametrize("name", sorted(BOTS))
@settings(max_examples=15, deadline=None)
@given(state=positions(), seed=st.integers(0, 1000))
def test_bots_always_choose_a_legal_action(name: str, state: State, seed: int) -> None:
    """R7.1: whatever the position, a bot answers, and its answer is a legal action."""
    action = fresh(name, seed).choose(view(state, state.current))
    check(state, action)


class _SeedThief:
    """The attack of a 20-line external bot: read the match seed out of the seed it is given,
    deal the match again, and so know every hidden card. It plays greedy meanwhile."""

    def __init__(self, seed: str, options: object) -> None:
        self.seed, self.options = seed, options
        self.bot = make_bot("greedy", seed)
        self.name = "thief"

    def rebuilt(self) -> list[State]:
        from cardroom.games.skip import Match

        parts = self.seed.split("/")
        guesses = {"/".join(parts[:n]) for n in range(1, len(parts) + 1)} | set(parts)
        return [Match(self.options, guess).state for guess in guesses]

    def choose(self, seat_view):  # type: ignore[no-untyped-def]
        return self.bot.choose(seat_view)


@pytest.mark.parametrize("command", ["tournament", "simulate"])
def test_R7_2_a_bot_cannot_deal_the_match_again_from_the_seed_it_is_given(command, monkeypatch):
    from cardroom.games.skip import Match, Options
    from cardroom.sim import simulate as simulating
    from cardroom.sim import tournament as touring

    options = Options(players=2, stock_size=5, match_target=None)
    thieves: list[_SeedThief] = []

    def make(name: str, seed: str, **_: object) -> _SeedThief:
        thieves.append(_SeedThief(str(seed), options))
        return thieves[-1]

    dealt: list[str] = []
    module = touring if command == "tournament" else simulating
    play = module.play_match

    def play_and_note(options, seed, *args, **kwargs):  # type: ignore[no-untyped-def]
        dealt.append(str(seed))
        return play(options, seed, *args, **kwargs)

    monkeypatch.setattr(module, "make_bot_from_spec", make)
    monkeypatch.setattr(module, "play_match", play_and_note)
    if command == "tournament":
        touring.play_game(touring.schedule(["greedy", "random"], options, 2, seed=7)[0], options)
    else:
        simulating.simulate(options, ["greedy", "greedy"], games=1, seed=7)
    (deal,) = dealt
    truth = Match(options, deal).state  # what a leaked match seed would give away
    assert thieves
    for thief in thieves:
        for state in thief.rebuilt():
            assert (state.stocks, state.draw) != (truth.stocks, truth.draw)
