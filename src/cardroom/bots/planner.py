"""``planner``: searches the whole turn, stock cards first, then chooses where to stop and discard.

Every sequence of plays from the hand, the stock and the discard tops (the partner's too in
teams) is tried, with a memo on positions. A play that turns up a hidden card (the next stock
card, or a fresh hand after emptying it, R4.3) is a point where the bot re-plans once it sees the
card, so the search scores it as a reward plus what can still be done without that card. Where
the turn stops is scored by ``Weights``: the stock within reach next turn, wilds kept, discard
piles kept descending, and not handing the next player their stock card. That last one is a
penalty, not a ban: measured against ``greedy`` (2 players, stock 30), no penalty won 66% and a
penalty of 10 (a tenth of a stock card) about 75-80%; ``cardroom bench bots --games N``
repeats this.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields, replace
from typing import Any

from cardroom.games.skip import PASS, WILD, Action, SeatView
from cardroom.games.skip.actions import discard
from cardroom.games.skip.options import HAND_SIZE
from cardroom.games.skip.sampling import unseen_cards
from cardroom.games.skip.turns import (
    UNKNOWN,
    Outcome,
    TurnPosition,
    after_play,
    plays,
    position_of,
)

TOP = 12


@dataclass(frozen=True, slots=True)
class Weights:
    """How much each feature of the end of a turn is worth, in "stock cards = 100" units."""

    stock: float = 100.0  # a stock card played (own, or the partner's in teams)
    win: float = 1_000_000.0  # the round's last stock card
    refill: float = 22.0  # an emptied hand: five fresh cards now (R4.3)
    wild: float = 9.0  # a wild kept in hand for a later stock card
    hand_card: float = 1.5  # a card still in hand (the fewer, the more fresh cards next turn)
    reach: float = 4.0  # each card missing between a building pile and the stock top
    partner_reach: float = 4.0  # the same for the partner's stock (teams): worth as much
    defence: float = 10.0  # the next opponent's stock card made playable
    burial: float = 6.0  # a discard on a lower card, which it buries
    gap: float = 0.6  # a discard on a much higher card (a run with holes)
    empty_pile: float = 2.0  # spending an empty discard pile
    empty_slope: float = 0.15  # per step below 12 of a card that starts a new discard pile
    same_card: float = 0.4  # a discard on an equal card
    burial_slope: float = 0.3  # per step a buried card lies below the discard
    duplicate: float = 0.8  # saved by discarding a card held twice
    keep_near: float = 0.5  # a discard one or two above a building pile (keep it in hand)
    near_threat: float = 0.3  # the share of ``defence`` when the threat is one card away
    step: float = 0.01  # each play before a hidden card turns up (see first, then decide)
    # Counting (off in the planner): what can still come, from the cards this seat has not seen.
    count_reach: float = 0.0  # the stock's gap, by the chance next turn's hand does not fill it
    count_threat: float = 0.0  # the next opponent's stock, by the chance their hand reaches it
    count_partner: float = 0.0  # teams: the partner's stock, by the chance its hand misses it
    team_threat: float = 0.0  # 1: teams: the next opponent plays its partner's stock and tops too
    runs: float = 0.0  # 1: the next opponent's discard piles count with the run under each top
    inference: float = 0.0  # 1: what the opponent could not play tells what it does not hold
    places: float = 0.0  # 1: a pile starts anew only on an empty place (R5.1), as ``missing``
    cover: float = 0.0  # share of ``reach`` per card a discard takes from the stock's reach

    def with_settings(self, settings: dict[str, Any]) -> Weights:
        known = {f.name for f in fields(self)}
        unknown = set(settings) - known
        if unknown:
            raise ValueError(f"unknown planner weight(s): {', '.join(sorted(unknown))}")
        return replace(self, **{k: float(v) for k, v in settings.items()})


MAX_NODES = 5_000  # positions per decision: 2-player turns need < 1,000; rich team turns more


@dataclass(slots=True)
class SearchContext:
    """What stays fixed during one search: the seat's rules and the other seats' piles."""

    weights: Weights
    no_wild_discards: bool
    team_discards: bool
    threat_tops: tuple[int, ...]  # stock tops of the next opponent(s) we avoid feeding
    threat_discards: tuple[int, ...]  # their discard tops (they can bridge with them)
    pile_costs: list[list[float]]
    max_nodes: int
    memo: dict[TurnPosition, tuple[float, Action]]
    shares: tuple[float, ...] = ()
    """Counting: per value 1..12 (index 0 unused), the share of the unseen cards that can be
    played as it (its copies and the wilds); empty when no counting weight is on."""
    threat_odds: tuple[float, ...] = ()
    """Counting: per value 1..12, the chance the next opponent's next hand holds a card to
    play as it (its kept cards less what it showed it lacks, and its fresh cards)."""
    partner_odds: tuple[float, ...] = ()
    """Counting, in teams: the same chances for the partner's next hand."""


