"""The table master in-process: whole matches with people, bots and timers, no server."""

from __future__ import annotations

import random

import pytest

from cardroom.games import get_game
from cardroom.games.base import Step, derive_seed, rebuild
from cardroom.tables import commands as c
from cardroom.tables.effects import MatchFinished, MoveRow, Send, TableFields, Write
from cardroom.tables.errors import Refusal
from cardroom.tables.people import Identity
from cardroom.tables.settings import TableSettings
from cardroom.tables.timers import BOT
from cardroom.tables.wire import as_dict

from .harness import ADA, BEA, CAL, DOT, EVE, Room, play_legal

SKIP = get_game("skip")


def seqs(messages: list[dict]) -> list[int]:
    return [m["seq"] for m in messages if "seq" in m and m["type"] in ("event", "table", "sync")]


def replayed_scores(room: Room) -> list[int]:
    """The match rebuilt from the stored rows alone, as a restarted server would."""
    match = room.master.match
    assert match is not None
    steps = [Step(r.kind, r.seat, r.action) for r in room.moves() if r.match_id == match.id]
    options = SKIP.options_from_json(match.game_match.options.to_json())
    return rebuild(SKIP, options, match.game_match.seed, steps).scores


def test_a_whole_match_of_two_people_is_stored_before_it_is_told_and_replays_from_its_rows():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    played = play_legal(room, ["ws-ada", "ws-bea"], random.Random(1))
    match = room.master.match
    assert played > 10 and match is not None and match.game_match.over
    assert room.master.status == "finished"
    assert replayed_scores(room) == match.game_match.scores
    # Every event message comes after the write of the move it tells of.
    written = 0
    for effect in room.effects:
        if isinstance(effect, Write):
            written += sum(isinstance(r, MoveRow) for r in effect.rows)
        elif isinstance(effect, Send) and as_dict(effect.message)["type"] == "event":
            assert as_dict(effect.message)["move"] <= written
    assert room.finished == [match.id]
    last_write = max(i for i, e in enumerate(room.effects) if isinstance(e, Write) and e.wait)
    assert room.effects.index(MatchFinished(match.id)) > last_write
    for conn in ("ws-ada", "ws-bea"):
        numbers = seqs(room.sent[conn])
        assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
        over = [m for m in room.sent[conn] if m["type"] == "event"][-1]["events"][-1]
        assert over["kind"] == "match_over"


def test_each_seat_sees_only_its_own_hand_and_a_spectator_none():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    room.connect(EVE)
    room.do(c.Start(ADA))
    play_legal(room, ["ws-ada", "ws-bea"], random.Random(2), limit=40)
    expected = {"ws-ada": 0, "ws-bea": 1, "ws-eve": None}
    for conn, seat in expected.items():
        views = [m["view"] for m in room.sent[conn] if m.get("view")]
        assert views and all(v["seat"] == seat for v in views)
        if seat is None:
            assert all(v["hand"] is None for v in views)
            assert all("legal" not in m for m in room.sent[conn])
        for message in room.sent[conn]:
            assert "hands" not in str(message) and "stocks" not in str(message)


def test_the_first_turn_of_every_round_is_told_with_its_draw():
    room = Room.open(seats=2, options={"match_target": 25})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    started = next(m for m in room.sent["ws-ada"] if m["type"] == "event")["events"]
    kinds = [e["kind"] for e in started]
    assert kinds[:2] == ["match_started", "round_started"]
    assert kinds[2:] == ["turn", "drew"]


def test_a_bot_plays_its_seat_after_its_delay_from_its_own_view():
    room = Room.open(seats=2)
    room.do(c.Join(ADA))
    room.connect(ADA)
    room.do(c.AddBot(ADA, 1, "easy"))
    room.do(c.Start(ADA))
    play_legal(room, ["ws-ada"], random.Random(3))
    bot_moves = [r for r in room.moves() if r.seat == 1]
    assert bot_moves, "the bot never moved"
    assert room.master.match is not None and room.master.match.game_match.over


def test_a_bot_seed_is_derived_one_way_from_the_match_seed():
    room = Room.open(seats=2)
    room.do(c.Join(ADA))
    room.connect(ADA)
    room.do(c.AddBot(ADA, 1, "easy"))
    room.do(c.Start(ADA))
    for _ in range(50):
        if room.thinking:
            break
        seat = room.master.match.game_match.current
        if seat == 0:
            room.act("ws-ada", room.view("ws-ada")["legal"][-1])
        room.advance(1.0)
    think = room.thinking[0]
    assert "a-fixed-seed" not in think.seed
    assert think.seed == derive_seed("a-fixed-seed", "bot", 1, "easy")
    assert think.view.seat == 1  # the bot is handed its own seat's view, nothing more


