"""The rules of Skip (R3-R6): dealing a round, the legal actions, and applying one.

Everything here is pure: no I/O, no clocks, no asyncio. Randomness comes from the round's own
seeded generator, so the same options, seed and moves always give the same round.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence

from ..base import Event
from ..shuffling import shuffle
from .actions import PASS, Action
from .cards import TOP_VALUE, WILD, card_name, deck_units, new_deck
from .options import HAND_SIZE, Options
from .state import BUILDING_SLOTS, DISCARD_PILES, IllegalMove, RoundResult, State

WIN_BONUS = 25  # R6.2
POINTS_PER_STOCK_CARD = 5  # R6.2

_SLOTS = tuple(range(BUILDING_SLOTS))

TIMED_OUT_CYCLES = 3
"""[project] R6.4 for absent players: when every seat's turn has timed out this many times in a
row (R7.3), nothing can change any more without them, and the round ends as a stalemate."""

TIMEOUT = Action("timeout")
"""A turn skipped by the turn timer (R7.3). Only a table applies it; players cannot send it."""


def partners_for(players: int, teams: bool) -> tuple[int, ...] | None:
    """R2.3: partners sit opposite, seat i with seat i + n/2."""
    if not teams:
        return None
    half = players // 2
    return tuple((seat + half) % players for seat in range(players))


def new_round(
    options: Options,
    seed: str | int,
    dealer: int = 0,
    teams: bool | None = None,
    events: list[Event] | None = None,
    *,
    scores: tuple[int, ...] | None = None,
) -> State:
    """Shuffle, deal the stocks and start the first turn (R3).

    ``teams`` overrides ``options.teams`` for a round played solo after a partner left (R2.5).
    ``events`` receives the first turn's ``turn`` and ``drew`` events, like every later turn's.
    ``scores`` are the match scores so far, carried for the views (R7.2); zeros by default.
    """
    players = options.players
    if not 0 <= dealer < players:
        raise ValueError(f"dealer must be a seat 0-{players - 1}")
    rng = random.Random(f"skip-round:{seed}")
    deck = new_deck(deck_units(players, options.extra_deck))
    shuffle(rng, deck)
    stock = options.stock
    deal = options.deal
    if deal is not None:
        deal.apply(deck, stock)
    stocks = [deck[i * stock : (i + 1) * stock] for i in range(players)]
    draw = deck[players * stock :]
    team_mode = options.teams if teams is None else teams and options.teams
    state = State(
        options=options,
        players=players,
        dealer=dealer,
        partners=partners_for(players, team_mode),
        rng=rng,
        draw=draw,
        stocks=stocks,
        hands=[[] for _ in range(players)],
        discards=[[()] * DISCARD_PILES for _ in range(players)],
        scores=tuple(scores) if scores is not None else (0,) * players,
    )
    first = deal.first if deal is not None else None
    _start_turn(state, first_player(state) if first is None else first, events)
    return state


def first_player(state: State) -> int:
    """R3.4: the player after the dealer, or with the highest stock card (ties: earliest)."""
    after_dealer = state.next_seat(state.dealer)
    if state.options.starter == "dealer_left":
        return after_dealer
    best, best_value, seat = after_dealer, 0, after_dealer
    for _ in range(state.players):
        top = state._stocks[seat][-1]
        if top > best_value:
            best, best_value = seat, top
        seat = state.next_seat(seat)
    return best


def _draw(state: State, seat: int, count: int, events: list[Event] | None) -> None:
    """Draw up to ``count`` cards, refilling from the completed piles when needed (R4.1, R5.4)."""
    hand = state._hands[seat]
    draw = state.draw
    if len(draw) >= count:  # the usual case: the top ``count`` cards, one at a time from the top
        hand += draw[: -count - 1 : -1]
        hand.sort()  # hands are kept sorted (``State._hands``): a view copies, never sorts
        del draw[-count:]
        state._hand_counts[seat] = len(hand)
        if events is not None:
            events.append(Event("drew", seat, {"cards": count}))
        return
    drawn = 0
    while drawn < count:
        if not draw:
            if not state.completed:
                break
            draw.extend(state.completed)
            state.completed.clear()
            shuffle(state.rng, draw)
            if events is not None:
                events.append(Event("reshuffled", seat, {"cards": len(draw)}))
        hand.append(draw.pop())
        drawn += 1
    hand.sort()
    state._hand_counts[seat] = len(hand)
    if drawn and events is not None:
        events.append(Event("drew", seat, {"cards": drawn}))


def _start_turn(state: State, seat: int, events: list[Event] | None = None) -> None:
    state.current = seat
    state.turn += 1
    state.played_this_turn = False
    if events is not None:
        events.append(Event("turn", seat, {"turn": state.turn}))
    need = HAND_SIZE - len(state._hands[seat])
    if need > 0:
        _draw(state, seat, need, events)


def _team_stock_left(state: State, seat: int) -> int:
    partner = state.partner(seat)
    left = len(state._stocks[seat])
    return left + len(state._stocks[partner]) if partner is not None else left


def round_points(winners: Collection[int], stock_left: Sequence[int]) -> tuple[int, ...]:
    """R6.2: each winner (a player, or both partners) scores 25 plus 5 for every card left in
    the stocks of the seats not among the winners; everyone else 0, and nobody when nobody won
    (R6.4). Played rounds and the score keeper's rounds are both scored here."""
    if not winners:
        return (0,) * len(stock_left)
    gain = WIN_BONUS + POINTS_PER_STOCK_CARD * sum(
        left for seat, left in enumerate(stock_left) if seat not in winners
    )
    return tuple(gain if seat in winners else 0 for seat in range(len(stock_left)))


