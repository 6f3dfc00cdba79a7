"""A server's stop is bounded: a step that hangs is named and left behind, the rest still run."""

from __future__ import annotations

import asyncio
import logging

import pytest

from cardroom.server import closing
from cardroom.server.closing import close_in_steps


async def test_a_hanging_step_is_left_after_its_grace_and_the_next_steps_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ran: list[str] = []
    never = asyncio.Event()

    async def hangs() -> None:
        await never.wait()

    async def quick() -> None:
        ran.append("quick")

    def fails() -> None:
        raise RuntimeError("the journal's thread is gone")

    caplog.set_level(logging.INFO, "cardroom.server")
    steps: list[closing.Step] = [
        ("the cluster", hangs),
        ("the journal", fails),
        ("the tables", quick),
        ("the bots", lambda: ran.append("sync")),
    ]
    await close_in_steps(steps, grace=0.01)

    assert ran == ["quick", "sync"]
    said = [r.getMessage() for r in caplog.records]
    assert said[0] == "stopping: the cluster did not finish within 0.01 s; left behind"
    assert said[1] == "stopping: the journal failed"
    assert len(said) == 2, "quick steps are not logged"


async def test_a_slow_step_is_named_with_its_time(caplog: pytest.LogCaptureFixture) -> None:
    times = iter([100.0, 103.5])
    caplog.set_level(logging.INFO, "cardroom.server")
    await close_in_steps([("the league worker", lambda: None)], 10, clock=lambda: next(times))
    assert [r.getMessage() for r in caplog.records] == ["stopping: the league worker took 3.5 s"]
