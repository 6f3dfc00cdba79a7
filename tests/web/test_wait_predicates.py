"""Every ``wait_for_function`` in the tests waits on a JavaScript function, never a bare
expression.

Playwright evaluates a bare expression with ``eval`` again at every poll after the first, and
the server's Content-Security-Policy (``script-src 'self'``, no ``'unsafe-eval'``) refuses that
from a page's own animation frame: the wait fails with an ``EvalError`` whenever its condition
is not already true at the first check, so only on a busy machine (series run 3 on f0bdf43:
test_i18n's wait for the Polish catalog). A function is evaluated once and then called, which
the policy allows. Read from the source, so it needs no browser.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
FUNCTION = re.compile(r"\s*(async\s+)?(\(|function\b|[A-Za-z_$][\w$]*\s*=>)")


def _first_text(node: ast.expr) -> str | None:
    """The start of a string argument (a literal, or an f-string's leading text)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr) and node.values:
        return _first_text(node.values[0])
    return None


def bare_expressions(source: str) -> list[int]:
    """The lines of ``wait_for_function`` calls whose predicate is not a function."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr != "wait_for_function" or not node.args:
            continue
        text = _first_text(node.args[0])
        if text is not None and not FUNCTION.match(text):
            lines.append(node.lineno)
    return lines


def test_every_wait_for_function_in_the_tests_waits_on_a_function() -> None:
    found = [
        f"{path.relative_to(TESTS)}:{line}"
        for path in sorted(TESTS.rglob("*.py"))
        for line in bare_expressions(path.read_text())
    ]
    assert found == [], f"bare expressions (write '() => …'): {found}"


def test_the_check_tells_a_function_from_a_bare_expression() -> None:
    source = (
        "page.wait_for_function(\"document.title === 'x'\")\n"
        "page.wait_for_function(\"() => document.title === 'x'\")\n"
        'page.wait_for_function("(n) => n > 1", arg=2)\n'
        'page.wait_for_function(f"() => count() > {n}")\n'
        'page.wait_for_function(f"count() > {n}")\n'
        'page.wait_for_function("async () => true")\n'
        'page.wait_for_function("n => n > 1", arg=2)\n'
    )
    assert bare_expressions(source) == [1, 5]