def _finish(state: State, winners: tuple[int, ...], stalemate: bool) -> RoundResult:
    """Score the round (R6.2): 25 plus 5 for every card left in the losers' stocks."""
    stock_left = tuple(len(s) for s in state._stocks)
    result = RoundResult(winners, round_points(winners, stock_left), stalemate, stock_left)
    state.result = result
    return result


def _stalemate(state: State) -> RoundResult:
    """R6.4: the fewest stock cards left wins; a tie for fewest scores nothing.

    [project] A solo round (R2.1) that stalls is lost: nobody emptied a stock, and there is no
    one to have fewer cards than.
    """
    if state.players == 1:
        return _finish(state, (), stalemate=True)
    sides: dict[tuple[int, ...], int] = {}
    for seat in range(state.players):
        partner = state.partner(seat)
        side = (seat,) if partner is None else tuple(sorted((seat, partner)))
        sides[side] = _team_stock_left(state, seat)
    fewest = min(sides.values())
    best = [side for side, left in sides.items() if left == fewest]
    return _finish(state, best[0] if len(best) == 1 else (), stalemate=True)


def _end_turn(state: State, events: list[Event] | None) -> None:
    """Hand the turn on, or end the round by stalemate (R6.4)."""
    if state.played_this_turn or state.draw or state.completed:
        state.idle_turns = 0
    else:
        state.idle_turns += 1
    cycle = state.players * (2 if state.partners is not None else 1)
    if state.idle_turns >= cycle or state.timeouts_in_a_row >= TIMED_OUT_CYCLES * state.players:
        result = _stalemate(state)
        if events is not None:
            events.append(Event("round_over", -1, result.to_json()))
        return
    step = 1 if state.options.direction == "clockwise" else -1  # R3.5, as State.next_seat
    _start_turn(state, (state.current + step) % state.players, events)


