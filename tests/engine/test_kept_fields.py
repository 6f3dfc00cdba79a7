"""The per-seat fields the rules keep in a state for its views (hand counts, stock tops and
sizes, discard piles): always what the card lists say, and never trusted once other code has
reached the lists (R7.2: a view shows exactly what is visible, no more, no less)."""

from __future__ import annotations

import random

import pytest

from cardroom.games.skip import TIMEOUT, Options, State, apply, legal_actions, new_round, view


def _rebuilt(state: State, seat: int | None) -> object:
    """The view built from the card lists themselves: a copy whose lists were handed out."""
    copy = state.copy()
    copy.hands  # noqa: B018 (the lists handed out: the copy's kept fields are not used)
    return view(copy, seat)


def _all_views(state: State) -> list[object]:
    return [view(state, seat) for seat in [None, *range(state.players)]]


@pytest.mark.parametrize(
    "options",
    [
        Options(players=2, stock_size=5, match_target=None),
        Options(players=3, stock_size=4, match_target=None, direction="counterclockwise"),
        Options(players=4, stock_size=4, match_target=None, teams=True, team_discards=True),
        Options(players=6, stock_size=3, match_target=None, teams=True, extra_deck=True),
    ],
)
def test_views_read_from_the_kept_fields_equal_views_rebuilt_from_the_cards(
    options: Options,
) -> None:
    """Random legal moves (every source, partners' piles, timeouts), every seat's view and a
    spectator's after every move."""
    rng = random.Random(7)
    for seed in range(12):
        state = new_round(options, f"kept/{seed}")
        for _ in range(600):
            assert state._kept
            rebuilt = [_rebuilt(state, seat) for seat in [None, *range(state.players)]]
            assert _all_views(state) == rebuilt
            if state.result is not None:
                break
            moves = legal_actions(state)
            apply(state, TIMEOUT if rng.random() < 0.02 else rng.choice(moves))


def test_cards_changed_by_hand_show_in_the_next_view() -> None:
    state = new_round(Options(players=2, match_target=None), "by hand")
    view(state, 0)
    state.hands[1] = [1, 9, 10]
    state.stocks[0][-1] = 7
    state.discards[1][2] = (4,)
    seen = view(state, 0)
    assert seen.hand_counts[1] == 3
    assert seen.stock_tops[0] == 7
    assert seen.discards[1][2] == (4,)


def test_a_list_held_from_before_a_view_still_shows_when_changed() -> None:
    """Once handed out, the lists may change at any time: the state never trusts its kept
    fields again, not even after a view rebuilt them."""
    state = new_round(Options(players=2, match_target=None), "held")
    hand, stock = state.hands[state.current], state.stocks[1]
    view(state, 0)
    hand.append(12)
    stock.pop()
    seen = view(state, 0)
    assert seen.hand_counts[state.current] == 6
    assert seen.stock_counts[1] == len(stock)
    assert not state._kept
    assert state.copy()._kept and _all_views(state.copy()) == _all_views(state)


def _two_seats(
    draw: list[int], stocks: list[list[int]], hands: list[list[int]], **more: object
) -> State:
    """A 2-player position built by hand, its discard piles empty unless given."""
    more.setdefault("discards", [[()] * 4, [()] * 4])
    return State(  # type: ignore[arg-type]
        options=Options(players=2, stock_size=2, match_target=None),
        players=2,
        dealer=1,
        partners=None,
        rng=random.Random(1),
        draw=draw,
        stocks=stocks,
        hands=hands,
        **more,
    )


def test_a_state_keeps_its_own_copies_of_the_lists_it_is_given() -> None:
    hands, stocks, piles = [[1, 2], [3]], [[5, 6], [7]], [[()] * 4, [()] * 4]
    state = _two_seats([8, 9], stocks, hands, discards=piles)
    hands[0].append(4)
    stocks[1].pop()
    piles[0][0] = (2,)
    assert view(state, 0).hand == (1, 2)
    assert view(state, 1).hand_counts == (2, 1)
    assert view(state, 1).stock_tops == (6, 7)
    assert view(state, 1).discards == (((),) * 4,) * 2


def test_hands_are_kept_sorted_so_a_view_need_not_sort_them() -> None:
    """A state sorts the hands it is given and the rules keep them sorted after every draw;
    the view, which copies a kept hand as it is, still shows each hand sorted (wilds first)."""
    state = _two_seats([12, 0, 3, 11, 5], [[5, 6], [7]], [[9, 2, 0], [4, 1]], current=1)
    assert state._kept and view(state, 0).hand == (0, 2, 9)
    apply(state, legal_actions(state)[-1])  # seat 1 discards: seat 0 draws two (R4.1)
    assert state._kept and state._hands[0] == [0, 2, 5, 9, 11]
    assert view(state, 0).hand == (0, 2, 5, 9, 11)  # the draw pile's top two: 5, then 11
