"""People come and go: sockets said hello and closed, within the table's caps; chat; and the
abandoned-table timer, armed while none of the table's people is here."""

from __future__ import annotations

from cardroom.tables import commands as c
from cardroom.tables import scheduling
from cardroom.tables.chat import ChatRefused
from cardroom.tables.effects import Effect, SeatRows, Send, Write
from cardroom.tables.errors import Refusal
from cardroom.tables.people import Identity
from cardroom.tables.table_state import TableState
from cardroom.tables.timers import ABANDON

SOCKET_PROTOCOL = 1  # the table socket's version (docs/protocol.md), said in the welcome


def connect(table: TableState, cmd: c.Connect, out: list[Effect]) -> None:
    """A socket said hello. Only a seated player's arrival is news for everyone (a
    ``table`` message); a spectator's is counted in the next one, so a crowd of watchers
    does not make the table send each of them the whole table again."""
    who = cmd.who
    check_room(table, who)
    first = table.audience.arrive(cmd.conn, who, cmd.batch)
    table.gone_since.pop(who.id, None)
    seat = table.seat_of(who.id)
    shown = table.match_seat_of(who.id) if table.match is not None else None
    if shown is None and seat is not None and table.match is None:
        shown = seat.number
    welcome = {
        "type": "welcome",
        "player": who.to_json(),
        "table_id": table.id,
        "seat": shown,
        "spectator": seat is None,
        "seq": table.seq,
        "protocol": SOCKET_PROTOCOL,
        "turn_timer": table.options_json.get("turn_timer"),
    }
    out.append(Send(cmd.conn, welcome))
    match_seat = table.match_seat_of(who.id)
    table.audience.resume(
        cmd.conn,
        cmd.since,
        match_seat,
        table.own_view,
        lambda: table.sync_message(match_seat),
        out,
    )
    out.extend(Send(cmd.conn, {**line, "replayed": True}) for line in table.chat_room.log)
    watch_people(table, out)
    changed = first and seat is not None
    if seat is not None and seat.away:  # coming back to the table (R2.4)
        seat.away = False
        out.append(Write((SeatRows(table.seating.rows()),), wait=False))
        changed = True
    if match_seat is not None and scheduling.end_autopilot(table, match_seat):
        changed = True
        scheduling.schedule(table, out)
    if changed:
        table.tell_table(out)


def disconnect(table: TableState, cmd: c.Disconnect, out: list[Effect]) -> None:
    gone = table.audience.depart(cmd.conn)
    if gone is not None:
        table.gone_since[gone.id] = table.now
    if gone is not None and table.seat_of(gone.id) is not None:
        table.tell_table(out)
    watch_people(table, out)


def chat(table: TableState, cmd: c.Chat, out: list[Effect]) -> None:
    """A line said at the table, to everyone here (``chat.py`` checks and paces it); a
    refused line goes back to its sender only."""
    who = table.audience.connections.get(cmd.conn)
    if who is None:
        return
    try:
        text = table.chat_room.take(who.id, cmd.text, table.now)
    except ChatRefused as refused:
        out.append(table.audience.error(cmd.conn, refused.code, refused.message, about="chat"))
        return
    seat = table.seat_of(who.id)
    line = {
        "type": "chat",
        "from": who.to_json(),
        "seat": seat.number if seat else None,
        "text": text,
    }
    table.chat_room.keep(line)
    out.extend(Send(conn, line) for conn in table.audience.connections)


def chat_lines(table: TableState, cmd: c.ChatLines, out: list[Effect]) -> list[dict[str, object]]:
    """The kept chat lines, for a report: only for someone who is or was at the table (seated,
    its owner, or connected now), who may have read them."""
    who = cmd.who.id
    here = any(known.id == who for known in table.audience.connections.values())
    if not here and table.seat_of(who) is None and table.owner.id != who:
        raise Refusal(403, "forbidden", "only someone at this table can report what was said there")
    return [{k: v for k, v in line.items() if k != "type"} for line in table.chat_room.log]


def check_room(table: TableState, who: Identity) -> None:
    """Refuse a socket beyond the table's caps, before anything changes. A player holding
    a seat always gets in (within their own cap): watchers cannot crowd out the players."""
    full = len(table.audience.connections) >= table.settings.max_sockets
    if full and table.seat_of(who.id) is None:
        raise Refusal(
            429,
            "too_many_sockets",
            f"this table has {table.settings.max_sockets} connections already; "
            "watch another table or try later",
        )
    mine = sum(1 for known in table.audience.connections.values() if known.id == who.id)
    if mine >= table.settings.max_sockets_per_player:
        raise Refusal(
            429,
            "too_many_sockets",
            f"you have {table.settings.max_sockets_per_player} connections to this table "
            "already; close one first",
        )


def resync(table: TableState, cmd: c.Resync, out: list[Effect]) -> None:
    if cmd.conn in table.audience.connections:
        out.append(table.sync(cmd.conn))


def people_here(table: TableState) -> bool:
    """Whether a seated player (or the owner) is connected: watchers alone do not keep a
    table open."""
    here = table.audience.players()
    return table.owner.id in here or any(
        s.player_id in here for s in table.seats if s.player_id is not None
    )


def watch_people(table: TableState, out: list[Effect], rearm: bool = False) -> None:
    """A table none of its people are at closes after ``abandon_after`` seconds."""
    if people_here(table):
        table.timers.cancel(ABANDON, out)
    elif rearm or not table.timers.armed(ABANDON):
        table.timers.arm(ABANDON, table.now + table.abandon_after, (), out)
