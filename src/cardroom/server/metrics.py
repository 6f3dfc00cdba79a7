"""What an operator reads of a running process: Prometheus metrics (``docs/operating.md``).

Every metric is defined here, in one registry per process (several processes are told apart
by the scraper's ``instance`` label); the actor, the journal and the routes call the small
functions below where things happen, never the table master or the engine. Labels are small
fixed sets (a game, a refusal code, a limiter's name): never a player's or a table's id.

Emitting must stay cheap: a move costs one counter increment (children are made once per
label value), and ``enable(False)`` (``CARDROOM_METRICS=0``) turns every call into a no-op,
which is how ``cardroom bench server`` measures what metrics cost. Gauges of what exists (live
tables, waiting tickets, the league's backlog) are read when scraped, not kept up to date.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

from cardroom.games.base import ACTION

REGISTRY = CollectorRegistry(auto_describe=True)
CONTENT_TYPE = CONTENT_TYPE_LATEST

# The refusal codes of docs/protocol.md (HTTP and WebSocket errors); any other is "other".
REFUSAL_CODES = frozenset(
    {
        "already_queued",
        "bad_action",
        "bad_entry",
        "bad_message",
        "bad_options",
        "bad_request",
        "closed",
        "conflict",
        "finish_first",
        "finished",
        "forbidden",
        "game_over",
        "hints_off",
        "illegal",
        "illegal_move",
        "locked",
        "moved",
        "name_claimed",
        "no_hint",
        "no_hints",
        "no_match",
        "not_finished",
        "not_found",
        "not_seated",
        "not_your_turn",
        "rate_limited",
        "server_error",
        "server_full",
        "stale",
        "token_expired",
        "token_revoked",
        "too_large",
        "too_many_attempts",
        "too_many_changes",
        "too_many_games",
        "too_many_sockets",
        "too_many_tables",
        "unauthorized",
        "unavailable",
    }
)
# The limiters of ``limits.Guards`` and the per-socket message bucket; any other is "other".
LIMITER_NAMES = frozenset(
    {
        "players_address",
        "create_player",
        "create_address",
        "named_player",
        "named_address",
        "signin_name",
        "signin_address",
        "keeper_player",
        "keeper_address",
        "daily_player",
        "shared_address",
        "review_address",
        "hashing",
        "reviewing",
        "socket_messages",
    }
)

TABLES = Gauge(
    "cardroom_tables", "Tables this process runs (open, with a live actor).", registry=REGISTRY
)
SOCKETS = Gauge(
    "cardroom_sockets",
    "WebSockets open to this process (tables, queue, kept games).",
    registry=REGISTRY,
)
MOVES = Counter(
    "cardroom_moves", "Moves stored (players' and bots'), by game.", ["game"], registry=REGISTRY
)
COMMIT_SECONDS = Histogram(
    "cardroom_journal_commit_seconds",
    "Time the journal's writer took to commit one batch of writes (one transaction).",
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
REFUSALS = Counter(
    "cardroom_refusals",
    "Refused requests and messages (HTTP and WebSocket), by code.",
    ["code"],
    registry=REGISTRY,
)
RATE_LIMITED = Counter(
    "cardroom_rate_limited",
    "Requests or messages refused by a rate limit, by limiter.",
    ["limiter"],
    registry=REGISTRY,
)
SERVER_ERRORS = Counter(
    "cardroom_http_server_errors", "HTTP answers with a 5xx status.", registry=REGISTRY
)
QUEUE_WAITING = Gauge(
    "cardroom_queue_tickets_waiting", "Ranked queue tickets waiting here.", registry=REGISTRY
)
QUEUE_WAIT_SECONDS = Histogram(
    "cardroom_queue_wait_seconds",
    "How long a ranked queue ticket waited until it was matched (with people or a bot).",
    buckets=(1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800),
    registry=REGISTRY,
)
LEAGUE_LAG = Gauge(
    "cardroom_league_lag_seconds",
    "How long the oldest finished match waiting for the league's worker has waited (0: none).",
    registry=REGISTRY,
)

_on = True
_moves: dict[str, Any] = {}
_refusals: dict[str, Any] = {code: REFUSALS.labels(code) for code in (*REFUSAL_CODES, "other")}
_limited: dict[str, Any] = {n: RATE_LIMITED.labels(n) for n in (*LIMITER_NAMES, "other")}


def enable(on: bool) -> None:
    """Emit (the default) or make every call below a no-op (``CARDROOM_METRICS=0``)."""
    global _on
    _on = on


def enabled() -> bool:
    return _on


def text() -> bytes:
    """Every metric, in Prometheus' text format."""
    return generate_latest(REGISTRY)


# -- what the edges call -----------------------------------------------------------------------


def moved(game: str, rows: Iterable[Any]) -> None:
    """A write was committed: its moves (``MoveRow`` of kind ``action``) count for ``game``."""
    if not _on:
        return
    count = 0
    for row in rows:
        if getattr(row, "kind", None) == ACTION:
            count += 1
    if count:
        child = _moves.get(game)
        if child is None:
            child = _moves[game] = MOVES.labels(game)
        child.inc(count)


def committed(seconds: float) -> None:
    """The journal committed a batch in ``seconds``."""
    if _on:
        COMMIT_SECONDS.observe(seconds)


def refused(code: str) -> None:
    """A request or a message was refused with ``code``."""
    if _on:
        (_refusals.get(code) or _refusals["other"]).inc()


def rate_limited(limiter: str) -> None:
    """The limiter named ``limiter`` refused a request or a message."""
    if _on:
        (_limited.get(limiter) or _limited["other"]).inc()


def server_error() -> None:
    """An HTTP answer with a 5xx status (an unhandled error among them)."""
    if _on:
        SERVER_ERRORS.inc()


def socket_opened() -> None:
    if _on:
        SOCKETS.inc()


def socket_closed() -> None:
    if _on:
        SOCKETS.dec()


def queue_waited(seconds: float) -> None:
    """A ranked ticket was matched after waiting ``seconds``."""
    if _on:
        QUEUE_WAIT_SECONDS.observe(max(0.0, seconds))


def watch(
    tables: Callable[[], float], waiting: Callable[[], float], league_lag: Callable[[], float]
) -> None:
    """The gauges read when scraped: this process's live tables, its waiting queue tickets,
    and how far behind its league worker is (the last app made in a process wins)."""
    TABLES.set_function(tables)
    QUEUE_WAITING.set_function(waiting)
    LEAGUE_LAG.set_function(league_lag)
