"""The package keeps its architecture: import-linter's contracts (``[tool.importlinter]`` in
pyproject.toml: the layers, no import circles) hold, checked by the ``lint-imports`` of the
running environment, so the suite fails on an import that climbs a layer or closes a circle
even where ``make lint`` is not run."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "cardroom"


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def test_the_import_contracts_are_kept() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    assert lint_imports.exists(), "lint-imports is missing: pip install -e '.[dev]'"
    found = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert found.returncode == 0, found.stdout + found.stderr
    for contract in _contracts():
        assert f"{contract['name']} KEPT" in found.stdout, found.stdout


def test_every_subpackage_has_its_layer() -> None:
    """A new package takes its place in the layers, or nothing checks what it imports."""
    layers = next(c for c in _contracts() if c["type"] == "layers")["layers"]
    assert isinstance(layers, list)
    named = {name.strip() for layer in layers for name in layer.split("|")}
    packages = {f"cardroom.{init.parent.name}" for init in PACKAGE.glob("*/__init__.py")}
    assert packages - named == set()
