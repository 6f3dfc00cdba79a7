"""External bots over JSON lines (``docs/bot-protocol.md``): good ones play, bad ones lose turns.

A program that crashes, answers late or answers nonsense loses that turn (the engine's
``TIMEOUT``, R7.3) with a log line saying why, and the game goes on.
"""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

import pytest

from cardroom.bots import make_bot
from cardroom.bots.external import ExternalBot
from cardroom.games.skip import TIMEOUT, Options, new_round, view
from cardroom.sim.play import play_match

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "skip_bot.py"
TABLE = Options(players=2, match_target=None, stock_size=5)


def script(tmp_path: Path, name: str, body: str) -> list[str]:
    path = tmp_path / f"{name}.py"
    path.write_text("import json, sys, time\n" + body)
    return [sys.executable, str(path)]


def test_the_example_bot_plays_whole_games_without_losing_a_turn() -> None:
    bot = make_bot(f"cmd:{sys.executable} {EXAMPLE}", 1)
    try:
        match = play_match(TABLE, 3, [bot, make_bot("greedy")])
    finally:
        bot.close()
    assert match.over
    assert isinstance(bot, ExternalBot) and bot.turns_lost == 0
    moves = [a for seat, a in match.rounds[0].moves if seat == 0]
    assert moves and TIMEOUT not in moves


def test_the_request_carries_the_view_and_the_legal_actions(tmp_path: Path) -> None:
    """The program sees exactly ``SeatView.to_json()`` and the legal actions in notation."""
    echo = tmp_path / "request.json"
    args = script(
        tmp_path,
        "recorder",
        f"line = sys.stdin.readline()\nopen({str(echo)!r}, 'w').write(line)\n"
        "print(json.dumps(json.loads(line)['legal'][-1]), flush=True)\n",
    )
    state = new_round(TABLE, 2)
    seen = view(state, state.current)
    bot = ExternalBot(args, timeout=10)
    action = bot.choose(seen)
    bot.close()
    request = json.loads(echo.read_text())
    assert request["type"] == "decide" and request["view"] == seen.to_json()
    assert action == seen.legal_actions()[-1]


@pytest.mark.parametrize(
    ("kind", "body", "why"),
    [
        ("crash", "sys.exit(3)\n", "exited"),
        ("garbage", "for line in sys.stdin:\n    print('hello', flush=True)\n", "not an action"),
        (
            "illegal",
            "for line in sys.stdin:\n    print(json.dumps({'type': 'pass'}), flush=True)\n",
            "not a legal action",
        ),
        ("slow", "for line in sys.stdin:\n    time.sleep(30)\n", "did not answer within"),
    ],
)
def test_a_misbehaving_program_loses_its_turn_with_a_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str, body: str, why: str
) -> None:
    """R7.3: the turn is lost (``TIMEOUT``) and the log says which bot, which seat and why."""
    state = new_round(TABLE, 4)
    bot = ExternalBot(script(tmp_path, kind, body), timeout=1.0)
    with caplog.at_level(logging.WARNING, logger="cardroom.bots.external"):
        action = bot.choose(view(state, state.current))
    bot.close()
    assert action == TIMEOUT
    assert bot.turns_lost == 1
    assert why in caplog.text and f"seat {state.current + 1}" in caplog.text


def test_the_game_goes_on_when_a_program_keeps_crashing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every turn of a dead program is lost; its opponent still finishes the round (R6.1)."""
    bot = ExternalBot(script(tmp_path, "dead", "sys.exit(1)\n"), timeout=1.0, max_restarts=1)
    with caplog.at_level(logging.WARNING, logger="cardroom.bots.external"):
        match = play_match(TABLE, 5, [make_bot("greedy"), bot])
    bot.close()
    assert match.over and match.winners == (0,)
    assert bot.turns_lost >= 1
    assert "no longer restarted" in caplog.text
