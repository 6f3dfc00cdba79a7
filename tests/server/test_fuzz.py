"""A hostile client, generated: hypothesis writes the WebSocket messages and HTTP bodies, the
real app answers. Whatever comes, the answer is a documented refusal (never a server error,
never a dropped socket without its code), and a refused message changes nothing at the table.
The long version against a real server process is ``cardroom bench abuse``."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from cardroom.server.app import create_app
from cardroom.server.settings import Settings

# The refusal codes of docs/protocol.md section 4 ("server_error" is not among them).
CODES = {
    "bad_message",
    "bad_action",
    "too_deep",
    "illegal",
    "not_seated",
    "no_match",
    "stale",
    "too_large",
    "rate_limited",
    "unauthorized",
    "token_expired",
    "token_revoked",
}
CLOSES = {4408, 1008}  # a socket that keeps sending junk, or nests it too deep, is closed

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
messages = st.one_of(
    st.text(max_size=200),  # not JSON, or JSON of the wrong shape
    json_values.map(json.dumps),
    st.fixed_dictionaries(
        {"type": st.sampled_from(["action", "hello", "ping", "resync", "nope"])},
        optional={
            "id": json_values,
            "action": json_values,
            "after": json_values,
            "since": json_values,
            "token": json_values,
        },
    ).map(json.dumps),
)
bodies = st.one_of(json_values, st.dictionaries(st.text(max_size=12), json_values, max_size=6))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    configured = Settings(
        db_url=f"sqlite:///{Path(db)}",
        bot_delay=0.0,
        bot_executor="inline",
        players_address_burst=10_000,
        create_address_burst=10_000,
        create_burst=10_000,
        max_tables_per_player=10_000,
        rate_burst=10_000,
        rate=10_000.0,
    )
    with TestClient(create_app(configured)) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def table(client: TestClient) -> dict[str, Any]:
    """A match under way against a bot, and its player's token."""
    made = client.post("/api/players", json={"name": "Fuzz"}).json()
    headers = {"Authorization": f"Bearer {made['token']}"}
    body = {"bots": 1, "options": {"stock_size": 20, "match_target": None}}
    table = client.post("/api/quickplay", json=body, headers=headers).json()["table"]
    return {"id": table["id"], "token": made["token"], "headers": headers}


def _position(client: TestClient, table: dict[str, Any]) -> Any:
    answer = client.get(f"/api/tables/{table['id']}", headers=table["headers"]).json()["table"]
    return answer["match"], answer["status"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(batch=st.lists(messages, min_size=1, max_size=6))
def test_junk_over_a_socket_is_refused_and_changes_nothing(client, table, batch) -> None:
    before = _position(client, table)
    with client.websocket_connect(f"/ws/tables/{table['id']}") as socket:
        socket.send_json({"type": "hello", "token": table["token"]})
        while socket.receive_json()["type"] not in ("sync", "event"):
            pass  # the welcome, then the position (R7.5)
        for text in batch:
            socket.send_text(text)
        socket.send_json({"type": "ping", "id": "end"})
        moved = False  # a generated message that happens to be a legal move is played
        try:
            while (reply := socket.receive_json()).get("id") != "end" or reply["type"] != "pong":
                if reply["type"] == "error":
                    assert reply["code"] in CODES, reply
                moved = moved or bool(reply.get("ack"))
        except WebSocketDisconnect as closed:
            assert closed.code in CLOSES
    # A refused message is no move: the match is where it was.
    assert moved or _position(client, table) == before


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    path=st.sampled_from(
        [
            "/api/players",
            "/api/tables",
            "/api/tables/named",
            "/api/quickplay",
            "/api/tables/{id}/join",
            "/api/tables/{id}/bots",
            "/api/tables/{id}/evict",
            "/api/account/claim",
            "/api/account/signin",
            "/api/keeper/games",
        ]
    ),
    body=bodies,
    method=st.sampled_from(["POST", "PATCH", "PUT"]),
)
def test_any_body_to_any_endpoint_gets_an_answer_never_a_server_error(
    client, table, path, body, method
) -> None:
    answer = client.request(
        method, path.format(id=table["id"]), json=body, headers=table["headers"]
    )
    assert answer.status_code < 500, answer.text
    if answer.status_code >= 400 and answer.headers.get("content-type") == "application/json":
        assert set(answer.json()["error"]) >= {"code", "message"}