def _card_at(state: State, seat: int, source: object, card: object, pile: object) -> int:
    """The card a play would take; raises IllegalMove."""
    if source == "hand":
        if type(card) is not int or card not in state._hands[seat]:
            raise IllegalMove("R4.2", f"you hold no {_card_words(card)}", "skip.no_such_card")
        return card
    if source in ("partner_stock", "partner_discard"):
        owner = state.partner(seat)
        if owner is None:
            raise IllegalMove(
                "R4.2",
                "only partners in team play may play from each other's piles",
                "skip.partners_only",
            )
    else:
        owner = seat
    whose = "your partner's" if owner != seat else "your"
    if source in ("stock", "partner_stock"):
        stock = state._stocks[owner]
        if not stock:
            raise IllegalMove(
                "R4.2",
                f"{whose} stock is empty",
                "skip.partner_stock_empty" if owner != seat else "skip.stock_empty",
            )
        return stock[-1]
    if source in ("discard", "partner_discard"):
        if not _is_pile(pile):
            raise IllegalMove("R4.7", "discard piles are numbered 1 to 4", "skip.no_such_pile")
        assert isinstance(pile, int)
        top = state._discards[owner][pile]
        if not top:
            raise IllegalMove(
                "R4.7",
                f"{whose} discard pile {pile + 1} is empty",
                "skip.partner_discard_empty" if owner != seat else "skip.discard_empty",
                pile=pile + 1,
            )
        return top[-1]
    raise IllegalMove("R4.2", f"a card cannot be played from {source!r}", "bad_action")


def _is_pile(index: object) -> bool:
    return type(index) is int and 0 <= index < 4


def _card_words(card: object) -> str:
    return card_name(card) if type(card) is int and 0 <= card <= TOP_VALUE else repr(card)


def _stray_fields(fields: Sequence[object]) -> str | None:
    """What is wrong when an action sets a field its kind does not use (R7.1: one form each)."""
    kind, source, card, pile, to, partner = fields
    if kind == "play":
        if source == "hand":
            stray = pile != -1 or partner is not False
            return "a play from the hand names a card and a building pile only" if stray else None
        if source in ("discard", "partner_discard"):
            stray = card != -1 or partner is not False
            return (
                "a play from a discard pile names that pile and a building pile only"
                if stray
                else None
            )
        stray = card != -1 or pile != -1 or partner is not False
        return "a play from a stock names a building pile only" if stray else None
    if kind == "discard":
        stray = source != "" or to != -1 or type(partner) is not bool
        return "a discard names a hand card and a discard pile only" if stray else None
    return f"a {kind} names nothing else" if tuple(fields[1:]) != PASS[1:] else None


def check(state: State, action: Action, seat: int | None = None) -> None:
    """Raise ``IllegalMove`` if ``action`` may not be made now (by ``seat``, when given).

    The fields are read as plain objects: a table may receive anything in them, and a
    compiled build must refuse it with a reason as pure Python does, not fail on its type."""
    if state.result is not None:
        raise IllegalMove("R6.1", "the round is over", "round_over")
    if seat is not None and seat != state.current:
        raise IllegalMove(
            "R7.1",
            f"it is not your turn; seat {state.current + 1} is to play",
            "not_your_turn",
            seat=state.current + 1,
        )
    me = state.current
    fields: Sequence[object] = action
    kind, source, card, pile, to, partner = fields
    if kind not in ("play", "discard", "pass", "timeout"):
        raise IllegalMove("R7.1", f"unknown action {kind!r}", "bad_action")
    stray = _stray_fields(fields)
    if stray is not None:
        raise IllegalMove("R7.1", f"malformed action: {stray}", "bad_action")
    if kind == "play":
        if not _is_pile(to):
            raise IllegalMove("R5.1", "building piles are numbered 1 to 4", "skip.no_such_pile")
        assert isinstance(to, int)
        moved = _card_at(state, me, source, card, pile)
        value = state.values[to]
        if moved != WILD and moved != value + 1:
            if value == 0:
                raise IllegalMove(
                    "R5.1",
                    f"a {moved} cannot start a building pile; only a 1 or a wild can",
                    "skip.cannot_start",
                    card=moved,
                )
            raise IllegalMove(
                "R5.2",
                f"a {moved} cannot go on a pile showing {value}",
                "skip.cannot_follow",
                card=moved,
                top=value,
            )
    elif kind == "discard":
        hand = state._hands[me]
        if type(card) is not int or card not in hand:
            raise IllegalMove(
                "R4.4", f"you hold no {_card_words(card)} to discard", "skip.no_such_card"
            )
        if not _is_pile(pile):
            raise IllegalMove("R4.4", "discard piles are numbered 1 to 4", "skip.no_such_pile")
        if partner and not (state.partners is not None and state.options.team_discards):
            raise IllegalMove(
                "R4.4",
                "discarding onto your partner's piles needs the team discards house rule",
                "skip.no_team_discards",
            )
        if card == WILD and state.options.no_wild_discards and any(c != WILD for c in hand):
            raise IllegalMove(
                "R4.4",
                "a wild may not be discarded while you hold another card (house rule)",
                "skip.no_wild_discards",
            )
    elif kind == "pass":
        if state._hands[me]:
            raise IllegalMove(
                "R4.5",
                "you may only pass with an empty hand; end your turn by discarding a card",
                "skip.pass_with_cards",
            )
        if state.draw or state.completed:
            raise IllegalMove(
                "R4.5",
                "you may only pass when nothing can be drawn; draw five cards and play on",
                "skip.pass_with_draw",
            )


