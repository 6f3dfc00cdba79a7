"""Whose X-Forwarded-For is believed (server/proxies.py, docs/deploy.md): only a configured
trusted proxy's; from anyone else the header changes nothing."""

from __future__ import annotations

import logging

import pytest

from cardroom.server.proxies import TrustedProxies, parse_networks
from cardroom.server.settings import Settings, SettingsError


def scope(peer: str, *headers: tuple[bytes, bytes], kind: str = "http") -> dict:
    return {"type": kind, "client": (peer, 50000), "headers": list(headers), "scheme": "http"}


def trusting(value: str) -> TrustedProxies:
    return TrustedProxies(parse_networks(value))


def test_nothing_is_trusted_unless_configured():
    given = scope("127.0.0.1", (b"x-forwarded-for", b"203.0.113.7"))
    assert trusting("").resolve(given)["client"] == ("127.0.0.1", 50000)
    assert Settings().trusted_proxies == ""


def test_an_untrusted_peer_cannot_choose_its_address_and_the_server_says_so_once(caplog):
    proxies = trusting("127.0.0.1")
    given = scope("198.51.100.20", (b"x-forwarded-for", b"203.0.113.7"))
    with caplog.at_level(logging.WARNING, logger="cardroom.server.proxies"):
        assert proxies.resolve(given) is given
        assert proxies.resolve(dict(given)) == given
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "198.51.100.20" in warnings[0]
    assert "CARDROOM_TRUSTED_PROXIES" in warnings[0]


def test_a_trusted_proxy_names_the_client():
    proxies = trusting("127.0.0.1")
    resolved = proxies.resolve(scope("127.0.0.1", (b"x-forwarded-for", b"203.0.113.7")))
    assert resolved["client"] == ("203.0.113.7", 0)


def test_what_the_client_wrote_before_the_proxy_s_entry_proves_nothing():
    """nginx's $proxy_add_x_forwarded_for appends the peer it saw to what the client sent."""
    proxies = trusting("127.0.0.1")
    header = (b"x-forwarded-for", b"192.0.2.1, 203.0.113.7")
    assert proxies.resolve(scope("127.0.0.1", header))["client"] == ("203.0.113.7", 0)


def test_a_chain_of_trusted_proxies_is_walked_from_the_nearest_hop():
    proxies = trusting("127.0.0.1, 10.0.0.0/8")
    header = (b"x-forwarded-for", b"192.0.2.1, 203.0.113.7, 10.1.2.3")
    assert proxies.resolve(scope("127.0.0.1", header))["client"] == ("203.0.113.7", 0)
    only_ours = (b"x-forwarded-for", b"10.9.9.9, 10.1.2.3")
    assert proxies.resolve(scope("127.0.0.1", only_ours))["client"] == ("10.9.9.9", 0)


def test_headers_repeated_are_one_list_and_ipv6_is_normalised():
    proxies = trusting("::1")
    resolved = proxies.resolve(
        scope("::1", (b"x-forwarded-for", b"192.0.2.1"), (b"x-forwarded-for", b"2001:DB8::0:1"))
    )
    assert resolved["client"] == ("2001:db8::1", 0)


def test_a_hop_that_is_not_an_address_leaves_the_peer_s_address():
    proxies = trusting("127.0.0.1")
    for junk in (b"unknown", b"203.0.113.7:4000", b"", b"203.0.113.7, <script>"):
        resolved = proxies.resolve(scope("127.0.0.1", (b"x-forwarded-for", junk)))
        assert resolved["client"] == ("127.0.0.1", 50000), junk


def test_a_trusted_proxy_s_scheme_is_believed_for_requests_and_sockets():
    proxies = trusting("127.0.0.1")
    https = (b"x-forwarded-proto", b"https")
    assert proxies.resolve(scope("127.0.0.1", https))["scheme"] == "https"
    assert proxies.resolve(scope("127.0.0.1", https, kind="websocket"))["scheme"] == "wss"
    assert proxies.resolve(scope("192.0.2.1", https))["scheme"] == "http"
    odd = (b"x-forwarded-proto", b"gopher")
    assert proxies.resolve(scope("127.0.0.1", odd))["scheme"] == "http"


def test_lifespan_and_peerless_scopes_pass_untouched():
    proxies = trusting("127.0.0.1")
    lifespan = {"type": "lifespan"}
    assert proxies.resolve(lifespan) is lifespan
    unix = {"type": "http", "client": None, "headers": [(b"x-forwarded-for", b"192.0.2.1")]}
    assert proxies.resolve(unix) is unix


@pytest.mark.parametrize("value", ["localhost", "127.0.0.1, nginx", "10.0.0.0/33"])
def test_a_trusted_proxy_must_be_an_address_or_a_network(value):
    with pytest.raises(SettingsError, match="trusted_proxies"):
        Settings.from_env(trusted_proxies=value)
    assert parse_networks("127.0.0.1, ::1, 10.0.0.0/8,") == (
        parse_networks("127.0.0.1")[0],
        parse_networks("::1")[0],
        parse_networks("10.0.0.0/8")[0],
    )
