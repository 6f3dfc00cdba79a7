"""The bench's tight reference (``games/skip/reference.py``) plays the engine's games:
same deals, same greedy choices, so the same winners, scores and rounds."""

from __future__ import annotations

import pytest

from cardroom.bots import make_bot
from cardroom.games.skip import Options
from cardroom.games.skip import reference as skip_reference
from cardroom.sim.play import play_match


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_the_tight_reference_plays_the_engines_games(players: int) -> None:
    options = Options(players=players, match_target=None)
    for i in range(25):
        match = play_match(options, f"ref/{i}", [make_bot("greedy") for _ in range(players)])
        expected = (match.winners, match.scores, len(match.rounds))
        assert skip_reference.play_match(players, options.stock, f"ref/{i}") == expected
