"""The planner plays its turn well: stock first, chains and wilds toward it, whole-hand clears."""

from __future__ import annotations

from dataclasses import asdict

from cardroom.bots.expert_tuning import EXPERT_WEIGHTS
from cardroom.bots.planner import (
    PlannerBot,
    Weights,
    context_of,
    missing,
    reach_chance,
    threat_odds,
)
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


def test_missing_on_the_places_as_they_are() -> None:
    """R5.1, R5.3: with four piles in play nothing starts anew until one reaches 12."""
    assert missing(2, (5, 5, 5, 5), set(), 0, places=True) == 8  # 6 .. 12, then a 1
    assert missing(2, (5, 0, 5, 5), set(), 0, places=True) == 1  # an empty place: a 1
    assert missing(4, (5, 7, 9, 11), {12}, 0, places=True) == 3  # 11, the 12 held, 1 2 3
    assert missing(4, (5, 7, 9, 11), {12}, 3, places=True) == 0  # the wilds are 1 2 3
    assert missing(7, (3, 9, 9, 9), {4, 6}, 0, places=True) == 1  # below the target: as before
    half = (0.0, *[0.5] * 12)
    on_places = reach_chance(2, (11, 11, 11, 11), set(), 0, half, places=True)
    assert on_places == 0.25  # a 12, then a 1
    assert reach_chance(2, (11, 11, 11, 11), set(), 0, half) == 0.5  # only the 1


def test_the_expert_keeps_the_places_full_against_a_low_stock_card() -> None:
    """The next opponent's stock card is a 2 and its discard top a 1, and all four places are
    taken: it cannot start a pile (R5.1). Playing the 12 would clear a pile (R5.3) and open a
    place for its 1 and 2. Counting as if a place were always free, the planner sees the 2 as
    playable either way and plays the 12 to thin its hand; counting the places, the expert's
    weights keep the 12."""
    state = table([12, 3, 3, 3, 3], [5, 10], [11, 6, 7, 8])
    me = state.current
    other = 1 - me
    state.stocks[other] = [*state.stocks[other][:-1], 2]
    state.discards[other] = [(1,), (), (), ()]
    seen = view(state, me)
    played = PlannerBot().choose(seen)
    assert (played.kind, played.card, played.to) == ("play", 12, 0)  # onto the pile at 11
    expert = PlannerBot(**asdict(EXPERT_WEIGHTS))
    assert EXPERT_WEIGHTS.places
    assert expert.choose(seen).kind == "discard"


def test_the_expert_does_not_cover_a_discard_top_its_stock_needs() -> None:
    """The stock card is a 9 and a pile shows 5: the 7 and the 8 on two discard piles are two
    of the three cards between (R4.1). Counting every top as kept whatever the discard, the
    planner puts its 4 on the 7 (the cheapest pile by its table); the expert's weights see
    that this costs a card of the reach and cover the 11 instead."""
    state = table([1, 1, 2, 3, 4], [5, 9], [5, 9, 9, 9], discards=[(7,), (8,), (12,), (11,)])
    seen = view(state, state.current)
    planned = PlannerBot().choose(seen)
    assert (planned.kind, planned.card, planned.pile) == ("discard", 4, 0)
    expert = PlannerBot(**asdict(EXPERT_WEIGHTS))
    assert EXPERT_WEIGHTS.cover
    chosen = expert.choose(seen)
    assert (chosen.kind, chosen.card, chosen.pile) == ("discard", 4, 3)  # onto the 11


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


def test_the_expert_does_not_open_the_next_opponents_partners_stock() -> None:
    """R4.2: in teams the next opponent plays its partner's stock top as its own. That partner
    shows a 6, and a pile stands at 4: playing the 5 from hand would open it. Watching only the
    next opponent's own stock (a 12, far off), the planner plays the 5; with ``team_threat``
    the expert's weights keep it and discard."""
    options = Options(players=4, teams=True, match_target=None, stock_size=10)
    state = table([5, 11, 11, 12, 12], [12, 1], [4, 9, 9, 9], options=options)
    me = state.current
    nxt = (me + 1) % 4
    their_partner = state.partner(nxt)
    assert their_partner is not None and their_partner != me
    state.stocks[their_partner] = [12, 6]
    state.stocks[nxt] = [12, 12]
    partner = state.partner(me)
    assert partner is not None
    state.stocks[partner] = [12, 12]  # out of reach: nothing to build toward for it
    seen = view(state, me)
    assert EXPERT_WEIGHTS.team_threat
    unaware = PlannerBot(**{**asdict(EXPERT_WEIGHTS), "team_threat": 0})
    played = unaware.choose(seen)
    assert (played.kind, played.card, played.to) == ("play", 5, 0)
    assert PlannerBot().choose(seen).kind == "play"
    kept = PlannerBot(**asdict(EXPERT_WEIGHTS)).choose(seen)
    assert kept.kind == "discard" and kept.card != 5


def test_counting_the_partners_chances_reads_the_partners_hand_size() -> None:
    """``count_partner`` (screened in teams, off in every bot): the partner's next hand is its
    kept cards and the fresh ones that fill it to five (R4.1), like ``count_threat``'s."""
    options = Options(players=4, teams=True, match_target=None, stock_size=10)
    state = table([5, 11, 11, 12, 12], [12, 1], [4, 9, 9, 9], options=options)
    me = state.current
    partner = state.partner(me)
    assert partner is not None
    seen = view(state, me)
    counted = context_of(seen, Weights(count_partner=20))
    assert counted.partner_odds == threat_odds(seen, partner, frozenset())
    assert context_of(seen, Weights()).partner_odds == ()
    assert PlannerBot(count_partner=20).choose(seen).kind in ("play", "discard")
