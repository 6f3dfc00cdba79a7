"""Per-match facts: what each seat did in a finished match, read from the engine's own events.

The move log is walked by the one replay of the Game contract (``games.base.replay``), never
re-implemented: every count here comes from an ``Event`` the engine emitted (``turn``,
``played``, ``drew``, ``completed``, ``round_over``…), the opening turn of every round included.
The league's achievements and career statistics are predicates and sums over these facts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..base import ACTION, FORFEIT, FORFEITED, NEXT_ROUND, Replayed, ReplayError, Step, replay_from
from .cards import WILD
from .match import SOLO, Match
from .options import HAND_SIZE, Options


class RecordError(ValueError):
    """A record that cannot be analysed (unknown format, illegal move, unfinished match)."""


def mode_of(options: Options, teams: bool | None = None) -> str:
    """The rating pool of a match: ``2p``, ``3p+`` free-for-all, ``teams`` (or ``solo``)."""
    if options.teams if teams is None else teams:
        return "teams"
    if options.players == 1:
        return "solo"
    return "2p" if options.players == 2 else "3p+"


@dataclass(slots=True)
class SeatFacts:
    """One seat's match, counted from events. Career counters are filled in by the caller."""

    seat: int
    players: int
    mode: str
    ranked: bool
    teams: bool
    match_target: int | None
    won: bool = False
    team_win: bool = False
    points: int = 0
    opponents_points: int = 0
    rounds: int = 0
    rounds_won: int = 0
    stalemate_rounds_won: int = 0
    whitewash_rounds_won: int = 0  # a round won with every opponent holding 20+ stock cards
    fastest_round_win: int | None = None  # fewest own turns in a round won outright
    best_round: int = 0
    max_deficit: int = 0  # the most points this seat ever trailed the leader by, at a round end
    turns: int = 0
    timeouts: int = 0
    cards_played: int = 0
    stock_played: int = 0
    wilds_played: int = 0
    partner_stock_played: int = 0
    hand_sweeps: int = 0  # R4.3: all five hand cards played, the hand refilled mid-turn
    one_turn_piles: int = 0  # a building pile taken from 1 to 12 within one turn
    max_stock_in_turn: int = 0
    max_plays_in_turn: int = 0
    max_completed_in_turn: int = 0
    max_wilds_in_turn: int = 0
    forfeited: bool = False  # this seat forfeited the match (games.base.FORFEIT)
    side: list[int] = field(default_factory=list)  # this seat and its partner, if teams lasted
    opponents: list[dict[str, Any]] = field(default_factory=list)
    beat_bot_levels: list[str] = field(default_factory=list)
    # career totals including this match (set from the database before achievements run)
    career_matches: int = 0
    career_wins: int = 0

    @property
    def stock_per_turn(self) -> float:
        return self.stock_played / self.turns if self.turns else 0.0


@dataclass(slots=True)
class MatchFacts:
    """A finished match, seat by seat, plus what the whole table needs to know."""

    options: Options
    mode: str
    winners: tuple[int, ...]
    scores: list[int]
    rounds: int
    seats: list[SeatFacts]


@dataclass(slots=True)
class _Turn:
    """Counters for the turn being played, reset at each ``turn`` event."""

    seat: int = -1
    number: int = 0
    plays: int = 0
    stock: int = 0
    wilds: int = 0
    completed: int = 0
    hand_since_refill: int = 0


def steps_of_record(record: dict[str, Any]) -> Iterator[Step]:
    """A game record's rounds and moves as the steps the store keeps (``moves`` rows)."""
    teams = bool((record.get("options") or {}).get("teams"))
    for r, round_data in enumerate(record.get("rounds") or [], start=1):
        if r > 1:
            if teams and not round_data.get("teams", teams):
                teams = False
                yield Step(SOLO)
            yield Step(NEXT_ROUND)
        for move in round_data.get("moves") or []:
            yield Step(ACTION, move.get("seat"), move.get("action"))
    forfeit = (record.get("result") or {}).get("forfeit")
    if forfeit is not None:
        yield Step(FORFEIT, forfeit)


def analyse_record(
    record: dict[str, Any], ranked: bool = False, seats: list[dict[str, Any]] | None = None
) -> MatchFacts:
    """The facts of a finished match from its game record (``skip.to_record``)."""
    try:
        options = Options.from_json(record["options"])
    except (KeyError, ValueError) as error:
        raise RecordError(f"bad record: {error}") from None
    return analyse(
        options,
        str(record.get("seed", "")),
        steps_of_record(record),
        ranked=ranked,
        seats=seats if seats is not None else record.get("seats"),
    )


