"""A stored move's action in a few bytes: its JSON, deflated against a fixed dictionary.

Move logs are most of what the database holds (a 500-point match is thousands of moves), and
an action's JSON is mostly the same few words: ``{"type":"play","from":"hand","card":7,"to":2}``
is 45 bytes, 9 once deflated against a dictionary of the actions' JSON forms. The first byte
names the dictionary: a dictionary once used never changes (stored moves must stay readable);
a better one gets the next number and the old one stays here to read the old rows.

The JSON is the game's own notation (``docs/notation.md``), so decoding gives back exactly
what the table stored; nothing here knows a rule.
"""

from __future__ import annotations

import zlib
from typing import Any

import msgspec
from sqlalchemy import Dialect, LargeBinary, TypeDecorator

_SKYJO = (
    b'{"type":"draw"}{"type":"take","column":1,"row":1}{"type":"discard","column":2,"row":2}'
    b'{"type":"reveal","column":3,"row":3}{"type":"exchange","column":4,"row":1}'
)
_SKIP = (
    b'{"type":"timeout"}{"type":"pass"}{"type":"discard","card":"W","pile":1,"partner":true}'
    b'{"type":"play","from":"partner_discard","pile":2,"to":1}'
    b'{"type":"play","from":"partner_stock","to":3}{"type":"play","from":"discard","pile":4,"to":'
    b'1}{"type":"discard","card":12,"pile":3}{"type":"play","from":"stock","to":2}'
    b'{"type":"play","from":"hand","card":"W","to":4}{"type":"play","from":"hand","card":'
)
# The most frequent forms last: deflate reaches near strings with fewer bits.
DICTIONARIES: dict[int, bytes] = {1: _SKYJO + _SKIP}
CURRENT = 1
_WINDOW_BITS = -10  # raw deflate; a 1 KB window reaches the whole dictionary


def pack(action: dict[str, Any] | None) -> bytes | None:
    """An action's JSON, deflated: one byte naming the dictionary, then the raw stream.

    Remembered by its JSON: a game has a few hundred distinct actions and the journal packs
    every stored move, so deflating each anew was a fifth of a stored move's CPU (issue 16)."""
    if action is None:
        return None
    encoded = msgspec.json.encode(action)
    packed = _PACKED.get(encoded)
    if packed is None:
        compressor = zlib.compressobj(
            9, zlib.DEFLATED, _WINDOW_BITS, 1, zlib.Z_DEFAULT_STRATEGY, DICTIONARIES[CURRENT]
        )
        packed = bytes((CURRENT,)) + compressor.compress(encoded) + compressor.flush()
        if len(_PACKED) < _PACKED_MAX:
            _PACKED[encoded] = packed
    return packed


_PACKED: dict[bytes, bytes] = {}
_PACKED_MAX = 4096
"""Skip has about 250 distinct actions and Skyjo about 40; the bound keeps anything else (a
future game with free-form actions) from growing it without end."""


def unpack(stored: bytes | None) -> dict[str, Any] | None:
    """The action ``pack`` stored (raises ``ValueError`` for bytes it did not make)."""
    if stored is None:
        return None
    stored = bytes(stored)  # PostgreSQL's drivers give memoryview
    dictionary = DICTIONARIES.get(stored[0]) if stored else None
    if dictionary is None:
        raise ValueError("a stored action names an unknown dictionary")
    decompressor = zlib.decompressobj(_WINDOW_BITS, zdict=dictionary)
    try:
        action = msgspec.json.decode(decompressor.decompress(stored[1:]) + decompressor.flush())
    except (zlib.error, msgspec.DecodeError) as error:
        raise ValueError(f"a stored action cannot be read: {error}") from None
    if not isinstance(action, dict):
        raise ValueError("a stored action is not a JSON object")
    return action


class PackedAction(TypeDecorator[dict[str, Any]]):
    """A column holding an action's JSON packed: rows take and give plain dicts, and the
    packing runs where the statement runs (the journal's thread, not a table's)."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: dict[str, Any] | None, dialect: Dialect) -> bytes | None:
        return pack(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> dict[str, Any] | None:
        return unpack(value)
