"""Chat at a table: the lines people say, checked and paced per player, and the last few kept
for the sockets that arrive later. Pure: the table master gives the time and sends the lines.

Chat is not part of the game: it takes no seq and is not stored.
"""

from __future__ import annotations

import math
import unicodedata
from collections import deque
from typing import Any


class ChatRefused(Exception):
    """A line that is not said: its error ``code`` and a message for its sender."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ChatRoom:
    """1 to ``length`` characters a line (no control or format characters), at most ``burst``
    lines at once then one every ``every`` seconds per player; the last ``kept`` lines."""

    def __init__(self, length: int, burst: int, every: float, kept: int) -> None:
        self.length, self.burst, self.every = length, burst, every
        self.log: deque[dict[str, Any]] = deque(maxlen=kept)
        self._allowance: dict[str, tuple[float, float]] = {}  # player -> (lines, at)

    def take(self, player_id: str, text: object, now: float) -> str:
        """The line ``player_id`` says at ``now``, its spaces tidied; ``ChatRefused`` (and the
        player's allowance untouched) when it is malformed or comes too fast."""
        line = " ".join(str(text).split())
        if any(unicodedata.category(ch) in ("Cc", "Cf", "Cs") for ch in line):
            raise ChatRefused("bad_message", "a chat line has no control characters")
        if not 1 <= len(line) <= self.length:
            raise ChatRefused("bad_message", f"a chat line is 1-{self.length} characters")
        lines, at = self._allowance.get(player_id, (float(self.burst), now))
        lines = min(float(self.burst), lines + (now - at) / self.every)
        if lines < 1:
            wait = math.ceil((1 - lines) * self.every)
            raise ChatRefused("rate_limited", f"slow down: you may say something again in {wait} s")
        self._allowance[player_id] = (lines - 1, now)
        return line

    def keep(self, message: dict[str, Any]) -> None:
        self.log.append(message)
