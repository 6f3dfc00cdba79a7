"""docs/rules.md is the rule book: every rule id the code or a test cites is defined there, and
every rule there has a test named after it."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RULE = re.compile(r"\bR([1-7])\.(\d+)\b")


def _defined() -> list[str]:
    text = (ROOT / "docs" / "rules.md").read_text()
    return re.findall(r"^- \*\*(R\d\.\d+)\*\*", text, flags=re.MULTILINE)


def _cited(folder: str) -> set[str]:
    cited: set[str] = set()
    for path in (ROOT / folder).rglob("*.py"):
        cited |= {f"R{a}.{b}" for a, b in RULE.findall(path.read_text())}
    return cited


def test_rule_ids_are_defined_once_and_in_order() -> None:
    defined = _defined()
    assert len(defined) == len(set(defined)) >= 30
    key = [tuple(map(int, rule[1:].split("."))) for rule in defined]
    assert key == sorted(key)


def test_every_rule_the_code_or_a_test_cites_is_in_the_rule_book() -> None:
    assert _cited("src") | _cited("tests") <= set(_defined())


def test_every_rule_in_the_rule_book_has_a_test_named_after_it() -> None:
    names = " ".join(
        re.findall(
            r"def (test_\w+)", "".join(p.read_text() for p in (ROOT / "tests").rglob("*.py"))
        )
    )
    untested = [rule for rule in _defined() if f"_{rule.replace('.', '_')}_" not in names]
    assert untested == []
