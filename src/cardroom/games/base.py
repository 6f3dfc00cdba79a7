"""The Game contract: what every game in Cardroom provides, and nothing more.

The table master, the league, the store and the CLI reach a game only through this contract and
the registry (``cardroom.games.get_game``), so a new game is a new package under ``games/`` (plus
its web renderer) and nothing else. Everything here is pure: no I/O, no clocks, no asyncio.

A match is a sequence of **steps** (``Step``): the players' actions and the steps a table takes
between rounds (dealing the next round, or a game's own between-round decision such as Skip's
fall-back to solo play). The options, the seed and the steps determine the match exactly, so the
one ``replay`` below rebuilds it, yielding the engine's typed events step by step, for the
server after a restart, for the league's statistics and for game records alike.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol, runtime_checkable


class Event(NamedTuple):
    """Something that happened, as everyone may know it (never a hidden card).

    ``seat`` is -1 for what belongs to nobody (a reshuffle, the end of a round).
    """

    kind: str
    seat: int
    detail: dict[str, object]


class IllegalMove(Exception):
    """A refused action: the rule it breaks and why, in plain words. Nothing changed."""

    def __init__(
        self, rule: str, message: str, reason: str | None = None, **params: int | str
    ) -> None:
        super().__init__(f"{message} ({rule})")
        self.rule = rule
        self.message = message
        # A stable code for the sentence and its parameters: each client says it in its
        # player's language (the web's catalogs, ``refusal.<reason>``); ``message`` is English.
        self.reason = reason
        self.params = params

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "message": self.message}
        if self.reason is not None:
            out.update(reason=self.reason, params=self.params)
        return out


class OptionsError(ValueError):
    """House rules that cannot make a game; the message says which and why."""


class NotationError(ValueError):
    """An action that is not well formed (as opposed to well formed but illegal)."""


class ReplayError(ValueError):
    """A move log or record that does not replay: which step and why."""


ACTION = "action"
NEXT_ROUND = "next_round"
FORFEIT = "forfeit"
"""A step a table takes between any two moves of a ranked match: ``seat`` left it, or timed
out of too many turns in a row, and forfeits (docs/league.md, "Ladder rules"). The match is
over at once; every side but the forfeiting seat's wins. Every game applies it the same way
(``forfeit_winners``), so the replay, the records and the league see it like any step."""
FORFEITED = "forfeited"
"""The event of a ``forfeit`` step: ``seat`` forfeited, ``detail["winners"]`` won."""


@dataclass(frozen=True, slots=True)
class Step:
    """One entry of a match's move log, as stored and replayed.

    ``kind`` is ``"action"`` (``seat`` played ``action``, in the game's JSON notation),
    ``"next_round"`` (the next round was dealt), ``"forfeit"`` (``seat`` forfeited the match,
    between any two moves), or a between-round kind of the game's own.
    """

    kind: str
    seat: int | None = None
    action: Any = None


@runtime_checkable
class View(Protocol):
    """What one seat (or a spectator, ``seat`` None) may see: the only thing that leaves the
    engine toward a person or a bot."""

    @property
    def seat(self) -> int | None: ...

    def legal_actions(self) -> list[Any]: ...

    def to_json(self) -> dict[str, Any]: ...


class GameOptions(Protocol):
    """A game's frozen, validated house rules; ``players`` is the seat count of a match."""

    @property
    def players(self) -> int: ...

    @property
    def turn_timer(self) -> int | None: ...

    def to_json(self) -> dict[str, Any]: ...


class GameMatch(Protocol):
    """A match in play: rounds, scores, whose turn it is, and the end.

    ``apply`` refuses an illegal action with ``IllegalMove`` and changes nothing.
    """

    options: Any
    seed: str

    @property
    def round_number(self) -> int: ...

    @property
    def scores(self) -> list[int]: ...

    @property
    def over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...] | None: ...

    @property
    def between_rounds(self) -> bool:
        """The round is over and the match is not: the table deals the next one."""
        ...

    @property
    def current(self) -> int | None:
        """The seat to act now, or None between rounds and after the end."""
        ...

    @property
    def opening_events(self) -> list[Event]:
        """What happened as the first round was dealt (its first turn starts there)."""
        ...

    def apply(self, action: Any, seat: int | None = None) -> list[Event]: ...

    def apply_step(self, step: Step) -> list[Event]:
        """Apply one stored step (an action, or a between-round step): the replay's only door."""
        ...

    def between_round_steps(self, absent: frozenset[int]) -> list[Step]:
        """The steps that start the next round, given the seats whose players have gone."""
        ...

    @property
    def forfeited(self) -> int | None:
        """The seat that forfeited the match (a ``forfeit`` step), or None."""
        ...

    def timeout_action(self) -> Any:
        """What a table plays for a seat whose turn timer ran out (an action, never sent by
        people)."""
        ...

    def view(self, seat: int | None) -> View: ...

    def progress(self) -> dict[str, Any]:
        """The match at a glance, in JSON: round, scores, teams, over, winners."""
        ...

    def round_started(self) -> dict[str, Any]:
        """The detail of a ``round_started`` announcement (round, dealer, …)."""
        ...

    def round_result(self) -> dict[str, Any] | None:
        """How the last round ended, in JSON (None while it is played)."""
        ...


