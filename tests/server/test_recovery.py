"""Persistence: a server killed with SIGKILL mid-match comes back exactly where it was (R7.5)."""

from __future__ import annotations

import asyncio

from conftest import (
    Person,
    play_confirmed,
    play_until_over,
    reconnect_where_they_were,
    two_at_one_table,
)

from cardroom.games.skip import replay


async def test_a_killed_server_restarts_every_match_from_its_last_confirmed_move(fresh_server):
    server = fresh_server()
    server.start()
    ada = await Person(server, "Ada").register()
    bob = await Person(server, "Bob").register()
    # Stocks of 10: no random game ends within the dozen moves played before the kill.
    options = {"stock_size": 10, "match_target": None, "turn_timer": 3600}
    tid = await two_at_one_table(ada, bob, options)

    last = await play_confirmed(ada, bob, 12, seed=7)
    deadline_before = last["Ada"]["deadline_in"]
    assert deadline_before is not None

    server.kill()
    for person in (ada, bob):
        await person.close()
    server.start()  # same database, same port

    syncs = await reconnect_where_they_were((ada, bob), tid, last, "restart")
    # A move resent after the restart (same id, no `after`) is recognised, not applied again:
    # its id was stored with it.
    for person in (ada, bob):
        resent = {k: v for k, v in person.last_sent.items() if k != "after"}
        await person.send(resent)
        reply = await person.expect(lambda m, i=resent["id"]: m.get("id") == i or m.get("ack") == i)
        assert reply == {"type": "ack", "id": resent["id"], "duplicate": True, "seq": reply["seq"]}
    for sync in syncs.values():
        # The turn timer kept running across the restart rather than starting over (R7.3).
        assert sync["deadline_in"] is not None and sync["deadline_in"] < deadline_before

    match_id = syncs["Ada"]["table"]["match"]["id"]
    await asyncio.gather(
        play_until_over(ada, 1, syncs["Ada"]), play_until_over(bob, 2, syncs["Bob"])
    )
    record = (await ada.http.get(f"/api/matches/{match_id}/record")).json()
    assert replay(record).over
    assert sum(len(r["moves"]) for r in record["rounds"]) > 12
    for person in (ada, bob):
        await person.close()