def test_a_turn_timer_skips_the_turn_and_repeated_timeouts_hand_the_seat_to_a_bot():
    room = Room.open(seats=2, options={"turn_timer": 10})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    first = room.master.match.game_match.current
    conn = ["ws-ada", "ws-bea"][first]
    room.advance(10.0)
    kinds = [e["kind"] for e in room.last(conn, "event")["events"]]
    assert "timed_out" in kinds
    # Now the other seat; let its timer run out too, then the first seat's again.
    room.advance(10.0)
    room.advance(10.0)
    assert first in room.master.match.autopilot
    # The player comes back by playing: the seat is theirs again (R7.3).
    room.think()
    for _ in range(20):
        if room.master.match.game_match.current == first:
            break
        room.advance(10.0)
        room.think()
    if room.master.match.game_match.current == first:
        room.act(conn, room.view(conn)["legal"][-1])
        assert first not in room.master.match.autopilot


def test_refused_moves_go_to_the_sender_only_and_change_nothing():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    room.connect(EVE)
    room.do(c.Start(ADA))
    current = room.master.match.game_match.current
    mover, other = (["ws-ada", "ws-bea"][i] for i in (current, 1 - current))
    before = (room.master.seq, room.master.match.moves, room.master.info())
    sent_before = {conn: len(msgs) for conn, msgs in room.sent.items()}
    refusals = {
        other: ({"type": "pass"}, "illegal"),  # out of turn
        mover: ({"type": "play", "from": "hand", "card": 13, "to": 1}, "bad_action"),
        "ws-eve": ({"type": "pass"}, "not_seated"),
    }
    for conn, (action, code) in refusals.items():
        room.act(conn, action)
        error = room.last(conn)
        assert error["type"] == "error" and error["code"] == code and error["message"]
    room.act(mover, {"type": "discard", "card": 13, "pile": 1})
    assert room.last(mover)["code"] in ("bad_action", "illegal")
    room.act(mover, {"type": "timeout"})
    assert room.last(mover)["code"] == "bad_action"  # only a table times a turn out
    room.act(mover, room.view(mover)["legal"][0], after=0)
    assert room.last(mover)["code"] == "stale"
    assert (room.master.seq, room.master.match.moves, room.master.info()) == before
    for conn, count in sent_before.items():
        expected = count + (1 if conn == "ws-eve" else 0)
        if conn == mover:
            expected = count + 4
        if conn == other:
            expected = count + 1
        assert len(room.sent[conn]) == expected


def test_an_action_sent_twice_is_applied_once():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    current = room.master.match.game_match.current
    mover = ["ws-ada", "ws-bea"][current]
    action = room.view(mover)["legal"][0]
    room.do(c.Act(mover, "same-id", action))
    moves = room.master.match.moves
    room.do(c.Act(mover, "same-id", action))
    assert room.master.match.moves == moves
    assert room.last(mover) == {
        "type": "ack",
        "id": "same-id",
        "duplicate": True,
        "seq": room.master.seq,
    }


@pytest.mark.parametrize(
    ("command", "status"),
    [
        (c.Join(CAL, 0), 409),  # taken
        (c.Join(CAL, 7), 400),  # no such seat
        (c.Configure(BEA, {"stock": 3}), 403),  # not the owner
        (c.Configure(ADA, {"stock": 0}), 400),  # no such house rule value (R3.2)
        (c.Configure(ADA, None, 1), 400),  # abandoned timeout out of range
        (c.AddBot(ADA, None, "grandmaster"), 400),
        (c.Start(CAL), 403),  # not seated
        (c.SkipTurn(ADA), 409),  # nobody to play
        (c.Evict(BEA, 0), 403),
        (c.Evict(ADA, 0), 409),  # the owner cannot evict themselves
        (c.ClearSeat(ADA, 9), 404),
    ],
)
def test_lobby_refusals_carry_a_status_and_change_nothing(command, status):
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    before = room.master.info()
    effects_before = len(room.effects)
    with pytest.raises(Refusal) as refused:
        room.do(command)
    assert refused.value.status == status and refused.value.message
    assert room.master.info() == before and len(room.effects) == effects_before


