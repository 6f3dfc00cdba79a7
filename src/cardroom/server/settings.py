"""Server settings: defaults for a club on one machine, overridable by environment or flags.

Every field reads ``CARDROOM_<FIELD>`` (e.g. ``CARDROOM_DB_URL``, ``CARDROOM_PORT``).
"""

from __future__ import annotations

import dataclasses
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

WEB_DIR = Path(__file__).resolve().parent.parent / "web"


@dataclass(frozen=True, slots=True)
class Settings:
    db_url: str = "sqlite:///var/cardroom.db"
    host: str = "127.0.0.1"
    port: int = 8000
    secret: str = ""  # token signing key; empty: one made once and kept in the database
    clock_speed: float = 1.0  # >1 makes table time (timers, pauses) run faster: for tests
    bot_delay: float = 0.8  # seconds a bot waits before each move, so people can follow
    round_pause: float = 5.0  # seconds between a round's summary and the next deal
    abandon_after: float = 300.0  # default seconds a table without people stays open
    autopilot_after: int = 3  # timeouts in a row before a bot plays the seat (R7.3)
    autopilot_level: str = "easy"  # the level that plays for absent players
    bot_executor: str = "thread"  # where bots think: thread | process | inline
    bot_inline_below: float = 0.002  # seconds: a bot that thinks less runs on the loop
    max_tables: int = 2000
    max_message: int = 4096  # bytes per WebSocket message
    max_body: int = 16384  # bytes per HTTP request body
    rate: float = 20.0  # messages per second per socket, on average
    rate_burst: int = 40
    ws_impl: str = "auto"  # uvicorn's WebSocket implementation: auto | websockets | wsproto ...
    ws_compression: bool = False  # permessage-deflate: less bandwidth, much more CPU per move
    switch_interval: float = 0.0005  # seconds; short GIL slices keep thread hand-offs quick
    gc_thresholds: tuple[int, int, int] = (20000, 20, 50)
    history: int = 256  # events kept per table for reconnecting clients
    log_level: str = "info"
    # Several processes sharing PostgreSQL (docs/scaling.md): empty means this process alone.
    redis_url: str = ""
    redis_prefix: str = "cardroom:"  # keys and channels of one deployment (tests: one each)
    lease_ttl: float = 10.0  # seconds a dead process keeps its tables before others take over
    node_id: str = ""  # this process in leases; empty: host-pid-random
    web_dir: Path = field(default=WEB_DIR)

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """Defaults, then ``CARDROOM_*`` variables, then explicit ``overrides`` (not None)."""
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = os.environ.get(f"CARDROOM_{f.name.upper()}")
            if raw is not None and raw != "":
                values[f.name] = _convert(f.default, raw)
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)


def _convert(default: Any, raw: str) -> Any:
    if isinstance(default, bool):
        return raw.lower() in ("1", "true", "yes", "on")
    if isinstance(default, int):
        return int(raw)
    if isinstance(default, float):
        return float(raw)
    if isinstance(default, Path):
        return Path(raw)
    if isinstance(default, tuple):
        return tuple(int(part) for part in raw.split(","))
    return raw
