"""Sightings at sign-in (``league/ladder.py``): a new guest, a claim and a sign-in note the
keyed hash of the client's network address, and of a device token if the client sends one
(``X-Cardroom-Device``; the web client keeps no per-browser id today, so the address alone
links its accounts). The league never rates two accounts seen on one of them against each
other, and the ranked queue never pairs them."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from typing import Any

from sqlalchemy import Connection

from cardroom.league import ladder
from cardroom.league.periods import system_clock
from cardroom.server.limits import client_address

DEVICE_HEADER = b"x-cardroom-device"


def sighting_key(secret: str) -> bytes:
    """The key of the sightings' HMAC, derived one way from the server's secret (so it is
    not the key that signs tokens)."""
    return hmac.new(secret.encode(), b"cardroom-sightings", hashlib.sha256).digest()


def device_of(scope: Any) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == DEVICE_HEADER:
            token = value.decode("latin-1").strip()
            return token if 0 < len(token) <= ladder.MAX_DEVICE else None
    return None


def noting(request: Any, player_id: str) -> Callable[[Connection], None]:
    """A write (for the journal) that notes ``player_id`` seen where ``request`` came from."""
    state = request.app.state
    key: bytes | None = getattr(state, "sighting_key", None)
    address, device = client_address(request.scope), device_of(request.scope)
    now = getattr(state, "league_clock", system_clock)()
    rules = state.settings.ladder() or ladder.LadderRules()  # kept as long either way

    def note(conn: Connection) -> None:
        if key is not None:
            ladder.record_sighting(conn, player_id, key, now, rules, address=address, device=device)

    return note
