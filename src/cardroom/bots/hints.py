"""Which adviser hints in each game (``advice.py`` for Skip's expert, ``skyjo/advice.py`` for
Skyjo's Master level): one door for the tables and the server, as ``reviews.py`` is for reviews.
Apart from Skip's advice because Skyjo's review builds on the review that Skip's advice serves."""

from __future__ import annotations

from typing import Any

from cardroom.games import skyjo
from cardroom.games.skip import action_to_json

from .advice import advise
from .skyjo import advice as skyjo_advice

GAMES = ("skip", "skyjo")
"""The games with hints: Skip's expert, and Skyjo's Master level (``bots/skyjo/advice.py``)."""


def hint_json(view: Any) -> dict[str, Any]:
    """A hint as the table socket sends it: the next step, the line it starts, the reason;
    for the game of ``view`` (Skip's or Skyjo's)."""
    if isinstance(view, skyjo.SeatView):
        return skyjo_advice.hint_json(view)
    advice = advise(view)
    return {
        "action": action_to_json(advice.action),
        "plan": [action_to_json(a) for a in advice.plan],
        "reason": advice.reason,
    }
