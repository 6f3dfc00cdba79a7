"""What an operator reads of a running server (docs/operating.md): ``/metrics`` behind its
token, ``/readyz``'s checks, a request id in every error answer and its log line, JSON logs.

In-process (the app under TestClient): no ports, no sleeps. The metrics registry is the
process's own, shared with other tests here, so counters are compared before and after.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Person, PostgresDatabase, Server, free_port
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import create_engine

from cardroom.server import logs, metrics
from cardroom.server.app import create_app
from cardroom.server.redis_cluster import RedisCluster
from cardroom.server.settings import Settings

TOKEN = "metrics-s3cret"


def settings_for(tmp_path: Path, **more: Any) -> Settings:
    return Settings(
        db_url=f"sqlite:///{tmp_path / 'operating.db'}",
        bot_executor="inline",
        bot_delay=0,
        **more,
    )


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, by name and labels."""
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def scrape(client: TestClient) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    answer = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return samples(answer.text)


def a_table_with_a_bot(client: TestClient) -> tuple[str, str]:
    made = client.post("/api/players", json={"name": "Ada"})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
    auth = {"Authorization": f"Bearer {token}"}
    body = {"seats": 2, "options": {"stock_size": 5}, "abandon_after": 3600}
    table = client.post("/api/tables", json=body, headers=auth).json()["table"]["id"]
    assert client.post(f"/api/tables/{table}/bots", json={"level": "easy"}, headers=auth).is_success
    assert client.post(f"/api/tables/{table}/start", headers=auth).is_success
    return token, table


def test_metrics_need_their_token_and_are_not_there_without_one(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        hidden = client.get("/metrics")
        assert hidden.status_code == 404
        assert hidden.json()["error"]["code"] == "not_found"
    with TestClient(create_app(settings_for(tmp_path, metrics_token=TOKEN))) as client:
        for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}):
            refused = client.get("/metrics", headers=headers)
            assert refused.status_code == 401, headers
            assert refused.json()["error"]["code"] == "unauthorized"
        assert "cardroom_moves_total" not in refused.text


def test_metrics_count_a_move_a_refusal_and_a_commit_after_they_happen(tmp_path: Path) -> None:
    key_moves = ("cardroom_moves_total", (("game", "skip"),))
    key_refused = ("cardroom_refusals_total", (("code", "bad_message"),))
    key_commits = ("cardroom_journal_commit_seconds_count", ())
    with TestClient(create_app(settings_for(tmp_path, metrics_token=TOKEN))) as client:
        before = scrape(client)
        token, table = a_table_with_a_bot(client)
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            ws.send_json({"type": "hello", "token": token})
            while True:  # the bot may move first: wait for a position with moves of ours
                message = ws.receive_json()
                if message.get("legal"):
                    break
            ws.send_json({"type": "no such message"})
            refusal = ws.receive_json()
            while refusal["type"] != "error":  # news of the table may come first
                refusal = ws.receive_json()
            assert refusal["code"] == "bad_message"
            ws.send_json({"type": "action", "id": "a1", "action": message["legal"][0]})
            while message.get("ack") != "a1":
                message = ws.receive_json()
                assert message["type"] != "error", message
            during = scrape(client)
        after = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    assert during[key_moves] >= before.get(key_moves, 0) + 1
    assert during[key_refused] >= before.get(key_refused, 0) + 1
    assert during[key_commits] >= before.get(key_commits, 0) + 1
    assert during[("cardroom_tables", ())] == 1
    assert during[("cardroom_sockets", ())] >= 1
    for name in (
        "cardroom_moves_total",
        "cardroom_journal_commit_seconds_bucket",
        "cardroom_refusals_total",
        "cardroom_rate_limited_total",
        "cardroom_http_server_errors_total",
        "cardroom_queue_tickets_waiting",
        "cardroom_queue_wait_seconds_bucket",
        "cardroom_league_lag_seconds",
        "cardroom_sockets",
        "cardroom_tables",
    ):
        assert name in after, name


def test_a_rate_limit_hit_is_counted_by_its_limiter(tmp_path: Path) -> None:
    key = ("cardroom_rate_limited_total", (("limiter", "players_address"),))
    settings = settings_for(tmp_path, metrics_token=TOKEN, players_address_burst=1)
    with TestClient(create_app(settings)) as client:
        before = scrape(client).get(key, 0)
        assert client.post("/api/players", json={"name": "Ada"}).status_code == 201
        assert client.post("/api/players", json={"name": "Bob"}).status_code == 429
        assert scrape(client)[key] == before + 1


