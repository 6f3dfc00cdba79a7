"""The ladder's forfeit at the table (docs/league.md, "Ladder rules"): leaving a ranked match,
or timing out of too many turns of it in a row, loses it; a casual match goes on as before."""

from __future__ import annotations

import dataclasses

from cardroom.games import get_game
from cardroom.games.base import FORFEIT, Step, rebuild
from cardroom.tables import commands as c
from cardroom.tables.effects import MatchFields

from .harness import ADA, BEA, CAL, PACE, Room

RANKED = {"match_target": 500, "stock_size": None}  # Skip's standard rules: a ranked table


def ranked_room(seats: int = 2, **settings: object) -> Room:
    room = Room.open(seats=seats, options=RANKED, settings=dataclasses.replace(PACE, **settings))
    assert room.master.info()["ranked"]
    return room


def events_of(room: Room, conn: str) -> list[dict[str, object]]:
    return [e for m in room.sent[conn] if m["type"] == "event" for e in m["events"]]


def test_leaving_a_ranked_match_forfeits_it_and_the_others_win() -> None:
    room = ranked_room(seats=3)
    room.sit(ADA, BEA, CAL)
    room.do(c.Start(ADA))
    leaver = room.master.match_seat_of(BEA.id)
    assert leaver is not None
    room.do(c.Leave(BEA))
    gm = room.master.match.game_match
    assert gm.over and gm.forfeited == leaver
    assert room.master.status == "finished"
    assert sorted(gm.winners) == sorted({0, 1, 2} - {leaver})
    assert room.finished == [room.master.match.id]
    stored = room.moves()[-1]
    assert (stored.kind, stored.seat, stored.action) == (FORFEIT, leaver, None)
    finished = [r for r in room.rows if isinstance(r, MatchFields) and r.finished]
    assert finished and finished[-1].fields["winners"] == list(gm.winners)
    told = events_of(room, "ws-ada")
    forfeited = next(e for e in told if e["kind"] == "forfeited")
    assert forfeited["seat"] == leaver and forfeited["detail"]["reason"] == "left"
    assert told[-1]["kind"] == "match_over"
    assert room.master.seat_of(BEA.id) is None  # the leaver's seat is free again


def test_leaving_a_casual_match_does_not_end_it_a_bot_plays_on() -> None:
    room = Room.open(seats=2)  # the harness's short rules: casual
    assert not room.master.info()["ranked"]
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    room.do(c.Leave(BEA))
    gm = room.master.match.game_match
    assert not gm.over and gm.forfeited is None
    assert room.master.status == "playing"
    assert room.master.seat_of(BEA.id).away  # the seat waits for Bea (R2.4)
    assert not any(r.kind == FORFEIT for r in room.moves())


def test_a_casual_table_with_ranked_rules_does_not_forfeit() -> None:
    room = ranked_room()
    room.master.casual = True  # the queue's bot table: never rated
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    room.do(c.Leave(BEA))
    assert not room.master.match.game_match.over


def test_timing_out_of_three_ranked_turns_in_a_row_forfeits() -> None:
    room = ranked_room(forfeit_after=3, autopilot_after=5)
    room.master.options_json["turn_timer"] = 10
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    gm = room.master.match.game_match
    sleeper = gm.current
    assert sleeper is not None
    player = next(p for p in (ADA, BEA) if room.master.match_seat_of(p.id) == sleeper)
    other = BEA if player is ADA else ADA
    other_conn = f"ws-{other.name.lower()}"
    for turn in range(3):
        assert gm.current == sleeper and not gm.over
        room.advance(10.0)  # the sleeper's turn times out
        if turn < 2:  # the other plays a legal move (Skip: a turn ends with a discard)
            while gm.current != sleeper and not gm.over:
                room.act(other_conn, _ending(room.view(other_conn)["legal"]))
    assert gm.over and gm.forfeited == sleeper
    forfeited = next(e for e in events_of(room, other_conn) if e["kind"] == "forfeited")
    assert forfeited["detail"]["reason"] == "timeouts"


def _ending(legal: list[dict[str, object]]) -> dict[str, object]:
    """A discard if there is one (it ends the turn), else any legal action."""
    return next((a for a in legal if a["type"] == "discard"), legal[0])


def test_a_forfeit_step_replays_to_the_same_end() -> None:
    room = ranked_room(seats=2)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    room.do(c.Leave(ADA))
    gm = room.master.match.game_match
    steps = [Step(r.kind, r.seat, r.action) for r in room.moves()]
    game = get_game("skip")
    again = rebuild(game, gm.options, gm.seed, steps)
    assert again.over and again.winners == gm.winners and again.forfeited == gm.forfeited
    record = game.record(gm.options, gm.seed, steps)
    assert record["result"]["forfeit"] == gm.forfeited
    facts = game.analyse(gm.options, gm.seed, steps, ranked=True)
    assert [f.forfeited for f in facts.seats] == [s == gm.forfeited for s in range(2)]
    assert [f.won for f in facts.seats] == [s != gm.forfeited for s in range(2)]


def test_a_restored_table_finds_its_forfeited_match_over() -> None:
    room = ranked_room(seats=2)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    room.do(c.Leave(BEA))
    gm = room.master.match.game_match
    stored = [{"kind": r.kind, "seat": r.seat, "action": r.action} for r in room.moves()]
    again = Room.open(seats=2, options=RANKED)
    again.master.status = "finished"
    row = {"id": "m_1", "options": gm.options.to_json(), "seed": gm.seed, "seats": []}
    row["seats"] = [{"table_seat": s} for s in room.master.match.seats]
    again.master.restore_match(row, stored, None)
    assert again.master.match.game_match.over
    assert again.master.match.game_match.winners == gm.winners


def test_a_forfeit_replays_from_a_game_record_in_both_games() -> None:
    from cardroom.games import skip, skyjo

    for name, replay_record in (("skip", skip.replay), ("skyjo", skyjo.replay)):
        game = get_game(name)
        options = game.options_from_json({"players": 3})
        fresh = game.new_match(options, "forfeit-record")
        first = fresh.view(fresh.current).legal_actions()[0]
        steps = [Step("action", fresh.current, game.action_to_json(first)), Step(FORFEIT, 1)]
        record = game.record(options, "forfeit-record", steps)
        assert record["result"]["forfeit"] == 1 and record["result"]["winners"] == [0, 2]
        again = replay_record(record)
        assert again.over and again.forfeited == 1 and again.winners == (0, 2)
        assert again.current is None