@dataclass(frozen=True, slots=True)
class StateEngine:
    """A game's rules on bare positions (states), without a match's bookkeeping around them:
    the fast path of simulations, tournaments and benchmarks. Optional (``Game.engine`` None:
    bots play the game through ``GameMatch`` alone, one ``apply`` per action).

    ``match(options, seed, fingerprints=, record=)`` is a match whose ``state`` these functions
    take, with ``apply_trusted(action)`` (a legal action, no events), ``play_out(choosers,
    limit)`` (a round between trusted bots), ``next_round()`` and ``rounds`` (logs with
    ``number``, ``moves`` and ``result``)."""

    match: Callable[..., Any]
    new_round: Callable[..., Any]
    legal_actions: Callable[[Any], list[Any]]
    apply: Callable[[Any, Any], list[Event]]
    apply_fast: Callable[[Any, Any], None]
    check: Callable[[Any, Any], None]
    """Raise ``IllegalMove`` for an action the rules refuse in this state; change nothing."""
    view: Callable[[Any, int | None], Any]
    reference: Callable[..., Any] | None = None
    """The same greedy games in the tightest plain Python, ``reference(players, stock, seed)``
    -> (winners, scores, rounds): the yardstick of ``cardroom bench engine`` (Skip's
    ``games/skip/reference.py``), or None."""


