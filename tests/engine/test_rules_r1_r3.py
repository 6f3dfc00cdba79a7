"""R1 cards, R2 players/seats/teams, R3 the setup of a round."""

from __future__ import annotations

from collections import Counter

import pytest

from cardroom.bots import make_bot
from cardroom.games.skip import (
    WILD,
    Action,
    Match,
    Options,
    OptionsError,
    apply,
    card_name,
    new_round,
    replay,
    to_record,
    view,
)
from cardroom.games.skip.cards import card_from_json, deck_units, new_deck
from cardroom.games.skip.match import draw_for_dealer
from cardroom.games.skip.rules import first_player
from cardroom.games.skip.terminal import card_markup
from cardroom.sim.play import play_match

from .support import W, deck_for, finish_match_round, make_state

# -- R1 Cards ------------------------------------------------------------------------------------


def test_R1_1_cards_are_numbers_1_to_12_or_a_wild_without_number() -> None:
    assert set(new_deck(1)) == {WILD, *range(1, 13)}
    assert card_name(WILD) == "W"
    assert [card_name(n) for n in (1, 12)] == ["1", "12"]
    assert card_from_json("W") == WILD
    assert card_from_json(12) == 12
    for not_a_card in (0, 13, -1, True, "7", 7.0, None):
        with pytest.raises(ValueError, match="a card is a number 1-12"):
            card_from_json(not_a_card)


def test_R1_2_one_unit_is_54_cards_four_of_each_number_and_six_wilds() -> None:
    unit = Counter(new_deck(1))
    assert sum(unit.values()) == 54
    assert unit[WILD] == 6
    assert all(unit[n] == 4 for n in range(1, 13))


def test_R1_2_standard_deck_is_162_cards_with_12_of_each_number_and_18_wilds() -> None:
    deck = Counter(new_round(Options(players=2), seed=7).all_cards())
    assert sum(deck.values()) == 162
    assert deck[WILD] == 18
    assert all(deck[n] == 12 for n in range(1, 13))


def test_R1_3_colours_are_cosmetic_cards_are_shown_by_number() -> None:
    state = new_round(Options(players=2), seed=3)
    tops = view(state, 0).to_json()["stock_tops"]
    assert all(top == "W" or isinstance(top, int) for top in tops)
    for card in range(1, 13):
        assert str(card) in card_markup(card)  # the number is always shown, never colour alone
    assert "W" in card_markup(WILD)


# -- R2 Players, seats, teams ------------------------------------------------------------------


@pytest.mark.parametrize("players", range(1, 9))
def test_R2_1_a_table_seats_1_to_8_players(players: int) -> None:
    state = new_round(Options(players=players), seed=players)
    assert state.players == players
    assert len(state.stocks) == len(state.hands) == len(state.discards) == players


@pytest.mark.parametrize("players", [0, 9, -1])
def test_R2_1_more_than_8_or_fewer_than_1_players_is_refused(players: int) -> None:
    with pytest.raises(OptionsError, match=r"a table seats 1 to 8 players.*\(R2\.1\)"):
        Options(players=players)


def test_R2_1_a_solo_round_can_be_played_to_the_end() -> None:
    match = play_match(
        Options(players=1, stock_size=5, match_target=None), seed=4, bots=[make_bot("greedy", 4)]
    )
    result = match.rounds[0].result
    assert result is not None and result.winners == (0,)
    assert match.over


