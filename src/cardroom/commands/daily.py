"""``cardroom daily``: the day's deal in the terminal, here or at a server (docs/daily.md)."""

from __future__ import annotations

import os
from typing import Annotated

import typer
from rich.console import Console

from cardroom.commands.common import fail, parse_game
from cardroom.sim.play import BotError

TOKEN_ENV = "CARDROOM_TOKEN"
console = Console()


def register(app: typer.Typer) -> None:
    app.command("daily")(daily_command)


def daily_command(
    game: Annotated[
        str, typer.Option(help="skip (a solo round) or skyjo (against two bots).")
    ] = "skip",
    day: Annotated[
        str | None, typer.Option(help="A past day, YYYY-MM-DD (unscored); today by default.")
    ] = None,
    server: Annotated[
        str | None,
        typer.Option(help="Play the server's deal, e.g. http://127.0.0.1:8000 (scored there)."),
    ] = None,
    name: Annotated[str | None, typer.Option(help="Your account's name, to sign in.")] = None,
    password: Annotated[
        str | None, typer.Option(help="Its password (or CARDROOM_PASSWORD).", hide_input=True)
    ] = None,
    db: Annotated[
        str | None, typer.Option(help="Without --server: the database whose secret deals the day.")
    ] = None,
    share: Annotated[
        bool, typer.Option(help="Print the result to share when the round is over.")
    ] = True,
) -> None:
    """Play the deal of the day: the same cards as everyone at that server. With --server and
    an account (--name/--password, or a token in CARDROOM_TOKEN) the attempt is the account's
    one scored attempt of the day; without, this machine deals it from its own database's
    secret, unscored."""
    from cardroom.daily.days import DayError, day_seed, parse_day
    from cardroom.daily.round import DailyRound, NoDaily, rules_of
    from cardroom.terminal.daily import DailyApp, DailyError, LocalDaily, RemoteDaily, sign_in

    name_of_game = parse_game(game)
    try:
        rules_of(name_of_game)
    except NoDaily as error:
        fail(str(error))
    session: LocalDaily | RemoteDaily
    if server:
        token = os.environ.get(TOKEN_ENV, "")
        password = password or os.environ.get("CARDROOM_PASSWORD")
        try:
            if name:
                if not password:
                    password = typer.prompt("Password", hide_input=True)
                token = sign_in(server, name, password)
            if not token:
                fail(f"playing at a server needs --name and --password, or {TOKEN_ENV}")
            session = RemoteDaily(server, token, name_of_game, day)
        except DailyError as error:
            fail(str(error), 1)
    else:
        try:
            when = parse_day(day)
        except DayError as error:
            fail(str(error))
        secret = _local_secret(db)
        session = LocalDaily(
            DailyRound(name_of_game, when, day_seed(secret, name_of_game, when), practice=True)
        )
    try:
        DailyApp(session).run()
    except (BotError, DailyError) as error:
        fail(str(error), 1, label="failed")
    finally:
        session.close()
    text = session.share()
    if share and text:
        console.print(text, markup=False, highlight=False)


def _local_secret(db: str | None) -> str:
    """The daily key of this machine's database (the one ``cardroom serve`` uses), so the
    terminal deals what the local server deals."""
    from cardroom.daily.days import SECRET_NAME
    from cardroom.server.settings import Settings, SettingsError
    from cardroom.store.database import migrate, open_engine, shared_secret

    try:
        url = Settings.from_env(db_url=db).db_url
    except SettingsError as error:
        fail(str(error))
    engine = open_engine(url)
    try:
        migrate(engine)
        return shared_secret(engine, SECRET_NAME)
    finally:
        engine.dispose()
