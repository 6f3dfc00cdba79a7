"""A kept game's JSON form (versioned, read back with every check) and its CSV export.

The JSON holds what people entered, by player name, so a file written by hand reads well;
the results are always recomputed from it. ``to_json(..., results=True)`` adds them for
readers that only display (they are ignored when the file is read back).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

from .kept import KeptGame, new_game
from .values import (
    GAMES,
    KeeperError,
    Round,
    Settings,
    SkipRound,
    SkipSettings,
    SkyjoRound,
    SkyjoSettings,
)

FORMAT = "cardroom-kept-game"
VERSION = 1

_TOP = {"format", "version", "game", "players", "options", "rounds", "results"}
_OPTIONS = {"skyjo": {"end_score"}, "skip": {"match_target", "stock_size", "teams"}}
_ROUND = {"skyjo": {"sums", "closer"}, "skip": {"went_out", "stocks"}}


def to_json(kept: KeptGame, *, results: bool = False) -> dict[str, Any]:
    """The kept game as JSON data; with ``results``, the sheet too."""
    players = kept.players
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": kept.game,
        "players": list(players),
        "options": _options_to_json(kept.settings),
        "rounds": [round_to_json(kept, entry) for entry in kept.rounds],
    }
    if results:
        sheet = kept.sheet
        data["results"] = {
            "rounds": [
                {
                    "round": line.number,
                    "points": dict(zip(players, line.points, strict=True)),
                    "totals": dict(zip(players, line.totals, strict=True)),
                    "doubled": line.doubled,
                    "why": line.why,
                    "note": line.note,
                    "ends": line.ends,
                }
                for line in sheet.lines
            ],
            "totals": dict(zip(players, sheet.totals, strict=True)),
            "leaders": [players[s] for s in sheet.leaders],
            "over": sheet.over,
            "winners": None if sheet.winners is None else [players[s] for s in sheet.winners],
            "outcome": sheet.outcome,
        }
    return data


def _options_to_json(settings: Settings) -> dict[str, Any]:
    if isinstance(settings, SkyjoSettings):
        return {"end_score": settings.end_score}
    return {
        "match_target": "single" if settings.match_target is None else settings.match_target,
        "stock_size": settings.stock_size,
        "teams": [list(team) for team in settings.teams],
    }


def round_to_json(kept: KeptGame, entry: Round) -> dict[str, Any]:
    """A round of ``kept`` as its JSON form, by player name."""
    players = kept.players
    if isinstance(entry, SkipRound):
        assert isinstance(kept.settings, SkipSettings)
        won = entry.winners(players, kept.settings)
        return {
            "went_out": None if entry.went_out is None else players[entry.went_out],
            "stocks": {players[s]: left for s, left in enumerate(entry.stocks) if s not in won},
        }
    return {"sums": dict(zip(players, entry.sums, strict=True)), "closer": players[entry.closer]}


def from_json(data: Any) -> KeptGame:
    """A kept game from its JSON data, checked as every entry is; ``KeeperError`` otherwise."""
    if not isinstance(data, Mapping):
        raise KeeperError("file", "a kept game is a JSON object")
    if data.get("format") != FORMAT:  # before its fields: a record is not a kept game at all
        raise KeeperError("format", f"not a kept game: the format must be {FORMAT!r}")
    _known(data, _TOP)
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):  # not a whole number
        raise KeeperError("version", f"the version must be {VERSION}, not {version!r}")
    if version > VERSION:
        raise KeeperError("version", f"version {version} is newer than this keeper's {VERSION}")
    if version != VERSION:
        raise KeeperError("version", f"the version must be {VERSION}, not {version!r}")
    game = data.get("game")
    if game not in GAMES:
        raise KeeperError("game", f"a kept game is one of {', '.join(GAMES)}, not {game!r}")
    players = data.get("players")
    if not isinstance(players, list):
        raise KeeperError("players", "a list of 2 to 8 names")
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise KeeperError("options", "an object")
    _known(options, _OPTIONS[game])
    kept = new_game(game, players, _settings(game, options))
    rounds = data.get("rounds", [])
    if not isinstance(rounds, list):
        raise KeeperError("rounds", "a list of rounds")
    entries: list[Round] = []
    for number, raw in enumerate(rounds, start=1):
        try:
            entries.append(round_from_json(kept, raw))
        except KeeperError as error:
            raise KeeperError(error.field, error.message, round=number) from None
    return KeptGame(kept.players, kept.settings, tuple(entries))


def _settings(game: str, options: Mapping[str, Any]) -> Settings:
    if game == "skyjo":
        return SkyjoSettings(end_score=options.get("end_score", 100))
    target = options.get("match_target", 500)
    teams = options.get("teams") or []
    if not isinstance(teams, list) or not all(
        isinstance(team, list) and all(isinstance(name, str) for name in team) for team in teams
    ):
        raise KeeperError("teams", 'a list of teams, each a list of two names: [["Ann", "Cy"]]')
    return SkipSettings(
        match_target=None if target == "single" else target,
        stock_size=options.get("stock_size"),
        teams=tuple(tuple(name.strip() for name in team) for team in teams),
    )


def round_from_json(kept: KeptGame, raw: Any) -> Round:
    """A round for ``kept`` from its JSON form (``{"sums": {...}, "closer": name}`` or
    ``{"went_out": name, "stocks": {...}}``), to add or to correct one; ``KeeperError``
    otherwise. Whether it fits the game's scores is checked when it is added."""
    if not isinstance(raw, Mapping):
        raise KeeperError("round", "a round is a JSON object")
    _known(raw, _ROUND[kept.game])
    if kept.game == "skyjo":
        if "closer" not in raw:
            raise KeeperError("closer", "who closed the round? (S6.1)")
        return kept.skyjo_round(raw.get("sums", {}), raw["closer"])
    if "went_out" not in raw:
        raise KeeperError("went_out", "who went out? null if nobody won the round (R6.4)")
    return kept.skip_round(raw["went_out"], raw.get("stocks", {}))


def _known(data: Mapping[str, Any], known: set[str]) -> None:
    unknown = sorted(str(key) for key in data if key not in known)
    if unknown:
        raise KeeperError(unknown[0], f"unknown field (known: {', '.join(sorted(known))})")


def to_csv(kept: KeptGame) -> str:
    """One row per round with the points it counts (doubling applied) and who closed or went
    out, then the totals and the outcome."""
    sheet = kept.sheet
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    skyjo = kept.game == "skyjo"
    who = "closer" if skyjo else "went_out"
    writer.writerow(["round", *kept.players, who, *(["doubled"] if skyjo else []), "note"])
    for entry, line in zip(kept.rounds, sheet.lines, strict=True):
        seat = entry.closer if isinstance(entry, SkyjoRound) else entry.went_out
        name = "" if seat is None else kept.players[seat]
        doubled = ["yes" if line.doubled else "no"] if skyjo else []
        writer.writerow([line.number, *line.points, name, *doubled, line.note])
    writer.writerow(["total", *sheet.totals, "", *([""] if skyjo else []), sheet.outcome])
    return out.getvalue()
