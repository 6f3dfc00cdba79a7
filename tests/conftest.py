"""What every test shares: external bot programs keep their stderr logs in the test's own
folder, and no program outlives its test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardroom.bots.external import close_programs


@pytest.fixture(autouse=True)
def _bot_logs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("bot-logs")
    monkeypatch.setenv("CARDROOM_BOT_LOGS", str(folder))
    yield folder
    close_programs()
