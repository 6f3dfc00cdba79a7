"""Game records: one JSON document per match that replays it exactly (R7.5).

A record is checked as it is replayed, step by step through ``Match.apply_step`` (the door the
one replay of ``games.base`` uses too). The record holds the options, the seed and every move
with its seat; per-move checks (a digest of the position after the move) let ``replay`` name
the first move that was altered.
"""

from __future__ import annotations

from typing import Any

from ..base import ACTION, NEXT_ROUND, IllegalMove, NotationError, OptionsError, ReplayError, Step
from ..records import FORMAT, check_match_result, match_result_json, moves_json
from .match import SOLO, Match
from .notation import action_from_json, action_to_json
from .options import Options
from .record_schema import check_shape

VERSION = 2
"""Raised whenever a rule change makes old records play differently: version 2 deals 5-6
players the official 162-card deck (R2.2), refills an empty hand from a pile just completed
(R4.3) and plays on after a tied single round (R6.4)."""

_OLDER_RULES = {
    1: "it was played under earlier rules (216 cards for 5-6 players, no refill of an empty "
    "hand from a completed pile, a tied single round ending the match), which this version "
    "no longer plays (R2.2, R4.3, R6.4)",
}


def to_record(match: Match, seats: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The match's record as a JSON-ready dict; ``seats`` describes who sat where."""
    n = match.options.players
    seats = seats if seats is not None else [{"name": f"Seat {i + 1}"} for i in range(n)]
    rounds = []
    for log in match.rounds:
        moves = moves_json(log.moves, log.checks, action_to_json)
        rounds.append(
            {
                "number": log.number,
                "dealer": log.dealer,
                "teams": log.teams,
                "moves": moves,
                "result": log.result.to_json() if log.result is not None else None,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": "skip",
        "options": match.options.to_json(),
        "seed": match.seed,
        "seats": seats,
        "first_dealer": match.first_dealer,
        "rounds": rounds,
        "result": match_result_json(match),
    }


def replay(record: dict[str, Any]) -> Match:
    """Play a record's moves again through the rules; raise ``ReplayError`` on any mismatch."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ReplayError(f"not a Cardroom game record (expected format {FORMAT!r})")
    version = record.get("version")
    if version != VERSION:
        why = _OLDER_RULES.get(version, "this version of Cardroom does not know it")  # type: ignore[arg-type]
        raise ReplayError(f"record version {version!r} is not supported: {why}")
    if record.get("game") != "skip":
        raise ReplayError(f"this replays Skip records, not {record.get('game')!r}")
    malformed = check_shape(record)
    if malformed is not None:
        raise ReplayError(f"the record is malformed: {malformed}")
    try:
        options = Options.from_json(record["options"])
    except (KeyError, TypeError, OptionsError) as error:
        raise ReplayError(f"bad options: {error}") from None
    match = Match(options, record.get("seed", ""), fingerprints=True)
    if record.get("first_dealer", match.first_dealer) != match.first_dealer:
        raise ReplayError(
            f"the record says seat {record['first_dealer']} dealt first, "
            f"but the seed makes seat {match.first_dealer} the first dealer (R3.4)"
        )
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise ReplayError("the record has no rounds")
    for r, round_data in enumerate(rounds, start=1):
        if r > 1:
            if not match.between_rounds:
                raise ReplayError(
                    f"round {r} is recorded, but the match was over after round {r - 1}"
                )
            if not round_data.get("teams", match.team_mode) and match.team_mode:
                match.apply_step(Step(SOLO))
            match.apply_step(Step(NEXT_ROUND))
        log = match.rounds[-1]
        if round_data.get("number") != r:
            raise ReplayError(f"round {r} is numbered {round_data.get('number')!r} in the record")
        if round_data.get("teams", log.teams) != log.teams:
            raise ReplayError(
                f"round {r}: the record says teams {round_data.get('teams')!r}, but the match "
                f"{'plays in teams' if log.teams else 'plays solo'} in that round (R2.3, R2.5)"
            )
        if round_data.get("dealer", log.dealer) != log.dealer:
            raise ReplayError(f"round {r}: the record's dealer is not the one the rules give")
        for m, move in enumerate(round_data.get("moves", []), start=1):
            where = f"round {r}, move {m}"
            if not isinstance(move, dict):
                raise ReplayError(f"{where} is not a JSON object")
            try:
                action = action_from_json(move.get("action"), allow_timeout=True)
            except NotationError as error:
                raise ReplayError(f"{where}: malformed action: {error}") from None
            seat = move.get("seat")
            if type(seat) is not int or not 0 <= seat < options.players:
                raise ReplayError(
                    f"{where} names no valid seat: seats are 0 to {options.players - 1}, "
                    f"not {seat!r}"
                )
            if match.state.result is not None:
                raise ReplayError(
                    f"{where} (seat {seat}, {action}) comes after the end of the round (R6.1)"
                )
            if seat != match.state.current:
                raise ReplayError(
                    f"{where} (seat {seat}, {action}) is illegal: it is not seat {seat}'s "
                    f"turn; seat {match.state.current} is to play (R7.1)"
                )
            try:
                match.apply_step(Step(ACTION, seat, move["action"]))
            except IllegalMove as error:
                raise ReplayError(f"{where} (seat {seat}, {action}) is illegal: {error}") from None
            check = move.get("check")
            if check is not None and check != log.checks[-1]:
                raise ReplayError(
                    f"{where} (seat {seat}, {action}) was altered: the position after it "
                    "differs from the one recorded"
                )
        recorded = round_data.get("result")
        actual = log.result.to_json() if log.result is not None else None
        if recorded != actual:
            raise ReplayError(_result_mismatch(r, recorded, actual, len(log.moves)))
    check_match_result(record.get("result", {}), match, "R6.3")
    return match


def _result_mismatch(number: int, recorded: Any, actual: dict[str, Any] | None, moves: int) -> str:
    """Why a round's recorded result is not the replay's, in words and with the rule (R7.5)."""
    where = f"round {number}"
    if actual is None:
        return (
            f"{where}: the record says the round ended ({_result_words(recorded)}), but after "
            f"its {moves} recorded moves the round is still being played: the move that ends "
            "it is missing (R6.1, R7.5)"
        )
    if recorded is None:
        return (
            f"{where}: the record gives no result, but its moves end the round "
            f"({_result_words(actual)}) (R6.1, R7.5)"
        )
    return (
        f"{where}: the record says {_result_words(recorded)}, but its moves give "
        f"{_result_words(actual)} (R6.2, R7.5)"
    )


def _result_words(result: Any) -> str:
    """A round result as people read it: who won, how, and the points (seats from 0)."""
    if not isinstance(result, dict):
        return f"a malformed result {result!r}"
    winners = result.get("winners")
    seats = ", ".join(f"seat {w}" for w in winners) if isinstance(winners, list) else "?"
    how = "by stalemate (R6.4)" if result.get("stalemate") else ""
    who = f"won by {seats}" if winners else "won by nobody"
    return " ".join(part for part in (who, how, f"points {result.get('points')}") if part)
