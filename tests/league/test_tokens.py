"""Tokens that end, on SQLite and PostgreSQL, in the real app: an expiry (a fake clock, no
sleeping), a generation that a claim, a password change and "sign out everywhere" move on,
names read from the store (an old token after a rename plays under the new name), and bad
tokens refused with a clean 401 or 4401 that changes nothing."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from itsdangerous import URLSafeSerializer
from sqlalchemy import Engine
from starlette.websockets import WebSocketDisconnect

from cardroom.server.app import create_app
from cardroom.server.auth import Tokens
from cardroom.server.settings import Settings

SECRET = "a test key"
DAY = 86400.0


def make_client(engine: Engine, **settings: Any) -> TestClient:
    url = engine.url.render_as_string(hide_password=False)
    return TestClient(
        create_app(
            Settings(
                db_url=url,
                secret=SECRET,
                bot_delay=0.0,
                bot_executor="inline",
                round_pause=0.1,
                **settings,
            )
        )
    )


@pytest.fixture
def client(engine: Engine) -> Iterator[TestClient]:
    with make_client(engine) as test_client:
        yield test_client


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def guest(client: TestClient, name: str) -> dict[str, Any]:
    answer = client.post("/api/players", json={"name": name})
    assert answer.status_code == 201, answer.text
    return answer.json()


def refused(response: Any, code: str, status: int = 401) -> None:
    assert response.status_code == status, response.text
    assert response.json()["error"]["code"] == code, response.text


def hello(client: TestClient, table_id: str, token: object) -> dict[str, Any]:
    """The answer to a hello: the welcome, or the error before a 4401 close."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as socket:
        socket.send_json({"type": "hello", "token": token})
        first = socket.receive_json()
        if first["type"] == "error":
            with pytest.raises(WebSocketDisconnect) as closed:
                socket.receive_json()
            first["close"] = closed.value.code
        return first


def later(client: TestClient, seconds: float) -> Callable[[], float]:
    """Move the token clock on by ``seconds`` (tokens compare wall-clock times)."""
    start = time.time()
    client.app.state.auth.tokens.clock = lambda: start + seconds
    return client.app.state.auth.tokens.clock


# -- expiry ----------------------------------------------------------------------------------------


def test_a_token_ends_after_its_lifetime_on_http_and_websocket(client) -> None:
    ada = guest(client, "Ada")
    table = client.post("/api/tables", json={"seats": 2}, headers=auth(ada["token"])).json()
    table_id = table["table"]["id"]
    later(client, 30 * DAY - 60)
    assert client.get("/api/me", headers=auth(ada["token"])).status_code == 200
    assert hello(client, table_id, ada["token"])["type"] == "welcome"

    later(client, 30 * DAY + 1)
    refused(client.get("/api/me", headers=auth(ada["token"])), "token_expired")
    expired = hello(client, table_id, ada["token"])
    assert (expired["code"], expired["close"]) == ("token_expired", 4401)


def test_asking_who_i_am_renews_the_token(client) -> None:
    ada = guest(client, "Ada")
    later(client, 20 * DAY)
    renewed = client.get("/api/me", headers=auth(ada["token"])).json()["token"]
    later(client, 40 * DAY)  # past the first token's end, within the renewed one's
    refused(client.get("/api/me", headers=auth(ada["token"])), "token_expired")
    assert client.get("/api/me", headers=auth(renewed)).json()["player"]["name"] == "Ada"


def test_a_token_from_before_expiries_is_refused_as_expired(client) -> None:
    ada = guest(client, "Ada")
    legacy = URLSafeSerializer(SECRET, salt="cardroom-player").dumps(
        {"id": ada["player"]["id"], "name": "Ada", "iat": int(time.time()), "n": "00"}
    )
    refused(client.get("/api/me", headers=auth(legacy)), "token_expired")


# -- revocation by generation ------------------------------------------------------------------


def test_a_claim_ends_the_guest_tokens_issued_before_it(client) -> None:
    ada = guest(client, "Ada")
    copied = client.get("/api/me", headers=auth(ada["token"])).json()["token"]  # a 2nd device
    claimed = client.post(
        "/api/account/claim", json={"password": "correct horse"}, headers=auth(ada["token"])
    )
    assert claimed.status_code == 201, claimed.text
    for old in (ada["token"], copied):
        refused(client.get("/api/account", headers=auth(old)), "token_revoked")
        refused(client.post("/api/tables", json={"seats": 2}, headers=auth(old)), "token_revoked")
    me = client.get("/api/account", headers=auth(claimed.json()["token"])).json()["player"]
    assert me == {"id": ada["player"]["id"], "name": "Ada", "claimed": True}


