"""External bots over JSON lines (``docs/bot-protocol.md``, protocol 2).

A program says hello once, then serves any number of games: it is told each game's start,
every move, each round's end and the result, and asked for its own decisions. A program that
cannot manage its first exchange is refused with its stderr; one that answers late loses that
decision only; one that crashes or answers nonsense loses the turn (R7.3) and the game goes on.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cardroom.bots import external, make_bot
from cardroom.bots.external import ExternalBot, close_programs
from cardroom.bots.specs import BotSpecError, bot_label, check_bot_spec, make_bot_from_spec
from cardroom.cli import app
from cardroom.games.skip import TIMEOUT, Options, new_round, view
from cardroom.sim.play import play_match
from tests.resources import processes_left

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
EXAMPLE = EXAMPLES / "skip_bot.py"
TABLE = Options(players=2, match_target=None, stock_size=5)

HELLO = "print(json.dumps({'type': 'hello', 'name': 'Tester'}), flush=True)\n"


def script(tmp_path: Path, name: str, body: str) -> list[str]:
    path = tmp_path / f"{name}.py"
    path.write_text("import json, os, sys\n" + body)
    return [sys.executable, str(path)]


def recorder(tmp_path: Path, answer: str = "message['legal'][0]") -> tuple[list[str], Path]:
    """A program that writes every message it gets (with its pid) to a file and plays
    ``answer``."""
    log = tmp_path / "messages.jsonl"
    body = (
        f"out = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    out.write(json.dumps({'pid': os.getpid(), **message}) + '\\n'); out.flush()\n"
        "    if message['type'] == 'hello':\n"
        f"        {HELLO}"
        "    elif message['type'] == 'decide':\n"
        f"        print(json.dumps({answer}), flush=True)\n"
    )
    return script(tmp_path, "recorder", body), log


def messages(log: Path) -> list[dict]:
    """What the recorder read: its programs end first (stdin closed), so every line is in."""
    close_programs()
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_the_example_bot_plays_whole_games_without_losing_a_turn() -> None:
    bot = make_bot(f"cmd:{sys.executable} {EXAMPLE}", 1)
    try:
        match = play_match(TABLE, 3, [bot, make_bot("greedy")])
    finally:
        bot.close()
    assert match.over
    assert isinstance(bot, ExternalBot) and bot.turns_lost == 0
    assert bot.name == "Stock first (Python)"  # it named itself in its hello
    moves = [a for seat, a in match.rounds[0].moves if seat == 0]
    assert moves and TIMEOUT not in moves


def test_hello_then_start_then_decisions_with_the_view_and_the_legal_actions(
    tmp_path: Path,
) -> None:
    """The program sees exactly its own seat's view (with the stock size resolved, R3.2) and
    the legal actions in notation; the hello says the protocol, the game and the time limit."""
    args, log = recorder(tmp_path, "message['legal'][-1]")
    state = new_round(Options(players=2), 2)
    seen = view(state, state.current)
    bot = ExternalBot(args, timeout=7)
    action = bot.choose(seen)
    bot.close()
    hello, start, decide = messages(log)
    assert hello["type"] == "hello" and hello["protocol"] == 2 and hello["timeout"] == 7
    assert hello["game"] == "skip"
    assert start["type"] == "start" and start["seat"] == seen.seat and start["players"] == 2
    assert start["options"]["stock_size"] == 30  # the default for two, never null
    assert decide["type"] == "decide" and decide["game_id"] == start["game_id"]
    expected = seen.to_json()
    expected["options"]["stock_size"] = 30
    assert decide["view"] == expected
    assert action == seen.legal_actions()[-1]


def test_one_program_serves_many_games_and_follows_each_to_its_result(tmp_path: Path) -> None:
    """Every move is told (the program can count cards), each game has its id, and the
    program learns who won; the second game reuses the running program."""
    args, log = recorder(tmp_path)
    ids = []
    for seed in (3, 4):
        bot = ExternalBot(args, seed, timeout=10)
        match = play_match(TABLE, seed, [make_bot("greedy", seed), bot])
        assert bot.turns_lost == 0
        ids.append(bot.game_id)
    seen = messages(log)
    assert {m["pid"] for m in seen} == {seen[0]["pid"]}  # one process for both games
    assert [m["type"] for m in seen].count("hello") == 1
    for game_id in ids:
        game = [m for m in seen if m.get("game_id") == game_id]
        assert game[0]["type"] == "start" and game[0]["seat"] == 1
        moves = [m for m in game if m["type"] == "move"]
        assert {m["seat"] for m in moves} == {0, 1}  # the opponent's moves too
        assert game[-1]["type"] == "over"
        assert game[-2]["type"] == "round_over" and game[-2]["view"]["result"] is not None
    last = [m for m in seen if m.get("game_id") == ids[-1]]
    assert last[-1]["winners"] == list(match.winners) and last[-1]["won"] == (1 in match.winners)


def test_a_program_only_ever_sees_its_own_seat(tmp_path: Path) -> None:
    """R7.2: no message holds another seat's hand or a card below a stock's top."""
    args, log = recorder(tmp_path)
    bot = ExternalBot(args, timeout=10)
    play_match(Options(players=3, stock_size=5), 8, [make_bot("greedy"), bot, make_bot("greedy")])
    for message in messages(log):
        if "view" in message:
            shown = message["view"]
            assert shown["seat"] == 1
            assert len(shown["hand"]) == shown["hand_counts"][1]
            assert set(shown) == set(view(new_round(TABLE, 1), 0).to_json())
        if message["type"] == "move":
            assert set(message["action"]) <= {"type", "from", "card", "to", "pile", "partner"}


def test_a_late_answer_loses_only_that_decision(tmp_path: Path) -> None:
    """The program is not killed: its late answer is dropped and its next answer counts."""
    # The first decision is answered once the next one is asked, which the bot does only after
    # giving up on the first: late for certain, however loaded the machine.
    body = (
        "first = None\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello':\n"
        f"        {HELLO}"
        "    elif m['type'] == 'decide' and first is None:\n"
        "        first = m\n"
        "    elif m['type'] == 'decide':\n"
        "        if first:\n"
        "            print(json.dumps(first['legal'][0]), flush=True)\n"
        "            first = False\n"
        "        print(json.dumps(m['legal'][0]), flush=True)\n"
    )
    bot = ExternalBot(script(tmp_path, "late", body), timeout=3.0)  # 3 s: room under load
    state = new_round(TABLE, 4)
    first = view(state, state.current)
    assert bot.choose(first) == TIMEOUT
    assert bot.choose(first) == first.legal_actions()[0]  # the late answer was not taken
    assert bot.turns_lost == 1 and bot.starts == 1
    bot.close()


@pytest.mark.parametrize(
    ("kind", "body", "why"),
    [
        (
            "crash",
            "sys.stdin.readline()\n" + HELLO + "sys.stdin.readline()\nsys.exit(3)\n",
            "exited",
        ),
        (
            "garbage",
            'for line in sys.stdin:\n    print(\'{"type": "hello"}\', flush=True)\n',
            "not an action",
        ),
        (
            "illegal",
            "sys.stdin.readline()\n"
            + HELLO
            + "for line in sys.stdin:\n    print(json.dumps({'type': 'pass'}), flush=True)\n",
            "not a legal action",
        ),
        (
            "slow",
            # Never answers: it reads its views until its stdin closes.
            "sys.stdin.readline()\n" + HELLO + "for line in sys.stdin:\n    pass\n",
            "did not answer within",
        ),
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
    close_programs()
    assert action == TIMEOUT
    assert bot.turns_lost == 1
    assert why in caplog.text and f"seat {state.current + 1}" in caplog.text


def test_the_game_goes_on_when_a_program_keeps_crashing_and_it_is_said_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Every turn of a dead program is lost; its opponent still finishes the round (R6.1);
    the log says so once, not once a turn."""
    body = "sys.stdin.readline()\n" + HELLO + "sys.stdin.readline()\nsys.exit(1)\n"
    bot = ExternalBot(script(tmp_path, "dead", body), timeout=1.0, max_restarts=1)
    with caplog.at_level(logging.WARNING, logger="cardroom.bots.external"):
        match = play_match(TABLE, 5, [make_bot("greedy"), bot])
    bot.close()
    assert match.over and match.winners == (0,)
    assert bot.turns_lost > 3
    assert caplog.text.count("no longer restarted") == 1


