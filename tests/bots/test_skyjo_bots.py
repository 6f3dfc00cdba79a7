"""Skyjo bots: legal whatever the position, blind to hidden cards, reproducible from a seed,
and in the order of strength their levels promise."""

from __future__ import annotations

import itertools
import random
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.bots import BOTS, SKYJO_BOTS, make_bot
from cardroom.bots.levels import LEVELS, LEVELS_BY_GAME, levels_for
from cardroom.bots.skyjo.counter import CounterBot, Memory
from cardroom.bots.specs import BotSpecError, make_bot_from_spec, parse_bot_specs
from cardroom.games.skyjo import HIDDEN, Match, Options, State, check, legal_actions, view
from cardroom.games.skyjo.actions import discard, exchange
from cardroom.sim.play import play_match
from cardroom.sim.simulate import simulate
from cardroom.sim.tournament import run

SETTINGS: dict[str, dict[str, object]] = {
    "random": {},
    "greedy": {},
    "counter": {},
    "casual": {"slip": 0.5},
    "search": {"samples": 3, "candidates": 3, "endgame": 2},
}


def fresh(name: str, seed: int) -> object:
    return make_bot(name, seed, SETTINGS[name], game="skyjo")


@st.composite
def positions(draw: st.DrawFn) -> State:
    """A position of a real round: random legal actions from a seeded deal, any house rules."""
    options = Options(
        players=draw(st.integers(2, 5)),
        column_removal=draw(st.booleans()),
        closer_doubling=draw(st.booleans()),
    )
    match = Match(options, draw(st.integers(0, 10_000)))
    rng = random.Random(draw(st.integers(0, 10_000)))
    steps = draw(st.integers(0, 160))
    for _ in range(steps):
        if match.state.result is not None:
            if match.over:
                break
            match.next_round()
        match.apply(rng.choice(legal_actions(match.state)))
    if match.state.result is not None:
        if match.over:
            match = Match(options, 1)
        else:
            match.next_round()
    return match.state


def twin(state: State, seed: int) -> State:
    """The same round with every card the seat to play cannot see shuffled among themselves:
    face-down cards of all grids (its own included) and the draw pile."""
    other = state.copy()
    places = [(s, p) for s in range(state.players) for p in state.face_down(s)]
    cards = [other.cards[s][p] for s, p in places] + other.draw
    random.Random(seed).shuffle(cards)
    for (s, p), card in zip(places, cards, strict=False):
        other.cards[s][p] = card
    other.draw = cards[len(places) :]
    return other


@pytest.mark.parametrize("name", sorted(SKYJO_BOTS))
@settings(max_examples=25, deadline=None)
@given(state=positions(), seed=st.integers(0, 1000))
def test_skyjo_bots_always_choose_a_legal_action(name: str, state: State, seed: int) -> None:
    action = fresh(name, seed).choose(view(state, state.current))  # type: ignore[attr-defined]
    check(state, action)


@pytest.mark.parametrize("name", sorted(SKYJO_BOTS))
@settings(max_examples=20, deadline=None)
@given(state=positions(), seed=st.integers(0, 1000), shuffle=st.integers(0, 1000))
def test_hidden_cards_do_not_change_a_skyjo_bots_choice(
    name: str, state: State, seed: int, shuffle: int
) -> None:
    seat = state.current
    other = twin(state, shuffle)
    assert view(other, seat) == view(state, seat)
    first = fresh(name, seed).choose(view(state, seat))  # type: ignore[attr-defined]
    assert first == fresh(name, seed).choose(view(other, seat))  # type: ignore[attr-defined]


