"""Skipping the turn of someone who is not really there: offline, or idle at a table without
a turn timer. It counts as a timeout (R7.3)."""

from __future__ import annotations

import math

from cardroom.tables import commands as c
from cardroom.tables import pacing, scheduling
from cardroom.tables.effects import Effect
from cardroom.tables.errors import Refusal
from cardroom.tables.events import table_event
from cardroom.tables.table_state import TableState


def skip_turn(table: TableState, cmd: c.SkipTurn, out: list[Effect]) -> None:
    """A seated player (or the owner) skips the turn of someone who is not really there:
    offline for ``claim_offline_after`` seconds, or idle for ``claim_idle_after`` at a
    table without a turn timer. It counts as a timeout (R7.3): a few in a row and a bot
    plays the seat until its player is back."""
    who = cmd.who
    if table.seat_of(who.id) is None and who.id != table.owner.id:
        raise Refusal(403, "forbidden", "only a seated player may skip someone's turn")
    m = table.match
    seat = m.game_match.current if m is not None and table.playing() else None
    if m is None or seat is None:
        raise Refusal(409, "conflict", "nobody is to play right now")
    if table.match_seat_of(who.id) == seat:
        raise Refusal(409, "conflict", "it is your own turn: play it")
    wait = claim_in(table)
    if wait is None or wait > 0:
        raise Refusal(409, "conflict", why_not_claimable(table, seat, wait))
    pacing.timed_out(
        table,
        scheduling.position_key(table),
        out,
        pre=[table_event("skipped", seat, by=who.id, name=who.name)],
    )


def claim_in(table: TableState) -> float | None:
    """Seconds until the current turn may be skipped by the others (0: now); None when it
    may not be: no match being played, between rounds, a bot's turn (autopilot included),
    or a player who is here at a table whose turn timer will skip the turn itself."""
    m = table.match
    if m is None or not table.playing() or m.game_match.over:
        return None
    seat = m.game_match.current
    if seat is None or scheduling.bot_level_for(table, seat) is not None:
        return None
    player = table.seats[m.seats[seat]].player_id
    times = []
    if player is None or player not in table.audience.players():
        since = table.gone_since.get(player, table.opened_at) if player else table.opened_at
        times.append(since + table.settings.claim_offline_after)
    if not getattr(m.game_match.options, "turn_timer", None):
        times.append(table.last_step_at + table.settings.claim_idle_after)
    return round(max(0.0, min(times) - table.now), 1) if times else None


def why_not_claimable(table: TableState, seat: int, wait: float | None) -> str:
    assert table.match is not None
    name = table.seats[table.match.seats[seat]].player_name or f"seat {seat + 1}"
    if wait is None:
        if scheduling.bot_level_for(table, seat) is not None:
            return f"a bot is playing {name}'s turn: there is nothing to skip"
        return f"{name} is here and the turn timer skips the turn when it runs out (R7.3)"
    here = table.seats[table.match.seats[seat]].player_id in table.audience.players()
    why = (
        f"{name} is here: a turn can be skipped once its player has been idle for "
        f"{table.settings.claim_idle_after:.0f} s"
        if here
        else f"{name} is offline: a turn can be skipped once its player has been gone for "
        f"{table.settings.claim_offline_after:.0f} s"
    )
    return f"{why} (in {math.ceil(wait)} s)"
