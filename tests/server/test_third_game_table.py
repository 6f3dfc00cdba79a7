"""A table of a third game through the real server: ``cardroom serve`` loads High Card
(``tests/thirdgame/``) with ``CARDROOM_GAMES`` and two people play it to its end over the
WebSocket, with no change to the server, the tables or the store (docs/adding-a-game.md)."""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Person, _is_over, _is_position

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.thirdgame.game import replay  # noqa: E402

PLUGIN = {"CARDROOM_GAMES": "tests.thirdgame.game:HIGH_CARD", "PYTHONPATH": str(REPO)}


async def play_to_the_end(person: Person, seed: int) -> dict[str, Any]:
    """Play the person's seat with random legal cards until the match is over; the message
    that ended it."""
    rng = random.Random(seed)
    latest = await person.expect(lambda m: _is_position(m) or _is_over(m))
    while not _is_over(latest):
        while person.cursor < len(person.messages):  # the newest position only
            message = person.messages[person.cursor]
            person.cursor += 1
            if _is_over(message) or _is_position(message):
                latest = message
        if _is_over(latest):
            break
        legal = latest.get("legal") or []
        if not legal:
            latest = await person.expect(lambda m: _is_position(m) or _is_over(m))
            continue
        start = person.cursor
        latest = await person.act(rng.choice(legal))
        over = next((m for m in person.messages[start : person.cursor] if _is_over(m)), None)
        if over is not None:
            return over
        if latest["type"] == "error" and latest["code"] == "stale":
            latest = person.latest_view() or latest
            continue
        assert latest["type"] == "event", latest
    return latest


@pytest.mark.parametrize("fresh_server", ["sqlite"], indirect=True)
async def test_two_people_play_a_third_game_to_its_end_and_its_record_replays(fresh_server):
    server = fresh_server(**PLUGIN)
    server.start()
    ada = await Person(server, "Ada").register()
    bea = await Person(server, "Bea").register()
    games = (await ada.http.get("/api/games")).json()["games"]
    assert "highcard" in {g["name"] for g in games}
    created = await ada.post(
        "/api/tables", {"game": "highcard", "seats": 2, "options": {"target": 2}}, expect=201
    )
    table = created["table"]
    assert table["game"] == "highcard" and table["options"]["target"] == 2
    await bea.post(f"/api/tables/{table['id']}/join")
    for person in (ada, bea):
        await person.connect(table["id"])
    await ada.post(f"/api/tables/{table['id']}/start")
    results = await asyncio.gather(play_to_the_end(ada, 1), play_to_the_end(bea, 2))
    over = next(e for e in results[0].get("events", ()) if e["kind"] == "match_over")["detail"]
    assert max(over["scores"]) >= 2 and over["winners"]
    record = (await ada.http.get(f"/api/matches/{over['match']}/record")).json()
    assert record["game"] == "highcard" and replay(record).scores == over["scores"]
    seen = [m["view"] for m in bea.messages if m.get("view")]
    assert seen and all(v["seat"] == 1 and len(v["hand"]) == v["hand_counts"][1] for v in seen)
    for person in (ada, bea):
        await person.close()
