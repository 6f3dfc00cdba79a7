"""Who is at a table's sockets, and what the table has told them.

Every message that changes what a client shows carries a sequence number; the last ones are
kept so a reconnecting client is sent what it missed (or the whole picture). Each seat's copy
of an event carries that seat's own view only, rendered by the master; everyone else gets the
spectator's. The action ids a player already had applied are remembered, so a resent action
is acknowledged, not applied twice.
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardroom.tables.effects import Effect, Send, Write
from cardroom.tables.people import Identity
from cardroom.tables.wire import Deferred, Personal, encode

RECENT_ACTION_IDS = 64
"""Action keys remembered per player: a client resends only what was not acknowledged yet
(a move or two); more would cost every busy table memory for nothing."""
KEY_BYTES = 8  # an action key's length (``action_key``)
STORED_ACTION_KEYS = 128  # of a restored match's last stored actions, all seats together
HISTORY_BYTES = 8 * 1024
"""Broadcasts a table keeps, in bytes of text: about 30 of them, a few turns of play. A client
that missed more gets a ``sync``, one message, which is then also the cheaper way to catch up."""

Render = Callable[["int | None"], dict[str, Any]]
"""seat -> the fields only that seat receives with an event (its own view, its legal list)."""


@dataclass(slots=True)
class Sent:
    """A broadcast kept for reconnecting clients: its public part, encoded, and whom it
    acknowledged."""

    seq: int
    text: str
    event: bool
    ack_player: str | None = None
    ack_id: str | None = None


def action_key(player: str, action_id: str) -> bytes:
    """Who sent an action and the id its client gave it, in 8 bytes: what a move stores and
    the table remembers to apply a resent action once (a collision is a 2**-64 chance)."""
    return hashlib.blake2b(f"{player}\0{action_id}".encode(), digest_size=KEY_BYTES).digest()


class KeyRing:
    """The last ``size`` action keys of one player, in one buffer of 8-byte slots: a busy
    table remembers them for every player it has seen, so they cost 8 bytes each, not the
    ~170 of a bytes object in an ordered dict. A lookup scans the buffer (memchr-fast)."""

    __slots__ = ("_keys", "_next", "_size")

    def __init__(self, size: int) -> None:
        self._keys = bytearray()
        self._next = 0
        self._size = size

    def add(self, key: bytes) -> None:
        assert len(key) == KEY_BYTES
        at = self._next * KEY_BYTES
        if len(self._keys) < self._size * KEY_BYTES:
            self._keys += key
        else:
            self._keys[at : at + KEY_BYTES] = key
        self._next = (self._next + 1) % self._size

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, bytes) or len(key) != KEY_BYTES:
            return False
        found = self._keys.find(key)
        while found != -1 and found % KEY_BYTES:  # a match across two slots is no match
            found = self._keys.find(key, found + 1)
        return found != -1

    def __len__(self) -> int:
        return len(self._keys) // KEY_BYTES


class Audience:
    def __init__(self, seq: int, history: int, history_bytes: int = HISTORY_BYTES) -> None:
        self.connections: dict[str, Identity] = {}  # connection id -> who
        self.batching: set[str] = set()  # the connections that take a command's news as one frame
        self.seq = seq
        # The seq of the last message that changed the game position (an ``event``): what a
        # client's ``after`` is compared with, so presence and seat news never make it stale.
        self.position_seq = seq
        self.history: deque[Sent] = deque(maxlen=history)
        self.history_bytes = history_bytes
        self._kept_bytes = 0
        self.recent_ids: dict[str, KeyRing] = {}  # player -> the keys of their last actions
        self.stored_keys: set[bytes] = set()  # the last ones a restored match had stored

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

    def arrive(self, conn: str, who: Identity, batch: bool = False) -> bool:
        """A socket said hello; True if it is the player's first one here. A ``batch`` socket
        takes what one command tells it as one frame (``TableMaster.deliver``)."""
        first = who.id not in self.players()
        self.connections[conn] = who
        if batch:
            self.batching.add(conn)
        return first

    def depart(self, conn: str) -> Identity | None:
        """A socket is gone; who left if it was the player's last one here (else None)."""
        self.batching.discard(conn)
        who = self.connections.pop(conn, None)
        return who if who is not None and who.id not in self.players() else None

    def renamed(self, who: Identity) -> None:
        for conn, known in self.connections.items():
            if known.id == who.id:
                self.connections[conn] = who

    # -- exactly once --

    def applied(self, player: str, key: bytes) -> bool:
        """Whether the action of ``key`` (``action_key``) was applied already."""
        return key in self.recent_ids.get(player, ()) or key in self.stored_keys

    def remember(self, player: str, key: bytes) -> None:
        recent = self.recent_ids.get(player)
        if recent is None:
            recent = self.recent_ids[player] = KeyRing(RECENT_ACTION_IDS)
        recent.add(key)

    def remember_stored(self, keys: list[bytes]) -> None:
        """The keys of a restored match's last actions (``MoveRow.sent_by``)."""
        self.stored_keys = set(keys[-STORED_ACTION_KEYS:])

    # -- telling --

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def _keep(self, sent: Sent) -> None:
        """Keep a broadcast for reconnecting clients: the last ``history`` of them, within
        ``history_bytes`` of text (older ones are forgotten: their clients get a ``sync``)."""
        if self.history.maxlen == 0:
            return
        if len(self.history) == self.history.maxlen:
            self._kept_bytes -= len(self.history.popleft().text)
        self.history.append(sent)
        self._kept_bytes += len(sent.text)
        while self._kept_bytes > self.history_bytes and len(self.history) > 1:
            self._kept_bytes -= len(self.history.popleft().text)

    def tell_table(
        self, table: dict[str, Any], out: list[Effect], extra: dict[str, Any] | None = None
    ) -> None:
        """Everyone hears the table's new description (seats, presence, status)."""
        message = {"type": "table", "seq": self.next_seq(), "table": table, **(extra or {})}
        text = encode(message)
        self._keep(Sent(self.seq, text, event=False))
        shared = Personal(text, {})
        out.extend(Send(conn, shared) for conn in self.connections)
        out.append(Write((), wait=False))  # the table's seq, stored (the fence writes it)

    def tell_events(
        self,
        message: dict[str, Any],
        seat_of: Callable[[str], int | None],
        render: Render,
        out: list[Effect],
        ack: tuple[str, str] | None = None,
    ) -> None:
        """An ``event`` message (its seq already taken) to everyone, each with their own view;
        the player whose action it was also gets its id back (``ack``). The shared part is
        encoded once; each seat's own fields are rendered once however many sockets it has."""
        self.position_seq = message["seq"]
        ack_player, ack_id = ack or (None, None)
        text = encode(message)
        self._keep(Sent(message["seq"], text, True, ack_player, ack_id))
        own: dict[int | None, dict[str, Any]] = {}
        copies: dict[tuple[int | None, bool], Personal] = {}
        batching = self.batching
        for conn, who in self.connections.items():
            seat = seat_of(who.id)
            acked = who.id == ack_player
            if conn in batching:  # its own fields are rendered once the command is told
                out.append(Send(conn, Deferred(text, seat, ack_id if acked else None)))
                continue
            copy = copies.get((seat, acked))
            if copy is None:
                fields = own.get(seat)
                if fields is None:
                    fields = own[seat] = render(seat)
                copy = copies[(seat, acked)] = Personal(
                    text, {**fields, "ack": ack_id} if acked else fields
                )
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
        last_event = max((i for i, sent in enumerate(missed) if sent.event), default=-1)
        if last_event < 0:
            out.append(Send(conn, sync()))
            return
        for i, sent in enumerate(missed):
            if not sent.event:
                out.append(Send(conn, Personal(sent.text, {})))
                continue
            own: dict[str, Any] = render(seat) if i == last_event else {"view": None}
            own["replayed"] = True
            if sent.ack_player == player:
                own["ack"] = sent.ack_id
            out.append(Send(conn, Personal(sent.text, own)))

    @staticmethod
    def error(
        conn: str,
        code: str,
        message: str,
        rule: str | None = None,
        action_id: str | None = None,
        about: str | None = None,
        reason: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> Send:
        """A refusal for one socket; ``about`` names what was refused when it was no move
        (``chat``, ``hint``)."""
        error: dict[str, Any] = {
            "type": "error",
            "id": action_id,
            "code": code,
            "rule": rule,
            "message": message,
        }
        if about is not None:
            error["about"] = about
        if reason is not None:  # the sentence's code and parameters, for the client's words
            error.update(reason=reason, params=params or {})
        return Send(conn, error)
