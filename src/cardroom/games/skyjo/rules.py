"""The rules of Skyjo (S1-S4): dealing a round, the legal actions, and applying one.

Pure: no I/O, no clocks. Randomness comes from the round's own generator, seeded from the
match seed, so the same options, seed and actions always give the same round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..base import Event, IllegalMove
from .actions import DRAW, KINDS, PLACED, Action, discard, exchange, reveal, take
from .cards import COLUMNS, GRID, column_of, column_positions, new_deck
from .options import Options
from .state import REVEALS, RoundResult, State

__all__ = [
    "apply",
    "check",
    "legal_actions",
    "list_actions",
    "new_round",
    "round_result",
    "score",
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
    rng.shuffle(deck)
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
        return [reveal(p) for p in range(GRID) if down[p]]
    if phase != "play":
        return []
    if holding:
        return [exchange(p) for p in range(GRID) if present[p]] + [
            discard(p) for p in range(GRID) if down[p]
        ]
    return [DRAW] + [take(p) for p in range(GRID) if present[p]]


def legal_actions(state: State) -> list[Action]:
    seat = state.current
    present = [c is not None for c in state.cards[seat]]
    down = [present[p] and not state.up[seat][p] for p in range(GRID)]
    return list_actions(state.phase, state.drawn is not None, present, down)


def check(state: State, action: Action, seat: int | None = None) -> None:
    """Raise ``IllegalMove`` (the rule and why) unless ``action`` is legal for ``seat`` now."""
    if state.phase == "over":
        raise IllegalMove("S4.1", "the round is over and has been scored")
    if seat is not None and seat != state.current:
        rule = "S1.2" if state.phase == "reveal" else "S1.3"
        raise IllegalMove(rule, f"it is not your turn: seat {state.current + 1} is to play")
    if not isinstance(action, Action) or action.kind not in KINDS:
        raise IllegalMove("S2.2", "that is not a Skyjo action")
    kind, pos = action.kind, action.position
    if kind == "timeout":
        return
    if kind in PLACED and (
        isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos < GRID
    ):
        raise IllegalMove("S1.2", "a grid has 4 columns of 3 cards, and no such place")
    me = state.current
    if state.phase == "reveal":
        if kind != "reveal":
            raise IllegalMove("S1.2", "first everyone turns two of their own cards face up")
        if state.cards[me][pos] is None or state.up[me][pos]:
            raise IllegalMove("S1.2", "that card is already face up: turn a face-down one")
        return
    if kind == "reveal":
        raise IllegalMove(
            "S1.2", "the two cards are turned before the first turn; now draw or take a card"
        )
    holding = state.drawn is not None
    if kind in ("take", "draw") and holding:
        raise IllegalMove(
            "S2.2",
            "you have drawn a card: exchange it with one of yours, or discard it and turn a "
            "face-down card",
        )
    if kind in ("exchange", "discard") and not holding:
        raise IllegalMove("S2.2", "draw a card from the draw pile first")
    if kind != "draw" and state.cards[me][pos] is None:
        raise IllegalMove("S3.1", "that column was removed: there is no card there")
    if kind == "discard" and state.up[me][pos]:
        raise IllegalMove(
            "S2.2", "after discarding the drawn card you turn a face-down card, and that one is up"
        )


def apply(state: State, action: Action, seat: int | None = None) -> list[Event]:
    """Apply a legal action and return what happened; an illegal one changes nothing."""
    check(state, action, seat)
    events: list[Event] = []
    me = state.current
    kind, pos = action.kind, action.position
    if kind == "timeout":
        events.append(Event("timed_out", me, {}))
        _time_out(state, me, events)
    elif kind == "reveal":
        _reveal(state, me, pos, events)
    elif kind == "take":
        card = state.discard.pop()
        replaced = _place(state, me, pos, card)
        events.append(Event("took", me, {"position": pos, "card": card, "replaced": replaced}))
        _after_turn(state, me, pos, events)
    elif kind == "draw":
        _draw(state, me, events)
    elif kind == "exchange":
        card = state.drawn
        assert card is not None
        state.drawn = None
        replaced = _place(state, me, pos, card)
        events.append(Event("exchanged", me, {"position": pos, "card": card, "replaced": replaced}))
        _after_turn(state, me, pos, events)
    else:
        _discard_and_turn(state, me, pos, events)
    return events


# -- how it happens -----------------------------------------------------------------------------


def _start_turn(state: State, seat: int, events: list[Event]) -> None:
    state.current = seat
    state.turn += 1
    detail: dict[str, object] = {"turn": state.turn, "phase": state.phase}
    if state.closer is not None:
        detail["last"] = True  # S4.1: the one more turn after someone closed
    events.append(Event("turn", seat, detail))


def _reveal(state: State, seat: int, pos: int, events: list[Event]) -> None:
    """S1.2: one of the two cards turned before the first turn."""
    assert state.reveals is not None
    state.up[seat][pos] = True
    state.reveals[seat] += 1
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
        events.append(Event("starts", state.starter, {"rule": "S1.3", "sum": sums[state.starter]}))
    else:  # S4.4: the previous round's closer
        events.append(Event("starts", state.starter, {"rule": "S4.4"}))
    _start_turn(state, state.starter, events)


def _visible_sum(state: State, seat: int) -> int:
    return sum(
        c for c, up in zip(state.cards[seat], state.up[seat], strict=True) if up and c is not None
    )


def _draw(state: State, seat: int, events: list[Event]) -> None:
    """S2.2, and S2.3 when the draw pile is empty: the discards but the top are reshuffled."""
    if not state.draw:
        top = state.discard.pop()
        state.draw, state.discard = state.discard, [top]
        state.rng.shuffle(state.draw)
        events.append(Event("reshuffled", -1, {"cards": len(state.draw)}))
    state.drawn = state.draw.pop()
    events.append(Event("drew", seat, {}))  # the card is the drawer's alone until placed


def _place(state: State, seat: int, pos: int, card: int) -> int:
    """Put ``card`` face up at ``pos``; the card it replaces goes face up onto the discards."""
    replaced = state.cards[seat][pos]
    assert replaced is not None
    state.cards[seat][pos] = card
    state.up[seat][pos] = True
    state.discard.append(replaced)
    return replaced


def _discard_and_turn(state: State, seat: int, pos: int, events: list[Event]) -> None:
    """S2.2: the drawn card onto the discards, and a face-down card of one's own turned."""
    card = state.drawn
    assert card is not None
    state.drawn = None
    state.discard.append(card)
    state.up[seat][pos] = True
    events.append(
        Event("discarded", seat, {"card": card, "position": pos, "turned": state.cards[seat][pos]})
    )
    _after_turn(state, seat, pos, events)


