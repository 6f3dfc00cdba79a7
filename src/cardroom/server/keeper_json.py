"""Kept games as the keeper's API shows them: their ids, their share codes (read aloud at a
table, typed back in any case) and their JSON, for the owner and for anyone with the code."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from sqlalchemy import Connection

from cardroom.keeper import KeeperError, KeptGame, from_json, to_json
from cardroom.store import keeper as store
from cardroom.store import repository as repo
from cardroom.tables.errors import Refusal

log = logging.getLogger(__name__)

CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"  # no 0/O, 1/I/L: read aloud at a table
CODE_LENGTH = 10  # 31**10, about 8e14 codes: unguessable at the lookup rate allowed


# -- codes and ids ---------------------------------------------------------------------------------


def new_game_id() -> str:
    return "k_" + secrets.token_hex(8)


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def shown_code(code: str) -> str:
    """``K7QMX-4RDTB``: two halves, easy to read out."""
    return f"{code[:5]}-{code[5:]}"


def code_key(raw: str) -> str | None:
    """A share code as typed (any case, with or without the dash); None if it cannot be one."""
    key = raw.upper().replace("-", "").replace(" ", "")
    if len(key) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in key):
        return None
    return key


# -- JSON out --------------------------------------------------------------------------------------


def kept_of(row: dict[str, Any]) -> KeptGame:
    """The stored game, read back with every check of the keeper."""
    try:
        return from_json(row["data"])
    except KeeperError:
        log.exception("kept game %s does not read back", row["id"])
        raise Refusal(500, "server_error", "this kept game cannot be read") from None


def status_of(kept: KeptGame, closed: bool = False) -> str:
    return "closed" if closed else "over" if kept.over else "playing"


def kept_json(row: dict[str, Any], *, owner: bool) -> dict[str, Any]:
    """A kept game as its owner sees it (``owner``) or as anyone with its code does."""
    kept = kept_of(row)
    data: dict[str, Any] = {
        "code": shown_code(row["code"]),
        "owner": {"name": row["owner_name"]},
        "game": kept.game,
        "status": row["status"],
        "revision": row["revision"],
        "rounds": len(kept.rounds),
        "created_at": repo.iso(row["created_at"]),
        "updated_at": repo.iso(row["updated_at"]),
        "sheet": to_json(kept, results=True),
    }
    if owner:
        data = {"id": row["id"], **data, "owner": {"id": row["owner_id"], **data["owner"]}}
    return data


def summary_json(row: dict[str, Any]) -> dict[str, Any]:
    """One line of a list of kept games."""
    kept = kept_of(row)
    sheet = kept.sheet
    return {
        "id": row["id"],
        "code": shown_code(row["code"]),
        "game": kept.game,
        "players": list(kept.players),
        "rounds": len(kept.rounds),
        "status": row["status"],
        "revision": row["revision"],
        "leaders": [kept.players[s] for s in sheet.leaders],
        "winners": None if sheet.winners is None else [kept.players[s] for s in sheet.winners],
        "outcome": sheet.outcome,
        "created_at": repo.iso(row["created_at"]),
        "updated_at": repo.iso(row["updated_at"]),
    }


def owned_games(conn: Connection, owner_id: str) -> list[dict[str, Any]]:
    """The owner's kept games as list lines (the profile shows them too)."""
    return [summary_json(row) for row in store.games_of(conn, owner_id)]
