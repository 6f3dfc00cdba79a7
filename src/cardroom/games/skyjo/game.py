"""Skyjo behind the Game contract (``games/base.py``), reached as ``get_game("skyjo")``."""

from __future__ import annotations

from typing import Any

from ..base import StateEngine
from ..packaged import PackagedGame
from .daily import DAILY
from .facts import analyse, mode_of, steps_of_record
from .keeper import KEEPER
from .match import Match
from .notation import action_from_json, action_to_json, event_to_json
from .options import MAX_PLAYERS, MIN_PLAYERS, Options
from .record import replay, to_record
from .rules import apply, apply_fast, check, legal_actions, new_round
from .terminal import SkyjoTerminal
from .views import view


class SkyjoGame(PackagedGame):
    """Skyjo: turn and swap the cards of a 4x3 grid for the lowest sum (S1-S5,
    docs/skyjo-rules.md)."""

    name = "skyjo"
    title = "Skyjo"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    lower_scores_win = True

    def preset_options(self) -> dict[str, dict[str, Any]]:
        return {
            "standard": {},
            "quick": {"end_score": 50},
            "gentle": {"closer_doubling": False},
        }

    def is_ranked(self, options: Options) -> bool:
        """Ranked matches play the published rules (a turn timer only paces them)."""
        return options.standard

    def rating_mode(self, options: Options, teams: bool | None = None) -> str:
        return mode_of(options)


SKYJO = SkyjoGame(
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
    ),
    terminal=SkyjoTerminal,
    daily=DAILY,
    keeper=KEEPER,
)
