"""What the expert would do next, and why, in words: the hint at a table and the review of a
finished game ask here. Only ever from one seat's view (R7.2), so advice cannot leak a card.

Values are the expert's evaluation of a whole turn (``planner.search`` with ``EXPERT_WEIGHTS``,
"a stock card played = 100"); a decision's cost is the value of the expert's best first move
less the value of the move played, each followed by best play for the rest of the turn.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.games.skip import PASS, WILD, Action, SeatView
from cardroom.games.skip.cards import card_name
from cardroom.games.skip.turns import after_play, position_of

from .expert import ExpertBot, Plan, endings, first_moves, line, turns_up
from .expert_tuning import EXPERT_WEIGHTS
from .planner import context_of, play_value, stop, worth

HINT_SAMPLES = 8
HINT_TIME_CAP = 1.0  # seconds: a person is waiting for the hint
WIN_COST = 1000.0
"""A missed win costs this (ten stock cards), not the planner's million: one figure a table
can show."""


@dataclass(frozen=True, slots=True)
class Advice:
    """The next step (``action``), the line it starts (up to a hidden card or the turn's end),
    and the reason in one line."""

    action: Action
    plan: Plan
    reason: str


def advise(view: SeatView, *, seed: str = "hint", samples: int = HINT_SAMPLES) -> Advice:
    """The expert's suggestion for the seat to move, from its own view only."""
    bot = ExpertBot(seed, samples=samples, time_cap=HINT_TIME_CAP)
    plan = whole_line(view, bot.best_plan(view))
    return Advice(plan[0], plan, explain(view, plan))


def whole_line(view: SeatView, plan: Plan) -> Plan:
    """``plan`` followed by the expert's best play until a hidden card turns up or the turn
    ends: the expert often decides one step at a time, a reason needs where it leads."""
    context = context_of(view, EXPERT_WEIGHTS)
    position = position_of(view)
    for action in plan:
        if action.kind != "play":
            return plan
        outcome = after_play(position, action)
        if turns_up(outcome):
            return plan
        position = outcome.position
    return plan + line(position, context)


@dataclass(frozen=True, slots=True)
class Judgement:
    """One decision judged: the expert's best value and line, and what the move played is
    worth (both from the mover's view before it)."""

    best: float
    played: float
    plan: Plan

    @property
    def cost(self) -> float:
        """What the move played gave away, at most ``WIN_COST``."""
        return min(max(0.0, self.best - self.played), WIN_COST)


def judge(view: SeatView, played: Action) -> Judgement:
    """Score ``played`` against the expert's best first move in ``view``."""
    context = context_of(view, EXPERT_WEIGHTS)
    position = position_of(view)
    best, plan = max(first_moves(position, context), key=lambda item: item[0])
    if played.kind == "play":
        value = play_value(after_play(position, played), context)
    elif played.kind == "discard":
        ends = {a: v for v, a in endings(position, context)}
        value = ends.get(played, worth(position, context))
    elif played == PASS:
        value = stop(position, context)[0]
    else:  # a turn lost to the clock (R7.3): the hand kept, no discard
        value = worth(position, context)
    return Judgement(best, value, plan)


# -- words --------------------------------------------------------------------------------------


def explain(view: SeatView, plan: Plan) -> str:
    """One line a player understands: "plays your stock 7 via the 5 and 6 from your hand"."""
    me = view.seat
    assert me is not None
    plays = []
    for action in plan:
        if action.kind != "play":
            break
        plays.append(action)
    for index, action in enumerate(plays):
        if action.source in ("stock", "partner_stock"):
            return _to_stock(view, plays[: index + 1])
    if plays:
        return _toward_stock(view, plays)
    return _ending(view, plan[0])


def _to_stock(view: SeatView, plays: list[Action]) -> str:
    """A line that reaches a stock card: "plays your stock 7 via the 5 and 6 from your hand"."""
    me = view.seat
    assert me is not None
    last = plays[-1]
    if last.source == "partner_stock":
        card, whose = view.stock_tops[view.partner or 0], "your partner's stock"
    else:
        card, whose = view.stock_tops[me], "your stock"
    position = position_of(view)
    for action in plays[:-1]:
        position = after_play(position, action).position
    name = _card(card)
    if card == WILD:
        name = f"wild as a {position.values[last.to] + 1}"
    text = f"plays {whose} {name} on building pile {last.to + 1}"
    cards = _cards(view, plays)
    helpers = [i for i, a in enumerate(plays[:-1]) if a.to == last.to]
    if helpers:
        text += f" via {_list([plays[i] for i in helpers], [cards[i] for i in helpers])}"
    if len(plays) > 1 and 0 not in helpers:
        first = f"{_list(plays[:1], cards[:1])} on building pile {plays[0].to + 1}"
        return f"plays {first} first, then {text.removeprefix('plays ')}"
    return text


def _toward_stock(view: SeatView, plays: list[Action]) -> str:
    """Plays that do not reach the stock this turn: what they are for."""
    me = view.seat
    assert me is not None
    first = plays[0]
    text = f"plays {_list([first], _cards(view, [first]))} on building pile {first.to + 1}"
    position = position_of(view)
    for action in plays:
        position = after_play(position, action).position
    stock = view.stock_tops[me]
    if not position.hand and view.hand:
        return text + ", on the way to emptying your hand for five fresh cards (R4.3)"
    if isinstance(stock, int) and stock != WILD:
        gaps = [stock - value - 1 for value in position.values if value < stock]
        if 0 in gaps:
            return text + f", then your stock {stock} fits a building pile"
        if gaps:
            gap = min(gaps)
            away = "one card" if gap == 1 else f"{gap} cards"
            return text + f", to bring a building pile within {away} of your stock {stock}"
    return text + ", to clear your cards before you discard"


def _ending(view: SeatView, action: Action) -> str:
    me = view.seat
    assert me is not None
    if action == PASS:
        return "nothing left to play or discard: pass (R4.5)"
    if action.kind != "discard":
        return str(action)
    piles = view.discards[me]
    pile = piles[action.pile]
    top = pile[-1] if pile else None
    card = _card(action.card)
    if top is None:
        why = "starts a new discard pile"
    elif top == action.card:
        why = f"on another {card}"
    elif top == WILD or top > action.card:
        why = f"on the {_card(top)}, keeping the pile in descending order"
    else:
        why = f"on the {_card(top)}: every other place would bury a more useful card"
    can_play = any(a.kind == "play" for a in view.legal_actions())
    prefix = "no play here is worth making; " if can_play else "nothing to play; "
    whose = "your partner's" if action.partner else "your"
    where = f"{whose} discard pile {action.pile + 1}"
    return f"{prefix}ends the turn: discard the {card} on {where} ({why})"


def _card(card: int | None) -> str:
    return "?" if card is None else "wild" if card == WILD else card_name(card)


def _cards(view: SeatView, plays: list[Action]) -> list[int]:
    """The card each play moves, in order (a discard pile's top changes as it is played
    from); -1 where the view cannot say (a partner's pile in a long line)."""
    me = view.seat
    assert me is not None
    piles = [list(p) for p in view.discards[me]]
    cards = []
    for action in plays:
        if action.source == "hand":
            cards.append(action.card)
        elif action.source == "discard" and piles[action.pile]:
            cards.append(piles[action.pile].pop())
        elif action.source == "stock":
            top = view.stock_tops[me] if action is plays[0] else -1
            assert top is not None  # the first play is from the stock: it has a top card
            cards.append(top)
        else:
            cards.append(-1)
    return cards


def _list(plays: list[Action], cards: list[int]) -> str:
    """ "the 5 and 6 from your hand and the 4 from your discard pile 2" (``cards``: what each
    play moves, ``_cards``)."""
    groups: dict[str, list[str]] = {}
    for action, card in zip(plays, cards, strict=True):
        if action.source == "hand":
            where = "your hand"
        elif action.source == "discard":
            where = f"your discard pile {action.pile + 1}"
        elif action.source == "partner_discard":
            where = f"your partner's discard pile {action.pile + 1}"
        else:
            where = "your partner's stock"
        groups.setdefault(where, []).append("a card" if card < 0 else _card(card))
    parts = []
    for where, names in groups.items():
        text = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        article = "" if text.startswith("a ") else "the "
        parts.append(f"{article}{text} from {where}")
    return " and ".join(parts)
