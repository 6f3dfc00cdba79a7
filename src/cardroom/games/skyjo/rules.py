"""The rules of Skyjo (S1-S4): dealing a round, the legal actions, and applying one.

Pure: no I/O, no clocks. Randomness comes from the round's own generator, seeded from the
match seed, so the same options, seed and actions always give the same round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..base import Event, IllegalMove
from ..shuffling import shuffle
from .actions import DISCARD_AT, DRAW, EXCHANGE_AT, KINDS, PLACED, REVEAL_AT, TAKE_AT, Action
from .cards import COLUMNS, GRID, HIDDEN, ROWS, new_deck
from .options import Options
from .state import REVEALS, RoundResult, State, left_to_reveal

__all__ = [
    "apply",
    "apply_fast",
    "check",
    "legal_actions",
    "list_actions",
    "new_round",
    "round_result",
    "score",
    "shuffle",
]


def new_round(
    options: Options,
    seed: str | int,
    starter: int | None = None,
    events: list[Event] | None = None,
    *,
    scores: tuple[int, ...] | None = None,
) -> State:
    """Shuffle the whole deck, deal every grid face down, and turn the discard pile's first
    card (S1.2). ``starter`` is the seat that will start the turns (the previous closer,
    S4.4); None lets the reveals decide (S1.3). The reveals come first, in seat order."""
    players = options.players
    if starter is not None and not 0 <= starter < players:
        raise ValueError(f"the starter must be a seat 0-{players - 1}")
    rng = random.Random(f"skyjo-round:{seed}")
    deck = new_deck()
    shuffle(rng, deck)
    if options.deal is not None:
        options.deal.apply(deck)
    cards: list[list[int | None]] = [list(deck[s * GRID : (s + 1) * GRID]) for s in range(players)]
    draw = deck[players * GRID :]
    state = State(
        options=options,
        players=players,
        rng=rng,
        draw=draw,
        discard=[draw.pop()],
        cards=cards,
        up=[[False] * GRID for _ in range(players)],
        starter=starter,
        scores=tuple(scores) if scores is not None else (0,) * players,
    )
    out = events if events is not None else []
    out.append(Event("dealt", -1, {"discard": state.discard[-1], "draw": len(state.draw)}))
    _start_turn(state, 0, out)
    return state


# -- what may be done ---------------------------------------------------------------------------


def list_actions(
    phase: str, holding: bool, present: Sequence[bool], down: Sequence[bool]
) -> list[Action]:
    """The actions of the seat to play, from what that seat can see: the phase, whether it
    holds a drawn card, and which of its positions hold a card and which lie face down."""
    if phase == "reveal":
        return [REVEAL_AT[p] for p in range(GRID) if down[p]]
    if phase != "play":
        return []
    if holding:
        return [EXCHANGE_AT[p] for p in range(GRID) if present[p]] + [
            DISCARD_AT[p] for p in range(GRID) if down[p]
        ]
    return [DRAW] + [TAKE_AT[p] for p in range(GRID) if present[p]]


def legal_actions(state: State) -> list[Action]:
    seat = state.current
    cards, up = state.cards[seat], state.up[seat]
    present = [c is not None for c in cards]
    down = [c is not None and not u for c, u in zip(cards, up, strict=True)]
    return list_actions(state.phase, state.drawn is not None, present, down)


def check(state: State, action: Action, seat: int | None = None) -> None:
    """Raise ``IllegalMove`` (the rule and why) unless ``action`` is legal for ``seat`` now."""
    phase, me = state.phase, state.current
    if phase == "over":
        raise IllegalMove("S4.1", "the round is over and has been scored", "round_over")
    if seat is not None and seat != me:
        rule = "S1.2" if phase == "reveal" else "S1.3"
        raise IllegalMove(
            rule, f"it is not your turn: seat {me + 1} is to play", "not_your_turn", seat=me + 1
        )
    # The fields are read as plain objects: a compiled build would reject a wrong type with
    # a TypeError of its own before the rule could say what is wrong.
    fields: tuple[object, ...] = tuple(action) if isinstance(action, Action) else ()
    if not fields or fields[0] not in KINDS:
        raise IllegalMove("S2.2", "that is not a Skyjo action", "bad_action")
    kind, where = fields
    if kind == "draw" and phase == "play" and state.drawn is None:
        return  # a third of all actions: the start of a turn (S2.2)
    if kind == "timeout":
        return
    if kind in PLACED and (type(where) is not int or not 0 <= where < GRID):
        raise IllegalMove(
            "S1.2", "a grid has 4 columns of 3 cards, and no such place", "skyjo.no_such_place"
        )
    pos = action.position if kind in PLACED else -1
    if phase == "reveal":
        if kind != "reveal":
            raise IllegalMove(
                "S1.2",
                "first everyone turns two of their own cards face up",
                "skyjo.reveal_first",
            )
        if state.cards[me][pos] is None or state.up[me][pos]:
            raise IllegalMove(
                "S1.2",
                "that card is already face up: turn a face-down one",
                "skyjo.already_up",
            )
        return
    if kind == "reveal":
        raise IllegalMove(
            "S1.2",
            "the two cards are turned before the first turn; now draw or take a card",
            "skyjo.reveal_over",
        )
    holding = state.drawn is not None
    if kind == "take" or kind == "draw":
        if holding:
            raise IllegalMove(
                "S2.2",
                "you have drawn a card: exchange it with one of yours, or discard it and turn a "
                "face-down card",
                "skyjo.holding",
            )
        if kind == "draw":
            return
    elif not holding:  # exchange or discard
        raise IllegalMove("S2.2", "draw a card from the draw pile first", "skyjo.draw_first")
    if state.cards[me][pos] is None:
        raise IllegalMove(
            "S3.1", "that column was removed: there is no card there", "skyjo.column_gone"
        )
    if kind == "discard" and state.up[me][pos]:
        raise IllegalMove(
            "S2.2",
            "after discarding the drawn card you turn a face-down card, and that one is up",
            "skyjo.turn_face_down",
        )


def apply(state: State, action: Action, seat: int | None = None) -> list[Event]:
    """Apply a legal action and return what happened; an illegal one changes nothing."""
    check(state, action, seat)
    events: list[Event] = []
    apply_fast(state, action, events)
    return events


def apply_fast(state: State, action: Action, events: list[Event] | None = None) -> None:
    """``apply`` for callers that have checked the action (simulations): the same changes to
    the state, and what the table would tell only when ``events`` is given to collect it."""
    me = state.current
    kind, pos = action
    if kind == "draw":
        _draw(state, me, events)
    elif kind == "take":
        card = state.discard.pop()
        replaced = _place(state, me, pos, card)
        if events is not None:
            events.append(Event("took", me, {"position": pos, "card": card, "replaced": replaced}))
        _after_turn(state, me, pos, events)
    elif kind == "exchange":
        drawn = state.drawn
        assert drawn is not None
        state.drawn = None
        replaced = _place(state, me, pos, drawn)
        if events is not None:
            detail: dict[str, object] = {"position": pos, "card": drawn, "replaced": replaced}
            events.append(Event("exchanged", me, detail))
        _after_turn(state, me, pos, events)
    elif kind == "discard":
        _discard_and_turn(state, me, pos, events)
    elif kind == "reveal":
        _reveal(state, me, pos, events)
    else:
        if events is not None:
            events.append(Event("timed_out", me, {}))
        _time_out(state, me, events)


# -- how it happens -----------------------------------------------------------------------------
# ``events`` is None when nobody is to be told (``apply_fast``): the state changes the same.


def _start_turn(state: State, seat: int, events: list[Event] | None) -> None:
    state.current = seat
    state.turn += 1
    if events is None:
        return
    detail: dict[str, object] = {"turn": state.turn, "phase": state.phase}
    if state.closer is not None:
        detail["last"] = True  # S4.1: the one more turn after someone closed
    events.append(Event("turn", seat, detail))


def _reveal(state: State, seat: int, pos: int, events: list[Event] | None) -> None:
    """S1.2: one of the two cards turned before the first turn."""
    assert state.reveals is not None
    state.up[seat][pos] = True
    state.show_turned(seat, pos)
    state.reveals[seat] += 1
    state.reveals_left = left_to_reveal(state.reveals)
    if events is not None:
        events.append(Event("revealed", seat, {"position": pos, "card": state.cards[seat][pos]}))
    if state.reveals[seat] < REVEALS:
        return
    if seat + 1 < state.players:
        _start_turn(state, seat + 1, events)
        return
    state.phase = "play"
    if state.starter is None:  # S1.3: the highest sum of the two, ties to the lowest seat
        sums = [_visible_sum(state, s) for s in range(state.players)]
        state.starter = max(range(state.players), key=lambda s: (sums[s], -s))
        if events is not None:
            detail = {"rule": "S1.3", "sum": sums[state.starter]}
            events.append(Event("starts", state.starter, detail))
    elif events is not None:  # S4.4: the previous round's closer
        events.append(Event("starts", state.starter, {"rule": "S4.4"}))
    _start_turn(state, state.starter, events)


def _visible_sum(state: State, seat: int) -> int:
    return sum(
        c for c, up in zip(state.cards[seat], state.up[seat], strict=True) if up and c is not None
    )


def _draw(state: State, seat: int, events: list[Event] | None) -> None:
    """S2.2, and S2.3 when the draw pile is empty: the discards but the top are reshuffled."""
    if not state.draw:
        top = state.discard.pop()
        state.draw, state.discard = state.discard, [top]
        shuffle(state.rng, state.draw)
        if events is not None:
            events.append(Event("reshuffled", -1, {"cards": len(state.draw)}))
    state.drawn = state.draw.pop()
    if events is not None:
        events.append(Event("drew", seat, {}))  # the card is the drawer's alone until placed


def _place(state: State, seat: int, pos: int, card: int) -> int:
    """Put ``card`` face up at ``pos``; the card it replaces goes face up onto the discards."""
    replaced = state.cards[seat][pos]
    assert replaced is not None
    state.cards[seat][pos] = card
    state.up[seat][pos] = True
    state.discard.append(replaced)
    return replaced


def _discard_and_turn(state: State, seat: int, pos: int, events: list[Event] | None) -> None:
    """S2.2: the drawn card onto the discards, and a face-down card of one's own turned."""
    card = state.drawn
    assert card is not None
    state.drawn = None
    state.discard.append(card)
    state.up[seat][pos] = True
    if events is not None:
        detail: dict[str, object] = {
            "card": card,
            "position": pos,
            "turned": state.cards[seat][pos],
        }
        events.append(Event("discarded", seat, detail))
    _after_turn(state, seat, pos, events)


