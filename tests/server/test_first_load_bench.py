"""`cardroom bench firstload` runs: a real Chromium loads the lobby on a throttled phone profile
with its bundle and with its modules themselves, and the bench reports each load."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardroom.benchmarks import first_load

pytestmark = pytest.mark.browser


@pytest.mark.skipif(not Path("/usr/bin/chromium").exists(), reason="make browser installs it")
def test_the_first_load_bench_loads_the_lobby_both_ways(capfd: pytest.CaptureFixture[str]):
    loads = first_load.main(trials=1)
    modules = len(first_load_modules())  # without the bundle, one request each
    [bundled], [unbundled] = loads["as served"], loads["modules, no bundle"]
    assert unbundled.requests > modules  # the page, its modules, styles, catalog, API calls
    assert bundled.requests < modules  # the page, one script, styles, catalog, API calls
    for load in (bundled, unbundled):
        assert load.ready_ms > 0 and load.kilobytes > 0
    out = capfd.readouterr().out
    assert "as served" in out and "vs reference" in out and "goal of 2,000 ms" in out


def first_load_modules() -> list[str]:
    from cardroom.server.preloads import graph

    return graph("/js/main.js")
