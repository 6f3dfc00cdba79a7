"""Who may see a private table: the people at it, and whoever holds its invitation.

A private table is reached through its name (``POST /api/tables/named``) or through an
invitation code its people hand out; its id alone opens nothing. The code is derived one-way
from the table id with the server's secret (HMAC), so it needs no storage, survives restarts,
is the same in every process of a cluster, and cannot be guessed from the id. For anyone
else a private table does not exist: the answer is the same 404 as for an unknown id.
"""

from __future__ import annotations

import hmac
from typing import Any

from cardroom.games.base import derive_seed
from cardroom.server.cluster import not_found
from cardroom.tables.people import Identity

INVITE_LENGTH = 16


class Invitations:
    """The invitation codes of private tables, from the server's secret."""

    def __init__(self, secret: str) -> None:
        self._secret = f"invite:{secret}"

    def code(self, table_id: str) -> str:
        return derive_seed(self._secret, table_id)[:INVITE_LENGTH]

    def valid(self, table_id: str, code: object) -> bool:
        return isinstance(code, str) and hmac.compare_digest(code, self.code(table_id))


def is_member(info: dict[str, Any], player: Identity | None) -> bool:
    """The owner, or someone seated at the table."""
    if player is None:
        return False
    if (info.get("owner") or {}).get("id") == player.id:
        return True
    return any((s.get("player") or {}).get("id") == player.id for s in info.get("seats", []))


def may_see(
    info: dict[str, Any], player: Identity | None, invite: object, invitations: Invitations
) -> bool:
    if info.get("public"):
        return True
    return is_member(info, player) or invitations.valid(str(info.get("id", "")), invite)


def check_visible(
    info: dict[str, Any], player: Identity | None, invite: object, invitations: Invitations
) -> None:
    """Refuse, as if the table did not exist, anyone a private table is hidden from."""
    if not may_see(info, player, invite, invitations):
        raise not_found(str(info.get("id", "")))


def shown_to(
    info: dict[str, Any], player: Identity | None, invitations: Invitations, *, knows: bool = False
) -> dict[str, Any]:
    """The Table object for this caller: a private table's name and invitation only for its
    people (or ``knows``: someone who just came through the name)."""
    if info.get("public"):
        return info
    if knows or is_member(info, player):
        return {**info, "invite": invitations.code(str(info["id"]))}
    return {**info, "name": None}