@pytest.fixture
def slow_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every clock the bots could read jumps 5 s per reading."""
    ticks = itertools.count()
    for name in ("perf_counter", "monotonic", "time", "process_time", "thread_time"):
        real = getattr(time, name)
        monkeypatch.setattr(time, name, lambda real=real: real() + 5.0 * next(ticks), raising=True)


@pytest.mark.parametrize("spec", ["counter", "greedy", "random", "medium", "master:samples=4"])
def test_the_same_seed_gives_the_same_skyjo_records_on_a_slow_clock(
    spec: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    options = Options(players=3, end_score=30)

    def records(folder: Path) -> list[bytes]:
        simulate(options, [spec, "greedy", "counter"], games=1, seed=5, records=folder)
        return [path.read_bytes() for path in sorted(folder.iterdir())]

    normal = records(tmp_path / "normal")
    request.getfixturevalue("slow_clock")
    assert records(tmp_path / "slowed") == normal
    assert len(normal) == 1


def test_the_counter_remembers_removed_columns_and_forgets_them_at_a_new_round() -> None:
    options = Options(players=2)
    match = Match(options, 3)
    state = match.state
    state.phase, state.reveals, state.starter, state.current = "play", [2, 2], 0, 0
    state.cards[1][0:3] = [12, 12, 12]
    state.up[1][0:2] = [True, True]
    state.show()
    memory = Memory()
    memory.observe(view(state, 0))
    before = memory.pool(view(state, 0), counting=True).counts[12]
    state.cards[1][0:3] = [None, None, None]
    state.up[1][0:3] = [False, False, False]
    state.show()
    state.discard += [12, 12, 12]
    state.turn += 2
    memory.observe(view(state, 0))
    after = memory.pool(view(state, 0), counting=True).counts[12]
    assert after == before - 1  # two it saw face up, the third it saw removed with them
    state.turn = 1  # a new round: what it remembered is gone
    memory.observe(view(state, 0))
    assert not memory.buried


def test_the_counter_does_not_close_into_a_doubling_it_can_see() -> None:
    """S4.3: its last face-down card would close the round with about 30 against a grid
    of about 10; it does not turn or replace that card."""
    options = Options(players=2)
    match = Match(options, 4)
    state = match.state
    state.phase, state.reveals, state.starter, state.current = "play", [2, 2], 0, 0
    state.cards[0] = [5, 4, 6, 3, 2, 4, 1, 1, 2, 1, 1, 0]
    state.up[0] = [True] * 11 + [False]
    state.cards[1] = [0, 0, 1, -1, 0, 1, 2, 0, 1, 3, 1, 0]
    state.up[1] = [True] * 11 + [False]
    state.show()
    state.discard.append(0)
    seat_view = view(state, 0)
    assert seat_view.grids[0][11] == HIDDEN
    action = CounterBot(1).choose(seat_view)
    assert action.kind == "draw" or action.position != 11


def holding_zero(mine: list[int], mine_up: int, theirs: list[int], theirs_up: int) -> State:
    """Seat 0 to play, holding a drawn 0; each grid's first cards face up, the rest down."""
    state = Match(Options(players=2), 4).state
    state.phase, state.reveals, state.starter, state.current = "play", [2, 2], 0, 0
    state.cards[0], state.cards[1] = mine, theirs
    state.up[0] = [p < mine_up for p in range(12)]
    state.up[1] = [p < theirs_up for p in range(12)]
    state.drawn = 0
    state.show()
    return state


def test_the_counters_tempo_hurries_a_lead_and_slows_a_deficit() -> None:
    """Ahead, a face-down card left is a turn the others get to catch up: with ``tempo`` the
    counter puts its 0 on a face-down card rather than on its 8. Behind, it keeps its
    face-down cards and replaces its 4 rather than one of them."""
    ahead = view(
        holding_zero([0, 1, 2, 8, -1, 3, 1, 0, 2, 4, 7, 6], 10, [12, 11, 10, 9, 12, 11] * 2, 6), 0
    )
    assert CounterBot(1).choose(ahead) == exchange(3)  # the 8
    assert CounterBot(1, tempo=4).choose(ahead).position in (10, 11)  # a face-down card
    behind = view(
        holding_zero([3, 1, 2, 4] + [9, 10, 11, 12] * 2, 4, [0, 1, -1, 0, 2, 1] * 2, 11), 0
    )
    assert CounterBot(1).choose(behind).position >= 4  # a face-down card
    assert CounterBot(1, tempo=4).choose(behind) == exchange(3)  # the 4


def test_the_counters_finish_doubles_a_closer_it_can_tie() -> None:
    """Seat 1 closed with 8 (S4.1); seat 0's last turn, a drawn 6 in hand, face-up cards
    worth 2 and one card face down. Turning that card is 7.07 expected, the lower sum, and is
    the counter's choice; ``finish`` weighs the closer's doubling (S4.3: a tie is not lowest)
    and puts the 6 on it, a sure 8 that doubles the closer's 8."""
    state = Match(Options(players=2), 4).state
    state.phase, state.reveals, state.starter, state.current = "play", [2, 2], 1, 0
    state.cards[0] = [0, 2, -1, 0, 1, -1, 0, 1, -1, 0, 1, 12]
    state.cards[1] = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 2, 2]
    state.up[0] = [p < 11 for p in range(12)]
    state.up[1] = [True] * 12
    state.closer, state.drawn = 1, 6
    state.show()
    last = view(state, 0)
    assert CounterBot(1).choose(last) == discard(11)
    assert CounterBot(1, finish=1).choose(last) == exchange(11)
    assert CounterBot(1, finish=1).values(last)[exchange(11)] == 0.0  # 8, less the 8 doubled
    state.cards[1] = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 9, 2]  # 15: both double it, the lower sum wins
    state.show()
    assert CounterBot(1, finish=1).choose(view(state, 0)) == discard(11)


