"""``connect``: an outside bot program plays at a server's table as a player."""

from __future__ import annotations

import asyncio
import shlex
from typing import Annotated

import typer
from rich.console import Console

from cardroom.bots.external import PREFIX, BotStartError
from cardroom.bots.specs import BotSpecError, check_program, command_of, split_name
from cardroom.commands.common import fail

console = Console()


def register(app: typer.Typer) -> None:
    app.command("connect")(connect_command)


def connect_command(
    table: Annotated[str, typer.Argument(help="The table's id (t_…), as in its link.")],
    bot: Annotated[
        str,
        typer.Option(
            help='The program, as in --bots: cmd:"node examples/skip_bot.js", '
            "optionally name=…:cmd:…"
        ),
    ],
    server: Annotated[str, typer.Option(help="The server's address.")] = "http://127.0.0.1:8000",
    matches: Annotated[int, typer.Option(min=1, help="Matches to play, then leave.")] = 1,
    timeout: Annotated[
        float, typer.Option(min=0.01, help="Seconds the program has per decision.")
    ] = 5.0,
) -> None:
    """Seat a JSON-lines bot program (docs/bot-protocol.md) at a Skip table of a running
    server: it joins a free seat, plays when the table's owner starts, and leaves after
    --matches matches."""
    try:
        name, spec = split_name(bot)
        if not spec.startswith(PREFIX):
            fail(f"--bot is a program, cmd:<command>, not {bot!r}")
        check_program(spec)
        args = shlex.split(command_of(spec))
    except BotSpecError as error:
        fail(str(error))
    import httpx  # the client (and websockets) load when a program connects

    from cardroom.client.bridge import play_at_table

    try:
        played = asyncio.run(
            play_at_table(server, table, args, name=name or "Bot", matches=matches, timeout=timeout)
        )
    except BotStartError as error:
        fail(f"{bot!r} failed its first exchange: {error}")
    except httpx.HTTPStatusError as error:
        fail(f"the server refused: {error.response.status_code} {error.response.text}", 1)
    except (httpx.HTTPError, OSError) as error:
        fail(f"cannot reach {server}: {error}", 1)
    for result in played.matches:
        console.print(
            f"{played.name}: match over, winners {result['winners']}, scores {result['scores']}"
        )
    console.print(
        f"{played.decisions} decisions, {len(played.refused)} answers refused by the table"
    )
