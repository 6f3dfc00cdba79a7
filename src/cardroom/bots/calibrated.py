"""The levels' measured strength, as ``cardroom calibrate`` last wrote it (``calibration.json``
beside this module): OpenSkill ratings from a duplicate-deal round robin of the levels
(``sim/calibration.py``).

The lobby shows each level's rating and interval, matchmaking offers the level nearest a
player's rating, and the league starts a level's rating here rather than at a newcomer's.
Each entry keeps the bot and settings it measured, so a level changed since is not shown
with a rating it no longer earns (``tests/bots/test_calibration.py`` also refuses that).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from .levels import Level, levels_for

CALIBRATION_FILE = Path(__file__).with_name("calibration.json")


def spec_of(level: Level) -> dict[str, Any]:
    """What a calibration measured of a level: its bot and settings."""
    return {"bot": level.bot, "settings": dict(level.settings)}


@cache
def calibrations() -> dict[str, Any]:
    """Every calibration shipped, by ``game/mode`` (``skip/2p``); empty when none is."""
    try:
        data = json.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return dict(data.get("calibrations") or {})


def calibration_of(game: str, mode: str = "2p") -> dict[str, Any] | None:
    """The calibration of ``game`` in ``mode``, else its two-player one (a level's strength
    in a mode never measured is its best guess), else None."""
    found = calibrations()
    return found.get(f"{game}/{mode}") or found.get(f"{game}/2p")


def rating_of(game: str, level_id: str, mode: str = "2p") -> dict[str, Any] | None:
    """A level's calibrated rating (mu, sigma, ordinal and its 95% interval, the games and the
    mode measured), or None if it was never measured as it plays now."""
    calibration = calibration_of(game, mode)
    level = levels_for(game).get(level_id)
    if calibration is None or level is None:
        return None
    entry = calibration["levels"].get(level_id)
    if entry is None or calibration.get("specs", {}).get(level_id) != spec_of(level):
        return None
    return {**entry, "games": calibration["games"], "mode": calibration["mode"]}


def starting_skill(game: str, level_id: str, mode: str) -> tuple[float, float] | None:
    """(mu, sigma) a level's league rating starts from in ``mode``, if calibrated."""
    rating = rating_of(game, level_id, mode)
    return None if rating is None else (rating["mu"], rating["sigma"])