@pytest.mark.parametrize(
    ("players", "units"), [(1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (6, 3), (7, 5), (8, 5)]
)
def test_R2_2_deck_units_by_player_count(players: int, units: int) -> None:
    """The official 162 cards up to 6 players; 270 for 7-8, which the official rules omit."""
    assert deck_units(players) == units
    options = Options(players=players, stock_size=5)
    assert options.deck_size == units * 54
    assert len(new_round(options, seed=1).all_cards()) == units * 54


@pytest.mark.parametrize("players", [5, 6])
def test_R2_2_five_or_six_players_share_the_official_deck_with_20_card_stocks(
    players: int,
) -> None:
    options = Options(players=players)
    assert (options.deck_size, options.stock) == (162, 20)
    state = new_round(options, seed=players)
    assert len(state.all_cards()) == 162
    assert len(state.draw) == 162 - 20 * players - 5  # the first player has drawn
    assert len(state.draw) + 5 >= 5 * players  # R3.2 holds for the default


@pytest.mark.parametrize("players", [5, 6])
def test_R2_2_the_extra_deck_gives_five_or_six_players_216_cards(players: int) -> None:
    assert Options(players=players, extra_deck=True).deck_size == 216


def test_R2_2_R3_2_a_large_stock_for_six_needs_the_extra_deck() -> None:
    """R3.2's check applies to the official deck: 6 stocks of 30 need more than 162 cards."""
    with pytest.raises(OptionsError) as info:
        Options(players=6, stock_size=30)
    message = str(info.value)
    assert "leaves 0 cards to draw from a deck of 162" in message
    assert message.endswith("(R3.2); the extra deck adds 54 cards (R2.2)")
    assert Options(players=6, stock_size=30, extra_deck=True).deck_size == 216
    with pytest.raises(
        OptionsError, match=r"from a deck of 216; at least 30 are needed \(R3\.2\)$"
    ):
        Options(players=6, stock_size=32, extra_deck=True)


@pytest.mark.parametrize("players", [1, 4, 5, 6, 7, 8])
def test_R2_2_extra_deck_adds_one_unit_whatever_the_count(players: int) -> None:
    options = Options(players=players, stock_size=5, extra_deck=True)
    assert options.deck_size == (deck_units(players) + 1) * 54
    cards = Counter(new_round(options, seed=2).all_cards())
    assert cards == deck_for(options)
    assert cards[WILD] == 6 * (deck_units(players) + 1)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_R2_3_partners_sit_opposite(players: int) -> None:
    state = new_round(Options(players=players, teams=True), seed=1)
    half = players // 2
    assert state.partners == tuple((seat + half) % players for seat in range(players))
    for seat in range(players):
        assert state.partner(state.partner(seat)) == seat  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [1, 2, 3, 5, 7])
def test_R2_3_teams_need_4_6_or_8_players(players: int) -> None:
    with pytest.raises(OptionsError, match=rf"need 4, 6 or 8 players, not {players} \(R2\.3\)"):
        Options(players=players, teams=True)


def test_R2_3_without_teams_nobody_has_a_partner() -> None:
    state = new_round(Options(players=4), seed=1)
    assert state.partners is None
    assert all(state.partner(seat) is None for seat in range(4))


def test_R2_4_the_record_keeps_who_sat_in_each_seat() -> None:
    """R2.4 (seats that stay empty, players coming back) is the server's; the engine's part is
    that a record names who sat where, and replay accepts it unchanged."""
    match = Match(Options(players=2, stock_size=3), seed=1)
    seats = [{"name": "Ann", "player": "user:1"}, {"name": "Bob", "player": "bot:greedy"}]
    record = to_record(match, seats)
    assert record["seats"] == seats
    assert replay(record).options == match.options


def test_R2_5_team_fall_back_to_solo() -> None:
    options = Options(players=4, teams=True, stock_size=2, match_target=800)
    match = Match(options, seed=11)
    bots = [make_bot("greedy", seat) for seat in range(4)]
    finish_match_round(match, bots)
    result = match.rounds[0].result
    assert result is not None
    assert len(result.winners) in (0, 2)  # a team wins (or a tied stalemate)
    scores_after_team_round = list(match.scores)

    match.fall_back_to_solo()
    state = match.next_round()
    assert state.partners is None
    assert match.rounds[-1].teams is False
    assert match.scores == scores_after_team_round  # everyone keeps what they earned
    finish_match_round(match, bots)
    solo = match.rounds[1].result
    assert solo is not None and len(solo.winners) <= 1  # scored separately from now on
    gained = [
        after - before for after, before in zip(match.scores, scores_after_team_round, strict=True)
    ]
    assert sum(1 for g in gained if g) <= 1
    # and it stays solo for the rest of the match
    if match.between_rounds:
        assert match.next_round().partners is None


