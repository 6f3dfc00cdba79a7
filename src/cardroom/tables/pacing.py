"""What happens next: the bot to ask, the turn timer, the next deal; timeouts (R7.3) and the
autopilot that plays for an absent player."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardroom.games.base import IllegalMove, derive_seed
from cardroom.tables import commands as c
from cardroom.tables import lobby, moves, presence
from cardroom.tables.effects import Effect, Think
from cardroom.tables.events import table_event
from cardroom.tables.timers import ABANDON, BOT, ROUND, TURN

if TYPE_CHECKING:
    from cardroom.tables.master import TableMaster


def position_key(table: TableMaster) -> tuple[Any, ...]:
    m = table.match
    return (m.id, m.moves) if m is not None else ()


def bot_level_for(table: TableMaster, seat: int) -> str | None:
    assert table.match is not None
    table_seat = table.seats[table.match.seats[seat]]
    if table_seat.bot_level is not None:
        return table_seat.bot_level
    if seat in table.match.autopilot or table_seat.away or table_seat.player_id is None:
        return autopilot_level(table)
    return None


def autopilot_level(table: TableMaster) -> str | None:
    """The level that plays for an absent player; None for a game without bots (its turn
    timer plays the game's timeout instead)."""
    level = table.settings.autopilot_level
    return level if level in table.levels else None


def end_autopilot(table: TableMaster, seat: int) -> bool:
    """The player is back: their seat is theirs again (R7.3)."""
    m = table.match
    if m is None:
        return False
    m.timeouts[seat] = 0
    if seat in m.autopilot and table.seats[m.seats[seat]].player_id is not None:
        m.autopilot.discard(seat)
        return True
    return False


def schedule(table: TableMaster, out: list[Effect], deadline: float | None = None) -> None:
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


def timer_fired(table: TableMaster, cmd: c.TimerFired, out: list[Effect]) -> None:
    if not table.timers.fired(cmd.timer, cmd.key):
        return  # a timer that was re-armed or cancelled meanwhile
    if cmd.timer == ABANDON:
        if not presence.people_here(table):
            lobby.close(table, c.CloseTable("abandoned"), out)
    elif cmd.timer == ROUND:
        moves.next_round(table, out)
    elif cmd.timer == BOT:
        think(table, cmd.key, out)
    elif cmd.timer == TURN:
        timed_out(table, cmd.key, out)


def timed_out(
    table: TableMaster,
    key: tuple[Any, ...],
    out: list[Effect],
    pre: list[dict[str, Any]] | None = None,
) -> None:
    """R7.3: the turn ends with no discard; repeated timeouts hand the seat to a bot."""
    m = table.match
    if key != position_key(table) or m is None or not table.playing():
        return
    seat = m.game_match.current
    if seat is None:
        return
    m.timeouts[seat] += 1
    pre = list(pre or [])
    if m.timeouts[seat] >= table.settings.forfeit_after and moves.ranked_match(table):
        # The ladder: too many turns in a row timed out of a ranked match forfeit it.
        moves.forfeit(table, seat, "timeouts", out, pre=pre)
        return
    if (
        m.timeouts[seat] >= table.settings.autopilot_after
        and seat not in m.autopilot
        and autopilot_level(table) is not None
    ):
        m.autopilot.add(seat)
        pre.append(table_event("autopilot", seat, on=True))
    moves.play(table, seat, m.game_match.timeout_action(), out, pre=pre)


def think(table: TableMaster, key: tuple[Any, ...], out: list[Effect]) -> None:
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


def bot_moved(table: TableMaster, cmd: c.BotMoved, out: list[Effect]) -> None:
    m = table.match
    if cmd.key != position_key(table) or m is None or not table.playing():
        return
    try:
        moves.play(table, cmd.seat, cmd.action, out)
    except IllegalMove:
        moves.play(table, cmd.seat, m.game_match.timeout_action(), out)


def league_news(table: TableMaster, cmd: c.LeagueNews, out: list[Effect]) -> None:
    """Achievements and rating changes of the match just finished, told after its end."""
    if not cmd.events or table.match is None or table.match.id != cmd.match_id:
        return
    table.tell_news(cmd.events, out)
