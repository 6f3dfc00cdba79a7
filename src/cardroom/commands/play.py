"""``cardroom play``: a game against bots in the terminal (Textual), from your view alone."""

from __future__ import annotations

from typing import Annotated

import typer

from cardroom.commands.common import GAME_HELP, cli_options, fail, parse_bots, parse_game
from cardroom.sim.play import BotError

OPTION_HELP = "House rule key=value, repeatable (e.g. stock_size=10, match_target=null)."


def register(app: typer.Typer) -> None:
    app.command("play")(play_command)


def play_command(
    game: Annotated[str, typer.Option(help=GAME_HELP)] = "skip",
    bots: Annotated[
        str, typer.Option(help="The bots, comma-separated, one per seat after yours (levels).")
    ] = "medium",
    seed: Annotated[int, typer.Option(help="The same seed deals the same cards.")] = 1,
    option: Annotated[list[str] | None, typer.Option("--option", "-o", help=OPTION_HELP)] = None,
) -> None:
    """Play against bots in the terminal: keys or mouse; h for a hint, ? for the rules."""
    from cardroom.sim.session import PlaySession
    from cardroom.terminal.app import PlayApp

    name = parse_game(game)
    specs = parse_bots(bots, name)
    options = cli_options(name, len(specs) + 1, False, option)
    try:
        session = PlaySession(name, options, seed, specs)
    except (ValueError, BotError) as error:
        fail(str(error))
    try:
        PlayApp(session).run()
    except BotError as error:
        fail(str(error), 1, label="failed")
    finally:
        session.close()