def test_a_reconnecting_client_gets_what_it_missed_then_the_current_view():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    seen = room.last("ws-bea")["seq"]
    room.do(c.Disconnect("ws-bea"))
    play_legal(room, ["ws-ada"], random.Random(4), limit=3)
    room.connect(BEA, "ws-bea-2", since=seen)
    replies = room.sent["ws-bea-2"]
    assert replies[0]["type"] == "welcome"
    missed = [m for m in replies if m["type"] == "event"]
    assert missed and all(m["replayed"] for m in missed)
    assert missed[-1]["view"]["seat"] == 1 and all(m["view"] is None for m in missed[:-1])
    assert [m["seq"] for m in missed] == sorted(m["seq"] for m in missed)
    assert min(m["seq"] for m in missed) > seen


def test_a_rematch_starts_a_new_match_with_the_same_seats():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    with pytest.raises(Refusal):
        room.do(c.Start(ADA, rematch=True))  # nothing finished yet
    room.do(c.Start(ADA))
    first = room.master.match.id
    play_legal(room, ["ws-ada", "ws-bea"], random.Random(5))
    room.do(c.Start(BEA, rematch=True))  # proposed (tests/tables/test_rematch.py) ...
    room.do(c.Start(ADA, rematch=True))  # ... and accepted
    assert room.master.match.id != first and room.master.status == "playing"


def test_a_team_falls_back_to_solo_when_a_partner_has_gone_R2_5():
    room = Room.open(seats=4, options={"teams": True, "match_target": 25, "stock_size": 3})
    room.sit(ADA, BEA, CAL, DOT)
    room.do(c.Start(ADA))
    room.do(c.Leave(DOT))
    room.do(c.Disconnect("ws-dot"))
    rng = random.Random(6)
    conns = ["ws-ada", "ws-bea", "ws-cal"]
    for _ in range(3000):
        match = room.master.match.game_match
        if match.round_number > 1 or match.over:
            break
        if room.think():
            continue
        seat = match.current
        mover = next((k for k in conns if room.master.match_seat_of(room.who[k].id) == seat), None)
        if mover is None:
            room.advance(2.5)
            continue
        room.act(mover, rng.choice(room.view(mover)["legal"]))
    match = room.master.match.game_match
    if not match.over:
        assert match.team_mode is False
        kinds = [r.kind for r in room.moves()]
        assert kinds.index("solo") < kinds.index("next_round")
        told = [e["kind"] for m in room.sent["ws-ada"] if m["type"] == "event" for e in m["events"]]
        assert "solo" in told


def test_the_owner_evicts_a_player_and_a_bot_plays_the_seat():
    room = Room.open(seats=3)
    room.sit(ADA, BEA, CAL)
    room.do(c.Start(ADA))
    room.do(c.Evict(ADA, 2))
    assert 2 in room.master.match.autopilot
    with pytest.raises(Refusal):
        room.do(c.Join(CAL))  # evicted for good
    assert room.master.info()["seats"][2]["autopilot"] is True


def test_a_table_nobody_is_at_closes_after_its_abandoned_timeout():
    room = Room.open(seats=2, abandon_after=60)
    room.do(c.Join(ADA))
    conn = room.connect(ADA)
    room.do(c.Disconnect(conn))
    room.advance(59)
    assert not room.table_closed
    room.advance(2)
    assert room.table_closed and room.master.status == "closed"
    with pytest.raises(Refusal):
        room.do(c.Join(BEA))


def test_a_stale_timer_or_bot_answer_changes_nothing():
    room = Room.open(seats=2, options={"turn_timer": 10})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    before = (room.master.seq, room.master.match.moves)
    room.do(c.TimerFired("turn", ("m_1", 99)))
    room.do(c.BotMoved(("m_1", 99), 0, None))
    room.do(c.LeagueNews("m_other", [{"kind": "achievement", "seat": 0, "detail": {}}]))
    assert (room.master.seq, room.master.match.moves) == before


def test_league_news_is_told_after_the_end_of_the_match():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    play_legal(room, ["ws-ada", "ws-bea"], random.Random(7))
    news = [{"kind": "rating", "seat": 0, "detail": {"before": 0, "after": 1}}]
    room.do(c.LeagueNews(room.master.match.id, news))
    assert room.last("ws-bea", "event")["events"] == news


