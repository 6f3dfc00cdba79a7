"""What happens next: the bot to ask, the turn timer, the next deal; the level of the
autopilot that plays for an absent player, and its end. Every command that changes the
position ends here; what the timers and bots answer is ``pacing.py``'s."""

from __future__ import annotations

from typing import Any

from cardroom.games.base import derive_seed
from cardroom.tables.effects import Effect, Think
from cardroom.tables.table_state import TableState
from cardroom.tables.timers import BOT, ROUND, TURN


def position_key(table: TableState) -> tuple[Any, ...]:
    m = table.match
    return (m.id, m.moves) if m is not None else ()


def bot_level_for(table: TableState, seat: int) -> str | None:
    assert table.match is not None
    table_seat = table.seats[table.match.seats[seat]]
    if table_seat.bot_level is not None:
        return table_seat.bot_level
    if seat in table.match.autopilot or table_seat.away or table_seat.player_id is None:
        return autopilot_level(table)
    return None


def autopilot_level(table: TableState) -> str | None:
    """The level that plays for an absent player; None for a game without bots (its turn
    timer plays the game's timeout instead)."""
    level = table.settings.autopilot_level
    return level if level in table.levels else None


def end_autopilot(table: TableState, seat: int) -> bool:
    """The player is back: their seat is theirs again (R7.3)."""
    m = table.match
    if m is None:
        return False
    m.timeouts[seat] = 0
    if seat in m.autopilot and table.seats[m.seats[seat]].player_id is not None:
        m.autopilot.discard(seat)
        return True
    return False


def schedule(table: TableState, out: list[Effect], deadline: float | None = None) -> None:
    """Arm what the position needs: a bot's move, the turn timer, or the next deal."""
    timers = table.timers
    timers.cancel(TURN, out)
    m = table.match
    if m is None or not table.playing() or m.game_match.over:
        timers.cancel(BOT, out)
        return
    gm = m.game_match
    key = position_key(table)
    if gm.between_rounds:
        timers.cancel(BOT, out)
        if not timers.armed(ROUND):
            timers.arm(ROUND, table.now + table.settings.round_pause, key, out)
        return
    seat = gm.current
    assert seat is not None
    if bot_level_for(table, seat) is not None:
        if table.settings.bot_delay <= 0:  # no pause to show: the bot is asked at once
            timers.cancel(BOT, out)
            if table.asked != key:
                think(table, key, out)
        elif not timers.armed(BOT, key):
            timers.arm(BOT, table.now + table.settings.bot_delay, key, out)
        return
    timers.cancel(BOT, out)
    seconds = getattr(gm.options, "turn_timer", None)
    if seconds:
        timers.arm(TURN, deadline if deadline is not None else table.now + seconds, key, out)


def think(table: TableState, key: tuple[Any, ...], out: list[Effect]) -> None:
    """Ask the seat's bot, handing it its own view and a seed that reveals no deal."""
    m = table.match
    if key != position_key(table) or m is None or not table.playing():
        return
    seat = m.game_match.current
    level = bot_level_for(table, seat) if seat is not None else None
    if seat is None or level is None:
        return
    table.asked = key
    seed = m.bot_seeds.get((seat, level))
    if seed is None:  # one HMAC per seat and level, not per decision
        seed = m.bot_seeds[(seat, level)] = derive_seed(m.game_match.seed, "bot", seat, level)
    out.append(Think(key, seat, level, seed, m.game_match.view(seat)))
