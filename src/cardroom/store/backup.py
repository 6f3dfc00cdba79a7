"""Backups taken while the server serves, and restores into an empty database (docs/operating.md).

SQLite: SQLite's online backup API copies the database page by page, pausing between steps.
The copy holds one read transaction from start to end: in WAL mode (the server's) that is a
snapshot, so the copy is the database as of one instant, writers are never blocked, and their
commits do not restart the copy (without it, a server writing every second restarts the copy
at every step and it may never end). The copy is written beside the backup's name, checked,
switched to a single file (no ``-wal``), then renamed into place.

PostgreSQL: ``pg_dump -Fc`` (its own snapshot, no locks that stop play) and ``pg_restore``
in one transaction; both are PostgreSQL's client tools, looked for on the PATH.

A restore goes into an empty database only, and ends with the migrations the server runs at
start, so a backup made by an older Cardroom comes back at the current schema.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy import Engine, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from cardroom.store.database import MIGRATIONS, migrate, normalize_url, open_engine

Kind = Literal["sqlite", "postgresql"]

SQLITE_MAGIC = b"SQLite format 3\x00"
PG_DUMP_MAGIC = b"PGDMP"  # the first bytes of a pg_dump custom-format archive
STEP_PAGES = 1024  # pages copied per step of the SQLite backup (4 MiB at 4 KiB a page)
STEP_PAUSE = 0.005  # seconds between two steps, so the copy leaves the disk to the server
CONNECT_TIMEOUT = 10  # seconds to reach PostgreSQL
NO_PG_TOOLS = (
    "{tool} is not on the PATH: install PostgreSQL's client tools (Debian: apt-get install "
    "postgresql-client), of the server's major version or newer"
)


class Refused(Exception):
    """Input the operator can correct (a missing file, a non-empty target …); nothing changed."""


class Failed(Exception):
    """The work failed on the way (a database out of reach, a tool's error)."""


@dataclass(frozen=True)
class Target:
    """A database named by a URL: its kind, a URL fit to print, and where it is."""

    kind: Kind
    shown: str  # the URL without its password
    path: Path | None = None  # SQLite: the file, resolved as the server resolves it
    url: URL | None = None  # PostgreSQL: the SQLAlchemy URL (driver psycopg)

    @property
    def where(self) -> str:
        return f"SQLite {self.path}" if self.path is not None else f"PostgreSQL {self.shown}"


@dataclass(frozen=True)
class Done:
    """What a backup or restore did, for its one line of report."""

    target: Target
    file: Path
    revision: str  # the schema revision in the backup
    size: int  # bytes of the backup file
    seconds: float
    upgraded_to: str | None = None  # a restore: the revision after the migrations, if newer


def target_of(url: str) -> Target:
    """The database ``url`` names, as ``cardroom serve`` would open it, or a refusal."""
    try:
        parsed = make_url(normalize_url(url))
    except ArgumentError:
        raise Refused(
            f"{url!r} is not a database URL (sqlite:///path/to/file.db or "
            "postgresql://user@host/db)"
        ) from None
    backend = parsed.get_backend_name()
    shown = parsed.set(drivername=backend).render_as_string(hide_password=True)
    if backend == "sqlite":
        if not parsed.database or parsed.database == ":memory:" or parsed.query.get("uri"):
            raise Refused(f"{shown} is not a database file: back up and restore sqlite:///FILE")
        return Target("sqlite", shown, path=Path(parsed.database).resolve())
    if backend == "postgresql":
        return Target("postgresql", shown, url=parsed)
    raise Refused(
        f"{shown}: a {backend}:// database is not one Cardroom uses (sqlite:/// or postgresql://)"
    )


# -- backup ----------------------------------------------------------------------------------------


def backup(
    url: str,
    file: Path,
    force: bool = False,
    step_pages: int = STEP_PAGES,
    pause: float = STEP_PAUSE,
    between_steps: Callable[[], None] | None = None,
) -> Done:
    """Copy the database at ``url`` into ``file``, consistent as of one instant, while it
    serves; ``file`` is replaced only with ``force``. SQLite: ``step_pages`` at a time, then
    ``between_steps`` (tests) or a ``pause`` of so many seconds."""
    target = target_of(url)
    file = file.resolve()
    _check_destination(file, force)
    if target.path is not None and file == target.path:
        raise Refused(f"{file} is the database itself: name another file")
    if target.kind == "postgresql":
        _tool("pg_dump")  # refused before connecting when the tools are missing
    started = time.monotonic()
    with _temporary_beside(file) as temporary:
        if target.path is not None:
            wait = between_steps or (lambda: time.sleep(pause))
            revision = _sqlite_backup(target.path, temporary, step_pages, wait)
        else:
            revision = _pg_backup(target, temporary)
        _put_in_place(temporary, file, force)
    return Done(target, file, revision, file.stat().st_size, time.monotonic() - started)


def _check_destination(file: Path, force: bool) -> None:
    if file.is_dir():
        raise Refused(f"{file} is a folder: name the backup file")
    if file.exists() and not force:
        raise Refused(f"{file} exists: choose another name, or --force to replace it")
    if not file.parent.is_dir():
        raise Refused(f"no folder {file.parent} to write {file.name} in")
    if not os.access(file.parent, os.W_OK):
        raise Refused(f"cannot write in {file.parent}")


@contextlib.contextmanager
def _temporary_beside(file: Path) -> Iterator[Path]:
    """A fresh name in ``file``'s folder (so the rename is atomic), removed if still there."""
    handle, name = tempfile.mkstemp(dir=file.parent, prefix=f".{file.name}.", suffix=".part")
    os.close(handle)
    temporary = Path(name)
    try:
        yield temporary
    finally:
        for leftover in (temporary, *_sidecars(temporary)):
            leftover.unlink(missing_ok=True)


def _sidecars(path: Path) -> tuple[Path, ...]:
    return tuple(path.with_name(path.name + end) for end in ("-wal", "-shm", "-journal"))


def _put_in_place(temporary: Path, file: Path, force: bool) -> None:
    """Rename the finished copy to ``file``: over it with ``force``, else only if still free
    (a hard link fails on an existing name, where a rename would replace it)."""
    with open(temporary, "rb") as written:
        os.fsync(written.fileno())
    if force:
        os.replace(temporary, file)
    else:
        try:
            os.link(temporary, file)
        except FileExistsError:
            raise Refused(f"{file} exists: choose another name, or --force to replace it") from None
        except OSError:  # a file system without hard links: the check at the start must do
            if file.exists():
                raise Refused(f"{file} exists: choose another name, or --force") from None
            os.replace(temporary, file)
    with contextlib.suppress(OSError):  # the new name itself survives a power cut
        folder = os.open(file.parent, os.O_RDONLY)
        try:
            os.fsync(folder)
        finally:
            os.close(folder)


def _sqlite_backup(
    source: Path, temporary: Path, step_pages: int, between_steps: Callable[[], None]
) -> str:
    if not source.is_file():
        raise Refused(f"no database at {source}")
    try:
        src = sqlite3.connect(_uri(source, "rw"), uri=True, isolation_level=None, timeout=30)
    except sqlite3.Error as error:
        raise Refused(f"cannot open {source}: {error}") from None
    try:
        try:
            # One read transaction for the whole copy: a snapshot in WAL mode (see above).
            wal = src.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            if wal:
                src.execute("BEGIN")
            revision = _sqlite_revision(src, source)
        except sqlite3.DatabaseError as error:
            raise Refused(f"{source} is not a SQLite database: {error}") from None
        dst = sqlite3.connect(temporary, isolation_level=None)
        try:
            # The read transaction stays open across the pauses: writers go on meanwhile.
            src.backup(dst, pages=step_pages, progress=lambda *_: between_steps())
            if wal:
                src.execute("COMMIT")
            dst.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it
            check = dst.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                raise Failed(f"the copy of {source} does not check out: {check}")
        except sqlite3.Error as error:
            raise Failed(f"the backup of {source} stopped: {error}") from None
        finally:
            dst.close()
    finally:
        src.close()
    return revision


def _uri(path: Path, mode: str) -> str:
    return f"{path.as_uri()}?mode={mode}"


def _sqlite_revision(connection: sqlite3.Connection, path: Path, what: str = "database") -> str:
    try:
        row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
    except sqlite3.OperationalError:
        raise Refused(f"{path} is not a Cardroom {what} (no alembic_version table)") from None
    if row is None:
        raise Refused(f"{path} is not a Cardroom {what} (no schema revision)")
    return str(row[0])


def _pg_backup(target: Target, temporary: Path) -> str:
    revision = _pg_revision(target)
    _run_tool(
        "pg_dump",
        ["--format=custom", "--no-password", f"--file={temporary}", f"--dbname={_libpq(target)}"],
        target,
    )
    return revision


# -- restore ---------------------------------------------------------------------------------------


def restore(file: Path, url: str) -> Done:
    """Load the backup ``file`` into the empty database at ``url``, then migrate it."""
    target = target_of(url)
    file = file.resolve()
    if not file.is_file():
        raise Refused(f"no backup file {file}")
    kind = _backup_kind(file)
    if kind != target.kind:
        made = "SQLite" if kind == "sqlite" else "PostgreSQL (pg_dump)"
        want = "sqlite:///FILE" if kind == "sqlite" else "postgresql://…"
        raise Refused(f"{file} is a {made} backup: restore it into a {want} database")
    started = time.monotonic()
    if target.path is not None:
        revision = _sqlite_restore(file, target.path)
    else:
        revision = _pg_restore(file, target)
    upgraded = _migrate(url)
    return Done(
        target,
        file,
        revision,
        file.stat().st_size,
        time.monotonic() - started,
        upgraded if upgraded != revision else None,
    )


def _backup_kind(file: Path) -> Kind:
    try:
        with open(file, "rb") as handle:
            head = handle.read(len(SQLITE_MAGIC))
    except OSError as error:
        raise Refused(f"cannot read {file}: {error.strerror or error}") from None
    if head == SQLITE_MAGIC:
        return "sqlite"
    if head.startswith(PG_DUMP_MAGIC):
        return "postgresql"
    raise Refused(
        f"{file} is not a Cardroom backup (neither a SQLite database nor a pg_dump archive)"
    )


def _known_revisions() -> set[str]:
    from alembic.script import ScriptDirectory

    return {script.revision for script in ScriptDirectory(str(MIGRATIONS)).walk_revisions()}


def _check_revision(revision: str, file: Path) -> None:
    if revision not in _known_revisions():
        raise Refused(
            f"{file} has schema revision {revision}, unknown to this Cardroom: "
            "restore it with the Cardroom that made it, or a newer one"
        )


def _sqlite_restore(file: Path, path: Path) -> str:
    src = sqlite3.connect(_uri(file, "ro"), uri=True, isolation_level=None)
    try:
        try:
            revision = _sqlite_revision(src, file, "backup")
            check = src.execute("PRAGMA quick_check").fetchone()[0]
        except sqlite3.DatabaseError as error:
            raise Refused(f"{file} is not a Cardroom backup: {error}") from None
        if check != "ok":
            raise Refused(f"{file} is damaged: {check}")
        _check_revision(revision, file)
        existed = path.exists()
        if existed:
            _check_sqlite_empty(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            dst = sqlite3.connect(path, isolation_level=None, timeout=30)
        except (OSError, sqlite3.Error) as error:
            raise Failed(f"cannot make {path}: {error}") from None
        try:
            try:
                _refuse_tables(_sqlite_tables(dst), f"SQLite {path}")  # nobody wrote since
                src.backup(dst)
                dst.execute("PRAGMA journal_mode=WAL")  # as the server keeps it
            except sqlite3.Error as error:
                raise Failed(f"the restore into {path} stopped: {error}") from None
        except BaseException:
            dst.close()
            if not existed:  # leave no half-made database behind
                for made in (path, *_sidecars(path)):
                    made.unlink(missing_ok=True)
            raise
        dst.close()
    finally:
        src.close()
    return revision


def _check_sqlite_empty(path: Path) -> None:
    if path.is_dir():
        raise Refused(f"{path} is a folder, not a database file")
    try:
        connection = sqlite3.connect(_uri(path, "ro"), uri=True)
        try:
            tables = _sqlite_tables(connection)
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise Refused(f"{path} is not an empty SQLite database: {error}") from None
    _refuse_tables(tables, f"SQLite {path}")


def _sqlite_tables(connection: sqlite3.Connection) -> list[str]:
    rows = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    )
    return [str(name) for (name,) in rows]


def _refuse_tables(tables: list[str], where: str) -> None:
    if tables:
        shown = ", ".join(tables[:4]) + (", …" if len(tables) > 4 else "")
        raise Refused(
            f"{where} is not empty ({len(tables)} tables: {shown}): restore only into an "
            "empty database, nothing was changed"
        )


def _pg_restore(file: Path, target: Target) -> str:
    _tool("pg_restore")
    listed = subprocess.run(
        ["pg_restore", "--list", str(file)], capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        raise Refused(f"{file} is not a pg_dump archive this pg_restore reads: {_line(listed)}")
    if " TABLE public alembic_version " not in listed.stdout:
        raise Refused(f"{file} is not a Cardroom backup (no alembic_version table)")
    data = subprocess.run(
        ["pg_restore", "--data-only", "--table=alembic_version", "--file=-", str(file)],
        capture_output=True,
        text=True,
        check=False,
    )
    revision = _copied_revision(data.stdout)
    if data.returncode != 0 or revision is None:
        raise Refused(f"{file} is not a Cardroom backup (no schema revision)")
    _check_revision(revision, file)
    engine = _pg_engine(target)
    try:
        with engine.connect() as connection:
            tables = connection.scalars(
                text(
                    "SELECT table_schema || '.' || table_name FROM information_schema.tables"
                    " WHERE table_schema NOT IN ('pg_catalog', 'information_schema')"
                    " ORDER BY 1"
                )
            ).all()
    except SQLAlchemyError as error:
        raise Failed(f"cannot reach {target.shown}: {_reason(error)}") from None
    finally:
        engine.dispose()
    _refuse_tables([name.removeprefix("public.") for name in tables], f"PostgreSQL {target.shown}")
    _run_tool(
        "pg_restore",
        [
            "--single-transaction",  # all or nothing
            "--exit-on-error",
            "--no-owner",  # the objects belong to the user restoring, whoever made the dump
            "--no-privileges",
            "--no-password",
            f"--dbname={_libpq(target)}",
            str(file),
        ],
        target,
    )
    return revision


def _copied_revision(sql: str) -> str | None:
    """The revision in the ``COPY … alembic_version`` block pg_restore writes out."""
    lines = sql.splitlines()
    for number, line in enumerate(lines):
        if line.startswith("COPY ") and "alembic_version" in line and number + 1 < len(lines):
            value = lines[number + 1].strip()
            return value if value and value != "\\." else None
    return None


def _migrate(url: str) -> str:
    engine = open_engine(url)
    try:
        migrate(engine)
        with engine.connect() as connection:
            return str(connection.scalar(text("SELECT version_num FROM alembic_version")))
    except SQLAlchemyError as error:
        raise Failed(f"the restored database did not migrate: {_reason(error)}") from None
    finally:
        engine.dispose()


# -- PostgreSQL ------------------------------------------------------------------------------------


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise Refused(NO_PG_TOOLS.format(tool=name))
    return found


def _libpq(target: Target) -> str:
    """The URL for libpq (pg_dump, pg_restore): no driver, no password (that goes in
    PGPASSWORD, so it never shows in a process list)."""
    assert target.url is not None
    plain = target.url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False)


def _run_tool(name: str, arguments: list[str], target: Target) -> None:
    assert target.url is not None
    env = dict(os.environ)
    if target.url.password is not None:
        env["PGPASSWORD"] = str(target.url.password)
    done = subprocess.run(
        [_tool(name), *arguments], capture_output=True, text=True, env=env, check=False
    )
    if done.returncode != 0:
        raise Failed(f"{name} failed on {target.shown}: {_line(done)}")


def _line(done: subprocess.CompletedProcess[str]) -> str:
    """A tool's error on one line: its first line that says ``error:``, else its first."""
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    chosen = next((line for line in lines if "error:" in line), lines[0] if lines else "")
    return " ".join(chosen.split()) or f"exit code {done.returncode}"


def _pg_engine(target: Target) -> Engine:
    assert target.url is not None
    return create_engine(target.url, connect_args={"connect_timeout": CONNECT_TIMEOUT})


def _pg_revision(target: Target) -> str:
    engine = _pg_engine(target)
    try:
        with engine.connect() as connection:
            exists = connection.scalar(text("SELECT to_regclass('alembic_version') IS NOT NULL"))
            if not exists:
                raise Refused(f"{target.shown} is not a Cardroom database (no alembic_version)")
            revision = connection.scalar(text("SELECT version_num FROM alembic_version"))
    except SQLAlchemyError as error:
        raise Failed(f"cannot reach {target.shown}: {_reason(error)}") from None
    finally:
        engine.dispose()
    if revision is None:
        raise Refused(f"{target.shown} is not a Cardroom database (no schema revision)")
    return str(revision)


def _reason(error: BaseException) -> str:
    """The driver's own words, on one line."""
    cause = getattr(error, "orig", None) or error
    lines = str(cause).strip().splitlines()
    return " ".join(lines[0].split()) if lines else type(cause).__name__