def analyse(
    options: Options,
    seed: str,
    steps: Iterable[Step],
    *,
    ranked: bool = False,
    seats: list[dict[str, Any]] | None = None,
) -> MatchFacts:
    """The facts of a finished match, seat by seat. ``seats`` (the match's seat list) names the
    bot level of each bot seat, for the achievements that care who was beaten."""
    seats = seats or []
    n = options.players
    facts = [
        SeatFacts(
            seat=s,
            players=n,
            mode=mode_of(options),
            ranked=ranked,
            teams=options.teams,
            match_target=options.match_target,
        )
        for s in range(n)
    ]
    turn = _Turn()
    turns_in_round = [0] * n
    started_in_turn = [-1] * 4  # the turn number in which each building pile got its 1
    turn_counter = 0
    match: Match | None = None
    for match, _step, events in _replay(options, seed, steps):
        for event in events:
            kind, seat = event.kind, event.seat
            detail: dict[str, Any] = event.detail  # each kind has fields of its own (rules.py)
            if kind == "turn":
                _close_turn(turn, facts)
                turn_counter += 1
                turn = _Turn(seat=seat, number=turn_counter)
                facts[seat].turns += 1
                turns_in_round[seat] += 1
            elif kind == "played":
                me = facts[seat]
                me.cards_played += 1
                turn.plays += 1
                source = detail["source"]
                if source == "stock":
                    me.stock_played += 1
                    turn.stock += 1
                elif source == "partner_stock":
                    me.partner_stock_played += 1
                elif source == "hand":
                    turn.hand_since_refill += 1
                if detail["card"] == WILD:
                    me.wilds_played += 1
                    turn.wilds += 1
                if detail["value"] == 1:
                    started_in_turn[int(detail["to"])] = turn.number
            elif kind == "completed":
                turn.completed += 1
                if started_in_turn[int(detail["to"])] == turn.number:
                    facts[seat].one_turn_piles += 1
                started_in_turn[int(detail["to"])] = -1
            elif kind == "drew" and seat == turn.seat and turn.plays:
                # A draw after a play is an R4.3 refill of an empty hand; a sweep played 5 into it.
                if turn.hand_since_refill >= HAND_SIZE:
                    facts[seat].hand_sweeps += 1
                turn.hand_since_refill = 0
            elif kind == "timed_out":
                facts[seat].timeouts += 1
            elif kind == FORFEITED:
                facts[seat].forfeited = True
            elif kind == "round_over":
                _close_turn(turn, facts)
                turn = _Turn()
                _round_over(facts, detail, match, turns_in_round)
                turns_in_round = [0] * n
                started_in_turn = [-1] * 4
    if match is None or not match.over:
        raise RecordError("the match is not finished")
    winners = tuple(match.winners or ())
    for me in facts:
        me.rounds = match.round_number
        me.points = match.scores[me.seat]
        me.won = me.seat in winners
        me.side = sorted(_side(me.seat, match))
        me.team_win = me.won and len(winners) > 1
        me.opponents_points = max(
            (match.scores[s] for s in range(n) if s not in _side(me.seat, match)),
            default=0,
        )
        me.opponents = [
            {"seat": s, **(seats[s] if s < len(seats) else {})}
            for s in range(n)
            if s not in _side(me.seat, match)
        ]
        if me.won:
            me.beat_bot_levels = sorted({o["bot"] for o in me.opponents if o.get("bot")})
    return MatchFacts(
        options=options,
        mode=mode_of(options),
        winners=winners,
        scores=list(match.scores),
        rounds=match.round_number,
        seats=facts,
    )


def _replay(options: Options, seed: str, steps: Iterable[Step]) -> Iterator[Replayed]:
    """The one replay, its refusals as ``RecordError``. Lazy: each item's match is the match
    right after its step (the scores at a round's end, say)."""
    try:
        yield from replay_from(Match(options, seed), steps)
    except ReplayError as error:
        raise RecordError(str(error)) from None


def _side(seat: int, match: Match) -> set[int]:
    """The seats on ``seat``'s side at the end of the match (its partner while teams last)."""
    partners = match.state.partners
    if partners is None:
        return {seat}
    return {seat, partners[seat]}


def _close_turn(turn: _Turn, facts: list[SeatFacts]) -> None:
    if turn.seat < 0:
        return
    me = facts[turn.seat]
    me.max_plays_in_turn = max(me.max_plays_in_turn, turn.plays)
    me.max_stock_in_turn = max(me.max_stock_in_turn, turn.stock)
    me.max_wilds_in_turn = max(me.max_wilds_in_turn, turn.wilds)
    me.max_completed_in_turn = max(me.max_completed_in_turn, turn.completed)


def _round_over(
    facts: list[SeatFacts], detail: dict[str, Any], match: Match, turns_in_round: list[int]
) -> None:
    winners = list(detail["winners"])
    points = list(detail["points"])
    stock_left = list(detail["stock_left"])
    for me in facts:
        me.best_round = max(me.best_round, points[me.seat])
        if me.seat not in winners:
            continue
        me.rounds_won += 1
        if detail["stalemate"]:
            me.stalemate_rounds_won += 1
            continue
        opponents = [s for s in range(len(stock_left)) if s not in winners]
        if opponents and all(stock_left[s] >= 20 for s in opponents):
            me.whitewash_rounds_won += 1
        own = turns_in_round[me.seat]
        if me.fastest_round_win is None or own < me.fastest_round_win:
            me.fastest_round_win = own
    scores = list(match.scores)  # the match has already added this round's points
    leader = max(scores)
    for me in facts:
        me.max_deficit = max(me.max_deficit, leader - scores[me.seat])
