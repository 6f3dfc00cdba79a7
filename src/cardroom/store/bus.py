"""Redis pub/sub between server processes: one inbound channel per process, ordered sends.

Each process subscribes to its own channel only (one subscription, however many tables) and
publishes to the channel of the process it means. Everything it sends goes through one writer
task and one pipeline at a time, so messages to a given process arrive in the order they were
posted (a socket's frames, an action after its ``connect``). ``PUBLISH`` answers how many
subscribers got a message: 0 tells the sender at once that the process it wrote to is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis

from cardroom.cancelling import cancel_and_wait

log = logging.getLogger(__name__)

MAX_BATCH = 500


class Bus:
    """Post JSON messages to other processes' channels; hand those for this one to a callback."""

    def __init__(
        self, redis: Redis, channel: str, on_message: Callable[[dict[str, Any]], None]
    ) -> None:
        self.redis = redis
        self.channel = channel
        self.on_message = on_message
        self._queue: asyncio.Queue[tuple[str, str, asyncio.Future[int] | None]] = asyncio.Queue()
        self._ready = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._read(), name="bus-reader"),
            asyncio.create_task(self._write(), name="bus-writer"),
        ]
        await asyncio.wait_for(self._ready.wait(), 30)

    async def stop(self, flush: float = 2.0) -> None:
        """Send what is queued (briefly), then stop reading and writing."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(flush):
                while not self._queue.empty():
                    await asyncio.sleep(0.01)
        await cancel_and_wait(*self._tasks)

    def post(self, channel: str, message: dict[str, Any], count: bool = False) -> Any:
        """Queue ``message`` for ``channel``; with ``count``, a future of how many received it."""
        future = asyncio.get_running_loop().create_future() if count else None
        self._queue.put_nowait((channel, json.dumps(message, separators=(",", ":")), future))
        return future

    async def _write(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < MAX_BATCH:
                batch.append(self._queue.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, payload, _future in batch:
                        pipe.publish(channel, payload)
                    counts = await pipe.execute()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("bus: publishing %d message(s) failed", len(batch), exc_info=True)
                counts = [0] * len(batch)
            for (_channel, _payload, future), received in zip(batch, counts, strict=True):
                if future is not None and not future.done():
                    future.set_result(int(received))

    async def _read(self) -> None:
        while True:
            try:
                async with self.redis.pubsub(ignore_subscribe_messages=True) as pubsub:
                    await pubsub.subscribe(self.channel)
                    self._ready.set()
                    async for message in pubsub.listen():
                        if message.get("type") != "message":
                            continue
                        try:
                            data = json.loads(message["data"])
                        except ValueError:
                            continue
                        try:
                            self.on_message(data)
                        except Exception:
                            log.exception("bus: handling %s failed", data.get("t"))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("bus: subscription lost; subscribing again", exc_info=True)
                await asyncio.sleep(0.5)
