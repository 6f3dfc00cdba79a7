"""The day's board under the ladder's rules, on a real database: claimed accounts only, the
lowest result first and a failed challenge last, accounts marked as cheating or banned from
ranked play left out, and of two accounts seen on one device only the first to finish."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, insert

from cardroom.daily import attempts as repo
from cardroom.games.daily import Outcome
from cardroom.league.ladder import LadderRules, record_sighting
from cardroom.league.models import Account, CheatMark
from cardroom.moderation.models import Sanction
from cardroom.store import repository
from cardroom.store.database import migrate, open_engine

DAY = date(2026, 12, 5)
NOON = datetime(2026, 12, 5, 12, tzinfo=UTC)
KEY = b"sighting-key"


@pytest.fixture
def conn(tmp_path: Path) -> Iterator[Connection]:
    engine: Engine = open_engine(f"sqlite:///{tmp_path}/daily.db")
    migrate(engine)
    with engine.begin() as connection:
        yield connection
    engine.dispose()


def person(conn: Connection, name: str, claimed: bool = True) -> str:
    player_id = f"p_{name.lower()}"
    repository.insert_player(conn, player_id, name)
    if claimed:
        conn.execute(
            insert(Account).values(
                player_id=player_id, name_key=name.lower(), name_skeleton=name.lower(),
                password_hash="x", created_at=NOON,
            )
        )  # fmt: skip
    return player_id


def finish(conn: Connection, player_id: str, result: int | None, minute: int) -> str:
    attempt, made = repo.register(conn, player_id, "skip", DAY, DAY, NOON)
    assert made and attempt.scored
    when = NOON + timedelta(minutes=minute)
    outcome = Outcome(result, 1, "words")
    assert repo.store_moves(conn, attempt.id, 0, [{"type": "x"}], outcome, "🟩", when)
    assert not repo.store_moves(conn, attempt.id, 0, [{"type": "y"}], outcome, "🟩", when)
    return attempt.id


def names(conn: Connection) -> list[tuple[int, str, int | None]]:
    board = repo.board(conn, "skip", DAY, NOON + timedelta(hours=2), LadderRules())
    return [(row["rank"], row["name"], row["result"]) for row in board]


def test_the_board_ranks_claimed_accounts_and_leaves_out_who_the_ladder_would(
    conn: Connection,
) -> None:
    ada, bob, cy, dee = (person(conn, n) for n in ("Ada", "Bob", "Cy", "Dee"))
    eve, fay, guest = person(conn, "Eve"), person(conn, "Fay"), person(conn, "Gus", False)
    finish(conn, ada, 40, 1)
    finish(conn, bob, 35, 2)
    finish(conn, cy, None, 3)  # stalled: ranked last
    finish(conn, dee, 40, 4)  # the same as Ada, later: the same rank
    finish(conn, guest, 10, 5)  # a guest plays, off the board
    finish(conn, eve, 20, 6)
    finish(conn, fay, 30, 7)
    assert names(conn) == [
        (1, "Eve", 20), (2, "Fay", 30), (3, "Bob", 35), (4, "Ada", 40), (4, "Dee", 40),
        (6, "Cy", None),
    ]  # fmt: skip
    conn.execute(insert(CheatMark).values(player_id=eve, reason="bot", marked_at=NOON))
    conn.execute(
        insert(Sanction).values(
            player_id=fay, kind="rank_ban", reason="boosting", details={}, created_by=None,
            created_at=NOON, expires_at=None,
        )
    )  # fmt: skip
    assert [n for _, n, _ in names(conn)] == ["Bob", "Ada", "Dee", "Cy"]
    # Ada and Dee signed in from one device: Dee's second account does not stand beside Ada's.
    for who in (ada, dee):
        record_sighting(conn, who, KEY, NOON, LadderRules(), address=None, device="phone-1")
    assert [n for _, n, _ in names(conn)] == ["Bob", "Ada", "Cy"]


def test_one_scored_attempt_then_practice(conn: Connection) -> None:
    ada = person(conn, "Ada")
    first, made = repo.register(conn, ada, "skip", DAY, DAY, NOON)
    again, made_again = repo.register(conn, ada, "skip", DAY, DAY, NOON)
    assert made and not made_again and again.id == first.id and first.scored
    finish_id = first.id
    assert repo.store_moves(conn, finish_id, 0, [], Outcome(30, 1, "w"), "", NOON)
    practice, made = repo.register(conn, ada, "skip", DAY, DAY, NOON)
    assert made and not practice.scored and practice.id != first.id
    past, made = repo.register(conn, ada, "skip", DAY - timedelta(days=1), DAY, NOON)
    assert made and not past.scored
    for _ in range(repo.PRACTICE_A_DAY - 2):
        repo.register(conn, ada, "skip", DAY, DAY, NOON)
    with pytest.raises(repo.AttemptError) as refused:
        repo.register(conn, ada, "skip", DAY, DAY, NOON)
    assert refused.value.status == 429