class PlannerBot:
    """Plans each turn to play the most stock cards, then ends it in the best position."""

    name = "planner"
    trusted = True
    """Its plans are built from the legal plays and discards (``games/skip/turns.py``), so
    simulations apply its choice without the rules' check."""

    def __init__(self, seed: str | int = 0, **settings: Any) -> None:
        self.seed = seed
        self.weights = Weights().with_settings(settings)
        self.reader = HandReader()

    def choose(self, view: SeatView) -> Action:
        lacks = self.reader.lacks(view) if self.weights.inference else NOTHING
        return search(position_of(view), context_of(view, self.weights, lacks=lacks))[1]


NOTHING: frozenset[int] = frozenset()


class HandReader:
    """What the next opponent does not hold, read at the start of each of this seat's turns
    from what it could not play in its own (``lacks_of``); kept for the rest of the turn."""

    def __init__(self) -> None:
        self.turn = -1
        self.known: frozenset[int] = NOTHING

    def lacks(self, view: SeatView) -> frozenset[int]:
        if view.turn != self.turn:
            self.turn = view.turn
            self.known = lacks_of(view)
        return self.known


def lacks_of(view: SeatView) -> frozenset[int]:
    """The values (``WILD`` among them) the next opponent's kept cards cannot be, read at the
    start of this seat's turn with two players, when that opponent has just moved and the
    building piles are as it left them: its stock card stayed, so no pile one card short of it
    could be bridged from its hand (R3.1, R4.1): it holds neither that card nor a wild."""
    me = view.seat
    if me is None or view.players != 2 or view.partner is not None:
        return NOTHING
    other = 1 - me
    top = view.stock_tops[other]
    if top is None or top == WILD:
        return NOTHING
    tops = {pile[-1] for pile in view.discards[other] if pile}
    lacking: set[int] = set()
    for value in (*view.values, 0):
        if value >= top:
            continue
        gap = [v for v in range(value + 1, top) if v not in tops]
        if not gap:
            return NOTHING  # it could have played its stock card: read nothing into it
        if len(gap) == 1:
            lacking.update((gap[0], WILD))
    return frozenset(lacking)


def plan(view: SeatView, weights: Weights | None = None) -> tuple[float, Action]:
    """The best first action for the seat to move and the value of the turn it starts."""
    context = context_of(view, weights or Weights())
    return search(position_of(view), context)


_PILE_COSTS: dict[Weights, list[list[float]]] = {}


def _pile_costs(weights: Weights) -> list[list[float]]:
    table = _PILE_COSTS.get(weights)
    if table is None:
        table = _PILE_COSTS[weights] = pile_costs(weights)
    return table


