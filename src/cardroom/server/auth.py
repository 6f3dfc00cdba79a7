"""Who is calling: signed tokens that end, checked against the store.

A token is signed (itsdangerous), so nobody can make one for another player's id; it names the
player, the player's token generation when it was issued, its issue time and expiry, and a
random nonce (every sign-in gets a token of its own). It does not carry the name: the name, and
whether the token's generation is still the player's, come from the store, through a small
cache (``PlayerCache``) so that most requests need no database round trip. A claim, a password
change or "sign out everywhere" starts a new generation, which voids every older token.
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer

from cardroom.moderation.sanctions import BAN, CLEAR, Notice, Standing
from cardroom.tables.errors import Refusal
from cardroom.tables.people import Identity

MAX_NAME = 32
MAX_TOKEN = 512
MAX_CACHED = 50_000  # players whose name and generation a process keeps; the oldest go first
STATE_KEY = "cardroom.identity"  # where ``Authenticate`` leaves the caller in the ASGI scope


def unauthorized(message: str = "this token is not valid here") -> Refusal:
    return Refusal(401, "unauthorized", message)


@dataclass(frozen=True, slots=True)
class Ticket:
    """What a genuine token that has not expired says: whose it is, and of which generation."""

    player_id: str
    generation: int


class Tokens:
    """Issue and read signed tokens that end ``lifetime`` seconds after they are issued."""

    def __init__(
        self, secret: str, lifetime: float, clock: Callable[[], float] = time.time
    ) -> None:
        self._serializer = URLSafeSerializer(secret, salt="cardroom-player")
        self.lifetime = lifetime
        self.clock = clock  # wall-clock seconds: tests put a fake one here

    def issue(self, player_id: str, generation: int) -> str:
        """A fresh token: two calls for the same player never give the same string."""
        now = self.clock()
        return self._serializer.dumps(
            {
                "id": player_id,
                "g": generation,
                "iat": int(now),
                "exp": int(now + self.lifetime),
                "n": secrets.token_hex(6),
            }
        )

    def read(self, token: object) -> Ticket:
        """The token's ticket, or ``401``: ``unauthorized`` (not ours, malformed) or
        ``token_expired`` (past its expiry, or made before tokens had one)."""
        if not isinstance(token, str) or not token or len(token) > MAX_TOKEN:
            raise unauthorized("a player token is needed")
        try:
            data = self._serializer.loads(token)
        except BadSignature:
            raise unauthorized() from None
        if not isinstance(data, dict) or not isinstance(data.get("id"), str):
            raise unauthorized()
        expires, generation = data.get("exp"), data.get("g", 0)
        if not isinstance(expires, int) or expires <= self.clock():
            raise Refusal(
                401,
                "token_expired",
                "this sign-in has expired: sign in again (a guest: choose a name again)",
            )
        if not isinstance(generation, int):
            raise unauthorized()
        return Ticket(data["id"], generation)


@dataclass(frozen=True, slots=True)
class Holder:
    """A token holder as the store knows them: the name to show, the current generation, and
    the mutes and bans in force (``moderation.sanctions``), each with its end."""

    name: str
    generation: int
    standing: Standing = CLEAR


class Sanctioned(Refusal):
    """A refusal because of a sanction: its body says what, why and until when."""

    def __init__(self, code: str, notice: Notice, what: str) -> None:
        super().__init__(403, code, f"{what}: {notice.sentence()}")
        self.notice = notice
        self.what = what

    def to_json(self) -> dict[str, Any]:
        body = super().to_json()
        body["error"]["sanction"] = self.notice.to_json()
        return body


def banned(notice: Notice) -> Sanctioned:
    return Sanctioned("banned", notice, "this account is banned")


class PlayerCache:
    """Players' names and token generations, read from the store and kept ``ttl`` seconds.

    A change made by this process (rename, claim, password change, sign-out everywhere) is
    ``forget``-ten at once; one made by another process is seen here within ``ttl`` seconds.
    At most ``size`` players are kept, the least recently read go first."""

    def __init__(
        self,
        load: Callable[[str], Awaitable[Holder | None]],
        ttl: float,
        size: int = MAX_CACHED,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.load, self.ttl, self.size, self.clock = load, ttl, size, clock
        self._entries: OrderedDict[str, tuple[float, Holder | None]] = OrderedDict()
        self._changes = 0  # forgets so far: a read that overlapped one is not kept

    async def get(self, player_id: str, fresh: bool = False) -> Holder | None:
        found = None if fresh else self._entries.get(player_id)
        if found is not None and found[0] > self.clock():
            self._entries.move_to_end(player_id)
            return found[1]
        changes = self._changes
        holder = await self.load(player_id)
        if changes == self._changes and self.ttl > 0:
            self._entries[player_id] = (self.clock() + self.ttl, holder)
            self._entries.move_to_end(player_id)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
        return holder

    def forget(self, player_id: str) -> None:
        self._changes += 1
        self._entries.pop(player_id, None)

    def __len__(self) -> int:
        return len(self._entries)


class Auth:
    """Tokens checked against the store: the player exists, the token's generation is the
    player's current one, and the identity carries the stored name, never an old one."""

    def __init__(self, tokens: Tokens, players: PlayerCache) -> None:
        self.tokens = tokens
        self.players = players

    def issue(self, player_id: str, generation: int) -> str:
        return self.tokens.issue(player_id, generation)

    async def reissue(self, player_id: str) -> str:
        """A fresh token (a new expiry) in the player's current generation."""
        holder = await self.players.get(player_id)
        return self.issue(player_id, holder.generation if holder is not None else 0)

    def changed(self, player_id: str) -> None:
        """The player's name or generation changed: read them from the store next time."""
        self.players.forget(player_id)

    async def verify(self, token: object) -> Identity:
        ticket = self.tokens.read(token)
        holder = await self.players.get(ticket.player_id)
        if holder is not None and ticket.generation > holder.generation:
            # Issued after a change this process has not seen yet (another process's claim).
            holder = await self.players.get(ticket.player_id, fresh=True)
        if holder is None:
            raise unauthorized("this token's player is not known here; choose a name again")
        if ticket.generation < holder.generation:
            raise Refusal(
                401,
                "token_revoked",
                "this sign-in has ended (the name was claimed, its password changed, or it "
                "was signed out everywhere): sign in again",
            )
        if ticket.generation > holder.generation:
            raise unauthorized()
        ban = holder.standing.active(BAN, datetime.now(UTC))
        if ban is not None:
            raise banned(ban)
        return Identity(ticket.player_id, holder.name)

    async def standing(self, player_id: str) -> Standing:
        """The player's mutes and bans as this process knows them (within the cache's ttl;
        a sanction made anywhere is ``changed`` here at once through the audit log's watch)."""
        holder = await self.players.get(player_id)
        return holder.standing if holder is not None else CLEAR


