"""A migrated database of each kind (SQLite in a file, PostgreSQL in a database of its own)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
from sqlalchemy import Engine

from cardroom.store.database import migrate, open_engine

PG_ADMIN = os.environ.get("CARDROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    if request.param == "sqlite":
        made = open_engine(f"sqlite:///{tmp_path / 'store.db'}")
        migrate(made)
        yield made
        made.dispose()
        return
    name = "cardroom_store_" + secrets.token_hex(4)
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    made = open_engine(urlsplit(PG_ADMIN)._replace(path=f"/{name}").geturl())
    try:
        migrate(made)
        yield made
    finally:
        made.dispose()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
