"""The ASGI app: lobby, sockets, static web client, and start-up (migrate, restore tables).

``create_app(settings)`` is what ``cardroom serve`` runs on uvicorn; tests run it the same way.
"""

from __future__ import annotations

import asyncio
import gc
import hmac
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from cardroom.daily.days import SECRET_NAME as DAILY_SECRET
from cardroom.moderation import sanctions
from cardroom.moderation.staff import ModerationError
from cardroom.server import (
    daily_routes,
    division_routes,
    i18n_routes,
    keeper_routes,
    league_routes,
    lobby,
    metrics,
    moderation_routes,
    probe,
    queue_socket,
    review_routes,
    rules_routes,
    sockets,
)
from cardroom.server.actor import RECONNECT, Services
from cardroom.server.auth import (
    STATE_KEY,
    Auth,
    Authenticate,
    Holder,
    Identity,
    PlayerCache,
    Tokens,
)
from cardroom.server.bots import BotRunner
from cardroom.server.closing import Step, close_in_steps
from cardroom.server.cluster import Cluster, LocalCluster
from cardroom.server.connection import live_sockets
from cardroom.server.health import Readiness
from cardroom.server.keeper_hub import KeeperHub
from cardroom.server.league_worker import LeagueWorker
from cardroom.server.limits import Guards, RateLimited
from cardroom.server.logs import new_request_id, request_id
from cardroom.server.matchmaking import Queue, make_store
from cardroom.server.moderation_watch import ModerationWatch
from cardroom.server.plot_cache import PlotCache
from cardroom.server.privacy import Invitations
from cardroom.server.proxies import TrustedProxies, parse_networks
from cardroom.server.registry import Tables
from cardroom.server.settings import Settings
from cardroom.server.sightings import sighting_key
from cardroom.server.static import CompressedReads, web_files
from cardroom.server.timers import Clock
from cardroom.server.trim import collect_every, trim_every
from cardroom.store import repository as repo
from cardroom.store.database import migrate, open_engine, shared_secret
from cardroom.store.journal import Journal
from cardroom.tables.errors import Refusal

log = logging.getLogger("cardroom.server")

API_PAGE = """<!doctype html><html><head><meta charset="utf-8"><title>Cardroom</title></head>
<body><h1>Cardroom server</h1><p>The web client is not installed here. The API
(see <code>docs/protocol.md</code>):</p><ul>
<li>POST /api/players &mdash; a guest name, a token</li>
<li>GET /api/tables, POST /api/tables, POST /api/tables/named, POST /api/quickplay</li>
<li>GET /api/tables/{id}; POST .../join, .../leave, .../bots, .../start, .../rematch,
.../skip, .../evict; PATCH /api/tables/{id}</li>
<li>GET /api/matches/{id}, GET /api/matches/{id}/record</li>
<li>GET /api/levels, GET /healthz, GET /readyz</li>
<li>WebSocket /ws/tables/{id}, WebSocket /ws/queue (ranked matchmaking)</li>
<li>The score keeper: /api/keeper/games..., /api/keeper/shared/{code}, WebSocket
/ws/keeper/{code}</li></ul></body></html>"""


def error_answer(
    error: Refusal, headers: dict[str, str] | None = None, status: int | None = None
) -> JSONResponse:
    """A refusal as the HTTP error body (``docs/protocol.md`` section 2), with the request's
    id (``X-Request-ID``), counted in the metrics by its code."""
    metrics.refused(error.code)
    body = error.to_json()
    body["error"]["request_id"] = request_id.get()
    return JSONResponse(body, status_code=status or error.status, headers=headers)


