"""Databases for the league tests, and finished matches stored the way the server stores them.

Every database test runs on SQLite and on a uniquely named database on the PostgreSQL server at
``CARDROOM_TEST_PG`` (an admin URL; ``make test`` sets it, see ``scripts/test-services``; by
default the local one on 127.0.0.1:5432), created once per session, migrated with Alembic and
dropped at the end. Tables are emptied between tests.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest
from sqlalchemy import Connection, Engine, delete, insert

from cardroom.bots import make_bot
from cardroom.games.skip import Match, Options, action_to_json
from cardroom.league.models import (
    Account,
    Award,
    CheatMark,
    Choice,
    DivisionPlace,
    Rating,
    RatingHistory,
    Result,
    Season,
    Sighting,
    Standing,
    Trophy,
    Unlock,
    Void,
)
from cardroom.sim.play import play_match
from cardroom.store import repository as repo
from cardroom.store.database import migrate, open_engine
from cardroom.store.models import Match as MatchRow
from cardroom.store.models import Move, Player, Seat, Table

PG_ADMIN = os.environ.get("CARDROOM_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")
NOW = datetime(2026, 11, 18, 15, 30, tzinfo=UTC)  # a Wednesday
WIPE = (
    Void,
    CheatMark,
    Unlock,
    Choice,
    DivisionPlace,
    Standing,
    Trophy,
    Season,
    Award,
    RatingHistory,
    Rating,
)
WIPE += (Result, Sighting, Account, Move, MatchRow)
WIPE_LAST = (Seat, Table, Player)


@pytest.fixture(scope="session")
def sqlite_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    path: Path = tmp_path_factory.mktemp("league") / "league.db"
    engine = open_engine(f"sqlite:///{path}")
    migrate(engine)
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def postgres_engine() -> Iterator[Engine]:
    name = "cardroom_league_" + secrets.token_hex(4)
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    engine = open_engine(urlsplit(PG_ADMIN)._replace(path=f"/{name}").geturl())
    try:
        migrate(engine)
        yield engine
    finally:
        engine.dispose()
        with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest) -> Iterator[Engine]:
    engine: Engine = request.getfixturevalue(f"{request.param}_engine")
    yield engine
    with engine.begin() as conn:
        for model in (*WIPE, *WIPE_LAST):
            conn.execute(delete(model))


@pytest.fixture
def conn(engine: Engine) -> Iterator[Connection]:
    """One connection; each test commits what it needs with ``conn.commit()`` or not at all."""
    with engine.connect() as connection:
        yield connection
        connection.rollback()


# -- building finished matches -------------------------------------------------------------------


def add_player(conn: Connection, player_id: str, name: str | None = None) -> str:
    repo.insert_player(conn, player_id, name or player_id.removeprefix("p_").title())
    return player_id


def add_table(conn: Connection, table_id: str, owner: str, options: Options) -> str:
    repo.insert_table(
        conn,
        {
            "id": table_id,
            "name": None,
            "public": True,
            "owner_id": owner,
            "options": options.to_json(),
            "abandon_after": 300.0,
            "status": "finished",
        },
        [],
    )
    return table_id


def played(options: Options, seed: str | int, bots: Sequence[str] | None = None) -> Match:
    """A match played to its end by bots (greedy unless named), as the engine plays it."""
    names = bots or ["greedy"] * options.players
    return play_match(options, seed, [make_bot(n, f"{seed}/{i}") for i, n in enumerate(names)])


def seat(who: str) -> dict[str, Any]:
    """A match seat as the server stores it: ``p_…`` is a player, anything else a bot level."""
    if who.startswith("p_"):
        return {"table_seat": 0, "name": who, "player_id": who, "bot": None}
    return {"table_seat": 0, "name": f"{who} bot", "player_id": None, "bot": who}


def store_match(
    conn: Connection,
    match: Match,
    match_id: str,
    table_id: str,
    who: Sequence[str],
    finished_at: datetime = NOW,
) -> dict[str, Any]:
    """Write a finished match the way ``server.match_flow`` does: the row and every move."""
    seats = [{**seat(w), "table_seat": i} for i, w in enumerate(who)]
    repo.insert_match(
        conn,
        {
            "id": match_id,
            "table_id": table_id,
            "options": match.options.to_json(),
            "seed": match.seed,
            "seats": seats,
            "status": "finished",
            "scores": list(match.scores),
            "winners": list(match.winners or ()),
            "rounds": match.round_number,
            "finished_at": finished_at,
        },
    )
    rows: list[dict[str, Any]] = []

    def add(round_number: int, kind: str, mover: int | None, action: Any) -> None:
        step = repo.move_row(match_id, len(rows) + 1, round_number, kind, mover, action)
        rows.append(step.params)

    teams = match.options.teams
    for log in match.rounds:
        if log.number > 1:
            if teams and not log.teams:
                teams = False
                add(log.number, "solo", None, None)
            add(log.number, "next_round", None, None)
        for mover, action in log.moves:
            add(log.number, "action", mover, action_to_json(action))
    conn.execute(insert(Move), rows)  # one statement: thousands of moves in a blink
    return seats


def winner_first(match: Match, player: str, others: Sequence[str]) -> list[str]:
    """Seat ``player`` where the match was won and ``others`` in the remaining seats."""
    won = (match.winners or (0,))[0]
    rest = list(others)
    return [player if s == won else rest.pop(0) for s in range(match.options.players)]


def loser_first(match: Match, player: str, others: Sequence[str]) -> list[str]:
    """Seat ``player`` in a seat that did not win."""
    lost = next(s for s in range(match.options.players) if s not in (match.winners or ()))
    rest = list(others)
    return [player if s == lost else rest.pop(0) for s in range(match.options.players)]
