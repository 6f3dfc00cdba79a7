"""Built-in bots are trusted: simulations apply their choices without the rules' check, so
every choice they make must be legal. Played here with the check on (``verify=True``)."""

from __future__ import annotations

import pytest

from cardroom.bots import BOTS, make_bot
from cardroom.bots.external import ExternalBot
from cardroom.games.skip import Options
from cardroom.sim.digest import SKIP_OPTIONS, skip_digest
from cardroom.sim.play import play_match

GAMES = {"greedy": 100, "casual": 60, "random": 40, "planner": 4, "expert": 1}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_trusted_bot_only_chooses_legal_actions(name: str) -> None:
    assert getattr(make_bot(name), "trusted", False)
    for i in range(GAMES[name]):
        options = SKIP_OPTIONS[i % len(SKIP_OPTIONS)]
        if name == "expert":
            options = Options(players=2, stock_size=3, match_target=None)
        bots = [make_bot(name, f"trust/{i}/{seat}") for seat in range(options.players)]
        play_match(options, f"trust/{i}", bots, verify=True)  # raises BotError if illegal


def test_every_skip_bot_but_external_ones_is_trusted() -> None:
    assert set(GAMES) == set(BOTS)
    assert not getattr(ExternalBot, "trusted", False)


def test_checked_and_trusted_play_give_the_same_games() -> None:
    def verified(*args: object, **kwargs: object) -> object:
        return play_match(*args, verify=True, **kwargs)  # type: ignore[arg-type]

    assert skip_digest(30, play=verified) == skip_digest(30)


def test_a_match_without_a_move_log_ends_the_same() -> None:
    def unrecorded(*args: object, **kwargs: object) -> object:
        return play_match(*args, record=False, **kwargs)  # type: ignore[arg-type]

    assert skip_digest(30, moves=False, play=unrecorded) == skip_digest(30, moves=False)