class RequestIds:
    """Every HTTP request gets an id: the client's ``X-Request-ID`` when it is sane, else a
    new one. It comes back in the ``X-Request-ID`` header and in every error body, and is on
    every log line of the request (``logs.py``); a 5xx or an unhandled error is logged and
    counted here. The outermost of the app's middleware: an error anywhere inside is caught."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = None
        for name, value in scope.get("headers", ()):
            if name == b"x-request-id":
                given = value.decode("latin-1")
                break
        rid = new_request_id(given)
        token = request_id.set(rid)
        status = 0

        async def with_id(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", rid.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, with_id)
        except Exception:
            metrics.server_error()
            log.exception(
                "%s %s failed (request %s)",
                scope.get("method"),
                scope.get("path"),
                rid,
                extra={"player": _player_of(scope), "request_id": rid},
            )
            if status:  # the answer has begun: nothing more can be said
                raise
            error = Refusal(500, "server_error", "the server failed; the request id says where")
            body = error.to_json()
            body["error"]["request_id"] = rid
            await JSONResponse(body, status_code=500)(scope, receive, with_id)
        else:
            if status >= 500:
                metrics.server_error()
                log.warning(
                    "%s %s answered %d (request %s)",
                    scope.get("method"),
                    scope.get("path"),
                    status,
                    rid,
                    extra={"player": _player_of(scope), "request_id": rid},
                )
        finally:
            request_id.reset(token)


def _player_of(scope: Any) -> str | None:
    """The id of the player whose token came with the request, if ``Authenticate`` knew it."""
    found = scope.get("state", {}).get(STATE_KEY)
    return found.id if isinstance(found, Identity) else None


class BodyLimit:
    """Refuse HTTP bodies announced as too large (a plain ASGI middleware: sockets pass by)."""

    def __init__(self, app: Any, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            for name, value in scope.get("headers", ()):
                if name == b"content-length" and (
                    not value.isdigit() or int(value) > self.max_body
                ):
                    error = Refusal(413, "too_large", "the request body is too large")
                    await error_answer(error)(scope, receive, send)
                    return
        await self.app(scope, receive, send)


class NoNul:
    """Refuse a NUL in the path (404) or the query (400): no id or name has one, and
    PostgreSQL cannot even compare a string holding one (a 500 otherwise)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http":
            query = scope.get("query_string", b"").lower()
            error = None
            if "\x00" in scope.get("path", ""):
                error = Refusal(404, "not_found", "no such thing here (a NUL in the path)")
            elif b"%00" in query or b"\x00" in query:
                error = Refusal(400, "bad_request", "a query parameter holds a NUL character")
            if error is not None:
                await error_answer(error)(scope, receive, send)
                return
        await self.app(scope, receive, send)


# The static web client uses its own scripts, styles and images only; sockets go to this host.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; manifest-src 'self'; worker-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
NO_CSP = ("/api/docs",)  # the API page loads its viewer from a CDN


class SecurityHeaders:
    """Every HTTP answer: no framing, no type sniffing, no referrer beyond this site; all but
    the API page also a Content-Security-Policy that allows only this server's own files; an
    API answer that does not say otherwise is never stored (it holds a player's own data)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        csp = not path.startswith(NO_CSP)
        api = path.startswith("/api/")

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                headers.extend(SECURITY_HEADERS)
                if csp:
                    headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                if api and not any(name.lower() == b"cache-control" for name, _ in headers):
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def token_holders(engine: Engine) -> Callable[[str], Awaitable[Holder | None]]:
    """Reads of a player's name and token generation, on a connection of their own (never in
    the journal's writer, which every table's moves wait on)."""

    def read(player_id: str) -> Holder | None:
        with engine.connect() as conn:
            found = repo.token_holder(conn, player_id)
            if found is None:
                return None
            return Holder(*found, sanctions.standing(conn, player_id, datetime.now(UTC)))

    async def load(player_id: str) -> Holder | None:
        return await run_in_threadpool(read, player_id)

    return load


TABLE_SOCKETS = "/ws/tables/"


class CardroomApp(FastAPI):
    """The app, with one short cut: a table's WebSocket (``/ws/tables/{id}``, the hot path of
    play) goes straight to its handler. The HTTP middleware only passes sockets by, and the
    router's and middleware's frames would stay on every open socket's stack for its whole
    life (about 25 coroutines, some 10 KB in all) and wrap every message it sends. Everything
    else, other sockets included, takes the full stack. Before either, the client's address
    is the one a trusted proxy names (``proxies.py``): a call, not a middleware's frame."""

    proxies = TrustedProxies(())

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        scope = self.proxies.resolve(scope)
        if scope["type"] == "websocket" and scope["path"].startswith(TABLE_SOCKETS):
            table_id = scope["path"][len(TABLE_SOCKETS) :]
            if table_id and "/" not in table_id:
                scope["app"] = self
                await sockets.play(WebSocket(scope, receive, send), table_id)
                return
        await super().__call__(scope, receive, send)


