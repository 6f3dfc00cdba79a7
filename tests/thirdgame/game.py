"""High Card: a tiny third game, in tests only, that proves the Game contract is enough.

Each round deals every seat a hidden hand from a seeded deck of 1-10 (four of each). Seats
play one card each in turn to a trick (H1); the highest card takes it, the first played of
equal cards winning, and the trick's taker leads the next (H2). A round ends when the hands
are empty; each trick scores a point (H3); the match ends when a total reaches ``target``,
the highest totals winning (H4). A timed-out seat plays its lowest card.

Nothing outside this package names it: tests register it with ``cardroom.games.register``,
and subprocesses load it with ``CARDROOM_GAMES=tests.thirdgame.game:HIGH_CARD``. It imports
only the contract's modules (``cardroom.games.base``/``packaged``), as a plugin must.
"""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass, field
from typing import Any

from cardroom.games.base import (
    ACTION,
    NEXT_ROUND,
    Event,
    IllegalMove,
    NotationError,
    OptionsError,
    ReplayError,
    Step,
    replay_from,
)
from cardroom.games.packaged import PackagedGame

FORMAT, GAME = "cardroom-record", "highcard"


@dataclass(frozen=True, slots=True)
class Options:
    players: int = 2
    hand: int = 3
    target: int = 5
    turn_timer: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 4:
            raise OptionsError(f"High Card seats 2 to 4 players, not {self.players} (H1)")
        if not 1 <= self.hand <= 10 or not 1 <= self.target <= 100:
            raise OptionsError("a hand is 1 to 10 cards and the target 1 to 100 points (H4)")

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Options:
        unknown = sorted(set(data) - {f.name for f in dataclasses.fields(cls)})
        if unknown:
            raise OptionsError(f"unknown option(s): {', '.join(unknown)}")
        return cls(**data)


@dataclass(frozen=True, slots=True)
class Play:
    card: int  # 0: the timeout (the lowest card)

    @property
    def kind(self) -> str:
        return "timeout" if self.card == 0 else "play"


TIMEOUT = Play(0)


def action_to_json(action: Play) -> dict[str, Any]:
    return {"type": "timeout"} if action.card == 0 else {"type": "play", "card": action.card}


def action_from_json(data: Any, *, allow_timeout: bool = False) -> Play:
    if isinstance(data, dict) and data.get("type") == "timeout" and allow_timeout:
        return TIMEOUT
    card = data.get("card") if isinstance(data, dict) and data.get("type") == "play" else None
    if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= 10:
        raise NotationError(f"an action is {{'type': 'play', 'card': 1-10}}, not {data!r}")
    return Play(card)


def event_to_json(event: Event) -> dict[str, Any]:
    return {"kind": event.kind, "seat": event.seat, "detail": dict(event.detail)}


@dataclass(frozen=True, slots=True)
class View:
    seat: int | None
    hand: tuple[int, ...]  # this seat's own cards only; others are counts
    hand_counts: tuple[int, ...]
    trick: tuple[tuple[int, int], ...]
    scores: tuple[int, ...]
    current: int | None

    def legal_actions(self) -> list[Play]:
        if self.seat is None or self.seat != self.current:
            return []
        return [Play(card) for card in sorted(set(self.hand))]

    def to_json(self) -> dict[str, Any]:
        data = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        legal = [action_to_json(a) for a in self.legal_actions()]
        data = {"game": GAME, **data, "legal": legal}
        return json.loads(json.dumps(data))  # tuples as JSON lists


@dataclass(slots=True)
class RoundResult:
    points: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass(slots=True)
class RoundLog:
    number: int
    moves: list[tuple[int, Play]] = field(default_factory=list)
    result: RoundResult | None = None


