"""The JSON files the commands read (game records for ``replay`` and ``review``, kept games for
``keep``): one reader (``cardroom.jsonfile``, its limits in docs/notation.md and
docs/keeper.md), and one refusal, ``refused: FILE: what is wrong, where; the page about it``
with exit code 2. A pointer to a page is given only when the page is about the mistake."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from cardroom.commands.common import fail
from cardroom.jsonfile import KEPT_GAME_BYTES, RECORD_BYTES, JsonFileError, read_json_file

RECORDS_HINT = "game records and their limits are in docs/notation.md"
KEPT_GAMES_HINT = "the file format and its limits are in docs/keeper.md"

# A ReplayError that starts so is about the record's form (docs/notation.md); any other is
# about a move or a score, so about the rules.
_FORM = (
    "not a Cardroom game record",
    "record version",
    "Skyjo record version",
    "the record is malformed",
    "the record has no rounds",
    "this replays",
)


def read_json(path: Path, max_bytes: int, hint: str) -> Any:
    """The JSON value in ``path``, or a one-line refusal naming the file; ``hint`` (the page
    on the file's form and limits) is added when the file is not the JSON it should be."""
    try:
        return read_json_file(path, max_bytes)
    except IsADirectoryError:
        fail(f"cannot read {path}: it is a folder")
    except OSError as error:
        fail(f"cannot read {path}: {error.strerror or error}")
    except JsonFileError as error:
        fail(f"{path}: {error}; {hint}")


def read_record(path: Path) -> Any:
    """A game record's JSON (not yet replayed), or a refusal."""
    return read_json(path, RECORD_BYTES, RECORDS_HINT)


def read_kept_game(path: Path) -> Any:
    """A kept game's JSON (not yet checked as a game), or a refusal."""
    return read_json(path, KEPT_GAME_BYTES, KEPT_GAMES_HINT)


def replay_hint(message: str, rules_hint: str) -> str:
    """The page about a replay's refusal: the notation for a record of the wrong form, the
    rules (``rules_hint``) for a move or a score they refuse."""
    return RECORDS_HINT if message.startswith(_FORM) else rules_hint