def apply(state: State, action: Action, seat: int | None = None) -> list[Event]:
    """Make ``action`` for the current player and return what happened.

    An illegal action raises ``IllegalMove`` and leaves the state exactly as it was.
    """
    check(state, action, seat)
    events: list[Event] = []
    apply_fast(state, action, events)
    return events


def apply_fast(state: State, action: Action, events: list[Event] | None = None) -> None:
    """``apply`` for callers that already know the action is legal (bots, simulations): the
    same changes to the state, and what a table would tell only when ``events`` collects it.

    A play, the common move, is made here rather than in a function of its own: simulations
    apply tens of thousands a second, and a call with its arguments costs a tenth of one."""
    me = state.current
    state.moves += 1
    kind, source, card, pile, to, partner = action  # one step, where six attribute reads cost six
    if kind != "play":
        _apply_turn_end(state, me, kind, card, pile, partner, events)
        return
    state.timeouts_in_a_row = 0
    state.played_this_turn = True
    owner = me
    if source == "hand":
        hand = state._hands[me]
        hand.remove(card)
        state._hand_counts[me] = len(hand)
    else:
        if source == "partner_stock" or source == "partner_discard":
            partners = state.partners
            assert partners is not None
            owner = partners[me]
        if source == "stock" or source == "partner_stock":
            stock = state._stocks[owner]
            card = stock.pop()
            state._stock_tops[owner] = stock[-1] if stock else None
            state._stock_counts[owner] = len(stock)
        else:
            piles = state._discards[owner]
            taken = piles[pile]
            card = taken[-1]
            piles[pile] = taken[:-1]
            state._seen_discards[owner] = tuple(piles)
    values = state.values
    value = values[to] + 1
    building = state.building
    if events is not None:
        building[to] += (card,)
        events.append(
            Event(
                "played",
                me,
                {"source": source, "card": card, "pile": pile, "to": to, "value": value},
            )
        )
        if value == TOP_VALUE:
            events.append(Event("completed", me, {"to": to}))
    elif value != TOP_VALUE:
        building[to] += (card,)
    if value == TOP_VALUE:  # R5.3
        state.completed.extend(building[to])
        if events is None:
            state.completed.append(card)
        building[to] = ()
        values[to] = 0
    else:
        values[to] = value
    if (
        (source == "stock" or source == "partner_stock")
        and not state._stocks[owner]
        and _team_stock_left(state, owner) == 0  # R6.1
    ):
        partner_seat = state.partner(owner)
        winners = (owner,) if partner_seat is None else tuple(sorted((owner, partner_seat)))
        result = _finish(state, winners, stalemate=False)
        if events is not None:
            events.append(Event("round_over", me, result.to_json()))
        return
    if not state._hands[me]:
        # R4.3: an empty hand draws five and the turn goes on. The hand may have been empty since
        # the turn began (nothing left to draw); completing a pile makes cards drawable (R5.4).
        _draw(state, me, HAND_SIZE, events)