def test_R2_5_teams_are_only_dissolved_between_rounds() -> None:
    match = Match(Options(players=4, teams=True, stock_size=2), seed=1)
    with pytest.raises(Exception) as info:
        match.fall_back_to_solo()
    assert getattr(info.value, "rule", None) == "R2.5"
    assert match.state.partners is not None


# -- R3 Setup of a round -------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 4, 5, 8])
def test_R3_1_each_player_is_dealt_a_stock_with_only_its_top_card_visible(players: int) -> None:
    state = new_round(Options(players=players), seed=5)
    stock = Options(players=players).stock
    assert [len(s) for s in state.stocks] == [stock] * players
    for seat in [None, *range(players)]:
        seen = view(state, seat)
        assert seen.stock_tops == tuple(s[-1] for s in state.stocks)
        assert seen.stock_counts == (stock,) * players


@pytest.mark.parametrize(("players", "stock"), [(1, 30), (2, 30), (4, 30), (5, 20), (8, 20)])
def test_R3_2_default_stock_is_30_with_up_to_4_players_and_20_with_5_or_more(
    players: int, stock: int
) -> None:
    assert Options(players=players).stock == stock
    assert len(new_round(Options(players=players), seed=1).stocks[0]) == stock


@pytest.mark.parametrize(("preset", "size"), [("short", 10), ("low", 10), ("medium", 20)])
def test_R3_2_stock_presets(preset: str, size: int) -> None:
    options = Options.from_json({"players": 4, "stock": preset})
    assert options.stock == size
    assert [len(s) for s in new_round(options, seed=1).stocks] == [size] * 4


def test_R3_2_high_preset_and_any_size_the_owner_sets() -> None:
    assert Options.from_json({"players": 3, "stock": "high"}).stock == 30
    for size in (1, 7, 13, 25, 40):
        options = Options(players=2, stock_size=size)
        assert [len(s) for s in new_round(options, seed=size).stocks] == [size, size]


def test_R3_2_stock_size_that_starves_the_draw_pile_is_refused() -> None:
    # 4 players, 162 cards: 35 each leaves 22 to draw, fewer than 5 per player
    with pytest.raises(OptionsError) as info:
        Options(players=4, stock_size=36)
    message = str(info.value)
    assert "a stock of 36 for 4 players leaves 18 cards to draw" in message
    assert "at least 20 are needed (R3.2)" in message
    # exactly 5 per player left is allowed: (162 - 20) / 4 = 35.5
    assert Options(players=4, stock_size=35).stock == 35
    # the extra deck makes room for a bigger stock
    assert Options(players=4, stock_size=36, extra_deck=True).stock == 36


@pytest.mark.parametrize("players", range(1, 9))
def test_R3_2_largest_stock_leaves_at_least_5_draw_cards_per_player(players: int) -> None:
    deck = deck_units(players) * 54
    largest = (deck - 5 * players) // players
    assert Options(players=players, stock_size=largest).stock == largest
    with pytest.raises(OptionsError, match=r"\(R3\.2\)"):
        Options(players=players, stock_size=largest + 1)


def test_R3_3_rest_of_deck_is_the_draw_pile_and_no_piles_exist_yet() -> None:
    options = Options(players=3, stock_size=10)
    state = new_round(options, seed=9)
    first = state.current
    assert len(state.hands[first]) == 5
    assert all(not state.hands[s] for s in range(3) if s != first)
    assert len(state.draw) == 162 - 3 * 10 - 5
    assert state.building == [(), (), (), ()]
    assert state.values == [0, 0, 0, 0]
    assert state.completed == []
    assert all(pile == () for piles in state.discards for pile in piles)


@pytest.mark.parametrize("dealer", range(4))
def test_R3_4_player_left_of_the_dealer_starts(dealer: int) -> None:
    state = new_round(Options(players=4), seed=1, dealer=dealer)
    assert state.current == (dealer + 1) % 4


