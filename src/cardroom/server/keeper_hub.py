"""Who is watching which shared kept game, and the push of each change to all of them.

A change is broadcast through the cluster (``cluster.py``): one process alone delivers it to
its own viewers at once; several processes hear it over Redis, each delivering to the sockets
it holds. The message is the kept game as anyone with its code sees it; viewers keep the
highest ``revision`` they received, so a late duplicate changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

from cardroom.server.cluster import Cluster
from cardroom.server.connection import Connection

KIND = "kept"


class KeeperHub:
    def __init__(self, cluster: Cluster, max_viewers: int) -> None:
        self.cluster = cluster
        self.max_viewers = max_viewers
        self.viewers: dict[str, set[Connection]] = {}
        cluster.listen(KIND, self._heard)

    def join(self, code: str, conn: Connection) -> bool:
        """Watch the game shared as ``code``; False when it has as many viewers as it may."""
        watching = self.viewers.setdefault(code, set())
        if len(watching) >= self.max_viewers:
            return False
        watching.add(conn)
        return True

    def leave(self, code: str, conn: Connection) -> None:
        watching = self.viewers.get(code)
        if watching is None:
            return
        watching.discard(conn)
        if not watching:
            del self.viewers[code]

    def publish(self, code: str, message: dict[str, Any]) -> None:
        """Tell every viewer of ``code``, on every process."""
        self.cluster.broadcast(KIND, {"code": code, "message": message})

    def _heard(self, data: dict[str, Any]) -> None:
        watching = self.viewers.get(str(data.get("code")))
        if not watching:
            return
        message = data["message"]
        text = json.dumps(message, separators=(",", ":"))
        for conn in list(watching):
            conn.send(text)
            if message.get("type") == "gone":
                conn.close(4404)
