"""The ``cardroom`` command: one typer app; each area of the project adds its own commands."""

from __future__ import annotations

import typer

from cardroom.commands import (
    backup,
    bench,
    calibrate,
    connect,
    keep,
    matches,
    review,
    serve,
    tournament,
)

app = typer.Typer(
    help=(
        "Cardroom: play Skip and Skyjo online, keep the score of games played with cards,"
        " run bots, simulations and benchmarks."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",  # docstrings are wrapped prose: join their lines
)
matches.register(app)
bench.register(app)
serve.register(app)
tournament.register(app)
calibrate.register(app)
keep.register(app)
review.register(app)
connect.register(app)
backup.register(app)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
