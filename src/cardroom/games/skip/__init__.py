"""Skip, the stock-pile racing card game: the pure rules engine (R1-R7 of docs/rules.md).

>>> from cardroom.games import skip
>>> match = skip.Match(skip.Options(players=2), seed=1)
>>> actions = skip.legal_actions(match.state)
>>> events = match.apply(actions[-1])
"""

from .actions import PASS, Action
from .cards import WILD, card_name
from .match import Match, RoundLog, match_winners
from .notation import NotationError, action_from_json, action_to_json, event_to_json
from .options import STOCK_PRESETS, Options, OptionsError
from .record import ReplayError, replay, to_record
from .rules import (
    TIMEOUT,
    Event,
    apply,
    apply_fast,
    check,
    legal_actions,
    new_round,
    outcome,
    round_points,
)
from .state import IllegalMove, RoundResult, State
from .views import SeatView, view

COMPILED = ("cards", "actions", "state", "rules", "views", "match", "turns", "sampling")
"""The modules of this package ``make compiled`` compiles with mypyc (``cardroom.build`` reads
this tuple without importing the package): the rules, state and views, the match, the turn
search and the deal sampler."""

__all__ = [
    "PASS",
    "STOCK_PRESETS",
    "TIMEOUT",
    "WILD",
    "Action",
    "Event",
    "IllegalMove",
    "Match",
    "NotationError",
    "Options",
    "OptionsError",
    "ReplayError",
    "RoundLog",
    "RoundResult",
    "SeatView",
    "State",
    "action_from_json",
    "action_to_json",
    "apply",
    "apply_fast",
    "card_name",
    "check",
    "event_to_json",
    "legal_actions",
    "match_winners",
    "new_round",
    "outcome",
    "replay",
    "round_points",
    "to_record",
    "view",
]
