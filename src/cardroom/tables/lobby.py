"""The lobby's commands at a table: seats taken and left, bots, house rules, the start, an
eviction, the table closed; and what the lobby may list."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardroom.games.base import OptionsError
from cardroom.tables import commands as c
from cardroom.tables import moves, presence, rematches, scheduling
from cardroom.tables.effects import (
    CloseSocket,
    Effect,
    MatchFields,
    Row,
    SeatRows,
    Send,
    TableClosed,
    TableFields,
    Write,
)
from cardroom.tables.errors import Refusal, bad_options, rule_of
from cardroom.tables.table_state import TableState
from cardroom.tables.timers import ABANDON

MIN_ABANDON = 5.0
MAX_ABANDON = 7 * 24 * 3600.0


def save_seats(table: TableState, out: list[Effect]) -> None:
    out.append(Write((SeatRows(table.seating.rows()),)))
    rematches.withdraw(table, "the seats changed", out)
    table.tell_table(out)
    presence.watch_people(table, out)


def join(table: TableState, cmd: c.Join, out: list[Effect]) -> int:
    """Sit down, or come back to your own seat (R2.4). Answers the table seat."""
    who = cmd.who
    if who.id in table.banned:
        raise Refusal(403, "forbidden", "the owner has evicted you from this table")
    mine = table.seat_of(who.id)
    if mine is not None:
        if cmd.seat is not None and cmd.seat != mine.number:
            raise Refusal(409, "conflict", f"you already sit at seat {mine.number}")
        if mine.away:
            mine.away = False
            match_seat = table.match_seat_of(who.id)
            if match_seat is not None:
                scheduling.end_autopilot(table, match_seat)
            save_seats(table, out)
            scheduling.schedule(table, out)
        return mine.number
    if table.playing():
        raise Refusal(
            409,
            "conflict",
            "a match is under way: seats empty at its start stay empty (R2.4); watch instead",
            "R2.4",
        )
    seat = table.seating.free_seat(cmd.seat)
    seat.player_id, seat.player_name, seat.away = who.id, who.name, False
    save_seats(table, out)
    return seat.number


def leave(table: TableState, cmd: c.Leave, out: list[Effect]) -> None:
    """Before a match the seat is freed; during one it waits for you (R2.4), but leaving a
    ranked match forfeits it (docs/league.md, "Ladder rules")."""
    seat = table.seat_of(cmd.who.id)
    if seat is None:
        raise Refusal(409, "conflict", "you have no seat at this table")
    match_seat = table.match_seat_of(cmd.who.id)
    if match_seat is not None and moves.ranked_match(table):
        moves.forfeit(table, match_seat, "left", out)  # the match is over: the seat is freed
        seat.player_id = seat.player_name = None
        seat.away = False
        save_seats(table, out)
        return
    if table.playing() and match_seat is not None:
        seat.away = True
    else:
        seat.player_id = seat.player_name = None
        seat.away = False
    save_seats(table, out)
    scheduling.schedule(table, out)  # a bot plays the seat while you are away


def bots_may_join(table: TableState, level: Any) -> str:
    """Bots of a known level, and only between matches (R2.4)."""
    if table.playing():
        raise Refusal(409, "conflict", "bots join between matches, not during one (R2.4)")
    return table.seating.check_level(level)


def add_bot(table: TableState, cmd: c.AddBot, out: list[Effect]) -> int:
    if cmd.who.id != table.owner.id and table.seat_of(cmd.who.id) is None:
        raise Refusal(403, "forbidden", "only the owner or a seated player may add bots")
    level = bots_may_join(table, cmd.level)
    seat = table.seating.free_seat(cmd.seat)
    seat.bot_level = level
    save_seats(table, out)
    return seat.number


def fill_with_bots(table: TableState, cmd: c.FillWithBots, out: list[Effect]) -> None:
    """Every free seat gets a bot of ``level``, stored in one write (quick play)."""
    if cmd.who.id != table.owner.id:
        raise Refusal(403, "forbidden", "only the owner may fill a table with bots")
    level = bots_may_join(table, cmd.level)
    for seat in table.seats:
        if seat.free:
            seat.bot_level = level
    save_seats(table, out)


def clear_seat(table: TableState, cmd: c.ClearSeat, out: list[Effect]) -> None:
    table.seating.require_owner(cmd.who)
    if table.playing():
        raise Refusal(409, "conflict", "seats change between matches; evict a player instead")
    if not isinstance(cmd.seat, int) or not 0 <= cmd.seat < table.capacity:
        raise Refusal(404, "not_found", f"no seat {cmd.seat} at this table")
    seat = table.seats[cmd.seat]
    seat.player_id = seat.player_name = seat.bot_level = None
    seat.away = False
    save_seats(table, out)


def rename(table: TableState, cmd: c.Rename, out: list[Effect]) -> None:
    """Seats are held by player id, so nothing moves; only the shown name changes."""
    who, changed = cmd.who, False
    for seat in table.seats:
        if seat.player_id == who.id and seat.player_name != who.name:
            seat.player_name = who.name
            changed = True
    if table.owner.id == who.id and table.owner.name != who.name:
        table.seating.owner = who
        changed = True
    table.audience.renamed(who)
    if changed:
        table.tell_table(out)


def configure(table: TableState, cmd: c.Configure, out: list[Effect]) -> None:
    """The owner's settings: house rules (with the turn timer) and the abandoned timeout."""
    table.seating.require_owner(cmd.who)
    fields: dict[str, Any] = {}
    options_json, abandon_after = table.options_json, table.abandon_after
    if cmd.options is not None:
        if table.playing():
            raise Refusal(409, "conflict", "house rules change between matches")
        if not isinstance(cmd.options, dict):
            raise Refusal(400, "bad_options", "options must be a JSON object")
        changes = {k: v for k, v in cmd.options.items() if k != "players"}
        try:
            checked = table.options_for(table.capacity, changes)
        except (OptionsError, TypeError) as error:
            raise bad_options(error) from None
        options_json = fields["options"] = checked.to_json()
    if cmd.abandon_after is not None:
        abandon_after = fields["abandon_after"] = check_abandon_after(cmd.abandon_after)
    if not fields:
        return
    table.options_json, table.abandon_after = options_json, abandon_after
    out.append(Write((TableFields(fields),)))
    if table.timers.armed(ABANDON):
        presence.watch_people(table, out, rearm=True)
    table.tell_table(out)


