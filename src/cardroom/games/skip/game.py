"""Skip behind the Game contract (``games/base.py``): what the table master, the league, the
store and the CLI may know of it, reached through the registry as ``get_game("skip")``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..base import Event, Step, replay_from
from .facts import MatchFacts, analyse, mode_of
from .match import Match
from .notation import action_from_json, action_to_json, event_to_json
from .options import MAX_PLAYERS, Options, OptionsError
from .record import to_record


class SkipGame:
    """Skip, a race to empty one's stock onto shared building piles (R1-R7, docs/rules.md)."""

    name = "skip"
    title = "Skip"
    min_players = 1
    max_players = MAX_PLAYERS
    lower_scores_win = False

    def options_from_json(self, data: Mapping[str, Any]) -> Options:
        if not isinstance(data, Mapping):
            raise OptionsError("options must be a JSON object")
        return Options.from_json(dict(data))

    def preset_options(self) -> dict[str, dict[str, Any]]:
        return {
            "standard": {},
            "quick": {"stock": "short", "match_target": None},
            "teams": {"players": 4, "teams": True},
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
        """Ranked tables play the standard rules with assist off (R7.4)."""
        return options.players >= 2 and options.ranked_standard

    def rating_mode(self, options: Options, teams: bool | None = None) -> str:
        return mode_of(options, teams)

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


SKIP = SkipGame()
