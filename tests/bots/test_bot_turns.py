"""The turn model bots search with (``games/skip/turns.py``) agrees with the rules (R4-R6)."""

from __future__ import annotations

from bot_positions import positions
from hypothesis import given, settings

from cardroom.games.skip import State, apply, legal_actions, view
from cardroom.games.skip.turns import UNKNOWN, after_play, plays, position_of


@settings(max_examples=60, deadline=None)
@given(positions())
def test_plays_are_exactly_the_legal_plays(state: State) -> None:
    """R4.2, R5.1, R5.2: the model lists the plays the rules allow, no more, no fewer."""
    position = position_of(view(state, state.current))
    assert sorted(plays(position)) == sorted(a for a in legal_actions(state) if a.is_play)


@settings(max_examples=60, deadline=None)
@given(positions())
def test_every_play_leads_where_the_rules_lead(state: State) -> None:
    """Each play's visible result matches ``rules.apply``; hidden cards are flagged, not guessed
    (R3.1 next stock card, R4.3 refill, R5.3 completed piles, R6.1 win)."""
    me = state.current
    position = position_of(view(state, me))
    for action in plays(position):
        after = state.copy()
        apply(after, action)
        outcome = after_play(position, action)
        seen = position_of(view(after, me))
        model = outcome.position
        assert outcome.won == (after.result is not None)
        if outcome.won:
            continue
        assert model.values == seen.values
        assert model.discards == seen.discards
        assert model.partner_discards == seen.partner_discards
        assert model.stock_count == seen.stock_count
        assert model.partner_stock_count == seen.partner_stock_count
        if outcome.revealed_stock and action.source == "stock":
            assert model.stock == UNKNOWN and seen.stock is not None
        else:
            assert model.stock == seen.stock
        if outcome.revealed_stock and action.source == "partner_stock":
            assert model.partner_stock == UNKNOWN and seen.partner_stock is not None
        else:
            assert model.partner_stock == seen.partner_stock
        if outcome.refill:
            assert model.hand == () and len(seen.hand) <= 5  # fresh cards, unseen by the model
        else:
            assert model.hand == seen.hand
