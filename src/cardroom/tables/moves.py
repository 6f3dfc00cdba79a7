"""Moves: a player's move applied, stored, then told; a match begun; rounds dealt.

A move's ``Write`` comes before the messages that tell of it, so the actor stores it before
anyone is told (nothing acknowledged is lost); a refused move changes nothing and is answered
to its sender only.
"""

from __future__ import annotations

from typing import Any

from cardroom.games.base import (
    ACTION,
    FORFEIT,
    NEXT_ROUND,
    GameMatch,
    IllegalMove,
    NotationError,
    Step,
)
from cardroom.tables import commands as c
from cardroom.tables import scheduling
from cardroom.tables.audience import action_key
from cardroom.tables.effects import (
    Effect,
    MatchFields,
    MatchFinished,
    MoveRow,
    NewMatch,
    Row,
    Send,
    TableFields,
    Write,
)
from cardroom.tables.events import action_json, table_event
from cardroom.tables.seats import match_seat_json
from cardroom.tables.table_state import MatchInPlay, TableState


def act(table: TableState, cmd: c.Act, out: list[Effect]) -> None:
    """A player's move from a socket: applied and stored, or refused to its sender only."""
    who = table.audience.connections.get(cmd.conn)
    if who is None:
        return
    key = action_key(who.id, cmd.id)
    if table.audience.applied(who.id, key):
        duplicate = {"type": "ack", "id": cmd.id, "duplicate": True, "seq": table.seq}
        out.append(Send(cmd.conn, duplicate))
        return

    def refuse(
        code: str, message: str, rule: str | None = None, error: IllegalMove | None = None
    ) -> None:
        reason, params = (error.reason, error.params) if error is not None else (None, None)
        out.append(
            table.audience.error(
                cmd.conn, code, message, rule, cmd.id, reason=reason, params=params
            )
        )

    found = table.playing_seat(who, "spectators cannot play; join a seat first")
    if isinstance(found, tuple):
        return refuse(*found)
    m, seat = table.match, found
    assert m is not None
    try:
        action = table.game.action_from_json(cmd.action)
    except NotationError as error:
        return refuse("bad_action", str(error))
    position = table.audience.position_seq
    if cmd.after is not None and not position <= cmd.after <= table.seq:
        return refuse(
            "stale",
            f"the game has moved on since seq {cmd.after} (position of seq {position}); look again",
        )
    back = scheduling.end_autopilot(table, seat)
    pre = [table_event("autopilot", seat, on=False)] if back else []
    try:
        play(table, seat, action, out, ack=(who.id, cmd.id), sent_by=key, pre=pre)
    except IllegalMove as error:
        if back:  # the player is back even if the move was refused
            table.tell_table(out)
            scheduling.schedule(table, out)
        return refuse("illegal", error.message, error.rule, error)
    table.audience.remember(who.id, key)
    m.timeouts[seat] = 0


def play(
    table: TableState,
    seat: int,
    action: Any,
    out: list[Effect],
    *,
    ack: tuple[str, str] | None = None,
    sent_by: bytes | None = None,
    pre: list[dict[str, Any]] | None = None,
) -> None:
    """Apply, store, then tell. Raises ``IllegalMove`` (nothing changed) when refused.
    ``ack``: (player, action id) of a move from a socket; ``sent_by``: its action key."""
    m = table.match
    assert m is not None
    gm = m.game_match
    round_number = gm.round_number
    events = gm.apply(action, seat=seat)  # the engine refuses here, changing nothing
    m.moves += 1
    told = list(pre or []) + [table.game.event_json(e) for e in events]
    stored = action_json(table.game, action)
    rows: list[Row] = [MoveRow(m.id, m.moves, round_number, ACTION, seat, stored, sent_by)]
    if gm.current is None:  # the round is over
        told.append(round_summary(table))
        if gm.over:
            table.status = "finished"
            told.append(match_over(table))
        rows.append(match_fields(table))
    finish_move(table, rows, told, out, ack)


def match_over(table: TableState) -> dict[str, Any]:
    assert table.match is not None
    m, gm = table.match, table.match.game_match
    return table_event(
        "match_over",
        winners=list(gm.winners or ()),
        scores=list(gm.scores),
        match=m.id,
        hints=list(m.hints),
    )


def ranked_match(table: TableState) -> bool:
    """Whether the match being played is one of the ladder's: ranked rules at a table that
    is not casual. Leaving it, or timing out of too many turns in a row, forfeits it
    (``forfeit``); whether it is then rated is the league's decision (docs/league.md)."""
    m = table.match
    return (
        m is not None
        and table.playing()
        and not m.game_match.over
        and not table.casual
        and table.game.is_ranked(m.game_match.options)
    )


