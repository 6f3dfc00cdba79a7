"""The soak's verdicts (``benchmarks/soak.py``) on made-up samples: a flat figure is flat, a
growing one is not and names the object types that grew; the latency windows."""

from __future__ import annotations

from typing import Any

from cardroom.benchmarks.soak_judging import ALL, Sample, judge, latency_windows, slope
from cardroom.benchmarks.soak_load import Load


def probe(rss_mb: float, tasks: int, objects: dict[str, int], tables: int = 30) -> dict[str, Any]:
    return {
        "rss": int(rss_mb * 2**20), "heap_blocks": 800_000, "tasks": tasks, "threads": 7,
        "fds": 40, "db_connections": 0, "sockets": 20, "sizes": {"tables": tables},
        "objects": objects,
    }  # fmt: skip


def test_slope_is_least_squares() -> None:
    assert slope([(0, 1), (1, 3), (2, 5)]) == 2
    assert slope([(0, 4)]) == 0


def test_a_growing_figure_is_named_with_its_growers_and_a_flat_one_is_flat() -> None:
    samples = [
        Sample(float(t), 0, probe(100 + t / 10, 70, {"dict": 1000 + 10 * t, "list": 500}), 0, 0)
        for t in range(0, 601, 10)
    ]
    verdicts = {v.name: v for v in judge(samples, 600)}
    assert verdicts["tasks"].flat and verdicts["threads"].flat
    rss = verdicts["rss_mb"]
    assert not rss.flat and rss.per_hour == 360.0
    assert rss.growers == [("dict", 4500)]  # from 150 s (the judged span) to 600 s


def test_latency_windows_are_the_first_and_last_fifth_of_a_short_run() -> None:
    load = Load(latencies=[(t, 0.001 * (1 + t // 100)) for t in range(500)])
    first, last = latency_windows(load, 500)
    assert first[0] == "first 1.67 min" and last[0] == "last 1.67 min"
    assert first[2] < last[2]


def test_tables_moving_between_processes_are_judged_by_their_sum() -> None:
    """Process 1 hands tables over to process 2 during the run: each count swings by a third,
    the room's stays at 60, which is what is judged."""
    samples = [
        Sample(float(t) + server, server, probe(100, 70, {}, tables=count), 0, 0)
        for t in range(0, 601, 10)
        for server, count in ((0, 40 - t // 30), (1, 20 + t // 30))
    ]
    verdicts = judge(samples, 600)
    room = [v for v in verdicts if v.server == ALL]
    assert [(v.name, v.level, v.flat) for v in room] == [("tables", 60.0, True)]
    each = [v for v in verdicts if v.name == "tables" and v.server != ALL]
    assert len(each) == 2 and all(v.flat for v in each)  # shown, not judged
    assert abs(each[0].change) > 0.10  # it did swing
