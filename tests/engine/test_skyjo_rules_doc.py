"""docs/skyjo-rules.md is Skyjo's rule book: every rule id the Skyjo or score keeper code or
tests cite is defined there, and every rule there has a test named after it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE = re.compile(r"\bS([1-6])\.(\d+)\b")


def _defined() -> list[str]:
    text = (ROOT / "docs" / "skyjo-rules.md").read_text()
    return re.findall(r"^- \*\*(S\d\.\d+)\*\*", text, flags=re.MULTILINE)


def _skyjo_files() -> list[Path]:
    return [
        *(ROOT / "src" / "cardroom" / "games" / "skyjo").rglob("*.py"),
        *(ROOT / "src" / "cardroom" / "keeper").rglob("*.py"),
        *(ROOT / "tests").rglob("*skyjo*.py"),
        *(ROOT / "tests" / "keeper").rglob("*.py"),
    ]


def test_skyjo_rule_ids_are_defined_once_and_in_order() -> None:
    defined = _defined()
    assert len(defined) == len(set(defined)) >= 12
    key = [tuple(map(int, rule[1:].split("."))) for rule in defined]
    assert key == sorted(key)


def test_every_rule_the_skyjo_code_or_a_test_cites_is_in_the_rule_book() -> None:
    cited = {f"S{a}.{b}" for path in _skyjo_files() for a, b in RULE.findall(path.read_text())}
    assert cited <= set(_defined())


def test_every_skyjo_rule_has_a_test_named_after_it() -> None:
    names = " ".join(re.findall(r"def (test_\w+)", "".join(p.read_text() for p in _skyjo_files())))
    untested = [rule for rule in _defined() if f"_{rule.replace('.', '_')}_" not in names]
    assert untested == []
