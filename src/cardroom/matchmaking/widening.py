"""How far apart two waiting tickets may be: a gap that widens the longer they wait."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Widening:
    """``start`` rating points at once, ``per_second`` more each second, up to ``most``. On the
    displayed rating (``mu - 3 sigma``, divisions 6-8 points wide): within half a division at
    first, a whole one after half a minute, anyone in the pool after two minutes."""

    start: float = 1.5
    per_second: float = 0.15
    most: float = 20.0
    three_after: float = 20.0  # 3p+: seconds before a table of three is made instead of four

    def gap(self, waited: float) -> float:
        return min(self.most, self.start + self.per_second * max(0.0, waited))

    def allows(self, a_rating: float, a_waited: float, b_rating: float, b_waited: float) -> bool:
        """The longer waiter's gap decides: a newcomer may be matched to someone who has waited,
        so nobody waits for ever behind a stream of newcomers."""
        return abs(a_rating - b_rating) <= max(self.gap(a_waited), self.gap(b_waited))


STANDARD = Widening()
