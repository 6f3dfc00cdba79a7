"""What every test shares: external bot programs keep their stderr logs in the test's own
folder, and no program outlives its test; the slow files run first; an in-process command
line is built once; Hypothesis draws the same examples on every run and never looks at the
clock."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.testing
from hypothesis import HealthCheck, settings

from cardroom.bots.external import close_programs

settings.register_profile(
    "cardroom",
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
)
settings.register_profile("explore", settings.get_profile("cardroom"), derandomize=False)
settings.load_profile("cardroom")
"""Hypothesis's defaults time each example (a 200 ms deadline) and fail a test whose examples
take over a second to draw (``too_slow``): on a busy machine a property failed with 'Input
generation is slow' (series run 9 on 37816fb, two suites side by side). Its seeds are random
per run, so a run could also fail where the one before passed. With this profile the examples
are drawn from a seed fixed per test (``derandomize``) and no check reads the clock, so a
property fails on every run or on none. ``pytest --hypothesis-profile=explore`` draws new
examples on each run, to look for new failures (each one found is printed with its seed)."""

_COMMANDS: dict[Hashable, Any] = {}
_build_command = typer.testing._get_command


def _shape(app: typer.Typer) -> Hashable:
    """What Typer builds a command from: the app and what is registered on it, deeply."""
    return (
        id(app),
        tuple(id(command.callback) for command in app.registered_commands),
        tuple(_shape(group.typer_instance) for group in app.registered_groups),
    )


def _command(app: typer.Typer) -> Any:
    """Typer's command for ``app``, built once per shape: CliRunner.invoke builds it anew on
    every call (87 ms under a profiler, introspecting 35 commands' signatures), which made
    hundreds of in-process runs spend most of their time there. A Click command keeps no
    state between runs (each makes its own context). The app is kept with its command, so
    its id (part of the key) is never another app's."""
    key = _shape(app)
    if key not in _COMMANDS:
        _COMMANDS[key] = (app, _build_command(app))
    return _COMMANDS[key][1]


typer.testing._get_command = _command  # type: ignore[attr-defined]


@pytest.fixture(autouse=True)
def _bot_logs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("bot-logs")
    monkeypatch.setenv("CARDROOM_BOT_LOGS", str(folder))
    yield folder
    close_programs()


def _weight(item: pytest.Item) -> int:
    """0: a browser test; 1: a server, database or slow one; 2: the rest (milliseconds)."""
    if item.get_closest_marker("browser"):
        return 0
    if item.get_closest_marker("postgres") or item.get_closest_marker("slow"):
        return 1
    return 1 if "tests/server/" in item.nodeid else 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow files first, the quick ones last: xdist's workers take their share of the
    slow ones at once and steal quick ones at the end, instead of one worker meeting a row of
    browser tests when the others are done (the files in order put tests/web last). A file
    keeps its tests together and in order (its weight is its heaviest test's), so its
    module-scoped fixtures are made once; every worker sorts alike, as xdist requires."""
    weight: dict[str, int] = {}
    for item in items:
        path = item.nodeid.split("::", 1)[0]
        weight[path] = min(weight.get(path, 2), _weight(item))
    items.sort(key=lambda item: weight[item.nodeid.split("::", 1)[0]])
