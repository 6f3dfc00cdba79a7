"""``serve``: the game server on uvicorn (``make run``). Flags override ``CARDROOM_*`` variables."""

from __future__ import annotations

import logging
from typing import Annotated

import typer

WS_HARD_LIMIT = 65536  # bigger frames close the socket; smaller over-limit ones get an error


def serve_command(
    host: Annotated[str | None, typer.Option(help="Interface (CARDROOM_HOST, 127.0.0.1).")] = None,
    port: Annotated[int | None, typer.Option(help="Port (CARDROOM_PORT, 8000).")] = None,
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
) -> None:
    """Start the game server: lobby, tables, WebSocket play (docs/protocol.md)."""
    import uvicorn

    from cardroom.server.app import create_app
    from cardroom.server.settings import Settings

    settings = Settings.from_env(host=host, port=port, db_url=db, redis_url=redis)
    logging.basicConfig(
        level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s"
    )
    typer.echo(f"cardroom: serving on http://{settings.host}:{settings.port} ({settings.db_url})")
    uvicorn.run(
        create_app(settings),
        host=settings.host,
        port=settings.port,
        log_level=settings.log_level,
        ws_max_size=WS_HARD_LIMIT,
        ws_per_message_deflate=settings.ws_compression,
        ws=settings.ws_impl,
        access_log=False,
    )


def register(app: typer.Typer) -> None:
    app.command("serve")(serve_command)