def test_metrics_on_a_port_of_their_own_need_no_token(tmp_path: Path) -> None:
    port = free_port()
    with TestClient(create_app(settings_for(tmp_path, metrics_port=port))):
        answer = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=30)
        assert answer.status_code == 200
        assert "cardroom_journal_commit_seconds_bucket" in answer.text


def test_metrics_off_counts_nothing(tmp_path: Path) -> None:
    key = ("cardroom_refusals_total", (("code", "not_found"),))
    settings = settings_for(tmp_path, metrics_token=TOKEN, metrics=False)
    try:
        with TestClient(create_app(settings)) as client:
            before = scrape(client).get(key, 0)
            assert client.get("/api/tables/t_nothing").status_code == 404
            assert scrape(client).get(key, 0) == before
    finally:
        metrics.enable(True)


def test_readyz_is_ready_on_sqlite_and_says_why_not_when_the_database_is_gone(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        assert client.get("/healthz").json()["ok"] is True
        ready = client.get("/readyz")
        assert ready.status_code == 200
        assert ready.json() == {"ok": True, "checks": {"database": {"ok": True}}}

        unreachable = create_engine(
            "postgresql+psycopg://cardroom@127.0.0.1:1/cardroom",
            connect_args={"connect_timeout": 2},
        )
        client.app.state.readiness.engine = unreachable  # type: ignore[attr-defined]
        try:
            gone = client.get("/readyz")
        finally:
            unreachable.dispose()
        assert gone.status_code == 503
        assert gone.json()["ok"] is False
        database = gone.json()["checks"]["database"]
        assert database["ok"] is False and database["error"]
        assert client.get("/healthz").status_code == 200  # alive, though not ready


async def test_a_cluster_is_not_ready_without_redis_or_with_a_stale_heartbeat() -> None:
    cluster = RedisCluster(Settings(redis_url="redis://127.0.0.1:1/0", lease_ttl=9.0))
    try:
        cluster._last_renewed = asyncio.get_running_loop().time() - 7.0  # beyond two beats
        checks = await cluster.ready()
        assert checks["redis"]["ok"] is False and checks["redis"]["error"]
        assert checks["leases"]["ok"] is False and "renewed" in checks["leases"]["error"]
        cluster._last_renewed = asyncio.get_running_loop().time()
        assert (await cluster.ready())["leases"]["ok"] is True
    finally:
        await cluster.redis.aclose()


@pytest.mark.postgres
def test_readyz_with_postgresql_and_redis_checks_both_and_the_leases(tmp_path: Path) -> None:
    """Several processes' settings (docs/scaling.md): the database, Redis and this process's
    lease heartbeat, just renewed at start, are all ready."""
    db = PostgresDatabase()
    redis_url = os.environ.get("CARDROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")
    settings = Settings(
        db_url=db.url,
        redis_url=redis_url,
        redis_prefix=f"cardroom-test-{db.name}:",
        bot_executor="inline",
    )
    try:
        with TestClient(create_app(settings)) as client:
            ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        checks = ready.json()["checks"]
        assert set(checks) == {"database", "redis", "leases"}
        assert all(check["ok"] for check in checks.values())
        assert 0 <= checks["leases"]["age_seconds"] < settings.lease_ttl
    finally:
        db.drop()


def test_every_error_answer_carries_the_request_id_of_its_header(tmp_path: Path) -> None:
    with TestClient(create_app(settings_for(tmp_path))) as client:
        missing = client.get("/api/tables/t_nothing")
        assert missing.status_code == 404
        rid = missing.headers["x-request-id"]
        assert rid and missing.json()["error"]["request_id"] == rid

        given = client.get("/api/tables/t_nothing", headers={"X-Request-ID": "lb-42-abc"})
        assert given.headers["x-request-id"] == "lb-42-abc"
        assert given.json()["error"]["request_id"] == "lb-42-abc"

        for insane in ("two words", "x" * 65, "semi;colon", ""):
            answer = client.get("/api/tables/t_nothing", headers={"X-Request-ID": insane})
            assert answer.headers["x-request-id"] != insane
            assert answer.json()["error"]["request_id"] == answer.headers["x-request-id"]

        invalid = client.post("/api/players", json={"name": 5})
        assert invalid.json()["error"]["request_id"] == invalid.headers["x-request-id"]
        assert client.get("/healthz").headers["x-request-id"]  # on success too


def test_an_unhandled_error_is_a_500_with_its_request_id_logged_and_counted(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken() -> None:
        raise RuntimeError("a bug")

    app = create_app(settings_for(tmp_path, metrics_token=TOKEN))
    app.router.routes.insert(0, APIRoute("/test/broken", broken))
    key = ("cardroom_http_server_errors_total", ())
    with TestClient(app) as client:
        before = scrape(client).get(key, 0)
        with caplog.at_level(logging.ERROR, logger="cardroom"):
            failed = client.get("/test/broken", headers={"X-Request-ID": "req-500"})
        assert failed.status_code == 500
        assert failed.json()["error"] == {
            "code": "server_error",
            "message": "the server failed; the request id says where",
            "rule": None,
            "request_id": "req-500",
        }
        assert failed.headers["x-request-id"] == "req-500"
        assert scrape(client)[key] == before + 1
    logged = [r for r in caplog.records if "req-500" in r.getMessage()]
    assert logged and logged[0].exc_info is not None
    line = json.loads(logs.JsonFormatter().format(logged[0]))
    assert line["request_id"] == "req-500" and line["level"] == "error"
    assert "RuntimeError: a bug" in line["exception"]


def test_json_log_lines_parse_and_carry_the_ids_they_know() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logs.formatter("json"))
    logger = logging.getLogger("cardroom.test_operating")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        logger.warning("plain: %s", "no ids")
        table_token = logs.table_id.set("t_abc")
        request_token = logs.request_id.set("r-1")
        try:
            logger.warning("a move", extra={"match": "m_1", "player": "p_ada"})
        finally:
            logs.request_id.reset(request_token)
            logs.table_id.reset(table_token)
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert set(first) == {"time", "level", "logger", "message"}
    assert first["message"] == "plain: no ids" and first["logger"] == "cardroom.test_operating"
    assert first["time"].endswith("Z") and first["level"] == "warning"
    assert second["table"] == "t_abc" and second["match"] == "m_1"
    assert second["player"] == "p_ada" and second["request_id"] == "r-1"


def test_the_text_format_is_the_default() -> None:
    assert Settings().log_format == "text"
    assert Settings(log_format="JSON").log_format == "json"
    assert not isinstance(logs.formatter("text"), logs.JsonFormatter)


async def test_a_real_server_counts_moves_and_logs_json(tmp_path: Path) -> None:
    """``cardroom serve`` with a metrics token and JSON logs: a few moves later, its
    ``/metrics`` counts them, and its log lines (uvicorn's too) are JSON objects."""
    srv = Server(
        f"sqlite:///{tmp_path / 'served.db'}",
        tmp_path,
        CARDROOM_METRICS_TOKEN=TOKEN,
        CARDROOM_LOG_FORMAT="json",
        CARDROOM_LOG_LEVEL="info",
    )
    srv.start()
    try:
        ada = await Person(srv, "Ada").register()
        body = {"seats": 2, "options": {"stock_size": 5, "deal": {"first": 0}}}
        table = (await ada.post("/api/tables", body, expect=201))["table"]["id"]
        await ada.post(f"/api/tables/{table}/bots", {"level": "easy"})
        await ada.connect(table)
        await ada.post(f"/api/tables/{table}/start")
        position = await ada.expect(lambda m: bool(m.get("legal")))
        for _ in range(2):
            reply = await ada.act(position["legal"][0])
            assert reply["type"] == "event", reply
            position = (
                reply if reply.get("legal") else await ada.expect(lambda m: bool(m.get("legal")))
            )
        answer = await ada.http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
        assert answer.status_code == 200
        counted = samples(answer.text)
        assert counted[("cardroom_moves_total", (("game", "skip"),))] >= 2
        assert counted[("cardroom_sockets", ())] == 1
        assert counted[("cardroom_tables", ())] == 1
        await ada.close()
        await ada.http.aclose()
    finally:
        srv.stop()
    lines = [json.loads(line) for line in srv.log.read_text().splitlines() if line[:1] == "{"]
    assert any(line["logger"].startswith("uvicorn") for line in lines), lines
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