def bearer(headers: Any) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header ('' for another scheme), or
    None without the header. ``headers`` are the ASGI scope's (bytes pairs)."""
    for key, value in headers:
        if key == b"authorization":
            scheme, _, token = value.decode("latin-1").partition(" ")
            return token.strip() if scheme.lower() == "bearer" else ""
    return None


class Authenticate:
    """Checks the bearer token of an API request before its route runs (the store's part of
    the check is asynchronous), and leaves the caller, or the refusal, in the scope: routes
    then ask ``caller(scope)`` without waiting, and a route that needs no player never
    refuses a request for its token."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope.get("path", "").startswith("/api/"):
            token = bearer(scope.get("headers", ()))
            if token is not None:
                found: Identity | Refusal
                try:
                    found = await scope["app"].state.auth.verify(token)
                except Refusal as refusal:
                    found = refusal
                scope.setdefault("state", {})[STATE_KEY] = found
        await self.app(scope, receive, send)


def caller(scope: Any) -> Identity:
    """The player whose token came with the request (checked by ``Authenticate``), or 401."""
    found = scope.get("state", {}).get(STATE_KEY)
    if isinstance(found, Identity):
        return found
    if isinstance(found, Sanctioned):
        raise Sanctioned(found.code, found.notice, found.what)
    if isinstance(found, Refusal):
        raise Refusal(found.status, found.code, found.message)
    raise unauthorized("send 'Authorization: Bearer <token>' (POST /api/players)")


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