def _time_out(state: State, seat: int, events: list[Event] | None) -> None:
    """The table's default for a player out of time: the first face-down cards are turned
    (S1.2); in a turn, a card is drawn (unless one is held) and discarded, and the first
    face-down card turned (S2.2)."""
    if state.phase == "reveal":
        assert state.reveals is not None
        while state.reveals[seat] < REVEALS and state.current == seat:
            _reveal(state, seat, state.face_down(seat)[0], events)
        return
    if state.drawn is None:
        _draw(state, seat, events)
    down = state.face_down(seat)
    if down:
        _discard_and_turn(state, seat, down[0], events)
        return
    card = state.drawn
    assert card is not None
    state.drawn = None
    pos = state.present(seat)[0]
    replaced = _place(state, seat, pos, card)
    if events is not None:
        events.append(
            Event("exchanged", seat, {"position": pos, "card": card, "replaced": replaced})
        )
    _after_turn(state, seat, pos, events)


def _remove_column(state: State, seat: int, column: int, events: list[Event] | None) -> bool:
    """S3.1: three identical face-up cards in a column go onto the discards. Whether they did."""
    if not state.options.column_removal:
        return False
    cards, up = state.cards[seat], state.up[seat]
    first = column * ROWS
    end = first + ROWS
    card = cards[first]
    if card is None or cards[first:end].count(card) != ROWS or not all(up[first:end]):
        return False
    for p in range(first, end):
        state.discard.append(card)
        cards[p] = None
        up[p] = False
    if events is not None:
        events.append(Event("column_removed", seat, {"column": column, "card": card}))
    return True


