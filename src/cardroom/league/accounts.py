"""Accounts: a guest claims their name with a password, then signs in from any device.

Claiming keeps the guest's player id, so every rating, result and achievement stays theirs;
signing in elsewhere finds that id and gets a new token for it. Claimed names are unique
ignoring case and spacing, and no other name may look like one (``lookalikes.skeleton``); the
reserved names (the bots' levels, ``admin``: ``lookalikes.is_reserved``) nobody may claim.
Claiming and changing the password start a new token generation, so tokens issued before stop
working. Hashing is argon2 and slow on purpose: callers run ``hash_password`` and ``verify``
off the event loop and outside the database writer.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, insert, or_, select, update

from cardroom.league.lookalikes import is_reserved, skeleton
from cardroom.league.models import Account
from cardroom.store import repository as repo
from cardroom.store.models import Player

HASHER = PasswordHasher()
MIN_PASSWORD = 8
MAX_PASSWORD = 256
TAKEN = ", or looks like a name that is"  # a claimed name's look-alikes are refused too
RESERVED = "is reserved (the bots' level names, admin and moderator are nobody's)"


class AccountError(Exception):
    """A refused account operation: an HTTP status, a code and a reason people understand."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def name_key(name: str) -> str:
    """What makes two names the same name: case and runs of spaces do not count."""
    return " ".join(name.split()).casefold()


def check_password(password: object) -> str:
    if not isinstance(password, str) or not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(
            400, "bad_request", f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters"
        )
    return password


def hash_password(password: str) -> str:
    return HASHER.hash(check_password(password))


def verify(password_hash: str, password: str) -> bool:
    try:
        return HASHER.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return HASHER.check_needs_rehash(password_hash)


def name_is_claimed(conn: Connection, name: str, player_id: str | None = None) -> bool:
    """True when an account other than ``player_id``'s holds this name, or one that looks the
    same (``Ｚｅｄ``, a Cyrillic ``Zеd``, ``Źed`` or ``ℤed`` beside ``Zed``)."""
    same = or_(Account.name_key == name_key(name), Account.name_skeleton == skeleton(name))
    owners = conn.scalars(select(Account.player_id).where(same).limit(2))
    return any(owner != player_id for owner in owners)


def claim(
    conn: Connection, player_id: str, password_hash: str, name: str, now: datetime
) -> dict[str, Any]:
    """Make the guest ``player_id`` an account named ``name`` (their name, or a new one).

    A new token generation begins: a guest token copied before the claim does not become the
    account's. The answer holds the ``generation`` to issue the claimer's new token in."""
    player = conn.execute(select(Player.id, Player.name).where(Player.id == player_id)).first()
    if player is None:
        raise AccountError(404, "not_found", "no such player")
    if conn.scalar(select(Account.player_id).where(Account.player_id == player_id)):
        raise AccountError(409, "conflict", "this player has already claimed a name")
    if is_reserved(name):
        raise AccountError(409, "conflict", f"the name {name!r} {RESERVED}; choose another")
    if name_is_claimed(conn, name):
        raise AccountError(409, "conflict", f"the name {name!r} is taken{TAKEN}; choose another")
    conn.execute(
        insert(Account).values(
            player_id=player_id,
            name_key=name_key(name),
            name_skeleton=skeleton(name),
            password_hash=password_hash,
            created_at=now,
            signed_in_at=now,
        )
    )
    if name != player.name:
        conn.execute(update(Player).where(Player.id == player_id).values(name=name))
    return {
        "id": player_id,
        "name": name,
        "generation": repo.next_token_generation(conn, player_id),
    }


def credentials(conn: Connection, name: str) -> tuple[str, str, str, int] | None:
    """(player id, display name, password hash, token generation) of the account with this
    name, if any."""
    row = conn.execute(
        select(Account.player_id, Player.name, Account.password_hash, Player.token_generation)
        .join(Player, Player.id == Account.player_id)
        .where(Account.name_key == name_key(name))
    ).first()
    return (row[0], row[1], row[2], row[3]) if row is not None else None


def password_of(conn: Connection, player_id: str) -> tuple[str, str] | None:
    """(display name, password hash) of the account ``player_id``; None for a guest."""
    row = conn.execute(
        select(Player.name, Account.password_hash)
        .join(Player, Player.id == Account.player_id)
        .where(Account.player_id == player_id)
    ).first()
    return (row[0], row[1]) if row is not None else None


def change_password(conn: Connection, player_id: str, old_hash: str, new_hash: str) -> int | None:
    """Store ``new_hash`` if the stored hash is still ``old_hash`` (not changed meanwhile by
    another request), and begin a new token generation: every other device is signed out.
    The new generation, or None when the password changed in between."""
    done = conn.execute(
        update(Account)
        .where(Account.player_id == player_id, Account.password_hash == old_hash)
        .values(password_hash=new_hash)
    )
    if done.rowcount != 1:
        return None
    return repo.next_token_generation(conn, player_id)


def signed_in(conn: Connection, player_id: str, now: datetime, new_hash: str | None = None) -> None:
    """Note the sign-in; store a stronger hash when the hasher's settings have grown."""
    values: dict[str, Any] = {"signed_in_at": now}
    if new_hash is not None:
        values["password_hash"] = new_hash
    conn.execute(update(Account).where(Account.player_id == player_id).values(**values))


def player_name(conn: Connection, player_id: str) -> str | None:
    return conn.scalar(select(Player.name).where(Player.id == player_id))


def is_claimed(conn: Connection, player_id: str) -> bool:
    return conn.scalar(select(Account.player_id).where(Account.player_id == player_id)) is not None
