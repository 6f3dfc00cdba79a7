"""What the commands share: one-line refusals, bot specs, and output paths checked up front.

A bad input (an option, a file) is refused before anything runs, in one line on stderr,
``refused: …`` with exit code 2; a run that failed says ``failed: …`` with exit code 1. Only a
bug shows a traceback (``cardroom.cli.main``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

from cardroom.batches import LOCAL, ClusterError, RayCluster, ray_module
from cardroom.bots import bots_for
from cardroom.bots.specs import BotSpecError, parse_bot_specs
from cardroom.games import get_game
from cardroom.games.base import OptionsError
from cardroom.sim.seeds import check_secret, new_secret
from cardroom.sim.tournament import is_program

# soft_wrap: a refusal stays one line in a pipe or a log, whatever the width.
errors = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2, *, label: str | None = None) -> NoReturn:
    """Print ``refused: message`` (exit code 2, input the user can correct) or ``failed:
    message`` (any other code: the run failed) on one line of stderr, and exit with ``code``;
    ``label`` (``bad options``) says what was refused, after the voice."""
    voice = "refused" if code == 2 else "failed"
    if label not in (None, "refused", "failed"):
        message = f"{label}: {message}"
    errors.print(f"[red]{voice}:[/] {escape(one_line(message))}")
    raise typer.Exit(code)


def one_line(message: str) -> str:
    """``message`` with its line breaks and other unprintable characters escaped (a value
    quoted from a file or an option may hold them), so it stays one line."""
    if message.isprintable():
        return message
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in message)


def parse_bots(text: str, game: str = "skip") -> list[str]:
    """Bot specs (``cardroom.bots.specs``) of ``game``, the same for every command, or a
    refusal."""
    try:
        return parse_bot_specs(text, game)
    except BotSpecError as error:
        fail(str(error))


GAME_HELP = (
    "The game: skip (docs/rules.md) or skyjo (docs/skyjo-rules.md); more with CARDROOM_GAMES "
    "(docs/adding-a-game.md)."
)


def parse_game(name: str) -> str:
    """A game of the registry that has bots, or a one-line refusal."""
    try:
        game = get_game(name)
    except LookupError as error:
        fail(str(error))
    if not bots_for(game.name):
        fail(f"no bots play {game.title} yet")
    return game.name


def cli_options(game: str, players: int, teams: bool, pairs: list[str] | None, **base: Any) -> Any:
    """The options of ``game`` from the command line (``--players``, ``--teams``, ``-o
    key=value``), read by the game itself (``Game.terminal``), or a refusal naming the rule."""
    played = get_game(game)
    terminal = played.terminal
    if teams and not terminal.teams:
        fail(f"{played.title} has no teams; --teams is a Skip option")
    try:
        return terminal.options_from_cli(players, pairs or [], teams=teams, **base)
    except (OptionsError, TypeError) as error:
        fail(f"{error}; {terminal.rules_hint}", label="bad options")


def writable_folder(path: Path, what: str) -> Path:
    """Make ``path`` (a folder) if needed and prove a file can be written in it, so a long run
    does not fail at its first write."""
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".cardroom-probe-"):
            pass
    except OSError as error:
        fail(f"cannot write {what} in {path}: {error.strerror or error}")
    return path


def writable_file(path: Path, what: str) -> Path:
    """Prove ``path`` can be written (its folder exists and takes files) without leaving it."""
    if path.is_dir():
        fail(f"cannot write {what} to {path}: it is a folder")
    folder = path.parent
    if not folder.is_dir():
        fail(f"cannot write {what} to {path}: no folder {folder}")
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".cardroom-probe-"):
            pass
    except OSError as error:
        fail(f"cannot write {what} to {path}: {error.strerror or error}")
    return path


def check_answered(names_decisions_lost: list[tuple[str, int, int]]) -> None:
    """Refuse a run where an external program never played: (name, decisions, turns lost)
    for each bot; one that lost every decision did not play the game it was scored on."""
    for name, decisions, lost in names_decisions_lost:
        if decisions and lost == decisions:
            fail(
                f"{name} lost all {decisions} of its turns (it never answered with a legal "
                "action; see the warnings above): the results would be meaningless",
                1,
                label="failed",
            )


CLUSTER_HELP = "Play on a cluster: ray (docs/cluster.md). Default: processes of this machine."
ADDRESS_HELP = (
    "With --cluster ray: auto (a local Ray, started and stopped by the command), "
    "ray://HOST:PORT (Ray Client) or a running cluster's HOST:PORT."
)
BATCH_HELP = "Games per batch on a cluster (default: about 1/64 of the run, 1 to 20)."
SECRET_HELP = (
    "The run's secret, from an earlier run's summary: with the same --seed, the same games. "
    "Default: a fresh one when a program (cmd:) plays, none otherwise (sim/seeds.py)."
)


def cluster_of(cluster: str | None, address: str | None, jobs: int | None) -> RayCluster | None:
    """Where to play, from ``--cluster``, ``--address`` and ``--jobs`` (the cluster's worker
    processes), or a refusal."""
    if cluster is None:
        if address is not None:
            fail("--address goes with --cluster ray")
        return None
    if cluster != "ray":
        fail(f"--cluster is ray, not {cluster!r}")
    try:
        ray_module()
    except ClusterError as error:
        fail(str(error))
    return RayCluster(address or LOCAL, jobs)


def secret_of(given: str | None, bots: list[str]) -> str:
    """The run's secret: ``--secret`` checked, else a fresh one when a program plays."""
    if given is not None:
        try:
            return check_secret(given)
        except ValueError as error:
            fail(f"--secret: {error}")
    return new_secret() if any(is_program(bot) for bot in bots) else ""