def start(table: TableState, cmd: c.Start, out: list[Effect]) -> None:
    """Any seated player starts a match with the occupied seats. After a match, starting
    again is a proposal the other people accept (or decline): one click never throws
    everyone into a new match; bots accept at once."""
    if table.seat_of(cmd.who.id) is None:
        raise Refusal(403, "forbidden", "only a seated player may start the match")
    if table.playing():
        raise Refusal(409, "conflict", "a match is already under way")
    if cmd.rematch and table.status != "finished":
        raise Refusal(409, "conflict", "a rematch follows a finished match")
    options = options_to_start(table)
    if table.status == "finished":
        rematches.agree(table, cmd.who, options, out)
        return
    moves.begin_match(table, options, table.seating.occupied(), out)
    table.tell_table(out)


def options_to_start(table: TableState) -> Any:
    try:
        return table.options_for(len(table.seating.occupied()))
    except OptionsError as error:
        raise Refusal(409, "illegal", str(error), rule_of(str(error))) from None


def evict(table: TableState, cmd: c.Evict, out: list[Effect]) -> None:
    """The owner removes a player; during a match a bot plays the seat from now on."""
    table.seating.require_owner(cmd.who)
    seat = table.seating.seated_player(cmd.seat)
    if seat.player_id == table.owner.id:
        raise Refusal(409, "conflict", "the owner cannot evict themselves; leave instead")
    evicted = seat.player_id
    assert evicted is not None
    table.banned.add(evicted)
    match_seat = table.match_seat_of(evicted)
    seat.player_id = seat.player_name = None
    seat.away = False
    moves.index_players(table)
    if table.match is not None and match_seat is not None and table.playing():
        table.match.autopilot.add(match_seat)
    banned = TableFields({"banned": sorted(table.banned)})
    out.append(Write((SeatRows(table.seating.rows()), banned)))
    rematches.withdraw(table, "the seats changed", out)
    table.tell_table(out)
    scheduling.schedule(table, out)


def close(table: TableState, cmd: c.CloseTable, out: list[Effect]) -> None:
    table.status = "closed"
    rows: list[Row] = [TableFields({"status": "closed"}, closing=True)]
    m = table.match
    if m is not None and not m.game_match.over:
        rows.append(MatchFields(m.id, {"status": "abandoned"}))
    out.append(Write(tuple(rows)))
    table.timers.cancel_all(out)
    table.tell_table(out)
    out.extend(CloseSocket(conn, 1000) for conn in table.audience.connections)
    out.append(TableClosed(cmd.reason))
    table.closed = True


def close_by_moderator(table: TableState, cmd: c.CloseByModerator, out: list[Effect]) -> None:
    """Everyone here hears why (a ``notice``), then the table closes."""
    notice = {"type": "notice", "code": "table_closed", "message": cmd.reason, "by": "moderator"}
    out.extend(Send(conn, notice) for conn in table.audience.connections)
    close(table, c.CloseTable("moderator"), out)


def is_listed(table: Mapping[str, Any]) -> bool:
    """Whether the lobby lists a public table (its ``Table`` JSON): waiting or playing, with
    one of its players connected now. Finished tables and tables whose players are all gone
    are not."""
    people = [s for s in table["seats"] if s.get("player")]
    return table["status"] in ("waiting", "playing") and any(s["connected"] for s in people)


def everyone_here(table: Mapping[str, Any], but: str | None = None) -> bool:
    """Whether every seated person (but the one asking) is connected now, and somebody is:
    only such a table matches a newcomer who asks to play with people."""
    people = [s for s in table["seats"] if s.get("player") and s["player"]["id"] != but]
    return bool(people) and all(s["connected"] for s in people)


def check_abandon_after(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise Refusal(400, "bad_request", "abandon_after is a number of seconds")
    if not MIN_ABANDON <= value <= MAX_ABANDON:
        raise Refusal(
            400, "bad_request", f"abandon_after is {MIN_ABANDON:.0f} to {MAX_ABANDON:.0f} seconds"
        )
    return float(value)
