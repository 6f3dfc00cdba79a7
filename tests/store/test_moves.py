"""Stored moves: compact (a few dozen bytes each), read back exactly, and the rows of the wide
layout before revision 0006 carried over."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, text

from cardroom.games.base import ACTION, NEXT_ROUND, Step, rebuild
from cardroom.games.registry import get_game
from cardroom.store import move_codec
from cardroom.store import repository as repo
from cardroom.store.database import migrate, open_engine
from cardroom.tables.audience import action_key


def random_steps(game_name: str, options: dict[str, Any], seed: str) -> list[Step]:
    """A whole match of random legal moves, as the steps a table stores."""
    game = get_game(game_name)
    match = game.new_match(game.options_from_json(options), seed)
    rng = random.Random(seed)
    steps: list[Step] = []
    while not match.over and len(steps) < 5000:
        if match.between_rounds:
            taken = match.between_round_steps(frozenset())
        else:
            seat = match.current
            action = rng.choice(match.view(seat).legal_actions())
            taken = [Step(ACTION, seat, game.action_to_json(action))]
        for step in taken:
            match.apply_step(step)
            steps.append(step)
    return steps


MATCHES = [
    ("skip", {"stock_size": 5, "match_target": 25, "players": 4, "teams": True}, "teams"),
    ("skip", {"stock_size": 5, "match_target": 25}, "two"),
    ("skyjo", {"end_score": 40}, "grids"),
]


def _store(conn: Any, match_id: str, steps: list[Step], senders: bool = True) -> None:
    round_number = 1
    for number, step in enumerate(steps, start=1):
        round_number += step.kind == NEXT_ROUND
        sent_by = action_key("p_ada", f"a{number}") if senders and step.seat == 0 else None
        repo.insert_move(
            conn, match_id, number, round_number, step.kind, step.seat, step.action, sent_by
        )


def _new_match(conn: Any, match_id: str, game: str, options: dict[str, Any], seed: str) -> None:
    if repo.get_player(conn, "p_ada") is None:
        repo.insert_player(conn, "p_ada", "Ada")
    table = {
        "id": f"t_{match_id}",
        "owner_id": "p_ada",
        "options": options,
        "abandon_after": 60.0,
        "status": "playing",
    }
    repo.insert_table(conn, table, [])
    row = {"id": match_id, "table_id": f"t_{match_id}", "game": game, "options": options}
    repo.insert_match(conn, {**row, "seed": seed, "seats": [], "status": "playing"})


@pytest.mark.parametrize(("game", "options", "seed"), MATCHES)
def test_a_stored_match_reads_back_step_for_step_and_replays(
    engine: Engine, game: str, options: dict[str, Any], seed: str
) -> None:
    steps = random_steps(game, options, seed)
    with engine.begin() as conn:
        _new_match(conn, f"m_{seed}", game, options, seed)
        _store(conn, f"m_{seed}", steps)
    with engine.connect() as conn:
        moves = repo.match_moves(conn, f"m_{seed}")
    assert repo.steps_of(moves) == steps
    assert [m["number"] for m in moves] == list(range(1, len(steps) + 1))
    for move in moves:
        ada = move["seat"] == 0 and move["kind"] == ACTION
        assert move["sent_by"] == (action_key("p_ada", f"a{move['number']}") if ada else None)
    played = get_game(game)
    rebuilt = rebuild(played, played.options_from_json(options), seed, repo.steps_of(moves))
    assert rebuilt.over


def test_a_move_takes_a_few_dozen_bytes_on_sqlite(tmp_path: Path) -> None:
    engine = open_engine(f"sqlite:///{tmp_path / 'size.db'}")
    migrate(engine)
    total = 0
    with engine.begin() as conn:
        for i in range(30):
            seed = f"size-{i}"
            steps = random_steps("skip", {"stock_size": 10, "match_target": 200}, seed)
            _new_match(conn, f"m_{i}", "skip", {}, seed)
            _store(conn, f"m_{i}", steps)
            total += len(steps)
        size = conn.scalar(
            text(
                "SELECT sum(pgsize) FROM dbstat WHERE name = 'moves' OR name IN "
                "(SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'moves')"
            )
        )
    engine.dispose()
    assert total > 3000
    assert size / total <= 80, f"{size / total:.0f} bytes per stored move"


@pytest.mark.parametrize(("game", "options", "seed"), MATCHES)
def test_every_action_packs_into_a_few_bytes_and_back(
    game: str, options: dict[str, Any], seed: str
) -> None:
    played = get_game(game)
    match = played.new_match(played.options_from_json(options), seed)
    seen: dict[str, dict[str, Any]] = {}
    for step in random_steps(game, options, seed):
        if step.action is not None:
            seen[repr(sorted(step.action.items()))] = step.action
    for action in seen.values():
        packed = move_codec.pack(action)
        assert packed is not None and len(packed) <= 12, (action, packed)
        assert move_codec.unpack(packed) == action
    assert match is not None and len(seen) > 5
    assert move_codec.pack(None) is None and move_codec.unpack(None) is None


def test_a_remembered_packing_is_the_same_bytes_and_the_memo_stays_bounded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    action = {"type": "play", "from": "hand", "card": 7, "to": 2}
    first, again = move_codec.pack(action), move_codec.pack(dict(action))
    assert first == again and move_codec.unpack(again) == action
    monkeypatch.setattr(move_codec, "_PACKED", {})
    monkeypatch.setattr(move_codec, "_PACKED_MAX", 3)
    for card in range(1, 13):
        moved = {"type": "play", "from": "hand", "card": card, "to": 1}
        assert move_codec.unpack(move_codec.pack(moved)) == moved
    assert len(move_codec._PACKED) == 3


def test_bytes_that_pack_did_not_make_are_refused_with_a_reason() -> None:
    for junk in (b"", b"\x09abc", b"\x01\xff\xff\xff", bytes((move_codec.CURRENT,))):
        with pytest.raises(ValueError, match="stored action"):
            move_codec.unpack(junk)


def test_revision_0006_carries_the_wide_rows_over(tmp_path: Path) -> None:
    """Rows stored before 0006 (JSON actions, sender ids, a timestamp each) read back the
    same after it, with the senders' keys a table remembers."""
    engine = open_engine(f"sqlite:///{tmp_path / 'old.db'}")
    migrate(engine, "0005_tokens")
    steps = random_steps("skip", {"stock_size": 5, "match_target": 25}, "old")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO players (id, name, created_at) VALUES ('p_ada', 'A', 0)"))
        conn.execute(
            text(
                "INSERT INTO tables (id, public, game, owner_id, options, abandon_after, status,"
                " seq, runtime, banned, epoch, created_at) VALUES ('t_old', 0, 'skip', 'p_ada',"
                " '{}', 60, 'playing', 0, '{}', '[]', 0, 0)"
            )
        )
        conn.execute(
            text(
                "INSERT INTO matches (id, table_id, game, options, seed, seats, status, scores,"
                " rounds, created_at) VALUES ('m_old', 't_old', 'skip', '{}', 'old', '[]',"
                " 'playing', '[]', 1, 0)"
            )
        )
        round_number = 1
        for number, step in enumerate(steps, start=1):
            round_number += step.kind == NEXT_ROUND
            ada = step.seat == 0
            conn.execute(
                text(
                    "INSERT INTO moves (match_id, number, round, kind, seat, action, player_id,"
                    " action_id, created_at) VALUES ('m_old', :n, :r, :k, :s, :a, :p, :i, 0)"
                ),
                {
                    "n": number,
                    "r": round_number,
                    "k": step.kind,
                    "s": step.seat,
                    "a": None if step.action is None else json.dumps(step.action),
                    "p": "p_ada" if ada else None,
                    "i": f"a{number}" if ada else None,
                },
            )
    migrate(engine)
    with engine.connect() as conn:
        moves = repo.match_moves(conn, "m_old")
        indexes = conn.execute(text("PRAGMA index_list('moves')")).all()
    engine.dispose()
    assert repo.steps_of(moves) == steps
    for move in moves:
        expected = action_key("p_ada", f"a{move['number']}") if move["seat"] == 0 else None
        assert move["sent_by"] == expected
    assert all("ix_moves_match_id" not in str(row) for row in indexes)
