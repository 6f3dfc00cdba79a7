"""Which build of the engine runs: its hot modules compiled by mypyc (``make compiled``), or
pure Python.

A compiled module (an extension beside its ``.py``, which Python imports first) is used only
while its source is exactly the one it was compiled from: ``compiled-sources.txt``, written
by the build, holds each source's sha256. After an edit, or with ``CARDROOM_PURE=1``, the
``.py`` files are imported instead, so stale compiled code never runs.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

SOURCE_ROOT = Path(__file__).resolve().parent.parent
MANIFEST = Path(__file__).with_name("compiled-sources.txt")
GAMES_ROOT = SOURCE_ROOT / "cardroom" / "games"


def declared(package: Path) -> tuple[str, ...]:
    """The modules a game package declares for compiling: its ``__init__.py``'s ``COMPILED``
    tuple of module names, read as source (importing the package here would import its
    modules before ``choose`` decides which build to run)."""
    init = package / "__init__.py"
    if not init.exists():
        return ()
    for node in ast.parse(init.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(target, ast.Name) and target.id == "COMPILED" for target in node.targets
        ):
            dotted = ".".join(package.relative_to(SOURCE_ROOT).parts)
            return tuple(f"{dotted}.{name}" for name in ast.literal_eval(node.value))
    return ()


COMPILED_MODULES: tuple[str, ...] = (
    "cardroom.games.shuffling",
    *(
        module
        for package in sorted(GAMES_ROOT.iterdir())
        if package.is_dir()
        for module in declared(package)
    ),
    "cardroom.bots.greedy",
    "cardroom.bots.planner",
    "cardroom.bots.expert",
    "cardroom.bots.skyjo.common",
    "cardroom.bots.skyjo.counter",
    "cardroom.bots.skyjo.sampling",
    "cardroom.bots.skyjo.search",
)
"""What ``make compiled`` compiles: what each game package declares (Skip: its rules, state
and views, its match, the turn search and the deal sampler), the shuffle and the greedy bot
(the loop of simulations), the planner and the expert (their search and rollouts: about 4x
faster compiled, so Master thinks within its time in live play and tournaments of the expert
take a quarter of the CPU), and Skyjo's rules with its bots' counting and search (the Master's
rollouts: about 2.3x faster compiled). Each must type-check and compile under mypyc."""


def source_of(module: str) -> Path:
    return SOURCE_ROOT.joinpath(*module.split(".")).with_suffix(".py")


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_manifest() -> None:
    """Record the sources just compiled (the build script calls this after mypyc)."""
    lines = [f"{module} {digest(source_of(module))}\n" for module in COMPILED_MODULES]
    MANIFEST.write_text("".join(lines))


def stale_modules() -> list[str]:
    """The compiled modules present whose source changed since they were compiled."""
    recorded: dict[str, str] = {}
    if MANIFEST.exists():
        for line in MANIFEST.read_text().splitlines():
            module, _, sha = line.partition(" ")
            recorded[module] = sha
    return [
        module for module in present_modules() if recorded.get(module) != digest(source_of(module))
    ]


def present_modules() -> list[str]:
    """The modules of ``COMPILED_MODULES`` with a compiled extension beside their source."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    return [
        module
        for module in COMPILED_MODULES
        if any(source_of(module).with_suffix(suffix).exists() for suffix in suffixes)
    ]


def running() -> str:
    """``compiled`` when the compiled engine runs (its first game module is an extension),
    else ``pure Python``."""
    first = next(
        m for m in COMPILED_MODULES if m.startswith("cardroom.games.") and m.count(".") > 2
    )
    module = sys.modules.get(first)
    if module is None:
        module = importlib.import_module(first)
    return "pure Python" if (module.__file__ or "").endswith(".py") else "compiled"


class _PureFinder(importlib.abc.MetaPathFinder):
    """Imports the given modules from their ``.py`` sources, passing over compiled ones."""

    def __init__(self, modules: Sequence[str]) -> None:
        self.modules = frozenset(modules)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in self.modules:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))


def choose() -> None:
    """Called as ``cardroom`` is imported: keep a compiled build only when it is fresh and
    wanted; otherwise import every engine module from source (one build, never a mix)."""
    present = present_modules()
    if not present:
        return
    if os.environ.get("CARDROOM_PURE") or stale_modules():
        sys.meta_path.insert(0, _PureFinder(COMPILED_MODULES))
