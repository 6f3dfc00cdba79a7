"""Time windows for boards: today, this week, this month, this season, all time (UTC).

Seasons are calendar-aligned blocks of ``months`` months (monthly by default), so every process
agrees on the current season without asking anyone. The clock is injected everywhere (``now``)
so tests can roll a season over without waiting for one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

PERIODS = ("today", "week", "month", "season", "all")
SEASON_MONTHS = 1

Clock = Callable[[], datetime]


def system_clock() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite gives timestamps back without a zone; they are stored in UTC."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Window:
    """``start <= t < end``; None is open-ended."""

    start: datetime | None
    end: datetime | None

    def __contains__(self, moment: datetime) -> bool:
        moment = as_utc(moment)
        return (self.start is None or moment >= self.start) and (
            self.end is None or moment < self.end
        )


@dataclass(frozen=True, slots=True)
class SeasonSpan:
    id: str
    start: datetime
    end: datetime


def _month_start(year: int, month: int) -> datetime:
    year += (month - 1) // 12
    month = (month - 1) % 12 + 1
    return datetime(year, month, 1, tzinfo=UTC)


def season_of(moment: datetime, months: int = SEASON_MONTHS) -> SeasonSpan:
    """The season holding ``moment``: ``2026-11`` for monthly seasons, ``2026-S2`` otherwise."""
    if months not in (1, 2, 3, 4, 6, 12):
        raise ValueError("a season lasts 1, 2, 3, 4, 6 or 12 months")
    moment = as_utc(moment)
    index = (moment.month - 1) // months
    start = _month_start(moment.year, index * months + 1)
    end = _month_start(moment.year, index * months + 1 + months)
    name = f"{moment.year}-{moment.month:02d}" if months == 1 else f"{moment.year}-S{index + 1}"
    return SeasonSpan(name, start, end)


def window(period: str, now: datetime, season_months: int = SEASON_MONTHS) -> Window:
    """The window of ``period`` around ``now``; raises ``ValueError`` for an unknown period."""
    now = as_utc(now)
    day = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "today":
        return Window(day, day + timedelta(days=1))
    if period == "week":  # ISO weeks start on Monday
        start = day - timedelta(days=day.weekday())
        return Window(start, start + timedelta(days=7))
    if period == "month":
        return Window(_month_start(now.year, now.month), _month_start(now.year, now.month + 1))
    if period == "season":
        span = season_of(now, season_months)
        return Window(span.start, span.end)
    if period == "all":
        return Window(None, None)
    raise ValueError(f"unknown period {period!r}; choose one of {', '.join(PERIODS)}")