def _after_turn(state: State, seat: int, pos: int, events: list[Event] | None) -> None:
    """The end of a turn: a column may go (S3.1), the round may close or end (S4.1)."""
    cards = state.cards[seat]  # a column can go only if its card is in the grid three times:
    if cards.count(cards[pos]) >= ROWS and _remove_column(state, seat, pos // ROWS, events):
        state.show(seat)
    else:
        state.show_turned(seat, pos)
    if state.closer is None and HIDDEN not in state.shown[seat]:  # all up: S4.1
        state.closer = seat
        if events is not None:
            events.append(Event("closed", seat, {}))
    following = (seat + 1) % state.players  # S1.3: clockwise
    if state.closer is not None and following == state.closer:
        _final_reveal(state, events)
        score(state, events)
        return
    _start_turn(state, following, events)


def _final_reveal(state: State, events: list[Event] | None) -> None:
    """S4.1: every card is turned face up; columns of three identical cards go (S3.1)."""
    for seat in range(state.players):
        for p in state.face_down(seat):
            state.up[seat][p] = True
        if events is not None:
            events.append(Event("turned_up", seat, {"grid": tuple(state.cards[seat])}))
        for column in range(COLUMNS):
            _remove_column(state, seat, column, events)
        state.show(seat)


def score(state: State, events: list[Event] | None = None) -> RoundResult:
    """S4.2 and S4.3: the sums of the remaining cards; the closer's doubled when it is
    positive and not strictly the lowest."""
    assert state.closer is not None
    sums = tuple(sum(c for c in grid if c is not None) for grid in state.cards)
    state.result = round_result(sums, state.closer, doubling=state.options.closer_doubling)
    state.phase = "over"
    if events is not None:
        events.append(Event("round_over", -1, state.result.to_json()))
    return state.result


def round_result(sums: Sequence[int], closer: int, *, doubling: bool = True) -> RoundResult:
    """S4.3 from the round's sums alone: the closer's positive sum is doubled unless it is
    strictly the lowest. Played rounds and the score keeper's rounds (S6.1) are both scored
    here, so a round counts the same however it was played."""
    if not 0 <= closer < len(sums):
        raise ValueError(f"the closer must be a seat 0-{len(sums) - 1}")
    points = list(sums)
    beaten = any(sums[s] <= sums[closer] for s in range(len(sums)) if s != closer)
    doubled = doubling and beaten and sums[closer] > 0
    if doubled:
        points[closer] *= 2
    return RoundResult(closer, tuple(sums), tuple(points), doubled)