def test_a_program_that_fails_its_first_exchange_is_refused_with_its_stderr(
    tmp_path: Path,
) -> None:
    args = script(
        tmp_path, "broken", "print('cannot load the model weights', file=sys.stderr)\nsys.exit(2)\n"
    )
    with pytest.raises(BotSpecError) as refused:
        check_bot_spec(f'cmd:"{" ".join(args)}"')
    text = str(refused.value)
    assert "first exchange" in text and "cannot load the model weights" in text


def test_a_protocol_1_program_that_ignores_hello_is_refused_saying_what_to_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(external, "START_TIMEOUT", 0.5)  # the documented 10 s, shortened
    args = script(tmp_path, "old", "for line in sys.stdin:\n    pass\n")
    with pytest.raises(BotSpecError, match='"type": "hello"'):
        check_bot_spec(f"cmd:{' '.join(args)}")


def test_a_bot_is_named_by_its_spec_or_by_its_hello(tmp_path: Path) -> None:
    spec = f'cmd:"{sys.executable} {EXAMPLE}"'
    check_bot_spec(spec)
    assert bot_label(spec) == "Stock first (Python)"
    check_bot_spec(f"name=Ada:{spec}")
    assert bot_label(f"name=Ada:{spec}") == "Ada"
    named = make_bot_from_spec(f"name=Ada:{spec}")
    assert named.name == "Ada"
    assert make_bot_from_spec("name=Bob:planner").name == "Bob"
    with pytest.raises(BotSpecError):
        check_bot_spec("name=:planner")


