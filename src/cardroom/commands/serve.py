"""``serve``: the game server on uvicorn (``make run``). Flags override ``CARDROOM_*`` variables."""

from __future__ import annotations

from typing import Annotated

import typer

from cardroom.commands.common import fail

WS_HARD_LIMIT = 65536  # bigger frames close the socket; smaller over-limit ones get an error


def serve_command(
    host: Annotated[str | None, typer.Option(help="Interface (CARDROOM_HOST, 127.0.0.1).")] = None,
    port: Annotated[
        int | None, typer.Option(min=0, max=65535, help="Port (CARDROOM_PORT, 8000).")
    ] = None,
    db: Annotated[
        str | None,
        typer.Option(
            help="Database URL (CARDROOM_DB_URL): sqlite:///var/cardroom.db or postgresql://…"
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="Redis URL (CARDROOM_REDIS_URL), to run several processes on one PostgreSQL"
            " (docs/scaling.md)."
        ),
    ] = None,
    log_format: Annotated[
        str | None,
        typer.Option(
            help="Log lines as text or json, one object a line (CARDROOM_LOG_FORMAT, text;"
            " docs/operating.md)."
        ),
    ] = None,
) -> None:
    """Start the game server: lobby, tables, WebSocket play (docs/protocol.md)."""
    import uvicorn

    from cardroom.server import logs
    from cardroom.server.app import create_app
    from cardroom.server.settings import Settings, SettingsError
    from cardroom.server.slow_clients import protocol_with

    try:
        settings = Settings.from_env(
            host=host, port=port, db_url=db, redis_url=redis, log_format=log_format
        )
    except SettingsError as error:
        fail(str(error), label="bad setting")
    check_database(settings.db_url, "--db" if db is not None else "CARDROOM_DB_URL")
    if settings.redis_url:
        check_redis(settings.redis_url, "--redis" if redis is not None else "CARDROOM_REDIS_URL")
    logs.configure(settings.log_format, settings.log_level)
    typer.echo(
        f"cardroom: serving on http://{settings.host}:{settings.port} ({shown(settings.db_url)})"
    )
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        log_config=None,  # uvicorn's loggers go through ours (logs.configure): one format
        ws_max_size=WS_HARD_LIMIT,
        http=protocol_with(settings.header_timeout),
        ws_per_message_deflate=settings.ws_compression,
        ws=settings.ws_impl,
        access_log=False,
        timeout_graceful_shutdown=settings.shutdown_grace,
        # The app alone decides whose X-Forwarded-For to believe (CARDROOM_TRUSTED_PROXIES,
        # server/proxies.py): uvicorn's own rewrite would trust 127.0.0.1 unasked.
        proxy_headers=False,
    )


CONNECT_TIMEOUT = 5  # seconds to reach the database or Redis at start


def shown(url: str) -> str:
    """A URL fit to print: its password hidden."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return url


def _reason(error: BaseException) -> str:
    """The driver's own words, on one line (psycopg adds hints on further lines)."""
    cause = getattr(error, "orig", None) or error
    text = str(cause).strip().splitlines()
    return " ".join(text[0].split()) if text else type(cause).__name__


def check_database(url: str, source: str) -> None:
    """Connect once before serving, so a wrong or unreachable database is one line at start
    rather than a traceback from inside the server's startup."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from cardroom.store.database import normalize_url, open_engine

    try:
        if normalize_url(url).startswith("postgresql"):
            engine = create_engine(
                normalize_url(url), connect_args={"connect_timeout": CONNECT_TIMEOUT}
            )
        else:
            engine = open_engine(url)
    except (ArgumentError, NoSuchModuleError, ValueError) as error:
        fail(
            f"{source} {shown(url)!r} is not a database URL this server can use "
            f"(sqlite:///path/to/file.db or postgresql://user@host/db): {_reason(error)}"
        )
    except OSError as error:
        fail(f"{source}: cannot make the folder for {shown(url)}: {error.strerror or error}", 1)
    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        fail(f"cannot reach the database {shown(url)} ({source}): {_reason(error)}", 1)
    finally:
        engine.dispose()


def check_redis(url: str, source: str) -> None:
    """Ping Redis once before serving (several processes need it from their first table)."""
    import redis

    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=CONNECT_TIMEOUT, socket_timeout=CONNECT_TIMEOUT
        )
    except ValueError as error:
        fail(f"{source} {url!r} is not a Redis URL (redis://host:6379/0): {_reason(error)}")
    try:
        client.ping()
    except redis.RedisError as error:
        fail(f"cannot reach Redis at {shown(url)} ({source}): {_reason(error)}", 1)
    finally:
        client.close()


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
