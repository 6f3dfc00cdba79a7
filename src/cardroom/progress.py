"""One progress bar for every long job (simulations, tournaments, benchmarks), on stderr so
that stdout stays the result alone. Beside the layers, not in one: the commands and the
benchmarks below them both show it."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def game_progress(
    label: str, total: int, *, quiet: bool = False, status: Callable[[], str] | None = None
) -> Iterator[Callable[..., None]]:
    """A bar of ``total`` games; yields a callback that counts one game done.

    ``quiet`` hides the bar when stderr is not a terminal (e.g. ``--json`` piped to a file);
    ``status`` (the standings so far) is shown beside the label after each game.
    """
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
        disable=quiet and not sys.stderr.isatty(),
    ) as progress:
        task = progress.add_task(label, total=total)

        def advance(*_: object) -> None:
            progress.advance(task)
            if status is not None:
                progress.update(task, description=f"{label} {status()}")

        yield advance