def _time_out(state: State, seat: int, events: list[Event]) -> None:
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
    events.append(Event("exchanged", seat, {"position": pos, "card": card, "replaced": replaced}))
    _after_turn(state, seat, pos, events)


def _remove_column(state: State, seat: int, column: int, events: list[Event]) -> None:
    """S3.1: three identical face-up cards in a column go onto the discards."""
    if not state.options.column_removal:
        return
    places = column_positions(column)
    cards = [state.cards[seat][p] for p in places]
    if cards[0] is None or not all(state.up[seat][p] for p in places) or len(set(cards)) != 1:
        return
    for p in places:
        state.discard.append(cards[0])
        state.cards[seat][p] = None
        state.up[seat][p] = False
    events.append(Event("column_removed", seat, {"column": column, "card": cards[0]}))


def _after_turn(state: State, seat: int, pos: int, events: list[Event]) -> None:
    """The end of a turn: a column may go (S3.1), the round may close or end (S4.1)."""
    _remove_column(state, seat, column_of(pos), events)
    if state.closer is None and state.all_up(seat):
        state.closer = seat
        events.append(Event("closed", seat, {}))
    following = state.next_seat(seat)
    if state.closer is not None and following == state.closer:
        _final_reveal(state, events)
        score(state, events)
        return
    _start_turn(state, following, events)


def _final_reveal(state: State, events: list[Event]) -> None:
    """S4.1: every card is turned face up; columns of three identical cards go (S3.1)."""
    for seat in range(state.players):
        for p in state.face_down(seat):
            state.up[seat][p] = True
        events.append(Event("turned_up", seat, {"grid": tuple(state.cards[seat])}))
        for column in range(COLUMNS):
            _remove_column(state, seat, column, events)


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
