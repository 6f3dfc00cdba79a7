"""Opening the database: the engine (SQLite or PostgreSQL), migrations at start, shared secrets.

One code path for both: only the URL differs. SQLite runs in WAL mode with ``synchronous=NORMAL``,
which survives a killed process (not a power cut) while committing fast.
"""

from __future__ import annotations

import secrets
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, insert, select, text
from sqlalchemy.exc import IntegrityError

from cardroom.store.models import ServerSecret

MIGRATIONS = Path(__file__).resolve().parent / "migrations"
SQLITE_CACHE_KB = 256
"""Each SQLite connection's own page cache, in KiB (SQLite's default: 2,000). A server holds
several connections (the journal, the league, a pool for requests' threads), each filling
its cache as it reads: measured, 200 busy tables' server held ~3 MB more with the default, for
no more moves per second. The operating system caches the file's pages anyway."""


def normalize_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here; a relative SQLite path gets its folder made."""
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def open_engine(url: str, sqlite_cache_kb: int = SQLITE_CACHE_KB) -> Engine:
    """The engine for ``url``; on SQLite each connection caches at most ``sqlite_cache_kb``."""
    url = normalize_url(url)
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute(f"PRAGMA cache_size=-{int(sqlite_cache_kb)}")  # negative: KiB
            cursor.close()

        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=4, max_overflow=4)


MIGRATION_LOCK = 0x63617264  # any fixed number: PostgreSQL advisory lock of the migrations


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to the newest revision (Alembic), as the server does at every start
    (tests may stop at an older ``revision``, to see a later one carry old rows over).

    Several processes starting at once on one PostgreSQL database take turns (a lock held
    until this transaction ends): the first migrates, the others find the schema up to date.
    """
    from alembic import command  # here: a fifth of a second to import, and only this needs it
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def shared_secret(engine: Engine, name: str = "token-key") -> str:
    """A random key made by the first process and read by every later one."""
    with engine.begin() as connection:
        found = connection.scalar(select(ServerSecret.value).where(ServerSecret.name == name))
        if found:
            return found
    value = secrets.token_urlsafe(48)
    try:
        with engine.begin() as connection:
            connection.execute(insert(ServerSecret).values(name=name, value=value))
    except IntegrityError:
        pass
    with engine.begin() as connection:
        stored = connection.scalar(select(ServerSecret.value).where(ServerSecret.name == name))
    assert stored is not None  # inserted just now, by this process or the one that won the race
    return stored