def test_the_counters_flip_turns_a_card_rather_than_bury_a_middling_one() -> None:
    """A drawn 4, its own face-up cards 1 2 3, the rest face down (the unseen cards' mean is
    about 5.2): the counter puts the 4 on a face-down card, a sure 4 for an expected 5.2, and
    so does ``flip=1``; with ``flip=2`` it discards the 4 and turns that card, valuing a card
    known (a high one can still be replaced) above the point a buried 4 saves."""
    state = Match(Options(players=2), 4).state
    state.phase, state.reveals, state.starter, state.current = "play", [2, 2], 0, 0
    state.cards[0] = [1, 2, 3, 7, 8, 9, 4, 6, 10, 11, 5, 0]
    state.cards[1] = [4, 3, 5, 6, 7, 1, 9, 2, 11, 8, 10, 12]
    state.up[0] = [p < 3 for p in range(12)]
    state.up[1] = [p < 3 for p in range(12)]
    state.drawn = 4
    state.show()
    seat = view(state, 0)
    assert CounterBot(1).choose(seat) == exchange(3)
    assert CounterBot(1, flip=1).choose(seat) == exchange(3)
    assert CounterBot(1, flip=2).choose(seat) == discard(3)
    weighed = CounterBot(1, flip=2).values(seat)  # a review weighs it as the choice does
    assert min(weighed, key=weighed.__getitem__) == discard(3)
    assert weighed[discard(3)] == pytest.approx(CounterBot(1).values(seat)[discard(3)] - 2)
    assert make_bot("search", 1, {"flip": 2}, game="skyjo").counter.flip == 2  # the Master's too


@pytest.mark.parametrize("players", [2, 3])
def test_a_last_turn_weighs_the_card_it_leaves_only_for_a_seat_still_to_play(players: int) -> None:
    """With ``finish``, the card left on the pile in a last turn costs what it gives the next
    seat (``gift``) when that seat has its own last turn to play (3 players: seat 1, before
    the closer); with 2 the next seat is the closer, and the round ends."""
    state = Match(Options(players=players), 4).state
    closer = players - 1
    state.phase, state.reveals, state.starter, state.current = "play", [2] * players, closer, 0
    state.cards[0] = [0, 2, -1, 0, 1, -1, 0, 1, -1, 0, 1, 12]
    state.up[0] = [p < 11 for p in range(12)]
    if players == 3:
        state.cards[1] = [12, 11, 10, 9, 12, 11, 5, 5, 5, 5, 5, 5]
        state.up[1] = [p < 6 for p in range(12)]
    state.cards[closer] = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 2, 2]
    state.up[closer] = [True] * 12
    state.closer, state.drawn = closer, -2
    state.show()
    last = view(state, 0)
    weighed = CounterBot(1, finish=1).values(last)[discard(11)]  # the -2 left on the pile
    unweighed = CounterBot(1, finish=1, gift=0).values(last)[discard(11)]
    assert (weighed > unweighed) if players == 3 else (weighed == unweighed)


def test_skyjo_levels_cover_beginner_to_master_and_skip_keeps_its_own() -> None:
    skyjo = levels_for("skyjo")
    assert list(skyjo) == ["beginner", "easy", "medium", "hard", "master"]
    assert skyjo["medium"].make(1).name == "counter"  # the server's autopilot level exists
    assert skyjo["easy"].make(1).name == "casual"  # the counter, with a newcomer's slips
    assert skyjo["hard"].make(1, live=True).name == "counter"
    assert list(LEVELS) == ["beginner", "easy", "medium", "hard", "master"]
    assert LEVELS_BY_GAME["skip"] is LEVELS
    assert LEVELS["medium"].make(1).name == "greedy" and LEVELS["medium"].game == "skip"
    assert set(BOTS) == {"random", "casual", "greedy", "planner", "expert"}


def test_bot_names_and_specs_are_per_game() -> None:
    assert make_bot("counter", 1, game="skyjo").name == "counter"
    with pytest.raises(ValueError, match="unknown bot 'counter'"):
        make_bot("counter", 1)  # Skip by default
    assert parse_bot_specs("counter:gift=0,hard", "skyjo") == ["counter:gift=0", "hard"]
    assert make_bot_from_spec("medium", 1, game="skyjo").counting is False  # type: ignore[attr-defined]
    for bad in ("expert", "counter:depth=3", 'cmd:"./no-such-bot"'):
        with pytest.raises(BotSpecError):
            parse_bot_specs(bad, "skyjo")


def test_the_counter_beats_greedy_on_duplicate_deals() -> None:
    """A small duplicate tournament (each deal from both seats); the measured figures, over
    hundreds of games, are in README.md."""
    result = run(["counter", "greedy"], Options(players=2), games=8, seed=3)
    stats = result.to_json()["bots"]
    assert stats["counter"]["games"] == 8
    assert stats["counter"]["wins"] >= 6, stats


def test_an_external_program_plays_skyjo_in_skyjo_notation() -> None:
    bot = make_bot_from_spec('cmd:"python3 examples/skyjo_bot.py"', 1, game="skyjo")
    try:
        greedy = make_bot("greedy", 2, game="skyjo")
        match = play_match(Options(players=2, end_score=10), 2, [bot, greedy])
    finally:
        bot.close()  # type: ignore[attr-defined]
    assert match.over
    assert bot.decisions > 0 and bot.turns_lost == 0  # type: ignore[attr-defined]
