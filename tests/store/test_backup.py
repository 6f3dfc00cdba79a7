"""``cardroom backup`` and ``cardroom restore`` (store/backup.py): a copy as of one instant even
while the database is written, restored only into an empty database and migrated there."""

from __future__ import annotations

import secrets
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from cardroom.cli import app
from cardroom.store import backup as backups
from cardroom.store.database import migrate, open_engine
from tests.store.conftest import PG_ADMIN

OLDER = "0006_compact_moves"  # a revision before the newest: restores must upgrade it


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, result.stdout, " ".join(result.stderr.split())


def _head() -> str:
    from alembic.script import ScriptDirectory

    return str(ScriptDirectory(str(backups.MIGRATIONS)).get_current_head())


def cardroom_db(path: Path, players: int = 3, revision: str = "head") -> str:
    """A migrated SQLite database with ``players`` rows; its URL."""
    url = f"sqlite:///{path}"
    engine = open_engine(url)
    migrate(engine, revision)
    with engine.begin() as connection:
        for n in range(players):
            connection.execute(
                text("INSERT INTO players (id, name, created_at) VALUES (:id, :name, :at)"),
                {"id": f"p{n}", "name": f"Player {n}", "at": "2024-01-01 00:00:00"},
            )
    engine.dispose()
    return url


def rows(url: str, query: str = "SELECT id, name FROM players ORDER BY id") -> list[tuple]:
    engine = open_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(query))]
    finally:
        engine.dispose()


def revision(url: str) -> str:
    return str(rows(url, "SELECT version_num FROM alembic_version")[0][0])


# -- SQLite ----------------------------------------------------------------------------------------


def test_a_backup_restores_into_a_new_database_with_the_same_rows(tmp_path: Path) -> None:
    source = cardroom_db(tmp_path / "live.db")
    copy = tmp_path / "copy.db"
    code, out, err = _run("backup", str(copy), "--db", source)
    assert code == 0, err
    assert out.startswith("backed up SQLite ") and str(copy) in out and out.count("\n") == 1
    assert not list(tmp_path.glob(".copy.db.*"))  # no temporary file left behind
    assert not copy.with_name("copy.db-wal").exists()  # the backup is one file

    target = f"sqlite:///{tmp_path / 'new' / 'restored.db'}"
    code, out, err = _run("restore", str(copy), "--db", target)
    assert code == 0, err
    assert out.startswith("restored ") and "current" in out and out.count("\n") == 1
    assert rows(target) == rows(source) and len(rows(target)) == 3
    assert revision(target) == _head()


def test_the_database_url_is_the_servers_setting_when_not_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = cardroom_db(tmp_path / "live.db")
    monkeypatch.setenv("CARDROOM_DB_URL", source)
    code, _, err = _run("backup", str(tmp_path / "copy.db"))
    assert code == 0, err
    monkeypatch.setenv("CARDROOM_DB_URL", f"sqlite:///{tmp_path / 'restored.db'}")
    code, _, err = _run("restore", str(tmp_path / "copy.db"))
    assert code == 0, err
    assert rows(f"sqlite:///{tmp_path / 'restored.db'}") == rows(source)


def test_the_copy_is_the_database_as_of_its_start_while_writes_go_on(tmp_path: Path) -> None:
    """A commit between every step of the copy neither ends up in it nor restarts it (the copy
    reads from one snapshot); the writer is never blocked."""
    source = cardroom_db(tmp_path / "live.db", players=200)
    writer = sqlite3.connect(tmp_path / "live.db", isolation_level=None, timeout=0)
    written = [0]

    def write() -> None:
        written[0] += 1
        writer.execute(  # timeout=0: a lock held against writers would fail here at once
            "INSERT INTO players (id, name, created_at) VALUES (?, 'late', '2024-01-02')",
            (f"late{written[0]}",),
        )

    done = backups.backup(source, tmp_path / "copy.db", step_pages=1, between_steps=write)
    writer.close()
    assert written[0] >= 10  # many steps, each followed by a commit
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    backups.restore(done.file, restored)
    assert len(rows(restored)) == 200
    assert len(rows(source)) == 200 + written[0]


def test_an_older_backup_is_upgraded_to_the_current_schema(tmp_path: Path) -> None:
    source = cardroom_db(tmp_path / "old.db", revision=OLDER)
    _run("backup", str(tmp_path / "copy.db"), "--db", source)
    target = f"sqlite:///{tmp_path / 'restored.db'}"
    code, out, err = _run("restore", str(tmp_path / "copy.db"), "--db", target)
    assert code == 0, err
    assert f"schema {OLDER}, upgraded to {_head()}" in out
    assert revision(target) == _head() and rows(target) == rows(source)