def test_R3_4_first_dealer_is_drawn_and_the_deal_moves_left_each_round() -> None:
    options = Options(players=3, stock_size=1, match_target=800)
    dealers = {draw_for_dealer(3, seed) for seed in range(30)}
    assert dealers == {0, 1, 2}  # the draw decides, not a fixed seat
    match = Match(options, seed=5)
    assert match.first_dealer == draw_for_dealer(3, "5")
    assert match.rounds[0].dealer == match.first_dealer
    assert match.state.current == (match.first_dealer + 1) % 3
    # finish round 1 by hand-playing the only stock card when possible, else via bots
    finish_match_round(match, [make_bot("greedy", s) for s in range(3)])
    state = match.next_round()
    assert match.rounds[1].dealer == (match.first_dealer + 1) % 3
    assert state.current == (match.first_dealer + 2) % 3


def test_R3_4_highest_stock_starts() -> None:
    state = make_state(
        players=4, stocks=[[1, 3], [12, 7], [2, 9], [5, 4]], dealer=0, starter="highest_stock"
    )
    assert first_player(state) == 2


def test_R3_4_highest_stock_ties_go_to_the_earliest_seat_after_the_dealer() -> None:
    stocks = [[8], [8], [3], [8]]
    for dealer, expected in [(0, 1), (1, 3), (2, 3), (3, 0)]:
        state = make_state(players=4, stocks=stocks, dealer=dealer, starter="highest_stock")
        assert first_player(state) == expected, f"dealer {dealer}"


def test_R3_4_highest_stock_ties_follow_the_direction_of_play() -> None:
    stocks = [[8], [8], [3], [8]]
    state = make_state(
        players=4,
        stocks=stocks,
        dealer=2,
        starter="highest_stock",
        direction="counterclockwise",
    )
    assert first_player(state) == 1  # after seat 3 (dealer 2) comes seat 1 going to the right


def test_R3_4_highest_stock_wilds_do_not_count() -> None:
    state = make_state(players=3, stocks=[[W], [4], [W]], dealer=0, starter="highest_stock")
    assert first_player(state) == 1
    all_wild = make_state(players=3, stocks=[[W], [W], [W]], dealer=1, starter="highest_stock")
    assert first_player(all_wild) == 2  # nothing counts: the player after the dealer


@pytest.mark.parametrize("seed", range(12))
def test_R3_4_highest_stock_in_a_dealt_round(seed: int) -> None:
    options = Options(players=5, stock_size=5, starter="highest_stock")
    state = new_round(options, seed=seed, dealer=seed % 5)
    tops = [s[-1] for s in state.stocks]
    starter = state.current
    assert tops[starter] == max(tops) or max(tops) == WILD
    seat = (state.dealer + 1) % 5
    while seat != starter:  # nobody earlier after the dealer has as high a card
        assert tops[seat] < tops[starter]
        seat = (seat + 1) % 5


def test_R3_5_play_goes_clockwise_by_default() -> None:
    state = make_state(players=3, hands=[[9], [9], [9]], current=0, draw=[8] * 20)
    apply(state, Action("discard", "", 9, 0))
    assert state.current == 1


def test_R3_5_counterclockwise_house_rule() -> None:
    state = make_state(
        players=3, hands=[[9], [9], [9]], current=0, draw=[8] * 20, direction="counterclockwise"
    )
    apply(state, Action("discard", "", 9, 0))
    assert state.current == 2
    apply(state, Action("discard", "", 9, 0))
    assert state.current == 1
    dealt = new_round(
        Options(players=4, direction="counterclockwise"), seed=1, dealer=0
    )  # the player after the dealer in the direction of play starts
    assert dealt.current == 3


def test_R3_5_counterclockwise_deal_moves_the_other_way() -> None:
    """Counter-clockwise, the player right of the dealer starts and the deal passes right."""
    options = Options(players=3, stock_size=1, direction="counterclockwise")
    match = Match(options, seed=2, first_dealer=0)
    finish_match_round(match, [make_bot("greedy", s) for s in range(3)])
    match.next_round()
    assert match.rounds[1].dealer == 2
