"""The example bots at a real server's table: ``cardroom connect`` seats a JSON-lines program
as a player over the table socket (``client/bridge.py``); it plays a whole match from its own
seat's view, learns every move and the result."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Person, play_until_over, two_at_one_table

from cardroom.bots.external import BotProgram
from cardroom.client.bridge import Played, _play, play_at_table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROGRAMS = {
    "python": [sys.executable, str(EXAMPLES / "skip_bot.py")],
    "node": ["node", str(EXAMPLES / "skip_bot.js")],
}


async def play_against(
    server: Any, program: list[str], stock: int, log_dir: Path
) -> tuple[Person, dict[str, Any], Played]:
    """Ada opens a table, the bridge seats ``program`` at it, Ada starts and plays the match
    out: Ada, the message that ended it, and what the bridge did."""
    ada = await Person(server, "Ada").register()
    created = await ada.post(
        "/api/tables",
        {"seats": 2, "options": {"stock_size": stock, "match_target": None}, "abandon_after": 3600},
        expect=201,
    )
    table = created["table"]["id"]
    await ada.connect(table)
    bridge = asyncio.create_task(
        play_at_table(server.url, table, program, name="Robo", log_dir=log_dir)
    )
    await ada.expect(  # seated, and its socket open: it will see the match start
        lambda m: (
            m["type"] == "table"
            and any(s["player"] and s["connected"] for s in m["table"]["seats"][1:])
        )
    )
    await ada.post(f"/api/tables/{table}/start")
    ends = await play_until_over(ada, 3)
    played = await asyncio.wait_for(bridge, 60)
    await ada.close()
    return ada, next(e for e in ends["events"] if e["kind"] == "match_over"), played


@pytest.mark.parametrize("language", sorted(PROGRAMS))
async def test_an_example_bot_plays_a_match_at_a_server_table(server, language, tmp_path):
    if shutil.which(PROGRAMS[language][0]) is None:
        pytest.skip(f"no {language} (make test installs node)")
    ada, over, played = await play_against(server, PROGRAMS[language], 5, tmp_path)
    assert played.matches == [over["detail"]]
    bot_moves = sum(  # as Ada saw them: every one of them was the program's decision
        1
        for m in ada.messages
        for e in m.get("events", ())
        if e.get("seat") == 1 and e["kind"] in ("played", "discarded", "passed")
    )
    # Ada may (rarely) empty her stock before the bot's first turn: then it had nothing to decide.
    assert played.decisions >= bot_moves and played.refused == []
    assert played.decisions > 0 or over["detail"]["winners"] == [0]
    assert played.name.startswith("Stock first")  # the name from its hello
    results = [p.read_text() for p in tmp_path.iterdir()]
    assert any("won" in text or "lost" in text for text in results)  # it learned the result


async def test_the_bridge_sends_again_what_the_rate_limit_dropped(fresh_server, tmp_path):
    """A quick program outruns a socket allowed 4 messages a second (bursts of 2): every action
    the limit drops unread is sent again after a pause, so the match still ends (it stalled
    before: a dropped action was never answered, and no turn timer ran)."""
    server = fresh_server(CARDROOM_RATE="4", CARDROOM_RATE_BURST="2")
    server.start()
    _ada, over, played = await play_against(server, PROGRAMS["python"], 2, tmp_path)
    assert played.matches == [over["detail"]] and played.refused == []


async def test_a_match_that_ended_before_the_bridge_s_socket_opened_is_told_to_the_program(
    server, tmp_path
):
    """No ``match_over`` event reaches a socket opened after the match ended (a seat that won
    its first turn, a connection lost at the end): the ``sync``'s Table says it is over, and the
    program learns of the match and its result from there (it waited forever before)."""
    ada = await Person(server, "Ada").register()
    robo = await Person(server, "Robo").register()
    deal = {"first": 0, "stocks": [[1], [12]]}  # Ada's one stock card fits at once
    table = await two_at_one_table(ada, robo, {"stock_size": 1, "match_target": None, "deal": deal})
    over = await play_until_over(ada)
    for person in (ada, robo):  # Robo's socket is gone before the bridge's opens
        await person.close()
    detail = next(e for e in over["events"] if e["kind"] == "match_over")["detail"]
    assert detail["winners"] == [0]

    program = BotProgram(PROGRAMS["python"], game="skip", label="Robo", log_dir=tmp_path)
    played = Played()
    try:
        await asyncio.wait_for(_play(server.url, table, robo.token, program, 1, played), 60)
    finally:
        program.close()
    told = {"match": detail["match"], "winners": [0], "scores": detail["scores"]}
    assert played.matches == [told] and played.decisions == 0
    results = "".join(p.read_text() for p in tmp_path.iterdir())
    assert f"game {detail['match']}: won 0 of 1" in results  # told, as the loser
