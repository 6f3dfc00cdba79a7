"""The server's log lines: text for people (the default) or JSON for a log pipeline.

``cardroom serve --log-format json`` (``CARDROOM_LOG_FORMAT``) writes one JSON object per
line: ``time``, ``level``, ``logger``, ``message`` and, when known, ``table``, ``match``,
``player`` and ``request_id`` (and ``exception``, a traceback as text). The ids come from the
log call's ``extra`` or else from the context: an HTTP request's id is set by the request-id
middleware (``app.py``), a table's by its actor's task, so every line they log carries it.
uvicorn's own loggers go through the same handler.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from contextvars import ContextVar
from typing import Any, Literal

LogFormat = Literal["text", "json"]
TEXT_FORMAT = "%(levelname)s %(name)s: %(message)s"

request_id: ContextVar[str | None] = ContextVar("cardroom_request_id", default=None)
table_id: ContextVar[str | None] = ContextVar("cardroom_table", default=None)

IDS = ("table", "match", "player", "request_id")
_CONTEXT = {"table": table_id, "request_id": request_id}

_SANE_ID = re.compile(r"[A-Za-z0-9-]{1,64}")


def new_request_id(given: str | None = None) -> str:
    """The client's ``X-Request-ID`` if it is sane (1-64 of ``A-Za-z0-9-``), else a new one."""
    if given is not None and _SANE_ID.fullmatch(given):
        return given
    return secrets.token_hex(8)


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": _iso(record.created),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in IDS:
            value = getattr(record, key, None)
            if value is None and key in _CONTEXT:
                value = _CONTEXT[key].get()
            if value is not None:
                line[key] = str(value)
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        elif record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def _iso(created: float) -> str:
    """UTC, to the millisecond: ``2026-12-07T10:15:02.123Z``."""
    seconds = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(created))
    return f"{seconds}.{int(created % 1 * 1000):03d}Z"


def formatter(log_format: LogFormat) -> logging.Formatter:
    return JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)


def configure(log_format: LogFormat, level: str) -> None:
    """One handler on the root logger (stderr), in ``log_format``; uvicorn's loggers (run
    with ``log_config=None``) propagate to it."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(log_format))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(_level(level))


def _level(name: str) -> int:
    """uvicorn's ``trace`` is below ``debug``."""
    return 5 if name.lower() == "trace" else logging.getLevelName(name.upper())