def _apply_turn_end(
    state: State,
    me: int,
    kind: str,
    card: int,
    pile: int,
    partner: bool,
    events: list[Event] | None,
) -> None:
    """A discard, a pass or a timeout: the moves that end a turn (R4.4, R4.5, R7.3)."""
    if kind == "discard":
        state.timeouts_in_a_row = 0
        owner = me
        if partner:
            partners = state.partners
            assert partners is not None
            owner = partners[me]
        hand = state._hands[me]
        hand.remove(card)
        state._hand_counts[me] = len(hand)
        piles = state._discards[owner]
        piles[pile] += (card,)
        state._seen_discards[owner] = tuple(piles)
        if events is not None:
            events.append(Event("discarded", me, {"card": card, "pile": pile, "owner": owner}))
    else:
        if events is not None:
            events.append(Event("passed" if kind == "pass" else "timed_out", me, {}))
        if kind == "timeout":
            state.timeouts_in_a_row += 1
        else:
            state.timeouts_in_a_row = 0
    _end_turn(state, events)


def legal_actions(state: State) -> list[Action]:
    """Every action the current player may make, each distinct action once."""
    if state.result is not None:
        return []
    me = state.current
    partner = state.partner(me)
    return list_actions(
        hand=state._hands[me],
        stock=state._stocks[me],
        discards=state._discards[me],
        partner_stock=state._stocks[partner] if partner is not None else None,
        partner_discards=state._discards[partner] if partner is not None else None,
        values=state.values,
        team_discards=partner is not None and state.options.team_discards,
        no_wild_discards=state.options.no_wild_discards,
        can_draw=bool(state.draw or state.completed),
    )


def list_actions(
    *,
    hand: list[int] | tuple[int, ...],
    stock: list[int] | tuple[int, ...],
    discards: list[tuple[int, ...]] | tuple[tuple[int, ...], ...],
    partner_stock: list[int] | tuple[int, ...] | None,
    partner_discards: list[tuple[int, ...]] | tuple[tuple[int, ...], ...] | None,
    values: list[int] | tuple[int, ...],
    team_discards: bool,
    no_wild_discards: bool,
    can_draw: bool = False,
) -> list[Action]:
    """The legal actions from the cards a player can see: shared by the state and by views.

    Stock and discard piles may be full piles or just their visible tops; only ``[-1]`` is read.
    ``can_draw`` says cards are left to draw, so an empty hand may not pass (R4.5); the rules
    draw for an empty hand as soon as they can (R4.3), so only hand-built positions differ.
    """
    actions: list[Action] = []
    fits: dict[int, list[int]] = {WILD: list(_SLOTS)}
    for j in _SLOTS:
        fits.setdefault(values[j] + 1, []).append(j)
    no_slot: list[int] = []

    distinct = sorted(set(hand))
    for card in distinct:
        for j in fits.get(card, no_slot):
            actions.append(Action("play", "hand", card, -1, j))
    if stock:
        for j in fits.get(stock[-1], no_slot):
            actions.append(Action("play", "stock", -1, -1, j))
    for i, pile in enumerate(discards):
        if pile:
            for j in fits.get(pile[-1], no_slot):
                actions.append(Action("play", "discard", -1, i, j))
    if partner_stock:
        for j in fits.get(partner_stock[-1], no_slot):
            actions.append(Action("play", "partner_stock", -1, -1, j))
    if partner_discards is not None:
        for i, pile in enumerate(partner_discards):
            if pile:
                for j in fits.get(pile[-1], no_slot):
                    actions.append(Action("play", "partner_discard", -1, i, j))
    if not hand:
        if not can_draw:
            actions.append(PASS)
        return actions
    only_wilds = all(c == WILD for c in distinct)
    for card in distinct:
        if card == WILD and no_wild_discards and not only_wilds:
            continue
        for i in range(DISCARD_PILES):
            actions.append(Action("discard", "", card, i, -1, False))
        if team_discards:
            for i in range(DISCARD_PILES):
                actions.append(Action("discard", "", card, i, -1, True))
    return actions


def outcome(state: State) -> RoundResult | None:
    """The round's result once it is over (R6), else None."""
    return state.result