def test_a_restored_table_replays_its_match_from_the_stored_rows():
    room = Room.open(seats=2, options={"turn_timer": 30})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    play_legal(room, ["ws-ada", "ws-bea"], random.Random(8), limit=15)
    match = room.master.match
    row = {
        "id": match.id,
        "options": match.game_match.options.to_json(),
        "seed": match.game_match.seed,
        "seats": [{"table_seat": s} for s in match.seats],
    }
    moves = [
        {"kind": r.kind, "seat": r.seat, "action": r.action}
        for r in room.moves()
        if r.match_id == match.id
    ]
    again = Room.open(seats=2, options={"turn_timer": 30})
    for seat, who in zip(again.master.seats, (ADA, BEA), strict=True):
        seat.player_id, seat.player_name = who.id, who.name
    again.master.status = "playing"
    again.carry_out(again.master.restore_match(row, moves, room.master.runtime_json()))
    restored = again.master.match.game_match
    assert restored.view(0).to_json() == match.game_match.view(0).to_json()
    assert again.timers["turn"][0] == room.timers["turn"][0]  # the same deadline


def test_a_bot_cannot_rebuild_the_deal_from_the_seed_it_is_given():
    """The attack of an external bot: read the match seed out of its own seed and deal the
    match again. A derived seed holds nothing to read."""
    room = Room.open(seats=2)
    room.do(c.Join(ADA))
    room.connect(ADA)
    room.do(c.AddBot(ADA, 1, "easy"))
    room.do(c.Start(ADA))
    while not room.thinking:
        if room.master.match.game_match.current == 0:
            room.act("ws-ada", room.view("ws-ada")["legal"][-1])
        room.advance(1.0)
    real = room.master.match.game_match
    deal = SKIP.new_match(real.options, real.seed).state  # what the attack finds from a leak
    assert deal.stocks[1][0] == real.state.stocks[1][0]  # (a stock's bottom card: still there)
    for guess in {room.thinking[0].seed, *room.thinking[0].seed.split("/")}:
        dealt = SKIP.new_match(real.options, guess).state
        assert dealt.stocks != deal.stocks and dealt.draw != deal.draw


def test_a_spectator_coming_and_going_is_not_told_to_everyone_again():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    seq = room.master.seq
    told = len(room.sent["ws-ada"])
    watchers = [room.connect(Identity(f"p_w{n}", f"W{n}"), f"ws-w{n}") for n in range(10)]
    # Each watcher gets its welcome and sync; the people at the table hear nothing new.
    assert len(room.sent["ws-ada"]) == told and room.master.seq == seq
    for conn in watchers:
        assert [m["type"] for m in room.sent[conn]] == ["welcome", "sync"]
    room.do(c.Disconnect(watchers[0]))
    assert len(room.sent["ws-ada"]) == told
    # The count of watchers is in the next table message, which a seated player's news makes.
    room.do(c.Disconnect("ws-bea"))
    table = room.last("ws-ada", "table")["table"]
    assert table["spectators"] == 9 and not table["seats"][1]["connected"]
    room.connect(BEA)
    assert room.last("ws-ada", "table")["table"]["seats"][1]["connected"]


def test_the_table_names_its_first_twenty_watchers_in_the_order_they_came():
    room = Room.open(seats=2)
    room.sit(ADA, BEA)
    crowd = [Identity(f"p_w{n:02}", f"W{n}") for n in range(25)]
    for n, who in enumerate(crowd):
        room.connect(who, f"ws-w{n}")
    room.connect(crowd[0], "ws-w0-phone")  # a second tab is still one watcher
    room.do(c.Disconnect("ws-w1"))
    room.do(c.Disconnect("ws-bea"))  # a seated player's news brings the table message
    table = room.last("ws-ada", "table")["table"]
    assert table["spectators"] == 24
    named = [w["name"] for w in table["watchers"]]
    assert named == [f"W{n}" for n in [0, *range(2, 21)]]
    assert {"Ada", "Bea"}.isdisjoint(named)


def test_sockets_beyond_the_table_caps_are_refused_and_change_nothing():
    pace = TableSettings(
        bot_delay=0.5, round_pause=2.0, history=256, max_sockets=5, max_sockets_per_player=2
    )
    room = Room.open(seats=2, settings=pace)
    room.sit(ADA)
    room.connect(ADA, "ws-ada-2")
    with pytest.raises(Refusal) as refused:
        room.connect(ADA, "ws-ada-3")
    assert (refused.value.status, refused.value.code) == (429, "too_many_sockets")
    for n in range(3):
        room.connect(Identity(f"p_w{n}", f"W{n}"), f"ws-w{n}")
    with pytest.raises(Refusal) as refused:
        room.connect(EVE)
    assert refused.value.code == "too_many_sockets"
    assert "ws-eve" not in room.sent and len(room.master.audience.connections) == 5
    room.do(c.Join(BEA))  # a seated player gets in all the same: watchers cannot keep her out
    room.connect(BEA)
    assert room.last("ws-bea", "welcome")["spectator"] is False
    room.do(c.Disconnect("ws-bea"))
    room.do(c.Disconnect("ws-w0"))
    room.connect(EVE)
    assert room.last("ws-eve", "welcome")["spectator"] is True


