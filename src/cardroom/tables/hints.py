"""A hint for a player's own turn, from their own view only (R7.6), counted, and worked out
off the table's writer (the ``Advise`` effect)."""

from __future__ import annotations

import math

from cardroom.bots.hints import GAMES as HINTED_GAMES
from cardroom.tables import commands as c
from cardroom.tables.effects import Advise, Effect
from cardroom.tables.table_state import TableState

HINT_EVERY = 2.0  # seconds before a player may ask again about the same position


def hint(table: TableState, cmd: c.Hint, out: list[Effect]) -> None:
    """A hint for the asker's own turn, from their own view only (R7.6): counted, then
    worked out off the table's writer (``Advise``). Never at a ranked table, nor where the
    house rules turn hints off; a new position may be asked about at once, the same one
    again after ``HINT_EVERY`` seconds (the expert thinks for each)."""
    who = table.audience.connections.get(cmd.conn)
    if who is None:
        return

    def refuse(code: str, message: str, rule: str | None = None) -> None:
        out.append(table.audience.error(cmd.conn, code, message, rule, about="hint"))

    found = table.playing_seat(who, "hints are for the players; watchers get none")
    if isinstance(found, tuple):
        return refuse(*found)
    m, seat = table.match, found
    assert m is not None
    options = m.game_match.options
    if table.game.name not in HINTED_GAMES:
        return refuse("no_hints", f"hints are not available for {table.game.title} yet")
    if table.game.is_ranked(options):
        return refuse(
            "ranked", "no hints at a ranked table: its matches are played unaided", "R7.6"
        )
    if not getattr(options, "hints", True):
        return refuse("hints_off", "this table's house rules turn hints off", "R7.6")
    if m.game_match.current != seat:
        return refuse("not_your_turn", "a hint is for your own turn", "R7.1")
    position = table.audience.position_seq
    last_position, last_time = table.hinted_at.get(who.id, (-1, 0.0))
    if last_position == position and table.now - last_time < HINT_EVERY:
        wait = math.ceil(HINT_EVERY - (table.now - last_time))
        return refuse("rate_limited", f"this position's hint was just given: again in {wait} s")
    table.hinted_at[who.id] = (position, table.now)
    m.hints[seat] += 1
    message = {"type": "hint", "seq": table.seq, "hints_used": m.hints[seat]}
    out.append(Advise(cmd.conn, seat, m.game_match.view(seat), message))