def context_of(
    view: SeatView,
    weights: Weights,
    max_nodes: int = MAX_NODES,
    lacks: frozenset[int] = NOTHING,
) -> SearchContext:
    """What a search from ``view`` keeps fixed; ``lacks``: what the next opponent's kept cards
    are known not to be (``lacks_of``). With ``team_threat``, in teams, the stock card and the
    discard tops of the next opponent's partner are threats too: the next opponent may play
    them (R4.2), and a card that opens the partner's stock helps its side as much."""
    me = view.seat
    assert me is not None
    step = 1 if view.options.direction == "clockwise" else -1
    nxt = (me + step) % view.players
    threats: list[int] = []
    threat_discards: list[int] = []
    if nxt != me and nxt != view.partner:
        seats = [nxt]
        if weights.team_threat and view.partners is not None:
            seats.append(view.partners[nxt])  # R4.2: it plays its partner's stock and tops too
        for seat in seats:
            top = view.stock_tops[seat]
            if top is not None and top != WILD:
                threats.append(top)
            for pile in view.discards[seat]:
                threat_discards += pile_run(pile) if weights.runs else pile[-1:]
    return SearchContext(
        weights=weights,
        no_wild_discards=view.options.no_wild_discards,
        team_discards=view.partner is not None and view.options.team_discards,
        threat_tops=tuple(threats),
        threat_discards=tuple(threat_discards),
        pile_costs=_pile_costs(weights),
        max_nodes=max_nodes,
        memo={},
        shares=shares_of(view) if weights.count_reach else (),
        threat_odds=threat_odds(view, nxt, lacks) if weights.count_threat and threats else (),
        partner_odds=(
            threat_odds(view, view.partner, NOTHING)
            if weights.count_partner and view.partner is not None
            else ()
        ),
    )


def threat_odds(view: SeatView, seat: int, lacks: frozenset[int]) -> tuple[float, ...]:
    """Per value (index 0 unused), the chance that ``seat``'s next hand holds a card to play
    as it: its kept cards (``view.hand_counts``) drawn from the unseen cards less the values it
    ``lacks``, and the fresh cards that fill its hand to five (R4.3) from all of them."""
    counts, total = unseen_counts(view)
    if not total:
        return (0.0,) * (TOP + 1)
    kept = min(HAND_SIZE, view.hand_counts[seat])
    fresh = HAND_SIZE - kept
    wild_kept = 0 if WILD in lacks else counts[WILD]
    odds = [0.0]
    for value in range(1, TOP + 1):
        share_fresh = (counts[value] + counts[WILD]) / total
        share_kept = ((0 if value in lacks else counts[value]) + wild_kept) / total
        odds.append(1.0 - (1.0 - share_fresh) ** fresh * (1.0 - share_kept) ** kept)
    return tuple(odds)


def pile_run(pile: tuple[int, ...]) -> list[int]:
    """A discard pile's top and the cards under it that each go one higher (7 on 8 on 9):
    played in order onto a building pile, each uncovers the next (R4.1)."""
    run: list[int] = []
    for card in reversed(pile):
        if card == WILD or (run and card != run[-1] + 1):
            break
        run.append(card)
    return run or list(pile[-1:])


def unseen_counts(view: SeatView) -> tuple[list[int], int]:
    """How many of each card (``WILD`` at 0) ``view.seat`` has not seen, and their total."""
    counts = [0] * (TOP + 1)
    total = 0
    for card in unseen_cards(view):
        counts[card] += 1
        total += 1
    return counts, total


def shares_of(view: SeatView) -> tuple[float, ...]:
    """Per value (index 0 unused), the share of the cards ``view.seat`` has not seen that can
    be played as that value: its copies and the wilds (R1.2). The unseen cards are where the
    next hands come from: the draw pile, the completed piles, the others' hands (R5.3, R5.4)."""
    counts, total = unseen_counts(view)
    if not total:
        return (0.0,) * (TOP + 1)
    return (0.0, *((counts[value] + counts[WILD]) / total for value in range(1, TOP + 1)))


