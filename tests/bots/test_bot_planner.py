"""The planner plays its turn well: stock first, chains and wilds toward it, whole-hand clears."""

from __future__ import annotations

from cardroom.bots.planner import PlannerBot, missing
from cardroom.games.skip import WILD, Options, State, apply, new_round, view


def table(
    hand: list[int],
    stock: list[int],
    values: list[int],
    *,
    options: Options | None = None,
    discards: list[tuple[int, ...]] | None = None,
) -> State:
    """A round rigged to a position: seat 0 to play with these cards (the deck's other cards
    stay where the deal put them, so hidden cards are realistic)."""
    options = options or Options(players=2, match_target=None)
    state = new_round(options, 1)
    me = state.current
    state.hands[me] = list(hand)
    state.stocks[me] = list(stock)
    state.building = [tuple(range(1, v + 1)) for v in values]
    state.values = list(values)
    if discards is not None:
        state.discards[me] = list(discards)
    return state


def play_turn(state: State, bot: PlannerBot) -> list[str]:
    """Let the planner play one whole turn; return what it did."""
    me, done = state.current, []
    while state.current == me and state.result is None:
        action = bot.choose(view(state, me))
        apply(state, action)
        done.append(action.source or action.kind)
    return done


def test_plays_the_stock_card_first_when_it_fits() -> None:
    """R4.2: nothing is worth more than a stock card."""
    state = table([3, 4, 8, 9, 10], [7, 5], [4, 0, 0, 0])
    action = PlannerBot().choose(view(state, state.current))
    assert action.source == "stock" and action.to == 0


def test_builds_a_chain_from_hand_and_discards_to_reach_the_stock() -> None:
    """Cards from the hand and a discard top (R4.2, R4.7) bridge a pile to the stock card."""
    state = table([3, 9, 9, 10, 11], [12, 5], [2, 0, 0, 0], discards=[(4,), (), (), ()])
    me = state.current
    done = play_turn(state, PlannerBot())
    assert "stock" in done
    assert len(state.stocks[me]) == 1


def test_spends_a_wild_to_play_a_stock_card() -> None:
    """R5.2: a wild is the missing card; holding it back would waste the stock play."""
    state = table([WILD, 9, 10, 11, 12], [12, 4], [2, 0, 0, 0])
    me = state.current
    done = play_turn(state, PlannerBot())
    assert done[:2] == ["hand", "stock"]
    assert len(state.stocks[me]) == 1


def test_empties_the_hand_to_draw_five_more() -> None:
    """R4.3: playing all five hand cards draws five fresh ones in the same turn."""
    state = table([1, 2, 3, 4, 5], [12, 12, 12], [0, 0, 0, 0])
    me = state.current
    for _ in range(5):
        apply(state, PlannerBot().choose(view(state, me)))
    assert state.current == me and len(state.hands[me]) == 5


def test_keeps_wilds_out_of_discard_piles() -> None:
    """R4.4: a wild on a discard pile is a wild the stock may never get."""
    state = table([WILD, 7, 9, 10, 11], [3, 5], [1, 1, 1, 1])
    me = state.current
    while state.current == me:
        action = PlannerBot().choose(view(state, me))
        apply(state, action)
    assert action.kind == "discard" and action.card != WILD
    assert WILD in state.hands[me]


def test_plays_the_partners_stock_in_team_play() -> None:
    """R4.2: in teams the partner's stock top is a card to play, and it ends rounds too."""
    options = Options(players=4, teams=True, match_target=None, stock_size=10)
    state = table([9, 9, 10, 10, 11], [12, 12], [2, 0, 0, 0], options=options)
    partner = state.partner(state.current)
    assert partner is not None
    state.stocks[partner] = [12, 3]
    action = PlannerBot().choose(view(state, state.current))
    assert action.source == "partner_stock"


def test_missing_counts_the_cards_between_a_pile_and_the_target() -> None:
    assert missing(7, (3, 0, 0, 0), {4, 6}, 0) == 1  # needs a 5
    assert missing(7, (3, 0, 0, 0), {4, 6}, 1) == 0  # a wild is the 5
    assert missing(2, (5, 5, 5, 5), set(), 0) == 1  # a full pile restarts from empty: needs a 1


def test_discards_the_card_the_partners_stock_needs_where_the_partner_can_reach_it() -> None:
    """R4.2: partners play from each other's discard tops, so a bridging card is stored there."""
    options = Options(players=4, teams=True, match_target=None, stock_size=10)
    state = table([11, 12, 12, 5, 9], [12, 12], [3, 3, 3, 3], options=options)
    me = state.current
    partner = state.partner(me)
    assert partner is not None
    state.stocks[partner] = [12, 6]  # needs a 4 and a 5 on a pile showing 3
    state.discards[me] = [(12,), (10,), (7,), (6,)]
    action = PlannerBot().choose(view(state, me))
    assert action.kind == "discard" and action.card == 5