def test_each_program_keeps_its_stderr_in_its_own_log(_bot_logs: Path) -> None:
    bot = make_bot(f"cmd:{sys.executable} {EXAMPLE}", 1)
    play_match(TABLE, 3, [bot, make_bot("greedy")])
    close_programs()  # the program ends, so all it wrote is in the file
    logs = list(_bot_logs.iterdir())
    assert len(logs) == 1 and "won" in logs[0].read_text()


def hanging_program(tmp_path: Path) -> tuple[Path, str]:
    """``hang.sh``: a script whose child sleeps and never answers; the child's command line is
    unique to this test, so it can be looked for among every process of the machine."""
    marker = f"{100_000 + os.getpid()}.{len(str(tmp_path))}"
    path = tmp_path / "hang.sh"
    path.write_text(f"#!/bin/sh\nsleep {marker}\n")
    path.chmod(0o755)
    return path, marker


def test_a_program_that_never_answers_its_hello_is_refused_and_leaves_no_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--bots greedy,cmd:./hang.sh`` (hang.sh: a sleep) ran on for minutes and left its
    sleep behind: the hello's limit refuses it (exit code 2, the documented error), and its
    whole process group is ended."""
    monkeypatch.setattr(external, "START_TIMEOUT", 0.5)  # the documented 10 s, shortened
    _, marker = hanging_program(tmp_path)
    monkeypatch.chdir(tmp_path)
    outcome = CliRunner().invoke(
        app, ["tournament", "--bots", "greedy,cmd:./hang.sh", "--games", "2", "--jobs", "1"]
    )
    assert outcome.exit_code == 2, outcome.output
    assert "refused:" in outcome.stderr
    assert "failed its first exchange" in outcome.stderr
    assert "did not answer the hello within 0.5 s" in outcome.stderr
    assert processes_left("sleep", marker) == []
