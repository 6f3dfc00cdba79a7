"""Who may moderate: roles, the acting person, and the refusals every action shares.

Roles rank ``player < moderator < admin``. Moderators work the reports queue and sanction
players; only admins grant roles. Nobody sanctions themself, nor anyone whose role is not below
their own (a moderator cannot sanction an admin, nor another moderator).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, select

from cardroom.league.models import Account
from cardroom.store.models import Player

PLAYER, MODERATOR, ADMIN = "player", "moderator", "admin"
ROLES = (PLAYER, MODERATOR, ADMIN)
RANK = {role: rank for rank, role in enumerate(ROLES)}


class ModerationError(Exception):
    """A refused moderation request: an HTTP status, a code and a reason people understand
    (the command line says the same words after ``refused:``)."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def forbidden(message: str) -> ModerationError:
    return ModerationError(403, "forbidden", message)


def not_found(message: str) -> ModerationError:
    return ModerationError(404, "not_found", message)


@dataclass(frozen=True, slots=True)
class Actor:
    """Who acts: a signed-in member of staff, or the operator at the command line (``id``
    None), who stands for an admin since they hold the database anyway."""

    id: str | None
    name: str
    role: str

    def to_json(self) -> dict[str, str | None]:
        return {"id": self.id, "name": self.name, "role": self.role}


COMMAND_LINE = Actor(None, "command line", ADMIN)


def role_of(conn: Connection, player_id: str) -> str:
    """The player's role: an account's stored one, ``player`` for a guest."""
    role = conn.scalar(select(Account.role).where(Account.player_id == player_id))
    return role if role in RANK else PLAYER


def name_of(conn: Connection, player_id: str) -> str:
    """The player's name, or a 404 refusal: every action on a player starts by finding them."""
    name = conn.scalar(select(Player.name).where(Player.id == player_id))
    if name is None:
        raise not_found(f"no player {player_id!r}")
    return str(name)


def actor_of(conn: Connection, player_id: str) -> Actor:
    """The player as an actor, with the name and role the store holds."""
    name = conn.scalar(select(Player.name).where(Player.id == player_id))
    if name is None:
        raise not_found(f"no player {player_id!r}")
    return Actor(player_id, name, role_of(conn, player_id))


def require(actor: Actor, role: str) -> None:
    """Refuse (403) an actor below ``role``: the console's routes begin with this."""
    if RANK[actor.role] < RANK[role]:
        raise forbidden(f"this needs the {role} role (you are a {actor.role})")


def may_act_on(actor: Actor, target_id: str, target_role: str) -> None:
    """Refuse (403) an action on oneself, or on someone whose role is not below the actor's."""
    if actor.id is not None and actor.id == target_id:
        raise forbidden("nobody may sanction themself")
    if actor.id is not None and RANK[target_role] >= RANK[actor.role]:
        raise forbidden(f"a {actor.role} cannot sanction a {target_role}")