def test_backup_refuses_to_overwrite_a_file_unless_forced(tmp_path: Path) -> None:
    source = cardroom_db(tmp_path / "live.db")
    existing = tmp_path / "copy.db"
    existing.write_text("an earlier backup")
    code, _, err = _run("backup", str(existing), "--db", source)
    assert code == 2 and "refused:" in err and "exists" in err and "--force" in err
    assert existing.read_text() == "an earlier backup"
    code, _, err = _run("backup", str(existing), "--db", source, "--force")
    assert code == 0, err
    assert existing.read_bytes().startswith(backups.SQLITE_MAGIC)


def test_restore_refuses_a_database_that_is_not_empty_and_changes_nothing(tmp_path: Path) -> None:
    _run("backup", str(tmp_path / "copy.db"), "--db", cardroom_db(tmp_path / "live.db"))
    target = cardroom_db(tmp_path / "in-use.db", players=1)
    before = (tmp_path / "in-use.db").read_bytes()
    code, out, err = _run("restore", str(tmp_path / "copy.db"), "--db", target)
    assert code == 2 and not out
    assert err.startswith("refused:") and "is not empty" in err and "alembic_version" in err
    assert (tmp_path / "in-use.db").read_bytes() == before
    assert rows(target) == [("p0", "Player 0")]


def test_restore_refuses_a_file_that_is_not_a_backup(tmp_path: Path) -> None:
    target = tmp_path / "restored.db"
    not_sqlite = tmp_path / "notes.txt"
    not_sqlite.write_text("SELECT 1;\n")
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE t (x)")
    connection.close()
    refusals = {
        not_sqlite: "is not a Cardroom backup",
        other: "is not a Cardroom backup (no alembic_version table)",
        tmp_path / "missing.db": "no backup file",
    }
    for file, reason in refusals.items():
        code, _, err = _run("restore", str(file), "--db", f"sqlite:///{target}")
        assert code == 2 and err.startswith("refused:") and reason in err, err
    assert not target.exists()  # nothing made either


def test_unknown_url_schemes_and_missing_databases_are_refused(tmp_path: Path) -> None:
    copy = tmp_path / "copy.db"
    _run("backup", str(copy), "--db", cardroom_db(tmp_path / "live.db"))
    for args, reason in [
        (("restore", str(copy), "--db", "mysql://u@h/db"), "mysql:// database is not one"),
        (("backup", str(tmp_path / "b.db"), "--db", "mysql://u@h/db"), "mysql://"),
        (("backup", str(tmp_path / "b.db"), "--db", "sqlite://"), "not a database file"),
        (("backup", str(tmp_path / "b.db"), "--db", f"sqlite:///{tmp_path / 'no.db'}"), "no data"),
        (("restore", str(copy), "--db", "postgresql://u@h/db"), "is a SQLite backup"),
    ]:
        code, _, err = _run(*args)
        assert code == 2 and err.startswith("refused:") and reason in err, err
    assert not (tmp_path / "no.db").exists() and not (tmp_path / "b.db").exists()


# -- PostgreSQL ------------------------------------------------------------------------------------


@pytest.fixture
def pg_databases() -> Iterator[list[str]]:
    """Two empty PostgreSQL databases of this test's own; their URLs."""
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("PostgreSQL's client tools (pg_dump, pg_restore) are not on the PATH")
    names = [f"cardroom_backup_{secrets.token_hex(4)}" for _ in range(2)]
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        for name in names:
            admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield [urlsplit(PG_ADMIN)._replace(path=f"/{name}").geturl() for name in names]
    finally:
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.mark.postgres
def test_postgresql_backup_and_restore_into_an_empty_database(
    tmp_path: Path, pg_databases: list[str]
) -> None:
    source, target = pg_databases
    engine = open_engine(source)
    migrate(engine, OLDER)
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO players (id, name, created_at) VALUES ('p0', 'Ada', now())")
        )
    engine.dispose()
    dump = tmp_path / "cardroom.dump"
    code, out, err = _run("backup", str(dump), "--db", source)
    assert code == 0, err
    assert dump.read_bytes().startswith(backups.PG_DUMP_MAGIC) and "PostgreSQL" in out

    code, _, err = _run("restore", str(dump), "--db", source)  # in use: refused
    assert code == 2 and "is not empty" in err
    code, out, err = _run("restore", str(dump), "--db", target)
    assert code == 0, err
    assert f"upgraded to {_head()}" in out
    assert rows(target) == [("p0", "Ada")] and revision(target) == _head()
