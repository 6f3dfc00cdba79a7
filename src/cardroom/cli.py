"""The ``cardroom`` command: one typer app; each area of the project adds its own commands."""

from __future__ import annotations

import sys
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError  # typer's own click
from typer.core import TyperGroup

from cardroom.commands import (
    admin,
    backup,
    bench,
    calibrate,
    connect,
    daily,
    keep,
    matches,
    play,
    review,
    serve,
    tournament,
)
from cardroom.commands.common import fail

BUG = (
    "internal error: this is a bug in cardroom, not a mistake in what you gave it; please "
    "report it with the command line and the traceback above"
)


@contextmanager
def usage_errors_in_one_line() -> Iterator[None]:
    """A usage mistake (an unknown option, a bad or missing value) refused like any other bad
    input: one line, ``refused: …``, exit code 2, not typer's box."""
    try:
        yield
    except NoArgsIsHelpError:
        raise  # ``cardroom`` alone: the help
    except UsageError as error:
        message = error.format_message().rstrip(".")
        message = message[:1].lower() + message[1:]
        if error.ctx is not None:
            message += f"; see {error.ctx.command_path} --help"
        fail(message)


class OneLineUsageErrors(TyperGroup):
    """The command group; any command's usage mistake, however deep, surfaces here."""

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with usage_errors_in_one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with usage_errors_in_one_line():
            return super().invoke(ctx)


app = typer.Typer(
    cls=OneLineUsageErrors,
    help=(
        "Cardroom: play Skip and Skyjo online, keep the score of games played with cards,"
        " run bots, simulations and benchmarks."
    ),
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",  # docstrings are wrapped prose: join their lines
    pretty_exceptions_enable=False,  # a bug's traceback is plain, and shows no values
)
matches.register(app)
play.register(app)
daily.register(app)
bench.register(app)
serve.register(app)
tournament.register(app)
calibrate.register(app)
keep.register(app)
review.register(app)
connect.register(app)
backup.register(app)
admin.register(app)


def main() -> None:
    """The ``cardroom`` command: refusals are one line (exit code 2), a failed run one line
    (exit code 1); anything else is a bug, the only traceback, with exit code 1."""
    try:
        app()
    except Exception:
        traceback.print_exc()
        print(BUG, file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
