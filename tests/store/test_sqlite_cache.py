"""Each SQLite connection caches at most ``sqlite_cache_kb`` of pages (256 KiB by default,
``CARDROOM_SQLITE_CACHE_KB``): a server holds several connections, and SQLite's default of
2,000 KiB each held ~3 MB more at 200 busy tables, for no more moves per second."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Connection, text

from cardroom.server.app import create_app
from cardroom.server.settings import Settings
from cardroom.store.database import SQLITE_CACHE_KB, open_engine


def _cache_size(conn: Connection) -> int:
    return int(conn.execute(text("PRAGMA cache_size")).scalar_one())


def test_every_connection_of_the_pool_has_the_small_cache(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'cache.db'}")
    held = [engine.connect() for _ in range(3)]  # three at once: three connections
    sizes = [_cache_size(conn) for conn in held]
    found: list[int] = []

    def elsewhere() -> None:
        with engine.connect() as conn:
            found.append(_cache_size(conn))

    other = threading.Thread(target=elsewhere)
    other.start()
    other.join()
    for conn in held:
        conn.close()
    assert sizes == [-SQLITE_CACHE_KB] * 3  # negative: KiB, not pages
    assert found == [-SQLITE_CACHE_KB]
    assert SQLITE_CACHE_KB < 2000  # below SQLite's own default


def test_the_server_opens_its_database_with_the_configured_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDROOM_SQLITE_CACHE_KB", "64")
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'server.db'}", bot_executor="inline")
    assert settings.sqlite_cache_kb == 64
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/tables").status_code == 200
        with client.app.state.journal.engine.connect() as conn:
            assert _cache_size(conn) == -64
