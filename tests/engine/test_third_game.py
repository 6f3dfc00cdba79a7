"""A third game, added without a change outside its package (``tests/thirdgame/``): High Card
plays through the contract alone in ``simulate``, ``replay`` and ``tournament``, in-process and
as ``cardroom`` subprocesses that load it with ``CARDROOM_GAMES`` (docs/adding-a-game.md).
The server plays it too (``tests/server/test_third_game_table.py``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from cardroom.games import GAMES, get_game, register  # noqa: E402
from cardroom.games.base import rebuild  # noqa: E402
from cardroom.games.registry import load_plugins  # noqa: E402
from cardroom.sim.simulate import simulate  # noqa: E402
from cardroom.sim.tournament import run  # noqa: E402
from tests.thirdgame.game import HIGH_CARD, Options  # noqa: E402

PLUGIN = "tests.thirdgame.game:HIGH_CARD"
CARDROOM = Path(sys.executable).with_name("cardroom")


@pytest.fixture
def high_card() -> Iterator[None]:
    register(HIGH_CARD)
    yield
    GAMES.pop(HIGH_CARD.name, None)


def _cardroom(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARDROOM_GAMES": PLUGIN, "PYTHONPATH": str(REPO), "COLUMNS": "120"}
    return subprocess.run(
        [str(CARDROOM), *args], env=env, capture_output=True, text=True, timeout=120, cwd=REPO
    )


def test_views_hide_the_other_hands_and_the_replay_rebuilds_the_match(high_card: None) -> None:
    game = get_game("highcard")
    options = game.options_from_json({"players": 3})
    match = game.new_match(options, "seed")
    view = match.view(1).to_json()
    assert view["hand"] and view["hand_counts"] == [3, 3, 3]
    assert match.view(None).to_json()["hand"] == []
    assert match.view(2).to_json()["legal"] == []  # not its turn: the first seat leads round 1
    steps = []
    while not match.over:
        if match.between_rounds:
            steps += match.between_round_steps(frozenset())
            match.apply_step(steps[-1])
            continue
        seat = match.current
        action = match.view(seat).legal_actions()[0]
        steps.append(game_step(game, seat, action))
        match.apply(action, seat)
    again = rebuild(game, options, "seed", steps)
    assert again.scores == match.scores and again.winners == match.winners
    assert game.replay_record(game.record(options, "seed", steps)).scores == match.scores


def game_step(game, seat, action):
    from cardroom.games.base import ACTION, Step

    return Step(ACTION, seat, game.action_to_json(action))


def test_simulate_and_a_tournament_play_it_in_process(high_card: None, tmp_path: Path) -> None:
    options = Options(players=3, target=3)
    summary = simulate(options, ["random", "high"], 4, 7, records=tmp_path)
    assert summary.games == 4 and summary.unfinished == 0
    assert sum(summary.seat_wins) >= 4 and set(summary.bots) == {"random", "high"}
    assert summary.to_json() == simulate(options, ["random", "high"], 4, 7).to_json()
    for path in sorted(tmp_path.iterdir()):
        match = HIGH_CARD.replay_record(json.loads(path.read_text()))
        assert match.over
    result = run(["random", "high"], Options(players=2, target=3), 4, 1, jobs=1)
    assert result.games == 4 and result.stats["high"].games == result.stats["random"].games == 4
    assert result.stats["high"].wins + result.stats["random"].wins >= 4  # ties share a win


@pytest.mark.slow  # runs the installed program: make test, not test-fast
def test_the_commands_load_it_with_cardroom_games(tmp_path: Path) -> None:
    records = tmp_path / "records"
    args = ["simulate", "--game", "highcard", "--players", "3", "--bots", "random,high"]
    done = _cardroom(*args, "--games", "3", "--seed", "2", "--records", str(records), "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 3 and summary["options"]["players"] == 3
    done = _cardroom(*args, "--games", "2", "-o", "target=2")
    assert done.returncode == 0, done.stderr
    assert "2 High Card games, 3 players" in done.stdout and "Results by bot" in done.stdout

    replayed = _cardroom("replay", str(records / "game-00001.json"))
    assert replayed.returncode == 0, replayed.stderr
    assert "valid:" in replayed.stdout and "Winner: " in replayed.stdout
    record = json.loads((records / "game-00001.json").read_text())
    record["result"]["scores"][0] += 1
    (records / "altered.json").write_text(json.dumps(record))
    refused = _cardroom("replay", str(records / "altered.json"))
    assert refused.returncode == 2 and "scores" in refused.stderr

    done = _cardroom(
        "tournament",
        "--game",
        "highcard",
        "--games",
        "4",
        "--jobs",
        "1",
        "--json",
        "-o",
        "target=2",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["games"] == 4 and {b["name"] for b in result["bots"].values()} == {
        "random",
        "high",
    }


def test_a_bad_plugin_entry_is_refused_naming_it() -> None:
    with pytest.raises(ImportError, match="CARDROOM_GAMES"):
        load_plugins("tests.thirdgame.game")
    with pytest.raises(ImportError, match="nosuch"):
        load_plugins("tests.thirdgame.nosuch:GAME")
