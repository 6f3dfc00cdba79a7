"""Skip behind the Game contract (``games/base.py``): what the table master, the league, the
store and the CLI may know of it, reached through the registry as ``get_game("skip")``."""

from __future__ import annotations

from typing import Any

from ..base import StateEngine
from ..packaged import PackagedGame
from . import reference
from .daily import DAILY
from .facts import analyse, mode_of, steps_of_record
from .keeper import KEEPER
from .match import Match
from .notation import action_from_json, action_to_json, event_to_json
from .options import MAX_PLAYERS, Options
from .record import replay, to_record
from .rules import apply, apply_fast, check, legal_actions, new_round
from .terminal import SkipTerminal
from .views import view


class SkipGame(PackagedGame):
    """Skip, a race to empty one's stock onto shared building piles (R1-R7, docs/rules.md)."""

    name = "skip"
    title = "Skip"
    min_players = 1
    max_players = MAX_PLAYERS
    lower_scores_win = False

    def preset_options(self) -> dict[str, dict[str, Any]]:
        return {
            "standard": {},
            "quick": {"stock": "short", "match_target": None},
            "teams": {"players": 4, "teams": True},
        }

    def is_ranked(self, options: Options) -> bool:
        """Ranked tables play the standard rules with assist off (R7.4)."""
        return options.players >= 2 and options.ranked_standard

    def rating_mode(self, options: Options, teams: bool | None = None) -> str:
        return mode_of(options, teams)


SKIP = SkipGame(
    options=Options,
    match=Match,
    action_from_json=action_from_json,
    action_to_json=action_to_json,
    event_to_json=event_to_json,
    to_record=to_record,
    analyse=analyse,
    replay_record=replay,
    steps_of_record=steps_of_record,
    engine=StateEngine(
        match=Match,
        new_round=new_round,
        legal_actions=legal_actions,
        apply=apply,
        apply_fast=apply_fast,
        check=check,
        view=view,
        reference=reference.play_match,
    ),
    terminal=SkipTerminal,
    daily=DAILY,
    keeper=KEEPER,
)
