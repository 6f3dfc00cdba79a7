"""The lobby's first load on a slow phone, in a real browser: how long until a newcomer can
act, how many requests, how many bytes.

Run: ``cardroom bench firstload``. A ``cardroom serve`` on a temporary SQLite database, Debian's
Chromium driven by Playwright (``/usr/bin/chromium``; nothing is downloaded), each load in a
fresh context (no cache, no service worker) on a phone's screen with Chrome's own throttling:
1.6 Mbit/s down, 750 kbit/s up, 150 ms latency, the CPU 4× slower (Lighthouse's "slow 4G"
mobile profile). "Ready" is the moment the lobby's first control (the name form, or quick
play) is on screen, read in the page's own clock.

The reference, measured in the same run: the same load with the page as it is served while its
bundle is stale (``server/bundle.py``): the fifty modules themselves, named up front by the
page's module list (``server/preloads.py``). The ratio says what the bundle is worth; the goal
is the lobby ready within 2.0 s.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardroom.benchmarks.processes import free_port, start, stop
from cardroom.server.bundle import WEB, bundle_url
from cardroom.server.preloads import BLOCK

CHROMIUM = Path("/usr/bin/chromium")
GOAL_MS = 2000.0
READY = "#name-form, #quick-play"
PROFILE = {  # Lighthouse's mobile "slow 4G": bytes per second, milliseconds
    "offline": False,
    "latency": 150,
    "downloadThroughput": 1.6e6 / 8,
    "uploadThroughput": 750e3 / 8,
}
CPU_SLOWDOWN = 4
MARK_READY = """(() => {
  const seen = () => document.querySelector(SELECTOR)?.checkVisibility?.();
  const note = () => { if (!window.__ready && seen()) window.__ready = performance.now(); };
  const all = { childList: true, subtree: true, attributes: true };
  new MutationObserver(note).observe(document, all);
})();""".replace("SELECTOR", json.dumps(READY))


@dataclass
class Load:
    ready_ms: float
    requests: int
    kilobytes: float


def unbundled(served: str) -> str:
    """The lobby page as served without its bundle: the entry module and its module list."""
    modules = BLOCK.search((WEB / "index.html").read_text(encoding="utf-8"))
    page = served.replace(bundle_url("/js/main.js"), "/js/main.js")
    return page.replace("</head>", (modules.group(0) if modules else "") + "</head>", 1)


def one_load(browser: Any, url: str, bundled: bool) -> Load:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
        service_workers="block",
    )  # fmt: skip
    context.add_init_script(MARK_READY)
    page = context.new_page()
    if not bundled:  # the reference: the page loads its modules themselves

        def modules(route: Any) -> None:
            response = route.fetch()
            route.fulfill(response=response, body=unbundled(response.text()))

        page.route(re.compile(r".*/(index\.html)?(\?.*)?$"), modules)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", PROFILE)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    sizes: dict[str, float] = {}
    cdp.on(
        "Network.loadingFinished",
        lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]),
    )
    page.goto(url, wait_until="commit")
    page.wait_for_function("() => window.__ready !== undefined", timeout=60_000)
    ready = float(page.evaluate("window.__ready"))
    page.wait_for_load_state("networkidle")
    load = Load(ready, len(sizes), sum(sizes.values()) / 1024)
    context.close()
    return load


def measure(url: str, trials: int) -> dict[str, list[Load]]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - the dev extra installs it
        sys.exit("cardroom bench firstload needs Playwright: pip install -e '.[dev]'")
    if not CHROMIUM.exists():
        sys.exit("cardroom bench firstload needs Debian's chromium (make browser installs it)")
    loads: dict[str, list[Load]] = {"as served": [], "modules, no bundle": []}
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), args=["--headless=new", "--no-sandbox", "--disable-gpu"]
        )
        try:
            for _ in range(trials):  # interleaved: a slow moment of the machine hits both
                loads["as served"].append(one_load(browser, url, bundled=True))
                loads["modules, no bundle"].append(one_load(browser, url, bundled=False))
        finally:
            browser.close()
    return loads


def main(trials: int = 3) -> dict[str, list[Load]]:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=max(120, Console().width))
    port = free_port()
    with tempfile.TemporaryDirectory() as workdir:
        env = {
            "CARDROOM_DB_URL": f"sqlite:///{workdir}/first-load.db",
            "CARDROOM_PORT": str(port),
            "CARDROOM_LOG_LEVEL": "warning",
        }
        server = start([sys.executable, "-m", "cardroom.cli", "serve"], port, env, workdir)
        try:
            loads = measure(f"http://127.0.0.1:{port}/", trials)
        finally:
            stop(server)
    table = Table(title=f"The lobby's first load, phone on slow 4G, CPU {CPU_SLOWDOWN}× slower")
    for column in (
        "page",
        "ready (median ms)",
        "all trials (ms)",
        "requests",
        "KB sent",
        "vs reference",
    ):
        table.add_column(column, justify="left" if column == "page" else "right")
    reference = statistics.median(load.ready_ms for load in loads["modules, no bundle"])
    for name, runs in loads.items():
        ready = statistics.median(load.ready_ms for load in runs)
        table.add_row(
            name,
            f"{ready:,.0f}",
            " ".join(f"{load.ready_ms:,.0f}" for load in runs),
            str(runs[0].requests),
            f"{runs[0].kilobytes:,.0f}",
            f"{ready / reference:.2f}",
        )
    console.print(table)
    served = statistics.median(load.ready_ms for load in loads["as served"])
    verdict = "within" if served <= GOAL_MS else "over"
    console.print(f"Ready in {served:,.0f} ms as served: {verdict} the goal of {GOAL_MS:,.0f} ms.")
    console.print(f"(pid {os.getpid()}; Chrome's throttling: {PROFILE})")
    return loads
