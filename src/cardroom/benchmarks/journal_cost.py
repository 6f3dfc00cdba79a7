"""What a stored move costs the writer, with and without its fence (issue 16).

Busy tables write their moves through one ``Journal`` on SQLite, as the server does: each
write a move row, fenced by the table's epoch (which also stores the table's seq) or not.
Printed: CPU per write (the whole process, the writer thread included), commits, and the
fence's share. Runs alternate, so the machine's swings touch both alike.

Run: ``cardroom bench journal`` (or ``python -m cardroom.benchmarks.journal_cost``).
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from cardroom.store import repository as repo
from cardroom.store.database import migrate, open_engine
from cardroom.store.journal import Fence, Journal, Step
from cardroom.tables.audience import action_key

ACTION = {"type": "play", "from": "hand", "card": 7, "to": 2}


def _tables(engine: object, count: int) -> None:
    with engine.begin() as conn:  # type: ignore[attr-defined]
        repo.insert_player(conn, "p_bench", "Bench")
        for t in range(count):
            table = {
                "id": f"t{t}",
                "public": True,
                "owner_id": "p_bench",
                "options": {},
                "abandon_after": 60.0,
                "status": "playing",
                "match_id": f"m{t}",
            }
            repo.insert_table(conn, table, [])
            match = {"id": f"m{t}", "table_id": f"t{t}", "options": {}, "seed": "s"}
            repo.insert_match(conn, {**match, "seats": [], "status": "playing"})


async def _play(journal: Journal, tables: int, moves: int, fenced: bool) -> None:
    async def table(t: int) -> None:
        for n in range(1, moves + 1):
            key = action_key("p_bench", f"a{n}")
            steps: list[Step] = [repo.move_row(f"m{t}", n, 1, "action", 0, ACTION, key)]
            if fenced:
                steps.insert(0, Fence(f"t{t}", 0, n))
            await journal.write(steps)

    await asyncio.gather(*(table(t) for t in range(tables)))


def measure(fenced: bool, tables: int, moves: int) -> tuple[float, int]:
    """CPU seconds per write, and the commits, for ``tables`` tables of ``moves`` moves."""
    with tempfile.TemporaryDirectory() as folder:
        engine = open_engine(f"sqlite:///{Path(folder) / 'journal.db'}")
        migrate(engine)
        _tables(engine, tables)
        journal = Journal(engine)
        started = time.process_time()
        asyncio.run(_play(journal, tables, moves, fenced))
        spent = time.process_time() - started
        commits = journal.commits
        journal.close()
        engine.dispose()
    return spent / (tables * moves), commits


def main(tables: int = 200, moves: int = 50, rounds: int = 3) -> None:
    from rich.console import Console
    from rich.table import Table

    plain: list[float] = []
    fenced: list[float] = []
    commits = 0
    for _ in range(rounds):
        plain.append(measure(False, tables, moves)[0])
        per_write, commits = measure(True, tables, moves)
        fenced.append(per_write)
    table = Table(
        title=f"The journal on SQLite: {tables} tables × {moves} moves, {rounds} runs each",
        caption=f"command: cardroom bench journal --tables {tables} --moves {moves}",
    )
    for column in ("writes", "CPU per write, median", "runs", "commits (last run)"):
        table.add_column(column, justify="left" if column == "writes" else "right")
    table.add_row("a move", f"{statistics.median(plain) * 1e6:.1f} µs", _spread(plain), "")
    table.add_row(
        "a move, fenced (+ the table's seq)",
        f"{statistics.median(fenced) * 1e6:.1f} µs",
        _spread(fenced),
        f"{commits:,}",
    )
    console = Console()
    console.print(table)
    extra = statistics.median(fenced) / statistics.median(plain) - 1
    console.print(f"the fence costs {extra:+.0%} of a write's CPU")


def _spread(values: list[float]) -> str:
    return " ".join(f"{v * 1e6:.1f}" for v in values)


if __name__ == "__main__":
    main()
