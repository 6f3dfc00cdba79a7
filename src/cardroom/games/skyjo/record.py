"""Skyjo game records: one JSON document per match that replays it exactly.

A record holds the options, the seed and every move with its seat, and after each move a
digest of the position (``check``), so ``replay`` names the first move that was altered. It is
replayed through ``Match.apply_step``, the door the one replay of ``games.base`` uses too.
"""

from __future__ import annotations

from typing import Any

from ..base import ACTION, NEXT_ROUND, IllegalMove, NotationError, OptionsError, ReplayError, Step
from ..records import FORMAT, check_match_result, match_result_json, moves_json
from .match import Match
from .notation import action_from_json, action_to_json
from .options import Options
from .record_schema import check_shape

VERSION = 1
GAME = "skyjo"


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
                "starter": log.starter,
                "moves": moves,
                "result": log.result.to_json() if log.result is not None else None,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": GAME,
        "options": match.options.to_json(),
        "seed": match.seed,
        "seats": seats,
        "rounds": rounds,
        "result": match_result_json(match),
    }


def replay(record: dict[str, Any]) -> Match:
    """Play a record's moves again through the rules; ``ReplayError`` on any mismatch."""
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise ReplayError(f"not a Cardroom game record (expected format {FORMAT!r})")
    if record.get("game") != GAME:
        raise ReplayError(f"this replays Skyjo records, not {record.get('game')!r}")
    if record.get("version") != VERSION:
        raise ReplayError(f"Skyjo record version {record.get('version')!r} is not supported")
    malformed = check_shape(record)
    if malformed is not None:
        raise ReplayError(f"the record is malformed: {malformed}")
    try:
        options = Options.from_json(record["options"])
    except (KeyError, TypeError, OptionsError) as error:
        raise ReplayError(f"bad options: {error}") from None
    match = Match(options, record["seed"], fingerprints=True)
    rounds = record["rounds"]
    if not rounds:
        raise ReplayError("the record has no rounds")
    for r, round_data in enumerate(rounds, start=1):
        if r > 1:
            if not match.between_rounds:
                raise ReplayError(f"round {r} is recorded, but round {r - 1} did not end it so")
            match.apply_step(Step(NEXT_ROUND))
        log = match.rounds[-1]
        if round_data["number"] != r:
            raise ReplayError(f"round {r} is numbered {round_data['number']!r} in the record")
        if round_data.get("starter", log.starter) != log.starter:
            raise ReplayError(f"round {r}: the record's starter is not the previous closer (S4.4)")
        for m, move in enumerate(round_data["moves"], start=1):
            _replay_move(match, f"round {r}, move {m}", move)
        recorded = round_data.get("result")
        actual = log.result.to_json() if log.result is not None else None
        if recorded != actual:
            raise ReplayError(
                f"round {r}: the record's result {recorded} is not the replay's {actual} "
                "(S4.2, S4.3)"
            )
    check_match_result(record["result"], match, "S5.1")
    return match


def _replay_move(match: Match, where: str, move: dict[str, Any]) -> None:
    try:
        action = action_from_json(move["action"], allow_timeout=True)
    except NotationError as error:
        raise ReplayError(f"{where}: malformed action: {error}") from None
    seat = move["seat"]
    players = match.options.players
    if not 0 <= seat < players:
        raise ReplayError(f"{where} names no valid seat: seats are 0 to {players - 1}, not {seat}")
    if match.state.result is not None:
        raise ReplayError(f"{where} (seat {seat}, {action}) comes after the end of the round")
    if seat != match.state.current:
        raise ReplayError(
            f"{where} (seat {seat}, {action}) is illegal: seat {match.state.current} is to play"
        )
    try:
        match.apply_step(Step(ACTION, seat, move["action"]))
    except IllegalMove as error:
        raise ReplayError(f"{where} (seat {seat}, {action}) is illegal: {error}") from None
    check = move.get("check")
    if check is not None and check != match.rounds[-1].checks[-1]:
        raise ReplayError(
            f"{where} (seat {seat}, {action}) was altered: the position after it differs from "
            "the one recorded"
        )
