"""Between rounds: the next deal waits for the players to read the round's summary.

Each player present says "continue" (``ready``); once every player whose seat is not a bot,
an autopilot or away has, the next round is dealt at once. The round timer
(``round_pause``) stays the cap, so one player who walked away cannot hold the table."""

from __future__ import annotations

from cardroom.tables import commands as c
from cardroom.tables import moves
from cardroom.tables.effects import Effect
from cardroom.tables.table_state import TableState
from cardroom.tables.timers import ROUND


def ready(table: TableState, cmd: c.Ready, out: list[Effect]) -> None:
    who = table.audience.connections.get(cmd.conn)
    if who is None:
        return

    def refuse(code: str, message: str) -> None:
        out.append(table.audience.error(cmd.conn, code, message, about="ready"))

    found = table.playing_seat(who, "the players deal on; watchers wait with them")
    if isinstance(found, tuple):
        return refuse(*found)
    m = table.match
    assert m is not None
    if not m.game_match.between_rounds:
        return refuse("not_between_rounds", "there is no round summary to close now")
    if found in m.ready:
        return  # said twice (two tabs): nothing new
    m.ready.add(found)
    if waiting_for(table):
        table.tell_table(out)  # everyone sees who has read it (``match.ready``)
        return
    table.timers.cancel(ROUND, out)
    moves.next_round(table, out)


def waiting_for(table: TableState) -> list[int]:
    """The match seats whose players are here, not ready yet, and not played by a bot."""
    m = table.match
    assert m is not None
    absent = moves.absent_seats(table)
    waiting = []
    for seat, table_seat in enumerate(m.seats):
        if table.seats[table_seat].bot_level is not None or seat in m.autopilot:
            continue
        if seat not in absent and seat not in m.ready:
            waiting.append(seat)
    return waiting
