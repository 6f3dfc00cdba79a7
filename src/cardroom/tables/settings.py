"""The pace of a table: the server's settings that the master needs. Apart from the master so
its command modules read them through ``table_state.TableState`` without importing it."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.tables.audience import HISTORY_BYTES


@dataclass(frozen=True, slots=True)
class TableSettings:
    """The pace of a table: the server's settings that the master needs."""

    bot_delay: float = 0.8
    round_pause: float = 5.0
    autopilot_after: int = 3
    forfeit_after: int = 3  # turns timed out in a row that forfeit a ranked match (the ladder)
    autopilot_level: str = "medium"
    history: int = 256  # broadcasts kept for reconnecting clients ...
    history_bytes: int = HISTORY_BYTES  # ... within so many bytes of JSON text
    max_sockets: int = 64  # sockets open to the table, beyond which only seated players get in
    max_sockets_per_player: int = 4  # sockets one player opens to the table
    claim_offline_after: float = 20.0  # seconds offline before others may skip the turn
    claim_idle_after: float = 120.0  # seconds idle (no turn timer) before others may skip it
    chat_length: int = 200  # characters in one chat line
    chat_burst: int = 5  # chat lines one player may send at once ...
    chat_every: float = 3.0  # ... then one every so many seconds
    chat_kept: int = 30  # lines a (re)connecting socket is sent
