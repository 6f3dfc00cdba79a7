"""What the timers and bots bring back: a fired timer (the abandoned table closed, the next
deal, a bot asked), a turn timed out (R7.3) and the autopilot that takes over after repeated
timeouts, a bot's move, and the league's news after a match. Which timer to arm and which bot
to ask is ``scheduling.py``'s."""

from __future__ import annotations

from typing import Any

from cardroom.games.base import IllegalMove
from cardroom.tables import commands as c
from cardroom.tables import lobby, moves, presence, scheduling
from cardroom.tables.effects import Effect
from cardroom.tables.events import table_event
from cardroom.tables.table_state import TableState
from cardroom.tables.timers import ABANDON, BOT, ROUND, TURN


def timer_fired(table: TableState, cmd: c.TimerFired, out: list[Effect]) -> None:
    if not table.timers.fired(cmd.timer, cmd.key):
        return  # a timer that was re-armed or cancelled meanwhile
    if cmd.timer == ABANDON:
        if not presence.people_here(table):
            lobby.close(table, c.CloseTable("abandoned"), out)
    elif cmd.timer == ROUND:
        moves.next_round(table, out)
    elif cmd.timer == BOT:
        scheduling.think(table, cmd.key, out)
    elif cmd.timer == TURN:
        timed_out(table, cmd.key, out)


def timed_out(
    table: TableState,
    key: tuple[Any, ...],
    out: list[Effect],
    pre: list[dict[str, Any]] | None = None,
) -> None:
    """R7.3: the turn ends with no discard; repeated timeouts hand the seat to a bot."""
    m = table.match
    if key != scheduling.position_key(table) or m is None or not table.playing():
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
        and scheduling.autopilot_level(table) is not None
    ):
        m.autopilot.add(seat)
        pre.append(table_event("autopilot", seat, on=True))
    moves.play(table, seat, m.game_match.timeout_action(), out, pre=pre)


def bot_moved(table: TableState, cmd: c.BotMoved, out: list[Effect]) -> None:
    m = table.match
    if cmd.key != scheduling.position_key(table) or m is None or not table.playing():
        return
    try:
        moves.play(table, cmd.seat, cmd.action, out)
    except IllegalMove:
        moves.play(table, cmd.seat, m.game_match.timeout_action(), out)


def league_news(table: TableState, cmd: c.LeagueNews, out: list[Effect]) -> None:
    """Achievements and rating changes of the match just finished, told after its end."""
    if not cmd.events or table.match is None or table.match.id != cmd.match_id:
        return
    table.tell_news(cmd.events, out)
