"""A table brought back: its match replayed from the stored steps (R7.5), after a restart or
a failed write."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.games.base import Step, rebuild
from cardroom.tables import commands as c
from cardroom.tables import moves, scheduling
from cardroom.tables.effects import Effect
from cardroom.tables.table_state import TableState
from cardroom.tables.timers import BOT, ROUND, TURN


def restore_match(
    table: TableState,
    row: Mapping[str, Any],
    stored: list[dict[str, Any]],
    runtime: Mapping[str, Any] | None,
) -> list[Effect]:
    """Replay the stored steps through the game: the match is exactly where it was (R7.5)."""
    options = table.game.options_from_json(row["options"])
    steps = [Step(m["kind"], m.get("seat"), m.get("action")) for m in stored]
    game_match = rebuild(table.game, options, row["seed"], steps, record=False)
    seats = [s["table_seat"] for s in row["seats"]]
    moves.install(table, game_match, row["id"], seats)
    assert table.match is not None
    table.match.moves = len(stored)
    # Exactly once, also across restarts: the keys of the actions stored.
    table.audience.remember_stored([m["sent_by"] for m in stored if m.get("sent_by")])
    runtime = runtime or {}
    timeouts = runtime.get("timeouts") or []
    if len(timeouts) == len(seats):
        table.match.timeouts = [int(t) for t in timeouts]
    table.match.autopilot = {
        int(s) for s in runtime.get("autopilot") or [] if 0 <= int(s) < len(seats)
    }
    hints = runtime.get("hints") or []
    if len(hints) == len(seats):
        table.match.hints = [int(h) for h in hints]
    table.stored_fields["runtime"] = dict(runtime)
    table.asked = None
    # Idle since the restart at most: a restored table gives its player a full wait again.
    table.last_step_at = table.now
    out: list[Effect] = []
    if table.status == "playing":
        scheduling.schedule(table, out, deadline=runtime.get("deadline"))
    return out


def reload(table: TableState, cmd: c.Reload, out: list[Effect]) -> None:
    """After a failed write: the match as stored, and everyone shown that position."""
    runtime = table.runtime_json()
    table.stored_fields.clear()  # not known after a failed write: store them again
    table.timers.cancel_all(out, (TURN, BOT, ROUND))
    table.status = "finished" if cmd.match["status"] == "finished" else "playing"
    out.extend(restore_match(table, cmd.match, cmd.moves, runtime))
    table.audience.position_seq = table.seq  # everyone gets the reloaded position in a sync
    out.extend(table.sync(conn) for conn in table.audience.connections)
