"""A table's pending timers: the turn timer, a bot's thinking delay, the pause between rounds
and the abandoned-table timeout, as deadlines in table time.

The master arms and cancels them as effects (the actor keeps the real timers); each arming
carries a key (the match and its move count), so a timer that fires after the position moved
on is known for stale and ignored.
"""

from __future__ import annotations

from typing import Any

from cardroom.tables.effects import ArmTimer, CancelTimer, Effect

TURN, BOT, ROUND, ABANDON = "turn", "bot", "round", "abandon"
ALL = (TURN, BOT, ROUND, ABANDON)

Key = tuple[Any, ...]


class Timers:
    def __init__(self) -> None:
        self.deadlines: dict[str, float] = {}
        self.keys: dict[str, Key] = {}

    def arm(self, name: str, at: float, key: Key, out: list[Effect]) -> None:
        self.deadlines[name] = at
        self.keys[name] = key
        out.append(ArmTimer(name, at, key))

    def cancel(self, name: str, out: list[Effect]) -> None:
        if self.deadlines.pop(name, None) is not None:
            self.keys.pop(name, None)
            out.append(CancelTimer(name))

    def cancel_all(self, out: list[Effect], names: tuple[str, ...] = ALL) -> None:
        for name in names:
            self.cancel(name, out)

    def armed(self, name: str, key: Key | None = None) -> bool:
        """Whether ``name`` is pending (for ``key``, when given)."""
        return name in self.deadlines and (key is None or self.keys.get(name) == key)

    def fired(self, name: str, key: Key) -> bool:
        """The timer ran out: True (and forgotten) if it is the one armed last, else stale."""
        if not self.armed(name, key):
            return False
        del self.deadlines[name]
        del self.keys[name]
        return True

    def deadline(self, name: str) -> float | None:
        return self.deadlines.get(name)

    def remaining(self, name: str, now: float) -> float | None:
        deadline = self.deadlines.get(name)
        return None if deadline is None else round(max(deadline - now, 0.0), 1)
