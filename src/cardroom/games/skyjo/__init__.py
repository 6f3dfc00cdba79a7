"""Skyjo, the 4x3-grid card game of low sums: the pure rules engine (S1-S5 of
docs/skyjo-rules.md).

>>> from cardroom.games import skyjo
>>> match = skyjo.Match(skyjo.Options(players=3), seed=1)
>>> actions = match.view(0).legal_actions()
>>> events = match.apply(actions[0], seat=0)
"""

from .actions import DRAW, TIMEOUT, Action
from .cards import new_deck
from .game import SKYJO, SkyjoGame
from .match import Match, RoundLog, game_winners
from .notation import action_from_json, action_to_json, event_to_json
from .options import Options
from .record import replay, to_record
from .rules import apply, apply_fast, check, legal_actions, new_round, round_result, score
from .state import RoundResult, State
from .views import HIDDEN, SeatView, view

COMPILED = ("cards", "actions", "state", "rules", "views")
"""The modules of this package ``make compiled`` compiles with mypyc (``cardroom.build`` reads
this tuple without importing the package): the rules, state and views a search's rollouts run."""

__all__ = [
    "DRAW",
    "HIDDEN",
    "SKYJO",
    "TIMEOUT",
    "Action",
    "Match",
    "Options",
    "RoundLog",
    "RoundResult",
    "SeatView",
    "SkyjoGame",
    "State",
    "action_from_json",
    "action_to_json",
    "apply",
    "apply_fast",
    "check",
    "event_to_json",
    "game_winners",
    "legal_actions",
    "new_deck",
    "new_round",
    "replay",
    "round_result",
    "score",
    "to_record",
    "view",
]