def test_a_password_change_signs_out_every_other_device(client) -> None:
    ada = guest(client, "Ada")
    token = client.post(
        "/api/account/claim", json={"password": "correct horse"}, headers=auth(ada["token"])
    ).json()["token"]
    other = client.post("/api/account/signin", json={"name": "ada", "password": "correct horse"})
    other_token = other.json()["token"]
    wrong = client.post(
        "/api/account/password",
        json={"current_password": "wrong horse", "new_password": "battery staple"},
        headers=auth(token),
    )
    refused(wrong, "forbidden", 403)
    assert client.get("/api/me", headers=auth(other_token)).status_code == 200  # nothing changed
    short = client.post(
        "/api/account/password",
        json={"current_password": "correct horse", "new_password": "short"},
        headers=auth(token),
    )
    refused(short, "bad_request", 400)
    changed = client.post(
        "/api/account/password",
        json={"current_password": "correct horse", "new_password": "battery staple"},
        headers=auth(token),
    )
    assert changed.status_code == 200, changed.text
    for old in (token, other_token):
        refused(client.get("/api/me", headers=auth(old)), "token_revoked")
    assert client.get("/api/me", headers=auth(changed.json()["token"])).status_code == 200
    signin = client.post("/api/account/signin", json={"name": "Ada", "password": "correct horse"})
    refused(signin, "unauthorized")
    signin = client.post("/api/account/signin", json={"name": "Ada", "password": "battery staple"})
    assert signin.status_code == 200


def test_a_guest_has_no_password_to_change(client) -> None:
    ada = guest(client, "Ada")
    body = {"current_password": "anything at all", "new_password": "battery staple"}
    answer = client.post("/api/account/password", json=body, headers=auth(ada["token"]))
    refused(answer, "forbidden", 403)
    refused(client.post("/api/account/password", json=body), "unauthorized")
    missing = client.post(
        "/api/account/password", json={"new_password": "x" * 9}, headers=auth(ada["token"])
    )
    refused(missing, "bad_request", 400)


def test_signing_out_everywhere_ends_every_token_but_the_new_one(client) -> None:
    ada = guest(client, "Ada")
    copied = client.get("/api/me", headers=auth(ada["token"])).json()["token"]
    table = client.post("/api/tables", json={"seats": 2}, headers=auth(ada["token"])).json()
    out = client.post("/api/account/signout-all", headers=auth(ada["token"]))
    assert out.status_code == 200, out.text
    assert out.json()["player"] == {"id": ada["player"]["id"], "name": "Ada", "claimed": False}
    for old in (ada["token"], copied):
        refused(client.get("/api/me", headers=auth(old)), "token_revoked")
        revoked = hello(client, table["table"]["id"], old)
        assert (revoked["code"], revoked["close"]) == ("token_revoked", 4401)
    fresh = out.json()["token"]
    assert hello(client, table["table"]["id"], fresh)["seat"] == 0  # still Ada's seat
    refused(
        client.post("/api/account/signout-all", json={"everywhere": True}, headers=auth(fresh)),
        "bad_request",
        400,
    )


def test_sockets_open_with_a_voided_token_are_closed_to_reconnect(client) -> None:
    """A copied token's open socket does not outlive "sign out other devices": every socket of
    the player here is closed with 1012 (reconnect); a device with the new token comes back,
    the copied token is refused at its hello."""
    ada = guest(client, "Ada")
    table = client.post("/api/tables", json={"seats": 2}, headers=auth(ada["token"])).json()
    with client.websocket_connect(f"/ws/tables/{table['table']['id']}") as socket:
        socket.send_json({"type": "hello", "token": ada["token"]})
        assert socket.receive_json()["type"] == "welcome"
        out = client.post("/api/account/signout-all", headers=auth(ada["token"]))
        assert out.status_code == 200, out.text
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == 1012
    assert hello(client, table["table"]["id"], out.json()["token"])["seat"] == 0
    assert hello(client, table["table"]["id"], ada["token"])["close"] == 4401


def test_another_process_sees_a_revocation_within_the_cache_lifetime(engine: Engine) -> None:
    """Two server processes on one database: the one that changed the password refuses the
    old token at once; the other trusts its cached generation for ``player_cache_ttl``."""
    with make_client(engine) as one, make_client(engine, player_cache_ttl=10.0) as two:
        ada = guest(one, "Ada")
        token = one.post(
            "/api/account/claim", json={"password": "correct horse"}, headers=auth(ada["token"])
        ).json()["token"]
        now = [0.0]
        two.app.state.auth.players.clock = lambda: now[0]
        assert two.get("/api/me", headers=auth(token)).status_code == 200  # cached now
        changed = one.post(
            "/api/account/password",
            json={"current_password": "correct horse", "new_password": "battery staple"},
            headers=auth(token),
        ).json()["token"]
        refused(one.get("/api/me", headers=auth(token)), "token_revoked")
        now[0] = 9.0
        assert two.get("/api/me", headers=auth(token)).status_code == 200  # within the bound
        # A token of the newer generation is checked against the store, not the old copy.
        assert two.get("/api/me", headers=auth(changed)).status_code == 200
        refused(two.get("/api/me", headers=auth(token)), "token_revoked")