class Match:
    def __init__(
        self, options: Options, seed: str | int, *, fingerprints: bool = False, record: bool = True
    ) -> None:
        self.options, self.seed = options, str(seed)
        self.scores = [0] * options.players
        self.rounds: list[RoundLog] = []
        self.winners: tuple[int, ...] | None = None
        self.opening_events = self._deal()

    def _deal(self) -> list[Event]:
        n, number = self.options.players, len(self.rounds) + 1
        deck = [card for card in range(1, 11) for _ in range(4)]
        random.Random(f"highcard/{self.seed}/{number}").shuffle(deck)
        size = self.options.hand
        self.hands = [sorted(deck[s * size : (s + 1) * size]) for s in range(n)]
        self.trick: list[tuple[int, int]] = []
        self.tricks = [0] * n
        self._current: int | None = (number - 1) % n
        self.rounds.append(RoundLog(number))
        return [Event("dealt", -1, {"round": number, "leader": self._current})]

    @property
    def round_number(self) -> int:
        return len(self.rounds)

    @property
    def over(self) -> bool:
        return self.winners is not None

    @property
    def between_rounds(self) -> bool:
        return not self.over and self.rounds[-1].result is not None

    @property
    def current(self) -> int | None:
        return None if self.over or self.between_rounds else self._current

    def apply(self, action: Play, seat: int | None = None) -> list[Event]:
        turn = self.current
        if turn is None:
            raise IllegalMove("H3", "the round is over")
        if seat is not None and seat != turn:
            raise IllegalMove("H1", f"it is seat {turn + 1}'s turn")
        card = min(self.hands[turn]) if action.card == 0 else action.card
        if card not in self.hands[turn]:
            raise IllegalMove("H1", f"seat {turn + 1} holds no {card}")
        self.hands[turn].remove(card)
        self.trick.append((turn, card))
        self.rounds[-1].moves.append((turn, action))
        events = [Event("played", turn, {"card": card})]
        self._current = (turn + 1) % self.options.players
        if len(self.trick) == self.options.players:
            taker = max(self.trick, key=lambda played: played[1])[0]  # the first of the highest
            self.tricks[taker] += 1
            self.trick, self._current = [], taker
            events.append(Event("trick", taker, {"tricks": self.tricks[taker]}))
            if not any(self.hands):
                events.append(self._end_round())
        return events

    def _end_round(self) -> Event:
        best = max(self.tricks)
        won = tuple(s for s, t in enumerate(self.tricks) if t == best)
        self.rounds[-1].result = RoundResult(tuple(self.tricks), won)
        self.scores = [total + t for total, t in zip(self.scores, self.tricks, strict=True)]
        if max(self.scores) >= self.options.target:
            top = max(self.scores)
            self.winners = tuple(s for s, total in enumerate(self.scores) if total == top)
        return Event("round_over", -1, {"points": list(self.tricks), "winners": list(won)})

    def apply_step(self, step: Step) -> list[Event]:
        if step.kind == ACTION:
            return self.apply(action_from_json(step.action, allow_timeout=True), step.seat)
        if step.kind == NEXT_ROUND and self.between_rounds:
            return self._deal()
        raise ValueError(f"unexpected step {step.kind!r}")

    def between_round_steps(self, absent: frozenset[int]) -> list[Step]:
        return [Step(NEXT_ROUND)]

    def timeout_action(self) -> Play:
        return TIMEOUT

    def view(self, seat: int | None) -> View:
        return View(
            seat,
            tuple(self.hands[seat]) if seat is not None else (),
            tuple(len(hand) for hand in self.hands),
            tuple(self.trick),
            tuple(self.scores),
            self.current,
        )

    def progress(self) -> dict[str, Any]:
        winners = list(self.winners) if self.winners is not None else None
        return {
            "round": self.round_number,
            "scores": list(self.scores),
            "teams": False,
            "over": self.over,
            "winners": winners,
        }

    def round_started(self) -> dict[str, Any]:
        return {"round": self.round_number, "leader": (self.round_number - 1) % len(self.scores)}

    def round_result(self) -> dict[str, Any] | None:
        result = self.rounds[-1].result
        if result is None:
            return None
        return {"points": list(result.points), "winners": list(result.winners)}


def move_json(seat: int, action: Play) -> dict[str, Any]:
    return {"seat": seat, "action": action_to_json(action)}