def chance_in_hand(share: float, cards: int) -> float:
    """The chance that ``cards`` cards drawn from the unseen ones hold one playable as a value
    of that ``share`` (drawn with replacement: close enough for a few cards of many)."""
    return 1.0 - (1.0 - share) ** cards


def search(position: TurnPosition, context: SearchContext) -> tuple[float, Action]:
    """The value of ``position`` with best play, and the first action that gets it."""
    memo = context.memo
    known = memo.get(position)
    if known is not None:
        return known
    best = stop(position, context)
    if len(memo) < context.max_nodes:
        for action in distinct_plays(position):
            value = play_value(after_play(position, action), context)
            if value > best[0]:
                best = (value, action)
    memo[position] = best
    return best


def distinct_plays(position: TurnPosition) -> list[Action]:
    """The plays from ``position`` less repeats: the same card from the same place onto an
    equal pile has the same future."""
    tried: set[tuple[str, int, int, int]] = set()
    values = position.values
    distinct = []
    for action in plays(position):
        key = (action.source, action.card, action.pile, values[action.to])
        if key not in tried:
            tried.add(key)
            distinct.append(action)
    return distinct


def play_value(outcome: Outcome, context: SearchContext) -> float:
    """What a play is worth: the win, or the best of the rest of the turn after it plus the
    reward for what it turned up (a stock card, R3.1, or a fresh hand, R4.3)."""
    w = context.weights
    if outcome.won:
        return w.win
    value = search(outcome.position, context)[0] - w.step
    if outcome.revealed_stock:
        value += w.stock
    elif outcome.refill:
        value += w.refill
    return value


def stop(position: TurnPosition, context: SearchContext) -> tuple[float, Action]:
    """End the turn here: the position's worth plus the best discard (R4.4), or a pass (R4.5)."""
    base = worth(position, context)
    if not position.hand:
        return base, PASS
    options = discard_costs(position, context)
    best = options[0]
    for option in options:
        if option[0] < best[0]:  # the first of equals: the highest card, own piles first
            best = option
    cost, card, pile, partner = best
    return base - cost, discard(card, pile, partner)


Discard = tuple[float, int, int, bool]
"""A discard that ends the turn: what it gives up, the card, the pile, onto the partner's."""


def discard_costs(position: TurnPosition, context: SearchContext) -> list[Discard]:
    """Every discard that can end the turn from a non-empty hand (R4.4) with what it gives up,
    the highest card first and the seat's own piles before the partner's (teams, R4.2): the
    order in which ``stop`` breaks ties. The expert's shortlist (``expert.endings``) reads the
    same list, so both price a discard alike."""
    hand = position.hand
    w = context.weights
    table = context.pile_costs
    tops = [pile[-1] if pile else EMPTY for pile in position.discards]
    partner_tops = (
        [pile[-1] if pile else EMPTY for pile in position.partner_discards]
        if context.team_discards and position.partner_discards is not None
        else None
    )
    only_wilds = all(c == WILD for c in hand)
    teams = _partner_target(position) is not None
    covers = cover_costs(position, context) if w.cover else NO_COVER
    options: list[Discard] = []
    for card in sorted(set(hand), reverse=True):
        if card == WILD and context.no_wild_discards and not only_wilds:
            continue
        row = table[card]
        extra = card_cost(position, card, w)
        for pile in range(4):
            cost = row[tops[pile]] + extra
            if card != tops[pile]:
                cost += covers[pile]
            if teams:
                cost -= partner_help(position, card, pile, False, context)
            options.append((cost, card, pile, False))
        if partner_tops is not None:
            for pile in range(4):
                # own piles first: the partner plans around theirs
                cost = row[partner_tops[pile]] + extra + 0.5
                cost -= partner_help(position, card, pile, True, context)
                options.append((cost, card, pile, True))
    return options


NO_COVER = (0.0, 0.0, 0.0, 0.0)


