"""HTTP bodies are typed models: refused naming the field, and documented on the API page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardroom.server.app import create_app
from cardroom.server.auth import clean_name
from cardroom.server.bodies import storable
from cardroom.server.settings import Settings
from cardroom.tables.errors import Refusal


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'bodies.db'}", bot_executor="inline")
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def headers(client: TestClient) -> dict[str, str]:
    token = client.post("/api/players", json={"name": "Ada"}).json()["token"]
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.parametrize(
    ("path", "body", "says"),
    [
        ("/api/tables", {"seats": "2"}, "seats: Input should be a valid integer"),
        ("/api/tables", {"seats": True}, "seats: Input should be a valid integer"),
        ("/api/tables", {"public": "yes"}, "public: Input should be a valid boolean"),
        ("/api/tables", {"options": [1]}, "options: Input should be a valid dictionary"),
        ("/api/tables", {"colour": "red"}, "unexpected field: colour"),
        ("/api/quickplay", {"bots": 1, "seats": 3}, "unexpected field: seats"),
        ("/api/quickplay", {"level": "easy"}, "unexpected field: level"),
        ("/api/tables/named", {"name": 7}, "name: Input should be a valid string"),
    ],
)
def test_a_body_of_the_wrong_shape_is_refused_naming_the_field(client, path, body, says):
    answer = client.post(path, json=body, headers=headers(client))
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_request" and says in error["message"]
    assert client.get("/api/tables").json()["tables"] == []  # nothing was made


def test_a_body_that_is_not_a_json_object_is_refused(client):
    who = headers(client)
    for raw in (b"[1]", b"nope", b"[" * 5000):
        answer = client.post("/api/tables", content=raw, headers=who)
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_request"


def test_the_api_page_documents_every_body(client):
    paths = client.get("/openapi.json").json()["paths"]
    documented = {
        ("/api/players", "post"): "name",
        ("/api/tables", "post"): "abandon_after",
        ("/api/tables/named", "post"): "name",
        ("/api/quickplay", "post"): "bots",
        ("/api/tables/{table_id}/join", "post"): "seat",
        ("/api/tables/{table_id}/bots", "post"): "level",
        ("/api/tables/{table_id}", "patch"): "options",
        ("/api/tables/{table_id}/evict", "post"): "seat",
        ("/api/account/claim", "post"): "password",
        ("/api/account/signin", "post"): "password",
        ("/api/account/password", "post"): "new_password",
    }
    for (path, method), field in documented.items():
        schema = paths[path][method]["requestBody"]["content"]["application/json"]["schema"]
        assert field in schema["properties"], (path, method)
        assert schema["additionalProperties"] is False


@pytest.mark.parametrize(
    "name",
    [
        "nul\x00",
        "bell\x07",
        "lone \ud800 surrogate",
        "right\u202eto left",  # a bidi override
        "isolate\u2067x\u2069",
        "zero\u200bwidth",
        "soft\u00adhyphen",
        "private\ue000use",
    ],
)
def test_names_with_control_format_or_unpaired_characters_are_refused(name):
    with pytest.raises(Refusal) as refused:
        clean_name(name)
    assert refused.value.status == 400


def test_names_are_trimmed_and_may_use_any_script():
    assert clean_name("  Zoë   Ng ") == "Zoë Ng"
    assert clean_name("مريم") == "مريم" and clean_name("李雷 🂡") == "李雷 🂡"
    assert clean_name("t" * 48, 48, "a table name") == "t" * 48


def test_a_body_is_storable_without_nul_or_unpaired_surrogates_at_any_depth():
    assert storable({"a": [{"b": "fine"}, 1, None, True]})
    assert not storable({"a": [{"b": "x\x00"}]})
    assert not storable({"a\ud800": 1})
    deep: list = ["\udc80"]
    for _ in range(5000):
        deep = [deep]
    assert not storable({"deep": deep})  # no recursion limit on the way down
