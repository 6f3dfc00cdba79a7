"""Who is at a table's sockets, and what the table has told them.

Every message that changes what a client shows carries a sequence number; the last ones are
kept so a reconnecting client is sent what it missed (or the whole picture). Each seat's copy
of an event carries that seat's own view only, rendered by the master; everyone else gets the
spectator's. The action ids a player already had applied are remembered, so a resent action
is acknowledged, not applied twice.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardroom.tables.effects import Effect, Send, TableFields, Write
from cardroom.tables.people import Identity

RECENT_ACTION_IDS = 256

Render = Callable[[dict[str, Any], "int | None", "str | None"], dict[str, Any]]
"""(message, seat, ack id) -> the message as that seat receives it, with its own view."""


@dataclass(slots=True)
class Sent:
    """A broadcast kept for reconnecting clients: its public part and who it acknowledged."""

    seq: int
    message: dict[str, Any]
    ack_player: str | None = None
    ack_id: str | None = None


class Audience:
    def __init__(self, seq: int, history: int) -> None:
        self.connections: dict[str, Identity] = {}  # connection id -> who
        self.seq = seq
        # The seq of the last message that changed the game position (an ``event``): what a
        # client's ``after`` is compared with, so presence and seat news never make it stale.
        self.position_seq = seq
        self.history: deque[Sent] = deque(maxlen=history)
        self.recent_ids: dict[str, OrderedDict[str, None]] = {}

    # -- who is here --

    def players(self) -> set[str]:
        return {who.id for who in self.connections.values()}

    def watchers(self, seated: set[str], limit: int) -> list[Identity]:
        """The first `limit` people connected here without a seat, in the order they came."""
        seen: dict[str, Identity] = {}
        for who in self.connections.values():
            if who.id not in seated and who.id not in seen:
                seen[who.id] = who
                if len(seen) == limit:
                    break
        return list(seen.values())

    def arrive(self, conn: str, who: Identity) -> bool:
        """A socket said hello; True if it is the player's first one here."""
        first = who.id not in self.players()
        self.connections[conn] = who
        return first

    def depart(self, conn: str) -> Identity | None:
        """A socket is gone; who left if it was the player's last one here (else None)."""
        who = self.connections.pop(conn, None)
        return who if who is not None and who.id not in self.players() else None

    def renamed(self, who: Identity) -> None:
        for conn, known in self.connections.items():
            if known.id == who.id:
                self.connections[conn] = who

    # -- exactly once --

    def applied(self, player: str, action_id: str) -> bool:
        return action_id in self.recent_ids.get(player, ())

    def remember(self, player: str, action_id: str) -> None:
        recent = self.recent_ids.setdefault(player, OrderedDict())
        recent[action_id] = None
        if len(recent) > RECENT_ACTION_IDS:
            recent.popitem(last=False)

    # -- telling --

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def tell_table(
        self, table: dict[str, Any], out: list[Effect], extra: dict[str, Any] | None = None
    ) -> None:
        """Everyone hears the table's new description (seats, presence, status)."""
        message = {"type": "table", "seq": self.next_seq(), "table": table, **(extra or {})}
        self.history.append(Sent(self.seq, message))
        out.extend(Send(conn, message) for conn in self.connections)
        out.append(Write((TableFields({"seq": self.seq}),), wait=False))

    def tell_events(
        self,
        message: dict[str, Any],
        seat_of: Callable[[str], int | None],
        render: Render,
        out: list[Effect],
        ack: tuple[str, str] | None = None,
    ) -> None:
        """An ``event`` message (its seq already taken) to everyone, each with their own view;
        the player whose action it was also gets its id back (``ack``)."""
        self.position_seq = message["seq"]
        ack_player, ack_id = ack or (None, None)
        self.history.append(Sent(message["seq"], message, ack_player, ack_id))
        rendered: dict[tuple[int | None, bool], dict[str, Any]] = {}
        for conn, who in self.connections.items():
            seat = seat_of(who.id)
            acked = who.id == ack_player
            copy = rendered.get((seat, acked))
            if copy is None:
                copy = rendered[(seat, acked)] = render(message, seat, ack_id if acked else None)
            out.append(Send(conn, copy))

    def resume(
        self,
        conn: str,
        since: int | None,
        seat: int | None,
        render: Render,
        sync: Callable[[], dict[str, Any]],
        out: list[Effect],
    ) -> None:
        """Send what ``conn`` missed since ``since``, or the whole picture (``sync()``).

        The reply always ends with the current view: the last replayed event carries it, and
        when no event was missed (only presence or seat news, or nothing) a ``sync`` is sent
        instead of the table messages, since a reloaded page has no view to build on.
        """
        player = self.connections[conn].id
        oldest = self.history[0].seq if self.history else self.seq + 1
        missed = (
            []
            if since is None or since > self.seq or since < oldest - 1
            else [sent for sent in self.history if sent.seq > since]
        )
        last_event = max(
            (i for i, sent in enumerate(missed) if sent.message["type"] == "event"), default=-1
        )
        if last_event < 0:
            out.append(Send(conn, sync()))
            return
        for i, sent in enumerate(missed):
            ack = sent.ack_id if sent.ack_player == player else None
            if sent.message["type"] != "event":
                out.append(Send(conn, sent.message))
            elif i == last_event:
                out.append(Send(conn, {**render(sent.message, seat, ack), "replayed": True}))
            else:
                message = {**sent.message, "view": None, "replayed": True}
                if ack is not None:
                    message["ack"] = ack
                out.append(Send(conn, message))

    @staticmethod
    def error(
        conn: str, code: str, message: str, rule: str | None = None, action_id: str | None = None
    ) -> Send:
        return Send(
            conn,
            {"type": "error", "id": action_id, "code": code, "rule": rule, "message": message},
        )
