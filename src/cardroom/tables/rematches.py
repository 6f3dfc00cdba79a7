"""A rematch after a match: proposed by one player, accepted by every person seated (bots
always are), declined or withdrawn when the seats change."""

from __future__ import annotations

from typing import Any

from cardroom.tables import commands as c
from cardroom.tables import moves
from cardroom.tables.effects import Effect
from cardroom.tables.errors import Refusal
from cardroom.tables.events import table_event
from cardroom.tables.people import Identity
from cardroom.tables.table_state import Rematch, TableState


def agree(table: TableState, who: Identity, options: Any, out: list[Effect]) -> None:
    """``who`` proposes a rematch, or accepts the one proposed; the last yes starts it."""
    proposal = table.rematch
    seat = table.match_seat_of(who.id)
    if proposal is None:
        proposal = table.rematch = Rematch(who, {who.id})
        news = table_event("rematch_proposed", seat, by=who.id, name=who.name)
    elif who.id in proposal.accepted:
        return
    else:
        proposal.accepted.add(who.id)
        news = table_event("rematch_accepted", seat, by=who.id, name=who.name)
    alone = news["kind"] == "rematch_proposed" and not waits_for(table)
    if not alone:  # against bots only, a rematch simply starts
        table.tell_news([news], out)
    if waits_for(table):
        table.tell_table(out)
        return
    table.rematch = None
    moves.begin_match(table, options, table.seating.occupied(), out)
    table.tell_table(out)


def decline(table: TableState, cmd: c.DeclineRematch, out: list[Effect]) -> None:
    """A seated player says no to the rematch proposed (its proposer: withdraws it)."""
    who = cmd.who
    if table.seat_of(who.id) is None:
        raise Refusal(403, "forbidden", "only a seated player may answer a rematch")
    if table.rematch is None:
        raise Refusal(409, "conflict", "no rematch has been proposed")
    table.rematch = None
    news = table_event("rematch_declined", table.match_seat_of(who.id), by=who.id, name=who.name)
    table.tell_news([news], out)
    table.tell_table(out)


def withdraw(table: TableState, reason: str, out: list[Effect]) -> None:
    if table.rematch is not None:
        table.rematch = None
        table.tell_news([table_event("rematch_withdrawn", reason=reason)], out)


def waits_for(table: TableState) -> list[int]:
    """The table seats of the people who have not accepted the proposed rematch."""
    if table.rematch is None:
        return []
    accepted = table.rematch.accepted
    return [
        s.number for s in table.seats if s.player_id is not None and s.player_id not in accepted
    ]


def to_json(table: TableState) -> dict[str, Any] | None:
    if table.rematch is None:
        return None
    waiting = waits_for(table)
    accepted = [s for s in table.seating.occupied() if s not in waiting]
    return {"by": table.rematch.by.to_json(), "accepted": accepted, "waiting": waiting}
