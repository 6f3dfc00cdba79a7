"""A server's stop is bounded: a step that hangs is named and left behind, the rest still run."""

from __future__ import annotations

import asyncio
import logging

import pytest

from cardroom.cancelling import cancel_and_wait
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
    assert said[0].startswith("stopping: the cluster did not finish within 0.01 s; left behind")
    assert "hangs:" in said[0], "it says where the step was waiting"
    assert said[1] == "stopping: the journal failed"
    assert len(said) == 2, "quick steps are not logged"


async def test_a_slow_step_is_named_with_its_time(caplog: pytest.LogCaptureFixture) -> None:
    times = iter([100.0, 103.5])
    caplog.set_level(logging.INFO, "cardroom.server")
    await close_in_steps([("the league worker", lambda: None)], 10, clock=lambda: next(times))
    assert [r.getMessage() for r in caplog.records] == ["stopping: the league worker took 3.5 s"]


async def test_ending_a_task_lets_a_cancellation_of_the_caller_through() -> None:
    """``cancel_and_wait`` waits for a task to end however it ends (here: it raises as it is
    cancelled), and a stop cancelled while it waits is cancelled once the task has ended, not
    carried on as if nothing happened (what ``suppress(CancelledError)`` around ``await
    task`` did)."""
    release = asyncio.Event()

    async def stubborn() -> None:
        try:
            await asyncio.Event().wait()
        finally:
            await release.wait()  # its cleanup takes a while
            raise RuntimeError("raised while ending")

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    stop = asyncio.create_task(cancel_and_wait(task, None))
    await asyncio.sleep(0)
    stop.cancel()  # the stop's grace is over
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await stop
    assert task.done()
    await cancel_and_wait(task)  # a task's own ending is collected, not raised


async def test_a_task_that_loses_its_cancellation_is_cancelled_again() -> None:
    """Python 3.11's ``wait_for`` (which redis-py sends every command through) can lose a
    cancellation that lands as its inner work finishes (python/cpython#86296): the task
    carries on. A stop that cancelled once would wait for it until its grace ran out."""
    lost: list[str] = []

    async def forgetful() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            lost.append("the first cancellation")  # what wait_for's race amounts to
        await asyncio.Event().wait()

    task = asyncio.create_task(forgetful())
    await asyncio.sleep(0)
    async with asyncio.timeout(60):  # a failure says so rather than hang the suite
        await cancel_and_wait(task, again_after=0.01)
    assert lost == ["the first cancellation"]
    assert task.cancelled()
