"""An idle table keeps nothing of its last command: a socket that said goodbye is freed at
once, not when the table next hears something (found by counting a server's live objects
after a flat-out run: every table still held its last departed socket's transport, buffers
and request)."""

from __future__ import annotations

import asyncio
import gc
import weakref

from cardroom.server.auth import Identity
from tests.server.test_quick_replies import KeepingJournal, Socket, quick_actor

ADA = Identity("p_ada", "Ada")


def test_a_departed_socket_is_not_held_by_the_idle_table() -> None:
    async def run() -> tuple[weakref.ref[Socket], bool]:
        journal = KeepingJournal()
        actor = quick_actor(journal, 2)
        actor.start_task()
        socket = Socket(ADA, journal)
        await actor.ask(actor.connect, socket, None)
        assert socket.got  # it was told the table
        await actor.ask(actor.disconnect, socket)
        gone = weakref.ref(socket)
        del socket
        gc.collect()
        alive = actor.task is not None and not actor.task.done()
        actor.stop()
        return gone, alive

    gone, alive = asyncio.run(run())
    assert alive  # the table was still running, waiting for its next command
    assert gone() is None
