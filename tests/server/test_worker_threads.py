"""Blocking work of requests (token reads, reviews, plots) runs on at most ``worker_threads``
threads (``CARDROOM_WORKER_THREADS``): each costs a stack, a malloc arena and a database
connection, and anyio's default of 40 left a flat-out server with 40 of them."""

from __future__ import annotations

import threading
from pathlib import Path

import anyio.to_thread
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.concurrency import run_in_threadpool

from cardroom.server.app import create_app
from cardroom.server.settings import Settings


def test_requests_share_the_configured_number_of_worker_threads(tmp_path: Path) -> None:
    settings = Settings(
        db_url=f"sqlite:///{tmp_path / 'threads.db'}", bot_executor="inline", worker_threads=2
    )
    app = create_app(settings)
    running = 0
    most = 0
    lock = threading.Lock()
    pair = threading.Barrier(2, timeout=60)

    def blocking() -> None:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        pair.wait()  # passes only when two jobs run at once: no timing involved
        with lock:
            running -= 1

    async def work() -> dict[str, int]:
        async with anyio.create_task_group() as group:
            for _ in range(8):
                group.start_soon(run_in_threadpool, blocking)
        return {"tokens": int(anyio.to_thread.current_default_thread_limiter().total_tokens)}

    app.router.routes.insert(0, APIRoute("/test/work", work))
    with TestClient(app) as client:
        answer = client.get("/test/work")
    assert answer.status_code == 200
    assert answer.json() == {"tokens": 2}
    assert most == 2  # eight jobs at once, two at a time


def test_the_default_is_a_few_threads() -> None:
    assert 2 <= Settings().worker_threads <= 16
