"""Guest identity: a signed token names the player; every request and socket presents it.

The token is signed (itsdangerous), so the server needs no lookup to trust it, and nobody can
make one for another player's id. Each token also carries its issue time and a random nonce,
so every sign-in (or rename) hands out a token of its own rather than the same string again:
one device's token can be told from another's, and a later revocation scheme (e.g. "tokens
issued before T are void") has the time it needs. Tokens made before that (no ``iat``) are
still accepted, so nobody is signed out by the upgrade.
"""

from __future__ import annotations

import secrets
import time
import unicodedata

from itsdangerous import BadSignature, URLSafeSerializer

from cardroom.tables.errors import Refusal
from cardroom.tables.people import Identity

MAX_NAME = 32


class Tokens:
    def __init__(self, secret: str) -> None:
        self._serializer = URLSafeSerializer(secret, salt="cardroom-player")

    def issue(self, identity: Identity) -> str:
        """A fresh token: two calls for the same player never give the same string."""
        return self._serializer.dumps(
            {
                "id": identity.id,
                "name": identity.name,
                "iat": int(time.time()),
                "n": secrets.token_hex(6),
            }
        )

    def verify(self, token: object) -> Identity:
        if not isinstance(token, str) or not token or len(token) > 512:
            raise Refusal(401, "unauthorized", "a player token is needed")
        try:
            data = self._serializer.loads(token)
        except BadSignature:
            raise Refusal(401, "unauthorized", "this token is not valid here") from None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise Refusal(401, "unauthorized", "this token is not valid here")
        return Identity(data["id"], str(data.get("name", "")))


def new_player_id() -> str:
    return "p_" + secrets.token_hex(8)


def clean_name(raw: object, longest: int = MAX_NAME, what: str = "a name") -> str:
    """A display name: 1-32 printable characters, spaces trimmed and collapsed.

    Unicode's "other" characters are refused: controls (NUL among them, which PostgreSQL
    cannot store), format characters (the bidi overrides that make a name read backwards,
    zero-width ones that make two names look alike), lone surrogates (not storable as UTF-8),
    private-use and unassigned code points."""
    if not isinstance(raw, str):
        raise Refusal(400, "bad_request", f"{what} is a string of 1 to {longest} characters")
    name = " ".join(raw.split())
    if not 1 <= len(name) <= longest:
        raise Refusal(400, "bad_request", f"{what} has 1 to {longest} characters")
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise Refusal(
            400,
            "bad_request",
            f"{what} may not contain control, format (bidi, zero-width) or unpaired "
            "surrogate characters",
        )
    return name
