"""Skyjo behind the Game contract (``games/base.py``), reached as ``get_game("skyjo")``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..base import Event, Step, replay_from
from .facts import MatchFacts, analyse, mode_of
from .match import Match
from .notation import action_from_json, action_to_json, event_to_json
from .options import MAX_PLAYERS, MIN_PLAYERS, Options, OptionsError
from .record import to_record


class SkyjoGame:
    """Skyjo: turn and swap the cards of a 4x3 grid for the lowest sum (S1-S5,
    docs/skyjo-rules.md)."""

    name = "skyjo"
    title = "Skyjo"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    lower_scores_win = True

    def options_from_json(self, data: Mapping[str, Any]) -> Options:
        if not isinstance(data, Mapping):
            raise OptionsError("options must be a JSON object")
        return Options.from_json(dict(data))

    def preset_options(self) -> dict[str, dict[str, Any]]:
        return {
            "standard": {},
            "quick": {"end_score": 50},
            "gentle": {"closer_doubling": False},
        }

    def new_match(self, options: Options, seed: str) -> Match:
        return Match(options, seed)

    def action_from_json(self, data: Any, *, allow_timeout: bool = False) -> Any:
        return action_from_json(data, allow_timeout=allow_timeout)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return action_to_json(action)

    def event_json(self, event: Event) -> dict[str, Any]:
        return event_to_json(event)

    def is_ranked(self, options: Options) -> bool:
        """Ranked matches play the published rules (a turn timer only paces them)."""
        return options.standard

    def rating_mode(self, options: Options, teams: bool | None = None) -> str:
        return mode_of(options)

    def record(
        self,
        options: Options,
        seed: str,
        steps: Iterable[Step],
        seats: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        *_, last = replay_from(Match(options, seed, fingerprints=True), steps)
        return to_record(last.match, seats)

    def analyse(
        self,
        options: Options,
        seed: str,
        steps: Iterable[Step],
        *,
        ranked: bool = False,
        seats: list[dict[str, Any]] | None = None,
    ) -> MatchFacts:
        return analyse(options, seed, steps, ranked=ranked, seats=seats)


SKYJO = SkyjoGame()
