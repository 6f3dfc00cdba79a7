"""The moderation round trip in real browsers on a two-process cluster (PostgreSQL + Redis):
a player reports a chat line from the table, a moderator sees it (with the line the table
kept) in the console at /admin/ and mutes the player, and that player, whose socket is on the
other process, has their next chat line refused with ``muted``, saying until when."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.conftest import PostgresDatabase, Server
from tests.web.conftest import ARTIFACTS, DESKTOP, SEEN_WALKTHROUGH
from tests.web.test_a11y import violations

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

REDIS_URL = os.environ.get("CARDROOM_TEST_REDIS", "redis://127.0.0.1:6379/0")
PASSWORD = "correct horse battery"


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[tuple[Server, Server]]:
    db = PostgresDatabase()
    prefix = f"cardroom-test-{secrets.token_hex(4)}:"
    env = {"CARDROOM_REDIS_URL": REDIS_URL, "CARDROOM_REDIS_PREFIX": prefix}
    servers = (Server(db.url, tmp_path, **env), Server(db.url, tmp_path, **env))
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()
        db.drop()
        import redis

        client = redis.Redis.from_url(REDIS_URL)
        keys = list(client.scan_iter(match=prefix + "*"))
        if keys:
            client.delete(*keys)
        client.close()


def guest(server: Server, name: str) -> dict[str, Any]:
    answer = httpx.post(f"{server.url}/api/players", json={"name": name}, timeout=30)
    assert answer.status_code == 201, answer.text
    return answer.json()


def as_player(browser: Any, server: Server, who: dict[str, Any], axe: bool = False) -> Any:
    """A page of its own, signed in as ``who`` (the token kept where the web client keeps it);
    ``axe``: the page may be given axe-core (its context bypasses the app's CSP)."""
    context = browser.new_context(viewport=DESKTOP, base_url=server.url, bypass_csp=axe)
    remember = (
        f"localStorage.setItem('cardroom.token', {json.dumps(who['token'])});"
        f"localStorage.setItem('cardroom.player', {json.dumps(json.dumps(who['player']))});"
    )
    context.add_init_script(SEEN_WALKTHROUGH + remember)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def test_a_reported_line_is_muted_from_the_console_and_refused_on_the_other_process(
    browser: Any, cluster: tuple[Server, Server]
) -> None:
    one, two = cluster
    suffix = secrets.token_hex(2)
    mod = guest(one, f"Warden{suffix}")
    headers = {"Authorization": f"Bearer {mod['token']}"}
    claimed = httpx.post(
        f"{one.url}/api/account/claim", json={"password": PASSWORD}, headers=headers, timeout=30
    )
    mod["token"] = claimed.json()["token"]
    grant = [sys.executable, "-m", "cardroom.cli", "admin", "grant", mod["player"]["name"]]
    done = subprocess.run(
        [*grant, "moderator", "--db", one.db_url], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    ada, bob = guest(one, f"Ada{suffix}"), guest(two, f"Bob{suffix}")
    made = httpx.post(
        f"{one.url}/api/tables",
        json={"seats": 2, "options": {"stock_size": 3, "match_target": None}},
        headers={"Authorization": f"Bearer {ada['token']}"},
        timeout=30,
    ).json()
    table = made["table"]["id"]
    joined = httpx.post(
        f"{two.url}/api/tables/{table}/join",
        json={},
        headers={"Authorization": f"Bearer {bob['token']}"},
        timeout=30,
    )
    assert joined.status_code == 200, joined.text

    ada_page = as_player(browser, one, ada)
    bob_page = as_player(browser, two, bob)  # Bob's socket is on the other process
    ada_page.goto(f"/#/table/{table}")
    bob_page.goto(f"/#/table/{table}")
    bob_page.fill("input[name=chat]", "you are all potatoes")
    bob_page.press("input[name=chat]", "Enter")
    line = ada_page.locator(".chat-line", has_text="you are all potatoes")
    line.locator(".chat-flag").click()  # report this line
    ada_page.fill(".chat-report-form input[name=note]", "insulting the table")
    ada_page.click(".chat-report-form button[type=submit]")
    ada_page.locator(".chat-reported").wait_for()

    console = as_player(browser, one, mod, axe=True)
    console.goto("/admin/")
    report = console.locator("#report-list li[data-report]").first
    report.locator("blockquote.quoted .reported", has_text="you are all potatoes").wait_for()
    assert bob["player"]["name"] in report.inner_text()
    ARTIFACTS.mkdir(exist_ok=True)
    console.screenshot(path=str(ARTIFACTS / "moderation-console-report.jpg"), full_page=True)
    form = report.locator("form.sanction-form")
    form.locator("select[name=kind]").select_option("mute")
    form.locator("input[name=minutes]").fill("30")
    form.locator("input[name=reason]").fill("insults at the table")
    form.locator("button[type=submit]").click()
    console.locator("#message", has_text="muted at every table").wait_for()
    console.locator("#audit-log tr", has_text="sanction mute").first.wait_for()
    console.screenshot(path=str(ARTIFACTS / "moderation-console-muted.jpg"), full_page=True)

    bob_page.locator(".chat-note", has_text="insults at the table").wait_for()  # told at once
    bob_page.fill("input[name=chat]", "and another potato")
    bob_page.press("input[name=chat]", "Enter")
    refusal = bob_page.locator(".chat-refused", has_text="you are muted at every table's chat")
    refusal.wait_for()
    assert "until" in refusal.inner_text() and "insults at the table" in refusal.inner_text()
    bob_page.screenshot(path=str(ARTIFACTS / "moderation-muted-player.jpg"))
    ada_page.wait_for_timeout(500)  # the refused line reaches nobody
    assert ada_page.locator(".chat-line", has_text="and another potato").count() == 0
    # Bob's file: his sanction in force, and the fair-play action (a reason asked for first)
    console.fill("#player-search input[name=q]", bob["player"]["name"])
    console.click("#player-search button[type=submit]")
    console.locator("#player-list li", has_text=bob["player"]["name"]).locator("button").click()
    dossier = console.locator(f"[data-dossier='{bob['player']['id']}']")
    dossier.locator(".in-force", has_text="muted").wait_for()
    console.once("dialog", lambda dialog: dialog.accept("a second account feeding wins"))
    dossier.locator("button", has_text="Mark as cheating").click()
    console.locator("#message", has_text="Marked as cheating").wait_for()
    console.locator("#audit-log tr", has_text="mark_cheater").first.wait_for()
    dossier.locator("button", has_text="Clear the mark").wait_for()
    console.screenshot(path=str(ARTIFACTS / "moderation-console-dossier.jpg"), full_page=True)
    assert violations(console) == [], "the console, a player's file open"
    for page in (ada_page, bob_page, console):
        assert not page.errors, page.errors
        page.context.close()  # its sockets close now, not when the servers stop
