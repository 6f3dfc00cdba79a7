"""The paired comparison both games' searches decide by: another plan replaces the first
choice only when it wins on the same sampled deals by a margin of standard errors."""

from __future__ import annotations

import math


def lower_bound(diffs: list[float], z: float) -> float:
    """The mean of paired differences less ``z`` standard errors (0 with fewer than two)."""
    n = len(diffs)
    if n < 2:
        return 0.0
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean - z * math.sqrt(variance / n)
