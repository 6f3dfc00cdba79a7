"""Refusals with a meaning: an HTTP status, a code, a message people understand, a rule id.

The table master refuses a command by raising one, before it changes anything; the HTTP lobby
answers it as it is, and a socket receives it as an ``error`` message.
"""

from __future__ import annotations

import re
from typing import Any

_RULE = re.compile(r"\(((?:R|S)\d+(?:\.\d+)?)\)\s*$")


def rule_of(message: str) -> str | None:
    """The rule id an engine message ends with, e.g. ``(R2.3)``."""
    found = _RULE.search(message)
    return found.group(1) if found else None


class Refusal(Exception):
    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        rule: str | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.rule = rule
        # What a client needs to say it in its player's words (``error.<code>`` in the web's
        # catalogs); ``message`` is the English, for logs and the command line.
        self.params = params

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message, "rule": self.rule}
        if self.params is not None:
            error["params"] = self.params
        return {"error": error}


def bad_options(error: Exception) -> Refusal:
    """House rules the engine refused, with the rule it named."""
    return Refusal(400, "bad_options", str(error), rule_of(str(error)))
