"""The Game contract served from an engine package's parts.

Every engine package has the same shape (``docs/adding-a-game.md``): an ``Options`` type, a
``Match`` type, its notation, its records and its facts. ``PackagedGame`` turns those parts
into the contract once, so a game's ``game.py`` says only what is its own: its names, its
presets, which matches are ranked, and its rating pools. What it may add beyond the contract's
core is optional: a state-level ``engine`` for fast bot play, its ``terminal`` (the generic
``BasicTerminal`` by default), a ``keeper`` and ``bots`` of its own, and a deal of the day
(``daily``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .base import Event, OptionsError, StateEngine, Step, replay_from
from .daily import DailyRules
from .terminal import BasicTerminal, Terminal


class PackagedGame:
    name: str
    title: str
    min_players: int
    max_players: int
    lower_scores_win: bool

    def __init__(
        self,
        *,
        options: Any,
        match: Any,
        action_from_json: Callable[..., Any],
        action_to_json: Callable[[Any], dict[str, Any]],
        event_to_json: Callable[[Event], dict[str, Any]],
        to_record: Callable[..., dict[str, Any]],
        analyse: Callable[..., Any],
        replay_record: Callable[[Any], Any],
        steps_of_record: Callable[[Any], Iterable[Step]],
        engine: StateEngine | None = None,
        terminal: Callable[[Any], Terminal] = BasicTerminal,
        keeper: Any = None,
        bots: Mapping[str, Callable[..., Any]] | None = None,
        daily: DailyRules | None = None,
    ) -> None:
        self._options, self._match = options, match
        self._action_from_json, self._action_to_json = action_from_json, action_to_json
        self._event_to_json = event_to_json
        self._to_record, self._analyse = to_record, analyse
        self._replay_record, self._steps_of_record = replay_record, steps_of_record
        self.options_type: type = options
        self.engine = engine
        self.keeper = keeper
        self.bots: Mapping[str, Callable[..., Any]] = dict(bots or {})
        self.terminal: Terminal = terminal(self)
        self.daily = daily

    def options_from_json(self, data: Mapping[str, Any]) -> Any:
        if not isinstance(data, Mapping):
            raise OptionsError("options must be a JSON object")
        return self._options.from_json(dict(data))

    def new_match(self, options: Any, seed: str, *, record: bool = True) -> Any:
        return self._match(options, seed, record=record)

    def action_from_json(self, data: Any, *, allow_timeout: bool = False) -> Any:
        return self._action_from_json(data, allow_timeout=allow_timeout)

    def action_to_json(self, action: Any) -> dict[str, Any]:
        return self._action_to_json(action)

    def event_json(self, event: Event) -> dict[str, Any]:
        return self._event_to_json(event)

    def record(
        self,
        options: Any,
        seed: str,
        steps: Iterable[Step],
        seats: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        *_, last = replay_from(self._match(options, seed, fingerprints=True), steps)
        return self._to_record(last.match, seats)

    def analyse(
        self,
        options: Any,
        seed: str,
        steps: Iterable[Step],
        *,
        ranked: bool = False,
        seats: list[dict[str, Any]] | None = None,
    ) -> Any:
        return self._analyse(options, seed, steps, ranked=ranked, seats=seats)

    def match_record(self, match: Any, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        return self._to_record(match, seats)

    def replay_record(self, record: Mapping[str, Any]) -> Any:
        return self._replay_record(record)

    def steps_of_record(self, record: Mapping[str, Any]) -> Iterable[Step]:
        return self._steps_of_record(record)