def forfeit(
    table: TableState,
    seat: int,
    reason: str,
    out: list[Effect],
    pre: list[dict[str, Any]] | None = None,
) -> None:
    """The ladder's forfeit (``games.base.FORFEIT``): ``seat`` loses the match now and every
    other side wins. A stored step like any other, so a restart, a record and the league all
    replay it; ``reason`` (``left``, ``timeouts``) is told, not stored."""
    m = table.match
    assert m is not None
    gm = m.game_match
    round_number = gm.round_number
    events = gm.apply_step(Step(FORFEIT, seat))  # the engine refuses here, changing nothing
    m.moves += 1
    told = list(pre or [])
    for event in events:
        wire = table.game.event_json(event)
        told.append({**wire, "detail": {**wire["detail"], "reason": reason}})
    table.status = "finished"
    told.append(match_over(table))
    rows: list[Row] = [MoveRow(m.id, m.moves, round_number, FORFEIT, seat, None)]
    rows.append(match_fields(table))
    finish_move(table, rows, told, out)


def finish_move(
    table: TableState,
    rows: list[Row],
    told: list[dict[str, Any]],
    out: list[Effect],
    ack: tuple[str, str] | None = None,
) -> None:
    """A stored step: arm what comes next, store, tell everyone, then the league."""
    m = table.match
    assert m is not None
    table.last_step_at = table.now
    timers: list[Effect] = []
    scheduling.schedule(table, timers)
    table.audience.next_seq()
    changed = table.table_changes()
    if changed:
        rows.append(TableFields(changed))
    out.append(Write(tuple(rows)))
    table.tell_events(told, out, ack)
    out.extend(timers)
    if m.game_match.over:
        out.append(MatchFinished(m.id))


def match_fields(table: TableState) -> MatchFields:
    assert table.match is not None
    gm = table.match.game_match
    fields: dict[str, Any] = {"scores": list(gm.scores), "rounds": gm.round_number}
    if gm.over:
        fields.update(status="finished", winners=list(gm.winners or ()))
    return MatchFields(table.match.id, fields, finished=gm.over)


def round_summary(table: TableState) -> dict[str, Any]:
    assert table.match is not None
    gm = table.match.game_match
    return table_event(
        "round_summary",
        round=gm.round_number,
        result=gm.round_result(),
        scores=list(gm.scores),
        next_round_in=None if gm.over else table.settings.round_pause,
    )


def begin_match(table: TableState, options: Any, seats: list[int], out: list[Effect]) -> None:
    seed = table.new_seed()
    game_match = table.game.new_match(options, seed, record=False)  # moves: in the database
    match_id = table.new_id()
    seat_json = [match_seat_json(table.seats[s], table.levels) for s in seats]
    install(table, game_match, match_id, seats)
    table.status = "playing"
    table.rematch = None
    table.last_step_at = table.now
    timers: list[Effect] = []
    scheduling.schedule(table, timers)
    table.audience.next_seq()
    match_row = {
        "id": match_id,
        "table_id": table.id,
        "game": table.game.name,
        "options": options.to_json(),
        "seed": seed,
        "seats": seat_json,
        "status": "playing",
        "scores": list(game_match.scores),
        "rounds": 1,
    }
    table_fields = {"match_id": match_id, **table.table_changes()}
    out.append(Write((NewMatch(match_row), TableFields(table_fields))))
    teams = game_match.progress().get("teams", False)
    told = [
        table_event("match_started", match=match_id, seats=seats, teams=teams),
        table_event("round_started", **game_match.round_started()),
        *(table.game.event_json(e) for e in game_match.opening_events),
    ]
    table.tell_events(told, out)
    out.extend(timers)


def install(table: TableState, game_match: GameMatch, match_id: str, seats: list[int]) -> None:
    table.match = MatchInPlay(
        game_match,
        match_id,
        list(seats),
        timeouts=[0] * len(seats),
        hints=[0] * len(seats),
    )
    index_players(table)


def index_players(table: TableState) -> None:
    table.player_seats = {}
    if table.match is None:
        return
    for match_seat, table_seat in enumerate(table.match.seats):
        player = table.seats[table_seat].player_id
        if player is not None:
            table.player_seats[player] = match_seat


def next_round(table: TableState, out: list[Effect]) -> None:
    """Deal the next round, with the game's between-round steps (Skip: R2.5's fall-back)."""
    m = table.match
    if m is None or not m.game_match.between_rounds or not table.playing():
        return
    gm = m.game_match
    round_number = gm.round_number + 1
    m.ready.clear()
    rows: list[Row] = []
    told: list[dict[str, Any]] = []
    for step in gm.between_round_steps(absent_seats(table)):
        events = gm.apply_step(step)
        m.moves += 1
        rows.append(MoveRow(m.id, m.moves, round_number, step.kind, None, None))
        if step.kind == NEXT_ROUND:
            told.append(table_event("round_started", **gm.round_started()))
        told.extend(table.game.event_json(e) for e in events)
    rows.append(MatchFields(m.id, {"rounds": round_number}))
    finish_move(table, rows, told, out)


def absent_seats(table: TableState) -> frozenset[int]:
    """Match seats whose player has gone (left, away, or not connected); bots never are."""
    assert table.match is not None
    connected = table.audience.players()
    absent = set()
    for match_seat, table_seat in enumerate(table.match.seats):
        seat = table.seats[table_seat]
        if seat.bot_level is not None:
            continue
        if seat.player_id is None or seat.away or seat.player_id not in connected:
            absent.add(match_seat)
    return frozenset(absent)
