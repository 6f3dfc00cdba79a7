"""Server settings: defaults for a club on one machine, overridable by environment or flags.

Every field reads ``CARDROOM_<FIELD>`` (e.g. ``CARDROOM_DB_URL``, ``CARDROOM_PORT``); an empty
variable counts as unset. Values are checked when the settings are made, so a bad one stops
``cardroom serve`` with one line naming the variable, not a traceback from deep in a start.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from cardroom.league.ladder import LadderRules
from cardroom.store.database import SQLITE_CACHE_KB
from cardroom.tables.audience import HISTORY_BYTES

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
ENV_PREFIX = "CARDROOM_"

Positive = Annotated[float, Field(gt=0)]
NonNegative = Annotated[float, Field(ge=0)]
Count = Annotated[int, Field(ge=1)]


class SettingsError(ValueError):
    """A setting that cannot be used, in one line naming its variable and why."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, env_ignore_empty=True, frozen=True, extra="forbid"
    )

    db_url: str = "sqlite:///var/cardroom.db"
    sqlite_cache_kb: Count = SQLITE_CACHE_KB  # page cache per SQLite connection (database.py)
    host: str = "127.0.0.1"
    # Peers whose X-Forwarded-For names the client (server/proxies.py, docs/deploy.md):
    # addresses or networks, comma-separated; empty: the header is ignored from everyone.
    trusted_proxies: str = ""
    port: Annotated[int, Field(ge=0, le=65535)] = 8000
    secret: str = ""  # token signing key; empty: one made once and kept in the database
    token_lifetime: Positive = 30 * 86400.0  # seconds a token is good for (GET /api/me renews)
    # Seconds a process trusts its copy of a player's name and token generation: with several
    # processes, a revoked token or a new name may go unnoticed by the others this long.
    player_cache_ttl: NonNegative = 10.0
    clock_speed: Positive = 1.0  # >1 makes table time (timers, pauses) run faster: for tests
    bot_delay: NonNegative = 0.8  # seconds a bot waits before each move, so people can follow
    round_pause: NonNegative = 30.0  # seconds a round's summary waits at most for "Continue"
    abandon_after: Positive = 300.0  # default seconds a table without people stays open
    autopilot_after: Count = 3  # timeouts in a row before a bot plays the seat (R7.3)
    autopilot_level: str = "medium"  # the level that plays for absent players: it never slips
    # The ladder's rules (docs/league.md, "Ladder rules"). Not enforced: the ranked queue
    # takes anyone and the league rates every ranked match (tests of other things only).
    ladder_enforced: bool = True
    forfeit_after: Count = 3  # turns timed out in a row that forfeit a ranked match
    ladder_casual_matches: Annotated[int, Field(ge=0)] = 3  # casual matches before ranked play
    ladder_pair_daily: Count = 3  # rated matches per pair of accounts per UTC day
    ladder_linked_days: Positive = 14.0  # days a shared address or device keeps two apart
    claim_offline_after: NonNegative = 20.0  # seconds offline before others may skip the turn
    claim_idle_after: NonNegative = 120.0  # seconds idle, no turn timer: then others may skip
    queue_max_wait: Positive = 1800.0  # seconds a ranked-queue socket may wait, then it is closed
    bot_executor: Literal["thread", "process", "inline"] = "thread"  # where bots think
    bot_inline_below: NonNegative = 0.002  # seconds: a bot that thinks less runs on the loop
    max_tables: Count = 2000
    max_message: Count = 4096  # bytes per WebSocket message
    max_body: Count = 16384  # bytes per HTTP request body
    header_timeout: Positive = 10.0  # seconds a request head may take (slow clients are closed)
    # Seconds a stop (SIGTERM) waits for open requests and sockets, and then for each step of
    # closing (tables, cluster, journal, bots): one that overruns is logged and left behind, so
    # a stop is bounded whatever it waits on.
    shutdown_grace: Count = 10
    rate: Positive = 20.0  # messages per second per socket, on average
    rate_burst: Count = 40
    # Abuse limits (docs/protocol.md section 5). Rates are per second on average, bursts are
    # how many may come at once; a player and their client address each have a bucket.
    players_address_rate: Positive = 1.0  # guests made (POST /api/players) per client address
    players_address_burst: Count = 30
    max_tables_per_player: Count = 10  # open tables one player owns (created, not closed)
    create_rate: Positive = 0.2  # tables created per player
    create_burst: Count = 10
    create_address_rate: Positive = 1.0  # tables created per client address
    create_address_burst: Count = 30
    guest_max_abandon_after: Positive = 3600.0  # seconds a guest's empty table may stay open
    named_rate: Positive = 1.0  # named private table lookups per player
    named_burst: Count = 20
    named_address_rate: Positive = 5.0  # named private table lookups per client address
    named_address_burst: Count = 60
    signin_rate: Positive = 0.1  # sign-ins and claims per name (or per player for a claim)
    signin_burst: Count = 5
    signin_address_rate: Positive = 0.5  # sign-ins and claims per client address
    signin_address_burst: Count = 20
    hash_workers: Count = 2  # password hashes (argon2: ~64 MiB each) running at once
    hash_wait: Positive = 10.0  # seconds a sign-in waits for a hashing slot before a 429
    review_address_rate: Positive = 0.2  # post-game reviews computed per client address
    review_address_burst: Count = 6
    review_workers: Count = 1  # reviews computing at once (a whole match scored by the expert)
    review_wait: Positive = 10.0  # seconds a review waits for its turn before a 429
    # The score keeper (docs/keeper.md): kept games per owner, their size, and write rates.
    keeper_max_games: Count = 100  # kept games one player owns
    keeper_max_rounds: Count = 200  # rounds in one kept game
    keeper_max_changes: Count = 2000  # changes (entries, corrections, undos) to one kept game
    keeper_rate: Positive = 2.0  # kept-game writes per player
    keeper_burst: Count = 60  # a phone back online sends its queued entries at once
    daily_rate: Positive = 8.0  # daily-deal requests (moves, attempts) per player
    daily_burst: Count = 40
    keeper_address_rate: Positive = 5.0  # kept-game writes per client address
    keeper_address_burst: Count = 200
    shared_address_rate: Positive = 2.0  # share-code lookups and viewer sockets per address
    shared_address_burst: Count = 60
    keeper_max_viewers: Count = 64  # sockets watching one shared kept game
    # Moderation (docs/operating.md): a staff member's actions (sanctions, lifts, handled
    # reports, closed tables, roles) and a player's reports, per second on average with bursts;
    # and how often each process reads the audit log for actions made elsewhere (the command
    # line; a broadcast lost on the way): actions through the API reach every process at once.
    moderation_rate: Positive = 1.0
    moderation_burst: Count = 30
    report_rate: Positive = 0.05
    report_burst: Count = 5
    moderation_poll: Positive = 2.0
    max_sockets_per_table: Count = 64  # WebSockets open to one table (seated players: always)
    max_sockets_per_player: Count = 4  # WebSockets one player opens to one table
    lobby_page_size: Count = 50  # tables per page of GET /api/tables by default
    lobby_max_page_size: Count = 200  # the largest per_page accepted
    ws_impl: str = "auto"  # uvicorn's WebSocket implementation: auto | websockets | wsproto ...
    ws_compression: bool = False  # permessage-deflate: less bandwidth, much more CPU per move
    switch_interval: Positive = 0.0005  # seconds; short GIL slices keep thread hand-offs quick
    # "20000,20,50" in the environment (NoDecode: not JSON)
    gc_thresholds: Annotated[tuple[int, int, int], NoDecode] = (20000, 20, 50)
    trim_every: Annotated[float, Field(ge=0)] = 2.0  # seconds between malloc_trim calls; 0: off
    # seconds between full garbage collections (closed sockets leave cycles); 0: Python's own
    collect_every: Annotated[float, Field(ge=0)] = 60.0
    # Threads for blocking work of requests (token reads, reviews, plots): each costs a stack,
    # a malloc arena and a database connection, and the GIL lets few run at once anyway.
    worker_threads: Count = 8
    history: Annotated[int, Field(ge=0)] = 256  # events kept per table for reconnecting clients
    history_bytes: Annotated[int, Field(ge=0)] = HISTORY_BYTES  # ... within so many bytes of JSON
    log_level: Literal["critical", "error", "warning", "info", "debug", "trace"] = "info"
    log_format: Literal["text", "json"] = "text"  # json: one object per line (server/logs.py)
    # Operators' view (docs/operating.md): metrics emitted at all (0: every emission a no-op);
    # GET /metrics with "Authorization: Bearer <metrics_token>" (no token: 404), and/or on a
    # port of its own (0: none), bound to metrics_host.
    metrics: bool = True
    metrics_token: str = ""
    metrics_port: Annotated[int, Field(ge=0, le=65535)] = 0
    metrics_host: str = "127.0.0.1"
    # GET /internal/probe: what the process holds, for `cardroom bench soak` (server/probe.py).
    probe: bool = False
    # Several processes sharing PostgreSQL (docs/scaling.md): empty means this process alone.
    redis_url: str = ""
    redis_prefix: str = "cardroom:"  # keys and channels of one deployment (tests: one each)
    lease_ttl: Positive = 10.0  # seconds a dead process keeps its tables before others take over
    node_id: str = ""  # this process in leases; empty: host-pid-random
    web_dir: Path = WEB_DIR
    # Tests only: tables take a set deal in their options (games/arranging.py), so a test can
    # say who plays first and what the stocks hold. Never on a public server.
    set_deals: bool = False

    @field_validator("gc_thresholds", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = tuple(part.strip() for part in value.split(","))
        if isinstance(value, tuple | list) and len(value) != 3:
            raise ValueError("three whole numbers, e.g. 20000,20,50")
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _networks(cls, value: str) -> str:
        from cardroom.server.proxies import parse_networks

        parse_networks(value)
        return value

    @field_validator("log_level", "log_format", mode="before")
    @classmethod
    def _lower_case(cls, value: Any) -> Any:
        return value.lower() if isinstance(value, str) else value

    @field_validator("autopilot_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        from cardroom.bots.levels import LEVELS

        if value not in LEVELS:
            raise ValueError(f"choose one of {', '.join(LEVELS)}")
        return value

    def ladder(self) -> LadderRules | None:
        """The ladder's rules the league and the ranked queue apply (None: not enforced)."""
        if not self.ladder_enforced:
            return None
        return LadderRules(
            casual_matches=self.ladder_casual_matches,
            pair_daily=self.ladder_pair_daily,
            linked_days=self.ladder_linked_days,
        )

    @classmethod
    def from_env(cls, **overrides: Any) -> Settings:
        """Defaults, then ``CARDROOM_*`` variables, then explicit ``overrides`` (not None);
        ``SettingsError`` names the first bad value."""
        try:
            return cls(**{k: v for k, v in overrides.items() if v is not None})
        except ValidationError as error:
            given = {key for key, value in overrides.items() if value is not None}
            raise SettingsError(describe(error, given)) from None


def describe(error: ValidationError, given: set[str] | frozenset[str] = frozenset()) -> str:
    """One line for the first problem: which variable (or given setting), the bad value, why."""
    problem = error.errors(include_url=False)[0]
    field = str(problem["loc"][0]) if problem["loc"] else "settings"
    where = field if field in given else ENV_PREFIX + field.upper()
    value = problem.get("input")
    shown = "" if isinstance(value, dict) else f"={value!r}"
    reason = str(problem["msg"]).removeprefix("Value error, ")
    more = len(error.errors()) - 1
    return f"{where}{shown}: {reason}" + (f" (and {more} more)" if more else "")
