"""The client's address behind a reverse proxy (``docs/deploy.md``).

``X-Forwarded-For`` is believed only from a peer named in ``CARDROOM_TRUSTED_PROXIES``; from
any other peer the header is ignored, so nobody who reaches a server's port directly can pick
the address that its rate limits and the ladder's linked accounts see (``limits.py``,
``sightings.py``). Nothing is trusted unless configured: a server behind nginx on the same
machine sets ``CARDROOM_TRUSTED_PROXIES=127.0.0.1``.
"""

from __future__ import annotations

import ipaddress
import logging
from typing import Any

log = logging.getLogger(__name__)

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

FORWARDED_FOR = b"x-forwarded-for"
FORWARDED_PROTO = b"x-forwarded-proto"
SCHEMES = {"http": ("http", "ws"), "https": ("https", "wss")}  # proto -> (http, websocket)


def parse_networks(value: str) -> tuple[Network, ...]:
    """``"127.0.0.1, ::1, 10.0.0.0/8"`` as networks (an address is a network of one);
    ``ValueError`` names an entry that is neither."""
    networks = []
    for entry in value.split(","):
        entry = entry.strip()
        if not entry:
            continue
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"{entry!r} is not an IP address or network (e.g. 127.0.0.1, 10.0.0.0/8)"
            ) from None
    return tuple(networks)


class TrustedProxies:
    """Puts the client's address in an ASGI scope: the peer's own, or, when the peer is a
    trusted proxy, the nearest address in ``X-Forwarded-For`` that is not a trusted proxy."""

    def __init__(self, networks: tuple[Network, ...]) -> None:
        self.networks = networks
        self._warned = False

    def trusts(self, host: str) -> bool:
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self.networks)

    def resolve(self, scope: dict[str, Any]) -> dict[str, Any]:
        """``scope`` itself when nothing changes, else a copy with ``client`` (and ``scheme``)
        as the trusted proxy said."""
        client = scope.get("client")
        if not client or scope.get("type") not in ("http", "websocket"):
            return scope
        forwarded: list[bytes] = []
        proto = None
        for name, value in scope.get("headers", ()):
            if name == FORWARDED_FOR:
                forwarded.append(value)
            elif name == FORWARDED_PROTO:
                proto = value
        if not forwarded and proto is None:
            return scope
        if not self.trusts(client[0]):
            if forwarded and not self._warned:
                self._warned = True  # once a process: the header may come on every request
                log.warning(
                    "X-Forwarded-For from %s is ignored: that peer is not in "
                    "CARDROOM_TRUSTED_PROXIES (docs/deploy.md). Behind a proxy, every client "
                    "seems to come from the proxy until it is.",
                    client[0],
                )
            return scope
        changed = dict(scope)
        if forwarded:
            address = self.client_of(b",".join(forwarded).decode("latin-1"))
            if address is not None:
                changed["client"] = (address, 0)
        if proto is not None:
            schemes = SCHEMES.get(proto.decode("latin-1").strip().lower())
            if schemes is not None:
                changed["scheme"] = schemes[scope["type"] == "websocket"]
        return changed

    def client_of(self, header: str) -> str | None:
        """From the right (the hop nearest this server), the first address that is not a
        trusted proxy: what comes before it was written by the client and proves nothing.
        None when an entry on the way is not an address (the header is not believed)."""
        address = None
        for hop in reversed(header.split(",")):
            try:
                address = str(ipaddress.ip_address(hop.strip()))
            except ValueError:
                return None
            if not self.trusts(address):
                return address
        return address  # every hop a proxy of ours: the first one is the client