MAX_CENSUS_TABLES = 500  # tables a process lists in the console's live view


def census(tables: Tables) -> dict[str, Any]:
    """This process now, for the console: its tables (who sits, how many sockets) and its
    open sockets in all (tables and the ranked queue)."""
    listed = []
    for actor in list(tables.by_id.values())[:MAX_CENSUS_TABLES]:
        info = actor.info()
        listed.append(
            {
                "id": actor.id,
                "name": info.get("name"),
                "game": info["game"],
                "status": info["status"],
                "public": info["public"],
                "people": [s["player"] for s in info["seats"] if s.get("player")],
                "sockets": len(actor.sockets),
            }
        )
    return {
        "tables": listed,
        "open_tables": len(tables.by_id),
        "sockets": live_sockets(),
        "at": datetime.now(UTC).isoformat(),
    }


def make_cluster(settings: Settings) -> Cluster:
    """Redis when a URL is configured (``--redis`` / ``CARDROOM_REDIS_URL``), else local."""
    if not settings.redis_url:
        return LocalCluster()
    from cardroom.server.redis_cluster import RedisCluster

    return RedisCluster(settings)


def start_metrics_server(settings: Settings) -> Any:
    """``/metrics`` on a port of its own (``CARDROOM_METRICS_PORT``), no token: a thread of
    prometheus_client's, bound to ``CARDROOM_METRICS_HOST`` (127.0.0.1 unless told)."""
    if not settings.metrics_port:
        return None
    from prometheus_client import start_http_server

    server, _thread = start_http_server(
        settings.metrics_port, settings.metrics_host, registry=metrics.REGISTRY
    )
    log.info(
        "cardroom: metrics on http://%s:%d/metrics", settings.metrics_host, settings.metrics_port
    )
    return server


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The journal and bots run in threads; with the default 5 ms GIL slice every hand-off
        # between them and the loop can cost milliseconds per move.
        sys.setswitchinterval(settings.switch_interval)
        metrics.enable(settings.metrics)
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        engine = open_engine(settings.db_url, settings.sqlite_cache_kb)
        migrate(engine)
        journal = Journal(engine, on_commit=metrics.committed, refusals=(ModerationError,))
        bots = BotRunner(settings.bot_executor, settings.bot_inline_below)
        tables: Tables | None = None

        def forget(actor: Any) -> None:
            if tables is not None:
                tables.forget(actor)

        league = LeagueWorker(engine, settings.ladder(), barred=sanctions.rank_bar)
        services = Services(
            settings, Clock(settings.clock_speed), journal, bots, forget, league.count
        )
        cluster = make_cluster(settings)
        tables = Tables(services, cluster)
        services.on_stale = lambda actor: tables.drop(actor, RECONNECT)
        app.state.settings = settings
        app.state.readiness = Readiness(engine, cluster)
        app.state.journal = journal
        secret = settings.secret or shared_secret(engine)
        tokens = Tokens(secret, settings.token_lifetime)
        app.state.auth = Auth(tokens, PlayerCache(token_holders(engine), settings.player_cache_ttl))
        app.state.invitations = Invitations(secret)
        app.state.sighting_key = sighting_key(secret)  # ladder.py: hashed addresses
        app.state.daily_secret = shared_secret(engine, DAILY_SECRET)  # daily/days.py
        app.state.plots = PlotCache()
        app.state.tables = tables
        app.state.guards = Guards(settings)
        app.state.reviews = {}  # finished post-game reviews (review_routes.py)
        app.state.keeper_hub = KeeperHub(cluster, settings.keeper_max_viewers)
        restored = await tables.restore()
        cluster.census = lambda: census(tables)
        await cluster.start(tables)
        app.state.moderation = ModerationWatch(
            engine, tables, app.state.auth, cluster, settings.moderation_poll
        )
        await app.state.moderation.start()
        app.state.queue = Queue(app.state, make_store(settings), time.time)
        app.state.queue.start()
        metrics.watch(lambda: len(tables.by_id), lambda: len(app.state.queue.waiters), league.lag)
        metrics_server = start_metrics_server(settings)
        catching_up = asyncio.create_task(league.catch_up(), name="league-catch-up")
        trimming = asyncio.create_task(trim_every(settings.trim_every), name="malloc-trim")
        collecting = asyncio.create_task(collect_every(settings.collect_every), name="gc")
        # Long-lived objects (modules, restored matches) need not be scanned by every full
        # collection, and a busy table makes garbage fast: fewer, cheaper pauses of the loop.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*settings.gc_thresholds)
        log.info(
            "cardroom: %d open table(s) restored from %s", restored, engine.url.render_as_string()
        )
        try:
            yield
        finally:
            if metrics_server is not None:
                metrics_server.shutdown()
                metrics_server.server_close()
            catching_up.cancel()
            trimming.cancel()
            collecting.cancel()
            steps: list[Step] = [
                ("the moderation watch", app.state.moderation.stop),
                ("the queue", app.state.queue.stop),
                ("the tables", tables.close_all),
                ("the cluster", cluster.stop),
                ("the league worker", league.close),
                ("the journal", journal.close),
                ("the bots", bots.close),
                ("the database engine", engine.dispose),
            ]
            await close_in_steps(steps, settings.shutdown_grace)

    app = CardroomApp(title="Cardroom", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.proxies = TrustedProxies(parse_networks(settings.trusted_proxies))

    @app.exception_handler(Refusal)
    async def api_error(_request: Request, error: Refusal) -> JSONResponse:
        headers = {"Retry-After": str(error.retry_after)} if isinstance(error, RateLimited) else {}
        return error_answer(error, headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        first = error.errors()[0] if error.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        message = f"{where}: {first.get('msg', 'invalid')}"
        return error_answer(Refusal(422, "bad_request", message))

    @app.exception_handler(HTTPException)
    async def http_error(_request: Request, error: HTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "bad_request"}.get(error.status_code, "bad_request")
        return error_answer(Refusal(error.status_code, code, str(error.detail)))

    app.add_middleware(Authenticate)  # innermost: requests the others refuse cost no lookup
    app.add_middleware(BodyLimit, max_body=settings.max_body)
    app.add_middleware(NoNul)
    app.add_middleware(CompressedReads)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestIds)  # outermost: every answer and error log line has its id

    @app.get("/healthz")
    async def healthz(request: Request) -> dict[str, Any]:
        """The process lives (its event loop answers)."""
        return {"ok": True, "tables": len(request.app.state.tables.by_id)}

    @app.get("/readyz")
    async def readyz(request: Request) -> JSONResponse:
        """The process can serve: 200, or 503 naming the check that failed and why."""
        ok, checks = await request.app.state.readiness.check()
        return JSONResponse({"ok": ok, "checks": checks}, status_code=200 if ok else 503)

    @app.get("/metrics", include_in_schema=False)
    async def metrics_page(request: Request) -> Response:
        """Prometheus' text format, for the bearer of ``CARDROOM_METRICS_TOKEN`` (none: 404)."""
        token = settings.metrics_token
        if not token:
            raise Refusal(404, "not_found", "no metrics here (CARDROOM_METRICS_TOKEN is not set)")
        given = request.headers.get("authorization", "")
        scheme, _, value = given.partition(" ")
        if scheme.lower() != "bearer" or not hmac.compare_digest(
            value.strip().encode(), token.encode()
        ):
            raise Refusal(401, "unauthorized", "send 'Authorization: Bearer <metrics token>'")
        return Response(metrics.text(), media_type=metrics.CONTENT_TYPE)

    app.include_router(lobby.router)
    app.include_router(sockets.router)
    app.include_router(queue_socket.router)
    app.include_router(league_routes.router)
    app.include_router(division_routes.router)
    app.include_router(rules_routes.router)
    app.include_router(daily_routes.router)
    app.include_router(probe.router)
    app.include_router(i18n_routes.router)
    app.include_router(keeper_routes.router)
    app.include_router(review_routes.router)
    app.include_router(moderation_routes.router)
    web = settings.web_dir
    if web.is_dir() and (web / "index.html").is_file():
        app.mount("/", web_files(web), name="web")
    else:

        @app.get("/", response_class=HTMLResponse)
        async def index() -> str:
            return API_PAGE

    return app
