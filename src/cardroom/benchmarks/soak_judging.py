"""The soak's verdicts (``benchmarks/soak.py``): each figure's slope over the judged part of
the run and whether it is flat, the objects that grew, the moves' latency early and late, and
the plot."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cardroom.benchmarks.soak_load import Load

FLAT = 0.10  # a figure is flat when its fitted change over the judged span is within 10%
JUDGED = 0.75  # the last three quarters of the run are judged; the first is warm-up
FIGURES = (
    "rss_mb", "heap_kblocks", "tasks", "threads", "fds", "db_connections", "sockets", "tables",
)  # fmt: skip


@dataclass
class Sample:
    at: float  # seconds since the load began
    server: int
    probe: dict[str, Any]
    rows: int
    redis_keys: int


def figure(sample: Sample, name: str) -> float:
    p = sample.probe
    if name == "rss_mb":
        return float(p["rss"]) / 2**20
    if name == "heap_kblocks":
        return float(p["heap_blocks"]) / 1000
    if name == "tables":
        return float(p["sizes"]["tables"])
    return float(p[name])


def slope(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope (units per second)."""
    if len(points) < 2:
        return 0.0
    xs, ys = [x for x, _ in points], [y for _, y in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    var = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in points) / var if var else 0.0


@dataclass
class Verdict:
    server: int
    name: str
    level: float
    per_hour: float
    change: float  # the fitted change over the judged span, as a share of the level
    flat: bool
    growers: list[tuple[str, int]]


def judge(samples: Sequence[Sample], duration: float) -> list[Verdict]:
    out: list[Verdict] = []
    start_at = duration * (1 - JUDGED)
    for server in sorted({s.server for s in samples}):
        mine = [s for s in samples if s.server == server and s.at >= start_at]
        if len(mine) < 2:
            continue
        span = mine[-1].at - mine[0].at
        for name in FIGURES:
            points = [(s.at, figure(s, name)) for s in mine]
            level = statistics.fmean(y for _, y in points)
            rise = slope(points)
            change = rise * span / level if level else 0.0
            flat = abs(change) <= FLAT or abs(rise * span) < 2  # a count that moved by one
            growers: list[tuple[str, int]] = []
            if not flat and rise > 0:
                first, last = mine[0].probe["objects"], mine[-1].probe["objects"]
                grew = {k: v - first.get(k, 0) for k, v in last.items()}
                growers = sorted(((k, d) for k, d in grew.items() if d > 0), key=lambda kv: -kv[1])[
                    :8
                ]
            out.append(Verdict(server, name, level, rise * 3600, change, flat, growers))
    servers = sorted({s.server for s in samples})
    if len(servers) > 1:
        out = tables_across(samples, servers, start_at, out)
    return out


ALL = -1  # the server of a verdict on every process together


def tables_across(
    samples: Sequence[Sample], servers: list[int], start_at: float, out: list[Verdict]
) -> list[Verdict]:
    """Live tables move from one process to another (a lease lapses, a process takes a table
    over): each process's count may swing while the room's does not. The sum over the
    processes, probed in the same round, is judged; each one's count is shown, not judged."""
    rounds = [[s for s in samples if s.server == server] for server in servers]
    points = [
        (statistics.fmean(s.at for s in probes), sum(figure(s, "tables") for s in probes))
        for probes in zip(*rounds, strict=False)
        if probes[0].at >= start_at
    ]
    kept = [
        Verdict(v.server, v.name, v.level, v.per_hour, v.change, True, v.growers)
        if v.name == "tables"
        else v
        for v in out
    ]
    if len(points) < 2:
        return kept
    span = points[-1][0] - points[0][0]
    level = statistics.fmean(y for _, y in points)
    rise = slope(points)
    change = rise * span / level if level else 0.0
    flat = abs(change) <= FLAT or abs(rise * span) < 2
    return [*kept, Verdict(ALL, "tables", level, rise * 3600, change, flat, [])]


def latency_windows(load: Load, duration: float) -> list[tuple[str, float, float, int]]:
    """(window, p50 ms, p99 ms, moves) for the first and the last ten minutes (fifths of a
    shorter run)."""
    window = min(600.0, duration / 5)
    out = []
    for label, lo, hi in (
        ("first", 0.0, window),
        ("last", duration - window, duration),
    ):
        values = sorted(s for at, s in load.latencies if lo <= at < hi)
        if values:
            p50 = values[len(values) // 2] * 1000
            p99 = values[min(len(values) - 1, int(len(values) * 0.99))] * 1000
            span = f"{window / 60:.3g} min" if window >= 60 else f"{window:.0f} s"
            out.append((f"{label} {span}", p50, p99, len(values)))
    return out


def plot(samples: Sequence[Sample], path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    redis = any(s.redis_keys for s in samples)  # a SQLite run has none: no empty plot
    names = (*FIGURES, "rows", *(("redis_keys",) if redis else ()))
    rows = -(-len(names) // 3)
    fig, axes = plt.subplots(rows, 3, figsize=(14, 3.3 * rows))
    for ax in axes.flat[len(names) :]:
        ax.set_visible(False)  # the grid's spare places
    for ax, name in zip(axes.flat, names, strict=False):
        for server in sorted({s.server for s in samples}):
            mine = [s for s in samples if s.server == server]
            xs = [s.at / 60 for s in mine]
            if name == "rows":
                ys = [float(s.rows) for s in mine]
            elif name == "redis_keys":
                ys = [float(s.redis_keys) for s in mine]
            else:
                ys = [figure(s, name) for s in mine]
            ax.plot(xs, ys, label=f"process {server + 1}")
        ax.set_title(name)
        ax.set_xlabel("minutes")
        ax.grid(alpha=0.3)
    axes.flat[0].legend()
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path