# -- names from the store --------------------------------------------------------------------------


def test_an_old_token_after_a_rename_plays_under_the_new_name(client) -> None:
    ada = guest(client, "Ada")
    old = ada["token"]
    bob = guest(client, "Bob")
    table = client.post("/api/tables", json={"seats": 3}, headers=auth(bob["token"])).json()
    table_id = table["table"]["id"]
    renamed = client.patch("/api/me", json={"name": "Ada L."}, headers=auth(old))
    assert renamed.status_code == 200, renamed.text
    joined = client.post(f"/api/tables/{table_id}/join", json={}, headers=auth(old)).json()
    names = [s["player"]["name"] for s in joined["table"]["seats"] if s["player"]]
    assert names == ["Bob", "Ada L."]
    welcome = hello(client, table_id, old)
    assert welcome["player"] == {"id": ada["player"]["id"], "name": "Ada L."}
    assert client.get("/api/me", headers=auth(old)).json()["player"]["name"] == "Ada L."


def test_look_alikes_of_a_claimed_name_are_refused_to_guests_and_renames(client) -> None:
    zed = guest(client, "Zed")
    claimed = client.post(
        "/api/account/claim", json={"password": "correct horse"}, headers=auth(zed["token"])
    )
    assert claimed.status_code == 201
    other = guest(client, "Someone")
    for name in ("Ｚｅｄ", "Z\u0435d", "Źed", "ℤed"):
        refused(client.post("/api/players", json={"name": name}), "name_claimed", 409)
        rename = client.patch("/api/me", json={"name": name}, headers=auth(other["token"]))
        refused(rename, "name_claimed", 409)
        claim = client.post(
            "/api/account/claim",
            json={"password": "correct horse", "name": name},
            headers=auth(other["token"]),
        )
        refused(claim, "conflict", 409)
    assert client.get("/api/me", headers=auth(other["token"])).json()["player"]["name"] == (
        "Someone"
    )
    for name in ("evil\u202egnp", "zero\u200bwidth", "bidi\u2067isolate\u2069", "bell\x07"):
        refused(client.post("/api/players", json={"name": name}), "bad_request", 400)


# -- hostile tokens --------------------------------------------------------------------------------


def test_bad_tokens_get_a_clean_401_or_4401_and_change_nothing(client) -> None:
    ada = guest(client, "Ada")
    table = client.post("/api/tables", json={"seats": 2}, headers=auth(ada["token"])).json()
    table_id = table["table"]["id"]
    forged = Tokens("another key", DAY).issue(ada["player"]["id"], 0)
    expired = Tokens(SECRET, DAY, clock=lambda: time.time() - 2 * DAY).issue(ada["player"]["id"], 0)
    unknown = Tokens(SECRET, DAY).issue("p_nobody", 0)
    future = Tokens(SECRET, DAY).issue(ada["player"]["id"], 7)
    cut = ada["token"][:-3]
    bad = {
        "forged": (forged, "unauthorized"),
        "expired": (expired, "token_expired"),
        "unknown player": (unknown, "unauthorized"),
        "a later generation": (future, "unauthorized"),
        "cut short": (cut, "unauthorized"),
        "junk": ("not.a.token", "unauthorized"),
        "too long": ("x" * 600, "unauthorized"),
    }
    before = client.get(f"/api/tables/{table_id}").json()
    listed = client.get("/api/tables").json()["total"]
    for what, (token, code) in bad.items():
        for response in (
            client.get("/api/me", headers=auth(token)),
            client.patch("/api/me", json={"name": "Mallory"}, headers=auth(token)),
            client.post(f"/api/tables/{table_id}/join", json={}, headers=auth(token)),
            client.post("/api/tables", json={"seats": 2}, headers=auth(token)),
            client.post("/api/account/signout-all", headers=auth(token)),
        ):
            refused(response, code)
        answer = hello(client, table_id, token)
        assert (answer["code"], answer["close"]) == (code, 4401), what
    for token in (5, None, ["a"], ""):
        answer = hello(client, table_id, token)
        assert (answer["code"], answer["close"]) == ("unauthorized", 4401)
    for header in ("Basic abc", "Bearer", "Bearer  ", "token-without-scheme"):
        refused(client.get("/api/me", headers={"Authorization": header}), "unauthorized")
    after = client.get(f"/api/tables/{table_id}").json()
    assert after == before
    assert client.get("/api/tables").json()["total"] == listed  # no table was made
    me = client.get("/api/me", headers=auth(ada["token"])).json()["player"]
    assert me["name"] == "Ada"  # still Ada, and her token still works


def test_pages_without_a_player_ignore_a_bad_token(client) -> None:
    """Only routes that need the player refuse a bad token: the lobby list still answers."""
    refused(client.get("/api/me", headers=auth("junk")), "unauthorized")
    assert client.get("/api/tables", headers=auth("junk")).status_code == 200
    assert client.get("/healthz", headers=auth("junk")).status_code == 200