def cover_costs(position: TurnPosition, context: SearchContext) -> tuple[float, ...]:
    """Per discard pile, what covering its top costs the stock's reach (``worth`` counts every
    top as a card to build with next turn, R4.1; a discard on one takes it away, unless the hand
    or another pile holds the same value, or the card discarded is that value)."""
    stock = position.stock
    if stock is None or stock in (UNKNOWN, WILD):
        return NO_COVER
    w = context.weights
    places = w.places > 0
    hand = position.hand
    wilds = hand.count(WILD)
    tops = [pile[-1] if pile else EMPTY for pile in position.discards]
    resources = set(hand)
    resources.update(t for t in tops if t != EMPTY)
    values = position.values
    before = -1
    costs = [0.0, 0.0, 0.0, 0.0]
    for pile in range(4):
        top = tops[pile]
        if top in (EMPTY, WILD) or top in hand or tops.count(top) > 1:
            continue
        if before < 0:
            before = missing(stock, values, resources, wilds, places)
        resources.discard(top)
        gap = missing(stock, values, resources, wilds, places) - before
        costs[pile] = w.cover * w.reach * gap
        resources.add(top)
    return tuple(costs)


def _partner_target(position: TurnPosition) -> int | None:
    """The partner's stock card when it is a number someone could build toward."""
    top = position.partner_stock
    if position.partner_discards is None or top in (None, UNKNOWN, WILD):
        return None
    return top


def _shared_tops(position: TurnPosition) -> list[int | None]:
    """Discard tops both partners may play from: the seat's four, then the partner's four."""
    assert position.partner_discards is not None
    piles = (*position.discards, *position.partner_discards)
    return [pile[-1] if pile else None for pile in piles]


def partner_help(
    position: TurnPosition, card: int, pile: int, partner_pile: bool, context: SearchContext
) -> float:
    """Team play (R4.2): what a discard is worth to the partner, whose next turn may use any
    of both partners' discard tops to reach their stock card."""
    target = _partner_target(position)
    if target is None or card == WILD:
        return 0.0
    tops = _shared_tops(position)
    places = context.weights.places > 0
    before = missing(target, position.values, {t for t in tops if t is not None}, 0, places)
    tops[pile + 4 * partner_pile] = card
    after = missing(target, position.values, {t for t in tops if t is not None}, 0, places)
    return context.weights.partner_reach * (before - after)


def worth(position: TurnPosition, context: SearchContext) -> float:
    """How good the position is to end a turn in, before the discard."""
    w = context.weights
    places = w.places > 0
    hand = position.hand
    wilds = hand.count(WILD)
    tops = [pile[-1] for pile in position.discards if pile]
    resources = set(hand)
    resources.update(tops)
    score = w.wild * wilds - w.hand_card * (len(hand) - wilds)
    values = position.values
    stock = position.stock
    if stock is not None and stock != UNKNOWN and stock != WILD:
        score -= w.reach * missing(stock, values, resources, wilds, places)
        if w.count_reach and context.shares:
            fresh = HAND_SIZE - max(0, len(hand) - 1)  # the discard leaves, the hand refills
            odds = tuple(chance_in_hand(share, fresh) for share in context.shares)
            chance = reach_chance(stock, values, resources, wilds, odds, places)
            score -= w.count_reach * (1.0 - chance)
    partner_stock = position.partner_stock
    if partner_stock is not None and partner_stock not in (UNKNOWN, WILD):
        partner_tops = set(tops)
        if position.partner_discards is not None:
            partner_tops.update(pile[-1] for pile in position.partner_discards if pile)
        score -= w.partner_reach * missing(partner_stock, values, partner_tops, 0, places)
        if w.count_partner and context.partner_odds:
            odds = context.partner_odds
            chance = reach_chance(partner_stock, values, partner_tops, 0, odds, places)
            score -= w.count_partner * (1.0 - chance)
    if w.defence:
        threat_resources = set(context.threat_discards)
        for top in context.threat_tops:
            gap = missing(top, values, threat_resources, 0, places)
            if gap == 0:
                score -= w.defence
            elif gap == 1:
                score -= w.near_threat * w.defence
    if w.count_threat and context.threat_odds:
        threat_resources = set(context.threat_discards)
        for top in context.threat_tops:
            chance = reach_chance(top, values, threat_resources, 0, context.threat_odds, places)
            score -= w.count_threat * chance
    return score


