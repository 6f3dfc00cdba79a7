"""Browser tests: a real server on a free port with a temp SQLite database, driven by Debian's
headless Chromium through Playwright. Never downloads a browser."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.resources import free_port, wait_until_serving
from tests.web import ui

# Debian's headless build of Chromium (the same engine, without the windowed browser's
# layers; what Playwright itself runs headless) takes about a quarter less CPU than the
# full browser for the same tests; the full one stands in when it is missing, or when
# CARDROOM_TEST_CHROMIUM names it.
HEADLESS_SHELL = Path("/usr/bin/chromium-headless-shell")
CHROMIUM = Path(
    os.environ.get("CARDROOM_TEST_CHROMIUM")
    or (HEADLESS_SHELL if HEADLESS_SHELL.exists() else "/usr/bin/chromium")
)
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# Screenshots to look at are JPEG (Playwright takes the type from the file's extension): Chromium
# encodes a 1440x900 PNG in about 0.22 CPU-s and a JPEG in 0.04, and a run takes over 200.
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.browser


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a running `cardroom serve` with quick bots and short pauses."""
    yield from serve(tmp_path_factory.mktemp("web-server"))


def serve(tmp: Path, **env: str) -> Iterator[str]:
    """Run `cardroom serve` on a free port with a SQLite database in ``tmp``, the tests'
    settings overridden by ``env``; yields its URL, stops it after."""
    port = free_port()
    env = {
        **os.environ,
        # Bots move at once: a bot's whole turn reaches the page together and is drawn once
        # (js/table.js draws a frame's messages together), where 0.05 s between moves drew
        # every move (an 8-player Skip table: 8 CPU-s a test against 3; tests/web in all: 483
        # CPU-s against 421). tests/server/test_timers.py plays with a pause before bots.
        "CARDROOM_BOT_DELAY": "0",
        "CARDROOM_ROUND_PAUSE": "1.5",  # long enough to read a round summary under load
        "CARDROOM_LOG_LEVEL": "warning",
        "CARDROOM_SET_DEALS": "1",  # tests may set who plays first (games/arranging.py)
        "CARDROOM_LADDER_ENFORCED": "0",  # guests from one address; tests/league tests the ladder
        "CARDROOM_CLAIM_OFFLINE_AFTER": "1",  # a closed tab's turn may be skipped soon
        # Every test browser comes from one address and makes many tables in a few minutes.
        "CARDROOM_PLAYERS_ADDRESS_BURST": "1000",
        "CARDROOM_CREATE_ADDRESS_BURST": "1000",
        "CARDROOM_NAMED_ADDRESS_BURST": "1000",
        "CARDROOM_SIGNIN_ADDRESS_BURST": "1000",
        "CARDROOM_DAILY_BURST": "1000",
        **env,
    }
    log = tmp / "server.log"
    command = [sys.executable, "-m", "cardroom.cli", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{tmp}/web.db"]
    with log.open("wb") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, process, log)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium, per test file: Playwright's sync API marks its event loop as running on the
    test thread while it is started, so an asyncio test the same worker runs next (xdist may
    hand it any test) could not start its own loop; closed with each file, it never meets one
    (a launch is a fraction of a second)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian's chromium is not installed (make browser installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield _Browser(chromium)
        chromium.close()


# The first-game walkthrough (js/walkthrough.js) counts as seen in every test's browser, unless
# the test asks for it with new_context(walkthrough=True); a reload keeps what the page set.
SEEN_WALKTHROUGH = """try {
  if (localStorage.getItem('cardroom.walkthrough') === null)
    localStorage.setItem('cardroom.walkthrough', '{"skip": true, "skyjo": true}');
} catch (e) { /* a document without storage (about:blank, a download): nothing to mark */ }"""


class _Browser:
    """Playwright's browser, whose new contexts have seen the walkthrough (see above) and run
    no service worker unless asked (``service_workers="allow"``): installing it fetches the
    whole shell into its cache on a context's first page, about 0.2 CPU-s a test, and only
    the tests of the installed app (offline, the cache) need it."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, walkthrough: bool = False, **options: Any) -> Any:
        context = self._browser.new_context(**{"service_workers": "block", **options})
        context.set_default_timeout(ui.PATIENCE)
        if not walkthrough:
            context.add_init_script(SEEN_WALKTHROUGH)
        return context

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


def _open_page(browser: Any, server: str, **context_options: Any) -> Iterator[Any]:
    """A fresh browser context on the server; fails the test on any JavaScript error, and on
    anything the server's Content-Security-Policy blocked."""
    context = browser.new_context(**{"viewport": DESKTOP, "base_url": server, **context_options})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def blocked(message: Any) -> None:
        if "Content Security Policy" in message.text:
            errors.append(message.text)

    page.on("console", blocked)
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    yield from _open_page(browser, server)


@pytest.fixture
def quick_page(browser: Any, server: str) -> Iterator[Any]:
    """A page that asks for reduced motion: no card flights to wait for in long games."""
    yield from _open_page(browser, server, reduced_motion="reduce")


@pytest.fixture
def phone_page(browser: Any, server: str) -> Iterator[Any]:
    """A phone-sized page with touch (taps, not clicks) and reduced motion."""
    yield from _open_page(
        browser, server, viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion="reduce"
    )


@pytest.fixture
def second_page(browser: Any, server: str) -> Iterator[Any]:
    """Another person, on a phone."""
    context = browser.new_context(viewport=PHONE, base_url=server, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, errors


@pytest.fixture
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
