"""How the client looks on a desktop and a phone (screenshots in test-artifacts/), and what
makes it installable: the manifest and a service worker that caches only the static shell."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from . import ui
from .conftest import DESKTOP, PHONE, _open_page

pytestmark = pytest.mark.browser

SIZES = {"desktop": DESKTOP, "phone": PHONE}


@pytest.mark.parametrize("size", SIZES)
def test_screenshots_of_the_lobby_and_a_table(
    browser: Any, server: str, artifacts: Path, size: str
) -> None:
    context = browser.new_context(viewport=SIZES[size], base_url=server)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/")
        page.wait_for_selector("#name-form")
        page.screenshot(path=artifacts / f"welcome-{size}.jpg")
        ui.sign_in(page, f"Screen {size}")
        page.screenshot(path=artifacts / f"lobby-{size}.jpg", full_page=True)
        _no_sideways_scroll(page)

        page.select_option("#qp-bots", "3")
        page.click("#quick-play")
        page.wait_for_selector("#board")
        ui.wait_my_turn_or_end(page)
        actions = ui.legal(page)
        chosen = next((a for a in actions if a["type"] == "play"), actions[0])
        page.locator(ui.source_selector(chosen)).first.click()
        page.wait_for_selector("[data-legal-target]")
        page.screenshot(path=artifacts / f"table-{size}.jpg")
        page.screenshot(path=artifacts / f"table-{size}-full.jpg", full_page=True)
        _no_sideways_scroll(page)
        # Every card shows its number, and the hand is fully on screen.
        for card in page.locator('[data-src="hand"]').all():
            box = card.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
            assert card.locator(".num").inner_text().strip()
    finally:
        context.close()
    assert not errors, errors


def _no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page scrolls sideways ({width}px)"


@pytest.fixture
def installing_page(browser: Any, server: str) -> Iterator[Any]:
    """A page whose context runs the service worker (the others block it: conftest.py)."""
    yield from _open_page(browser, server, service_workers="allow")


def test_installable_manifest_and_a_shell_only_service_worker(installing_page: Any) -> None:
    page = installing_page
    page.goto("/")
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone"
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}
    for icon in manifest["icons"]:
        assert page.request.get(icon["src"]).ok
    scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope.endswith("/")
    ui.sign_in(page, "Installer")  # makes API calls while the worker is active
    # The shell's cache, whatever its version (sw.js names it): the worker is ready only once
    # its install has filled it.
    shell = page.evaluate(
        """async () => {
            for (const name of await caches.keys()) {
                if (name.startsWith('cardroom-shell-')
                    && (await (await caches.open(name)).keys()).length > 10) return name;
            }
            return null;
        }"""
    )
    assert shell is not None, "no cache holds the app's shell"
    cached = page.evaluate(
        "caches.keys().then(names => Promise.all(names.map(n => caches.open(n)"
        ".then(c => c.keys())))).then(all => all.flat().map(r => new URL(r.url).pathname))"
    )
    assert "/js/main.js" in cached
    assert not [path for path in cached if path.startswith(("/api/", "/ws/"))]
