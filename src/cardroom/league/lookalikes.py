"""Names that look alike: the skeleton of a name, so that ``Ｚｅｄ``, ``Zеd`` (a Cyrillic е),
``Źed`` and ``ℤed`` cannot pass for the account ``Zed``.

A skeleton (after Unicode TR39's) is what a name looks like, not how it is spelled: NFKC
folds compatibility forms (fullwidth letters, ``ℤ``, mathematical alphanumerics, ligatures),
accents and other marks are dropped, letters of other scripts that look Latin become the Latin
letter, and case and spacing do not count. Two names with the same skeleton are one name as
far as claiming goes. The table is a compact hand-picked part of TR39's confusables, the
letters that pass for Latin ones in common fonts; stored skeletons (``league_accounts``) must
be recomputed by a migration when it changes.
"""

from __future__ import annotations

import unicodedata

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


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal skeletons mean names people cannot tell apart."""
    text = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name))
    text = "".join(c for c in text if not _diacritic(c))
    text = text.translate(LOOKALIKES).casefold().translate(LOOKALIKES)
    text = unicodedata.normalize("NFC", text)
    for pair, one in SEQUENCES:
        text = text.replace(pair, one)
    return " ".join(text.split())[:MAX_SKELETON]