def test_the_history_keeps_its_byte_budget_and_a_client_that_missed_more_gets_a_sync():
    budget = 4096
    settings = TableSettings(bot_delay=0.5, round_pause=2.0, history=256, history_bytes=budget)
    room = Room.open(seats=2, options={"stock_size": 20}, settings=settings)
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    seen = room.last("ws-bea")["seq"]
    room.do(c.Disconnect("ws-bea"))  # Bea's phone drops; she plays on from another socket
    room.connect(BEA, "ws-bea-tablet")
    play_legal(room, ["ws-ada", "ws-bea-tablet"], random.Random(6), limit=60)
    kept = room.master.audience.history
    assert 1 < len(kept) < 60 and sum(len(sent.text) for sent in kept) <= budget
    room.connect(BEA, "ws-bea-2", since=seen)  # what it missed is no longer kept
    replies = room.sent["ws-bea-2"]
    assert [m["type"] for m in replies[:2]] == ["welcome", "sync"]
    assert replies[1]["view"]["seat"] == 1 and replies[1]["legal"] is not None
    recent = kept[-3].seq - 1  # a short absence is replayed from what is kept
    room.connect(BEA, "ws-bea-3", since=recent)
    events = [m for m in room.sent["ws-bea-3"] if m["type"] == "event"]
    assert events and min(m["seq"] for m in events) > recent


def test_a_move_writes_the_tables_row_only_when_its_status_or_timers_change():
    room = Room.open(seats=2, options={"stock_size": 5})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    room.rows.clear()
    play_legal(room, ["ws-ada", "ws-bea"], random.Random(7))
    writes = [
        e
        for e in room.effects
        if isinstance(e, Write) and any(isinstance(r, MoveRow) for r in e.rows)
    ]
    with_table = [w for w in writes if any(isinstance(r, TableFields) for r in w.rows)]
    assert len(writes) > 10 and len(with_table) <= 2
    last = [r for r in with_table[-1].rows if isinstance(r, TableFields)][-1]
    assert last.fields["status"] == "finished"  # the match's end is stored with its last move


def test_a_timed_table_stores_each_turn_s_deadline_with_its_move():
    room = Room.open(seats=2, options={"stock_size": 5, "turn_timer": 30})
    room.sit(ADA, BEA)
    room.do(c.Start(ADA))
    room.effects.clear()
    rng = random.Random(8)
    for _ in range(6):  # a move a second: each turn's deadline is later than the last
        room.advance(1.0)
        play_legal(room, ["ws-ada", "ws-bea"], rng, limit=1)
    deadlines = [
        r.fields["runtime"]["deadline"]
        for e in room.effects
        if isinstance(e, Write)
        for r in e.rows
        if isinstance(r, TableFields) and "runtime" in r.fields
    ]
    assert len(deadlines) >= 2 and deadlines == sorted(deadlines)


def test_with_no_bot_delay_a_bot_is_asked_at_once_and_once_per_position():
    settings = TableSettings(bot_delay=0.0, round_pause=2.0, history=256)
    room = Room.open(seats=2, options={"stock_size": 5}, settings=settings)
    room.sit(ADA)
    room.do(c.AddBot(ADA, None, "easy"))
    room.do(c.Start(ADA))
    rng = random.Random(9)
    asked = 0
    while room.master.status == "playing" and asked < 40:
        if room.thinking:
            keys = [t.key for t in room.thinking]
            assert len(set(keys)) == len(keys)  # never asked twice about one position
            assert BOT not in room.timers
            asked += room.think()
        else:
            play_legal(room, ["ws-ada"], rng, limit=1)
    assert asked >= 5


def test_the_welcome_says_the_socket_protocol_and_the_turn_timer() -> None:
    """What a program playing over the socket needs before its first decision."""
    room = Room.open(seats=2, options={"turn_timer": 30})
    room.sit(ADA, BEA)
    welcome = room.last("ws-ada", "welcome")
    assert welcome["protocol"] == 1 and welcome["turn_timer"] == 30 and welcome["seat"] == 0