def to_record(match: Match, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    rounds = [
        {
            "number": log.number,
            "moves": [{"seat": s, "action": action_to_json(a)} for s, a in log.moves],
        }
        for log in match.rounds
    ]
    seats = seats or [{"name": f"Seat {i + 1}"} for i in range(match.options.players)]
    return {
        "format": FORMAT,
        "game": GAME,
        "options": match.options.to_json(),
        "seed": match.seed,
        "seats": seats,
        "rounds": rounds,
        "result": {"scores": list(match.scores), "winners": list(match.winners or ())},
    }


def steps_of_record(record: dict[str, Any]) -> list[Step]:
    steps = []
    for r, round_data in enumerate(record.get("rounds") or [], start=1):
        if r > 1:
            steps.append(Step(NEXT_ROUND))
        steps += [Step(ACTION, m.get("seat"), m.get("action")) for m in round_data["moves"]]
    return steps


def replay(record: dict[str, Any]) -> Match:
    """The record's match, move by move; ``ReplayError`` when it does not replay or its result
    is not the one recorded."""
    if not isinstance(record, dict) or record.get("game") != GAME:
        raise ReplayError("not a High Card record")
    try:
        options = Options.from_json(dict(record["options"]))
    except (KeyError, TypeError, OptionsError) as error:
        raise ReplayError(f"bad options: {error}") from None
    *_, last = replay_from(Match(options, record["seed"]), steps_of_record(record))
    match: Match = last.match
    if list(match.scores) != record.get("result", {}).get("scores"):
        raise ReplayError("the record's scores are not the ones its moves make")
    return match


@dataclass(slots=True)
class SeatFacts:
    seat: int
    players: int
    mode: str
    ranked: bool
    won: bool
    points: int
    rounds: int
    rounds_won: int
    turns: int
    best_round: int | None
    timeouts: int = 0
    side: list[int] = field(default_factory=list)
    opponents: list[dict[str, Any]] = field(default_factory=list)
    beat_bot_levels: list[str] = field(default_factory=list)
    career_matches: int = 0
    career_wins: int = 0


@dataclass(slots=True)
class MatchFacts:
    winners: tuple[int, ...]
    scores: list[int]
    seats: list[SeatFacts]


def analyse(options: Options, seed: str, steps: Any, *, ranked: bool = False, seats: Any = None):
    """Per-seat facts for the league, counted from the one replay's match."""
    *_, last = replay_from(Match(options, seed), steps)
    match: Match = last.match
    played = [log for log in match.rounds if log.result is not None]
    return MatchFacts(
        tuple(match.winners or ()),
        list(match.scores),
        [
            SeatFacts(
                seat,
                options.players,
                f"{options.players}p",
                ranked,
                seat in (match.winners or ()),
                match.scores[seat],
                len(played),
                sum(1 for log in played if log.result and seat in log.result.winners),
                sum(1 for log in match.rounds for s, _ in log.moves if s == seat),
                max((log.result.points[seat] for log in played if log.result), default=None),
            )
            for seat in range(options.players)
        ],
    )


class HighCardGame(PackagedGame):
    name, title = GAME, "High Card"
    min_players, max_players = 2, 4
    lower_scores_win = False

    def preset_options(self) -> dict[str, dict[str, Any]]:
        return {"standard": {}, "quick": {"target": 2}}

    def is_ranked(self, options: Options) -> bool:
        return False

    def rating_mode(self, options: Options, teams: bool | None = None) -> str:
        return f"{options.players}p"


class HighBot:
    """Plays its highest card: a second bot, so a tournament has two to compare."""

    name = "high"

    def __init__(self, seed: str | int = 0) -> None:
        self.seed = seed

    def choose(self, view: View) -> Play:
        return max(view.legal_actions(), key=lambda action: action.card)


HIGH_CARD = HighCardGame(
    options=Options,
    match=Match,
    action_from_json=action_from_json,
    action_to_json=action_to_json,
    event_to_json=event_to_json,
    to_record=to_record,
    analyse=analyse,
    replay_record=replay,
    steps_of_record=steps_of_record,
    bots={"high": HighBot},
)
