"""A finished attempt told without spoiling the deal: its result and one mark per turn, as
text to paste (the word game's grid) and as an image card (SVG). Neither holds a card."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any
from xml.sax.saxutils import escape

from cardroom.daily.days import number

ROW = 10  # marks per line of the share text
COLOURS = {"🟩": "#2e9d5b", "🟨": "#d9b31f", "⬜": "#c8c8c8", "🟦": "#2f6fd0", "🏁": "#222222"}
FAILED = "✗"


def headline(title: str, unit: str, outcome: Mapping[str, Any]) -> str:
    result = outcome.get("result")
    if result is None:
        return f"{title}: {FAILED} not finished"
    place = outcome.get("place", 1)
    where = f", place {place}" if unit == "points" else ""
    return f"{title}: {result} {unit}{where}"


def share_text(
    title: str, unit: str, day: date, outcome: Mapping[str, Any], marks: str, practice: bool
) -> str:
    """``Cardroom daily #5 · 2026-12-05`` then the result, then the marks ten to a line."""
    top = f"Cardroom daily #{number(day)} · {day.isoformat()}"
    if practice:
        top += " · practice"
    symbols = list(marks)
    rows = ["".join(symbols[i : i + ROW]) for i in range(0, len(symbols), ROW)]
    return "\n".join([top, headline(title, unit, outcome), *rows])


def card_svg(heading: str, day: date, line: str, marks: str, name: str = "") -> str:
    """The image card: a heading (the deal's number), the day, the result's line and the
    marks as coloured squares, in whatever words the caller chose (the reader's language)."""
    size, gap, left, top = 22, 4, 24, 104
    symbols = list(marks)
    rows = max(1, -(-len(symbols) // ROW))
    width = left * 2 + ROW * (size + gap) - gap
    height = top + rows * (size + gap) + 36
    label = escape(line, {'"': "&quot;"})
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="{label}">',
        f'<rect width="{width}" height="{height}" rx="14" fill="#14532d"/>',
        f'<text x="{left}" y="36" font-family="sans-serif" font-size="18" font-weight="700" '
        f'fill="#ffffff">{escape(heading)}</text>',
        f'<text x="{left}" y="60" font-family="sans-serif" font-size="14" fill="#d1fae5">'
        f"{escape(day.isoformat())}{escape(' · ' + name) if name else ''}</text>",
        f'<text x="{left}" y="86" font-family="sans-serif" font-size="16" fill="#ffffff">'
        f"{escape(line)}</text>",
    ]
    for k, symbol in enumerate(symbols):
        x = left + (k % ROW) * (size + gap)
        y = top + (k // ROW) * (size + gap)
        parts.append(
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="4" '
            f'fill="{COLOURS.get(symbol, "#888888")}"/>'
        )
    parts.append("</svg>")
    return "".join(parts)