def reach_chance(
    target: int,
    values: tuple[int, ...],
    resources: set[int],
    wilds: int,
    odds: tuple[float, ...],
    places: bool = False,
) -> float:
    """The chance that a hand holding each value with its ``odds`` (independently), with
    ``resources`` and ``wilds``, makes ``target`` playable on the likeliest building pile
    (the wilds cover the scarcest values); ``places`` as in ``missing``."""
    best = 0.0
    for value in values if places else (*values, 0):
        route = route_to(target, value, places)
        if route is None:
            continue
        needed = sorted(odds[v] for v in route if v not in resources)
        chance = 1.0
        for odd in needed[wilds:]:
            chance *= odd
        if chance > best:
            best = chance
    return best


def missing(
    target: int, values: tuple[int, ...], resources: set[int], wilds: int, places: bool = False
) -> int:
    """Cards still missing to make ``target`` playable on the closest building pile, after
    using ``resources`` (each value once) and ``wilds``.

    Without ``places`` (the planner's count since its first version) a new pile can always be
    started from nothing, as if an empty place were always free. With it, the four places are
    as they are (R5.1): an empty one (0) starts from nothing, a pile below ``target`` builds
    on, and a pile already at or above it must first reach 12 and be cleared (R5.3).
    Measured, the honest count is worth about 2.4 points against the planner (docs/bots.md)."""
    best = 2 * TOP
    for value in values if places else (*values, 0):
        route = route_to(target, value, places)
        if route is None:
            continue
        gap = sum(1 for v in route if v not in resources)
        best = min(best, max(0, gap - wilds))
    return best


def route_to(target: int, value: int, places: bool) -> Sequence[int] | None:
    """The values to play on a pile showing ``value`` before ``target`` fits on it: up from
    ``value``; with ``places``, a pile at or above ``target`` first up to 12, then from 1 once
    cleared (R5.3); without, such a pile is no way there (None)."""
    if value < target:
        return range(value + 1, target)
    if places:
        return (*range(value + 1, TOP + 1), *range(1, target))
    return None


EMPTY = 13  # the column of ``pile_costs`` for an empty discard pile


def pile_costs(w: Weights) -> list[list[float]]:
    """``[card][top]``: what putting ``card`` on a discard pile showing ``top`` gives up
    (``EMPTY`` for an empty pile): buried lower cards, holes in a run, an empty pile, a wild."""
    table = []
    for card in range(TOP + 1):
        row = []
        for top in range(TOP + 2):
            if card == WILD:
                cost = 50.0
            elif top == EMPTY:  # high cards start descending runs
                cost = w.empty_pile + w.empty_slope * (TOP - card)
            elif top == WILD:
                cost = w.burial * 2
            elif top == card + 1:
                cost = 0.0
            elif top == card:
                cost = w.same_card
            elif top > card:
                cost = w.gap * (top - card - 1)
            else:
                cost = w.burial + w.burial_slope * (card - top)
            row.append(cost)
        table.append(row)
    return table


def card_cost(position: TurnPosition, card: int, w: Weights) -> float:
    """What parting with ``card`` from the hand costs, wherever it goes."""
    cost = -w.duplicate if position.hand.count(card) > 1 else 0.0  # cheapest to store
    for value in position.values:
        if 0 < card - value <= 2:
            cost += w.keep_near  # nearly playable: keep it in hand where it stays free
    return cost
