"""Tokens that end, in the browser: a refused token is forgotten and the lobby asks for a name
again; the Account page changes the password and signs out every other device, and the other
device is told to sign in again."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest

from . import ui
from .conftest import _open_page

pytestmark = pytest.mark.browser

STORED_TOKEN = "localStorage.getItem('cardroom.token')"


@pytest.fixture
def other_page(browser: Any, server: str) -> Iterator[Any]:
    """A second device: a browser context of its own (its own localStorage)."""
    yield from _open_page(browser, server)


def claim(page: Any, password: str) -> None:
    page.goto("/league/account.html")
    page.fill("#claim [name=password]", password)
    page.click("#claim button[type=submit]")
    page.wait_for_function("() => document.querySelector('#message').textContent.includes('yours')")


def sign_in_on_account_page(page: Any, name: str, password: str) -> None:
    page.goto("/league/account.html")
    page.fill("#signin [name=name]", name)
    page.fill("#signin [name=password]", password)
    page.click("#signin button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Signed in')"
    )


def test_a_refused_token_is_forgotten_and_the_lobby_asks_for_a_name(page: Any) -> None:
    ui.sign_in(page, "Forgotten")
    page.evaluate("localStorage.setItem('cardroom.token', 'not.a.valid.token')")
    page.reload()
    page.wait_for_selector("#name-form")  # the visit's renewal was refused: a name again
    assert page.evaluate(STORED_TOKEN) is None
    assert "not valid" in page.inner_text("#toasts")


def test_a_visit_renews_the_token(page: Any) -> None:
    ui.sign_in(page, "Renewed")
    first = page.evaluate(STORED_TOKEN)
    with page.expect_response(lambda r: r.url.endswith("/api/me")):
        page.reload()
    page.wait_for_function(f"() => {STORED_TOKEN} !== {first!r}")
    page.wait_for_selector("#quick-play")


def test_password_change_and_sign_out_everywhere_end_the_other_devices(
    page: Any, other_page: Any
) -> None:
    name = f"Acct {secrets.token_hex(3)}"
    ui.sign_in(page, name)
    claim(page, "correct horse")
    sign_in_on_account_page(other_page, name, "correct horse")

    page.goto("/league/account.html")
    page.fill("#password [name=current_password]", "correct horse")
    page.fill("#password [name=new_password]", "battery staple")
    page.click("#password button[type=submit]")
    page.wait_for_function(
        "() => document.querySelector('#message').textContent.includes('changed')"
    )
    page.reload()
    page.wait_for_function(
        "() => document.querySelector('#status').textContent.startsWith('Signed in')"
    )

    other_page.reload()  # its token is of the old generation now
    other_page.wait_for_function(
        "() => document.querySelector('#status').textContent.includes('sign in again')"
    )
    assert other_page.evaluate(STORED_TOKEN) is None
    sign_in_on_account_page(other_page, name, "battery staple")

    other_page.click("#signout-all")
    other_page.wait_for_function(
        "() => document.querySelector('#message').textContent.includes('signed out')"
    )
    page.goto("/")  # the first device, back in the lobby: signed out, asked for a name
    page.wait_for_selector("#name-form")
    assert page.evaluate(STORED_TOKEN) is None
    other_page.goto("/")
    other_page.wait_for_selector("#quick-play")  # the device that signed the others out stays
