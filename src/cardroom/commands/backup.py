"""``backup`` and ``restore``: a consistent copy of the database while the server serves, and
that copy loaded into an empty database (docs/operating.md, "Backups")."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cardroom.commands.common import fail

DB_HELP = (
    "Database URL; by default CARDROOM_DB_URL, as cardroom serve uses it "
    "(sqlite:///var/cardroom.db)."
)


def register(app: typer.Typer) -> None:
    app.command("backup")(backup_command)
    app.command("restore")(restore_command)


def backup_command(
    file: Annotated[Path, typer.Argument(help="The backup file to write.", show_default=False)],
    db: Annotated[str | None, typer.Option(help=DB_HELP, show_default=False)] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace FILE if it exists.")] = False,
) -> None:
    """Copy the database into FILE while the server serves: SQLite's online backup, or pg_dump
    on PostgreSQL; the copy is the database as of one instant."""
    from cardroom.store.backup import Failed, Refused, backup

    url = _database_url(db)
    try:
        done = backup(url, file, force=force)
    except Refused as error:
        fail(str(error))
    except Failed as error:
        fail(str(error), 1, label="failed")
    typer.echo(
        f"backed up {done.target.where} (schema {done.revision}) to {done.file}: "
        f"{_size(done.size)} in {done.seconds:.1f} s"
    )


def restore_command(
    file: Annotated[
        Path, typer.Argument(help="A backup made by cardroom backup.", show_default=False)
    ],
    db: Annotated[str | None, typer.Option(help=DB_HELP, show_default=False)] = None,
) -> None:
    """Load a backup into an empty database (never over one in use), then bring its schema to
    this version's, as the server does at start."""
    from cardroom.store.backup import Failed, Refused, restore

    url = _database_url(db)
    try:
        done = restore(file, url)
    except Refused as error:
        fail(str(error))
    except Failed as error:
        fail(str(error), 1, label="failed")
    schema = (
        f"schema {done.revision}, upgraded to {done.upgraded_to}"
        if done.upgraded_to
        else f"schema {done.revision}, current"
    )
    typer.echo(f"restored {done.file} into {done.target.where} ({schema}) in {done.seconds:.1f} s")


def _database_url(db: str | None) -> str:
    """``--db``, else the server's own setting (CARDROOM_DB_URL, or its default)."""
    from cardroom.server.settings import Settings, SettingsError

    try:
        return Settings.from_env(db_url=db).db_url
    except SettingsError as error:
        fail(str(error), label="bad setting")


def _size(size: int) -> str:
    """Bytes as people read them: 512 bytes, 3.4 MB."""
    amount, units = float(size), ["bytes", "KB", "MB", "GB"]
    while amount >= 1000 and len(units) > 1:
        amount, units = amount / 1000, units[1:]
    return f"{size} bytes" if units[0] == "bytes" else f"{amount:.1f} {units[0]}"
