"""Skyjo's search (the Master level): its guesses of the hidden cards agree with what the seat
sees, its choices are legal, blind to the hidden cards and the same for the same seed."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardroom.bots import make_bot
from cardroom.bots.levels import levels_for
from cardroom.bots.skyjo.counter import CounterBot
from cardroom.bots.skyjo.sampling import determinize, unseen_cards
from cardroom.bots.skyjo.search import GAME_END, SearchBot, _game_score, _round_score, quick
from cardroom.bots.specs import make_bot_from_spec
from cardroom.games.skyjo import HIDDEN, Match, Options, State, check, view
from cardroom.games.skyjo.cards import DECK

SMALL = {"samples": 4, "candidates": 3, "endgame": 2}
"""The Master's search with a test's budget: the same code, fewer deals."""


def endgame_positions(count: int, players: int = 2, seed: int = 0) -> list[State]:
    """Positions of counter-played rounds where some grid is down to its last face-down card
    and nobody has closed: where the search runs."""
    found: list[State] = []
    game = 0
    while len(found) < count:
        options = Options(players=players, column_removal=game % 3 != 2)
        match = Match(options, f"search-test:{seed}:{game}")
        bots = [CounterBot(f"{game}:{s}") for s in range(players)]
        state = match.state
        while state.result is None and len(found) < count:
            seen = view(state, state.current)
            low = min(sum(c == HIDDEN for c in grid) for grid in seen.grids)
            if seen.phase == "play" and seen.closer is None and low <= 1:
                found.append(state.copy())
            match.apply(bots[state.current].choose(seen), state.current)
        game += 1
    return found


def twin(state: State, seed: int) -> State:
    """The same round with every card the seat to play cannot see shuffled among themselves."""
    other = state.copy()
    places = [(s, p) for s in range(state.players) for p in state.face_down(s)]
    cards = [other.cards[s][p] for s, p in places] + other.draw + other.discard[:-1]
    random.Random(seed).shuffle(cards)
    for (s, p), card in zip(places, cards, strict=False):
        other.cards[s][p] = card
    rest = cards[len(places) :]
    other.draw = rest[: len(other.draw)]
    other.discard = rest[len(other.draw) :] + other.discard[-1:]
    return other


@pytest.fixture(scope="module")
def positions() -> list[State]:
    return endgame_positions(12, 2) + endgame_positions(6, 4, seed=1)


def test_a_guess_shows_the_seat_exactly_what_it_sees_and_conserves_the_deck(positions) -> None:
    for index, state in enumerate(positions):
        seen = view(state, state.current)
        rng = random.Random(index)
        guess = determinize(seen, rng)
        assert view(guess, state.current) == seen
        assert sorted(guess.all_cards()) == sorted(DECK)  # S1.1: 150 cards, none made up
        assert len(unseen_cards(seen)) == len(state.all_cards()) - sum(
            1 for grid in seen.grids for c in grid if isinstance(c, int)
        ) - (seen.discard_top is not None) - (seen.drawn is not None)


def test_a_guess_puts_the_cards_it_saw_buried_below_the_discard_top(positions) -> None:
    state = positions[0]
    seen = view(state, state.current)
    pool = Counter(unseen_cards(seen))
    card = max(pool, key=lambda c: pool[c])
    guess = determinize(seen, random.Random(1), {card: 2})
    assert Counter(guess.discard[:-1])[card] >= 2
    assert view(guess, state.current) == seen


def test_the_search_answers_a_legal_action_and_searches_where_it_should(positions) -> None:
    searched = 0
    for index, state in enumerate(positions):
        bot = SearchBot(index, **SMALL)
        seen = view(state, state.current)
        searched += bot.searching(seen)
        check(state, bot.choose(seen))
    assert searched == len(positions)


def test_hidden_cards_do_not_change_the_search_s_choice(positions) -> None:
    """Two rounds that differ only in cards the seat cannot see (its own face-down cards, the
    others', the draw pile, the discards below the top) give the same choice."""
    for index, state in enumerate(positions[:8]):
        seat = state.current
        other = twin(state, index)
        assert view(other, seat) == view(state, seat)
        first = SearchBot(index, **SMALL).choose(view(state, seat))
        assert first == SearchBot(index, **SMALL).choose(view(other, seat))


def test_the_same_seed_gives_the_same_game() -> None:
    options = Options(players=2, end_score=25)

    def game() -> list[int]:
        match = Match(options, "same")
        bots = [SearchBot("s", **SMALL), CounterBot("c")]
        while not match.over:
            if match.between_rounds:
                match.next_round()
                continue
            seat = match.current
            assert seat is not None
            match.apply(bots[seat].choose(match.view(seat)), seat)
        return list(match.scores)

    assert game() == game()


def test_the_rollout_policy_is_legal_everywhere(positions) -> None:
    for state in positions:
        check(state, quick(view(state, state.current)))


def test_skyjo_master_is_the_search_and_tops_the_ladder() -> None:
    skyjo = levels_for("skyjo")
    assert list(skyjo) == ["beginner", "easy", "medium", "hard", "master"]
    assert skyjo["master"].make(1).name == "search"
    assert make_bot_from_spec("master:samples=2", 1, game="skyjo").samples == 2  # type: ignore[attr-defined]
    assert make_bot("search", 1, {"samples": 0}, game="skyjo").name == "search"
    with pytest.raises(ValueError):
        make_bot("search", 1, {"candidates": 0}, game="skyjo")


def test_the_game_utility_scores_against_the_leader_and_the_game_end() -> None:
    """``game=1``: the totals after the round, against the lowest other (S5.1); a round that
    ends the game counts its win or loss beside the gap."""
    state = endgame_positions(1, players=4)[0]
    state.scores = (10, 20, 30, 40)
    seen = view(state, 1)
    assert _game_score([5, 5, 5, 5], 1, seen) == 10.0  # behind the leader, not the field
    assert _game_score([5, 5, 5, 5], 0, seen) == -10.0
    state.scores = (90, 80, 30, 40)
    seen = view(state, 1)
    assert _game_score([12, 5, 0, 0], 1, seen) == 55.0 + GAME_END  # it ends; 30 wins it
    assert _round_score([12, 5, 0, 0], 1) == pytest.approx(5 - 4)
    game = make_bot("search", "g", {**SMALL, "game": 1}, game="skyjo")
    assert game.choose(view(state, state.current)) in view(state, state.current).legal_actions()
