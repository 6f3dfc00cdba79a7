"""The server's periodic malloc_trim: found on glibc, run on a thread every few seconds, off
with 0, and gone with the server."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cardroom.server import trim


def test_glibc_s_malloc_trim_is_found_and_answers() -> None:
    found = trim.malloc_trim()
    assert found is not None  # this machine runs glibc (Debian)
    assert found() in (0, 1)  # 1: memory was returned, 0: there was none to return


def test_it_trims_every_period_off_the_loop_until_cancelled(monkeypatch) -> None:
    calls: list[bool] = []

    def counting() -> int:
        calls.append(threading.current_thread() is threading.main_thread())
        return 0

    monkeypatch.setattr(trim, "malloc_trim", lambda: counting)

    async def run() -> None:
        task = asyncio.create_task(trim.trim_every(0.01))
        while len(calls) < 3:  # three periods, however long the machine takes for them
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(run())
    assert len(calls) >= 3
    assert not any(calls)  # never on the loop's thread


def test_zero_means_never(monkeypatch) -> None:
    monkeypatch.setattr(trim, "malloc_trim", lambda: pytest.fail("trimmed"))
    asyncio.run(asyncio.wait_for(trim.trim_every(0), 1))


def test_garbage_in_a_cycle_is_collected_within_a_period() -> None:
    """A cycle (as a closed socket's protocol objects make) is freed by the periodic full
    collection, whatever the collector's own thresholds."""
    import gc
    import weakref

    class Node:
        pass

    async def run() -> None:
        gc.disable()  # only the task collects here
        try:
            a, b = Node(), Node()
            a.other, b.other = b, a  # type: ignore[attr-defined]
            gone = weakref.ref(a)
            del a, b
            task = asyncio.create_task(trim.collect_every(0.01))
            while gone() is not None:  # freed by a collection, however long that takes
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
        finally:
            gc.enable()

    asyncio.run(run())
    assert trim.last_collection["count"] >= 1


def test_zero_means_no_collection_of_our_own() -> None:
    asyncio.run(asyncio.wait_for(trim.collect_every(0), 1))