class Game(Protocol):
    """One game: its rules, its options, its notation and its replay."""

    name: str
    title: str
    min_players: int
    max_players: int
    lower_scores_win: bool
    """Skip: the higher total wins; Skyjo: the lower. Boards and ratings rank by it."""
    options_type: type
    """The class of this game's options (``simulate`` and ``tournament`` tell games apart by
    the options they are given)."""
    engine: StateEngine | None
    """The rules on bare positions for fast bot play and benchmarks, or None."""
    terminal: Any
    """A ``games.terminal.Terminal`` (not imported here: terminal.py builds on this module):
    the game on the command line: options from ``--players``/``-o``, positions and score
    sheets as text, headlines, actions in words (``games/terminal.py``)."""
    keeper: Any
    """The score keeper's arithmetic for rounds played with physical cards (``keeper/``), or
    None for a game the keeper does not keep."""
    daily: Any
    """The game's deal of the day (a ``games.daily.DailyRules``), or None for a game that
    offers none (read with ``getattr``: an older game may not have the member)."""
    bots: Mapping[str, Callable[..., Any]]
    """Bots a game brings in its own package (a game added by ``CARDROOM_GAMES`` cannot add to
    ``bots/``); beside them, ``random`` plays any game from ``View.legal_actions()``."""

    def __hash__(self) -> int:
        """Games are hashable (one object per game), so caches may key on them."""
        ...

    def options_from_json(self, data: Mapping[str, Any]) -> Any:
        """Validated options (raises ``OptionsError`` naming the rule), ``players`` included."""
        ...

    def preset_options(self) -> dict[str, dict[str, Any]]:
        """Named sets of options players ask for (``standard`` first)."""
        ...

    def new_match(self, options: Any, seed: str, *, record: bool = True) -> GameMatch:
        """A match dealt from ``seed``; ``record=False`` keeps no move log (a table's moves
        are in the database: its match needs only the position)."""
        ...

    def action_from_json(self, data: Any, *, allow_timeout: bool = False) -> Any:
        """An action from its JSON form (raises ``NotationError``); ``allow_timeout`` admits
        the action only a table makes (a turn timer that ran out)."""
        ...

    def action_to_json(self, action: Any) -> dict[str, Any]: ...

    def event_json(self, event: Event) -> dict[str, Any]:
        """An event in wire form (``{"kind", "seat", "detail"}``), as clients read it."""
        ...

    def is_ranked(self, options: Any) -> bool:
        """Whether a match with these options counts for ratings."""
        ...

    def rating_mode(self, options: Any, teams: bool | None = None) -> str:
        """The rating pool of a match with these options (``2p``, ``3p+``, ``teams`` …)."""
        ...

    def record(
        self,
        options: Any,
        seed: str,
        steps: Iterable[Step],
        seats: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """The game record of the match these steps play (every card shown: only for
        finished matches), built by ``replay``."""
        ...

    def analyse(
        self,
        options: Any,
        seed: str,
        steps: Iterable[Step],
        *,
        ranked: bool = False,
        seats: list[dict[str, Any]] | None = None,
    ) -> Any:
        """The facts of a finished match seat by seat (for ratings, boards, achievements),
        counted from the events of ``replay``."""
        ...

    def match_record(self, match: Any, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The game record of a match just played in this process (``simulate --records``)."""
        ...

    def replay_record(self, record: Mapping[str, Any]) -> Any:
        """The match a game record plays, checked move by move (``ReplayError`` on any
        mismatch): what ``cardroom replay`` and ``review`` read."""
        ...

    def steps_of_record(self, record: Mapping[str, Any]) -> Iterable[Step]:
        """A game record's moves as the steps the store keeps."""
        ...


def forfeit_winners(players: int, side: Iterable[int]) -> tuple[int, ...]:
    """Who wins when the seats of ``side`` (the forfeiting seat and its partner, if it has
    one) forfeit: every other seat."""
    losing = set(side)
    return tuple(s for s in range(players) if s not in losing)


def forfeit_event(seat: int, winners: Iterable[int]) -> Event:
    return Event(FORFEITED, seat, {"winners": list(winners)})


def check_forfeit(seat: object, players: int, over: bool) -> int:
    """The seat of a ``forfeit`` step, or ``IllegalMove``: a seat of the match, before its end."""
    if over:
        raise IllegalMove("forfeit", "the match is already over")
    if type(seat) is not int or not 0 <= seat < players:
        raise IllegalMove("forfeit", f"no seat {seat!r} to forfeit")
    return seat


def derive_seed(secret: object, *parts: object) -> str:
    """A seed for a bot or a client that tells nothing of ``secret`` (a match's seed): one-way
    (HMAC-SHA256), so nobody can deal the match again from it, yet the same for the same
    match and parts, so a game stays reproducible."""
    message = "/".join(str(p) for p in parts).encode()
    return hmac.new(str(secret).encode(), message, hashlib.sha256).hexdigest()[:32]


class Replayed(NamedTuple):
    """One step of a replay: the match after it, the step (None for the opening deal), and
    the events it caused."""

    match: Any
    step: Step | None
    events: list[Event]


def replay(
    game: Game, options: Any, seed: str, steps: Iterable[Step], *, record: bool = True
) -> Iterator[Replayed]:
    """THE replay: a match rebuilt from its options, seed and steps through the rules.

    Yields the opening deal first, then every step with its events, lazily: each item's match
    is the match right after its step. A step the rules refuse raises ``ReplayError`` naming it
    (counted from 1). ``record=False``: the matches keep no move log.
    """
    return replay_from(game.new_match(options, seed, record=record), steps)


def replay_from(match: GameMatch, steps: Iterable[Step]) -> Iterator[Replayed]:
    """``replay`` for a match already dealt (as ``game.new_match`` deals it)."""
    yield Replayed(match, None, list(match.opening_events))
    for number, step in enumerate(steps, start=1):
        try:
            events = match.apply_step(step)
        except (IllegalMove, NotationError, ValueError, TypeError) as error:
            raise ReplayError(f"step {number} ({step.kind}): {error}") from None
        yield Replayed(match, step, events)


def rebuild(
    game: Game, options: Any, seed: str, steps: Iterable[Step], *, record: bool = True
) -> Any:
    """The match after all ``steps`` (the last item of ``replay``)."""
    *_, last = replay(game, options, seed, steps, record=record)
    return last.match
