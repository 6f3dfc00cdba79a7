"""A table's move latency while another match finishes: the league's work off the writer.

Run: ``cardroom bench finishing``. A real SQLite database and the server's journal (the one
writer thread every table's moves are committed on). One table commits a move every few
milliseconds, as a busy table does, while a long finished match (a 500-point match of bots) is
counted by the league: ratings, results, achievements. Measured both ways in the same run:

- *on the writer*: the counting runs as a journal operation, inside the writer's transaction,
  as the server did before: every move committed meanwhile waits for it;
- *off the writer*: the counting runs on the league worker's own thread and connection
  (``server/league_worker.py``), as the server does now.

Printed: the counting time, and the move commit latency (p50, p99, max) while it ran; the
ratio of the max latencies is the figure to read (the machine's speed cancels out).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from cardroom.bots import make_bot
from cardroom.games import get_game
from cardroom.league import on_match_finished
from cardroom.server.league_worker import LeagueWorker
from cardroom.server.settings import Settings
from cardroom.sim.play import play_match
from cardroom.store import repository as repo
from cardroom.store.database import migrate, open_engine
from cardroom.store.journal import Journal

SKIP = get_game("skip")

TICK = 0.002  # seconds between the busy table's moves
SETTLE = 0.3  # seconds of moves before and after the counting


def _store_finished(engine: Any, match_id: str, seed: str) -> int:
    """A 500-point match of greedy bots, stored as the server stores one; its step count."""
    options = SKIP.options_from_json({"players": 2, "match_target": 500})
    match = play_match(options, seed, [make_bot("greedy", f"{seed}/{s}") for s in range(2)])
    with engine.begin() as conn:
        seats = [
            {"table_seat": s, "name": f"Bot {s}", "player_id": None, "bot": "easy"}
            for s in range(2)
        ]
        repo.insert_match(
            conn,
            {
                "id": match_id,
                "table_id": "t_bench",
                "options": options.to_json(),
                "seed": seed,
                "seats": seats,
                "status": "finished",
                "scores": list(match.scores),
                "winners": list(match.winners or ()),
                "rounds": match.round_number,
                "finished_at": repo.utcnow(),
            },
        )
        number = 0
        for log in match.rounds:
            if log.number > 1:
                number += 1
                repo.insert_move(conn, match_id, number, log.number, "next_round", None, None)
            for seat, action in log.moves:
                number += 1
                repo.insert_move(
                    conn, match_id, number, log.number, "action", seat, SKIP.action_to_json(action)
                )
    return number


async def _measure(journal: Journal, count: Any, busy_match: str, start: int) -> dict[str, Any]:
    """Moves of the busy table before, during and after ``count()``; latencies during it."""
    latencies: list[tuple[float, float]] = []  # (sent at, seconds to commit)
    number = start
    counting = asyncio.Event()
    done = asyncio.Event()
    window: list[float] = []

    async def moves() -> None:
        nonlocal number
        while not done.is_set():
            number += 1
            sent = time.perf_counter()
            row = repo.move_row(busy_match, number, 1, "action", 0, {"type": "pass"})
            await journal.write([row, repo.table_update("t_bench", seq=number)])
            latencies.append((sent, time.perf_counter() - sent))
            await asyncio.sleep(TICK)

    async def finish() -> None:
        await asyncio.sleep(SETTLE)
        window.append(time.perf_counter())
        counting.set()
        await count()
        window.append(time.perf_counter())
        await asyncio.sleep(SETTLE)
        done.set()

    await asyncio.gather(moves(), finish())
    begin, end = window
    during = [seconds for sent, seconds in latencies if begin <= sent + seconds and sent <= end]
    during.sort()
    return {
        "count_ms": (end - begin) * 1000,
        "moves": len(during),
        "p50": statistics.median(during) * 1000 if during else 0.0,
        "p99": during[int(0.99 * (len(during) - 1))] * 1000 if during else 0.0,
        "max": during[-1] * 1000 if during else 0.0,
        "next": number,
    }


def main(seed: str = "bench-finishing") -> dict[str, dict[str, Any]]:
    console = Console()
    sys.setswitchinterval(Settings().switch_interval)  # as the server runs
    with tempfile.TemporaryDirectory() as folder:
        engine = open_engine(f"sqlite:///{Path(folder) / 'bench.db'}")
        migrate(engine)
        with engine.begin() as conn:
            repo.insert_player(conn, "p_bench", "Bench")
            repo.insert_table(
                conn,
                {
                    "id": "t_bench",
                    "name": None,
                    "public": False,
                    "owner_id": "p_bench",
                    "options": {},
                    "abandon_after": 300.0,
                    "status": "playing",
                },
                [],
            )
            repo.insert_match(
                conn,
                {
                    "id": "m_busy",
                    "table_id": "t_bench",
                    "options": {},
                    "seed": "busy",
                    "seats": [],
                    "status": "playing",
                    "scores": [0, 0],
                    "rounds": 1,
                },
            )
        steps = [_store_finished(engine, f"m_done_{way}", f"{seed}-{way}") for way in (1, 2)]
        journal = Journal(engine)
        worker = LeagueWorker(engine)

        async def run() -> dict[str, dict[str, Any]]:
            before = await _measure(
                journal,
                lambda: journal.run(lambda c: on_match_finished(c, "m_done_1")),
                "m_busy",
                0,
            )
            after = await _measure(
                journal, lambda: worker.count("m_done_2"), "m_busy", before["next"]
            )
            return {"on the writer (before)": before, "off the writer (now)": after}

        try:
            results = asyncio.run(run())
        finally:
            worker.close()
            journal.close()
            engine.dispose()
    table = Table(title=f"A busy table's moves while a {steps[0]}-step match is counted")
    for column in ("league work", "counting ms", "moves", "p50 ms", "p99 ms", "max ms"):
        table.add_column(column, justify="right" if column != "league work" else "left")
    for what, r in results.items():
        table.add_row(
            what,
            f"{r['count_ms']:.0f}",
            str(r["moves"]),
            f"{r['p50']:.1f}",
            f"{r['p99']:.1f}",
            f"{r['max']:.1f}",
        )
    console.print(table)
    before, after = results.values()
    ratio = before["max"] / after["max"] if after["max"] else float("inf")
    console.print(
        f"worst move commit while a match is counted: {ratio:.1f}x shorter off the writer "
        "(goal: a finishing match never holds up another table's move)"
    )
    console.print("command: cardroom bench finishing")
    return results


if __name__ == "__main__":
    main()
