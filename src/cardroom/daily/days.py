"""Days and their seeds: a day is a UTC date; its deal comes from a secret and the date.

The seed is HMAC-SHA256 of ``game/date`` under the server's own secret (kept in its database,
``store.database.shared_secret``): nobody who lacks the secret can deal a day before it comes,
and every process of one deployment deals the same. Days are numbered from the first one.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta

FIRST_DAY = date(2026, 12, 1)  # daily deal number 1
SECRET_NAME = "daily-key"  # the server secret the days' seeds are keyed with
ARCHIVE_DAYS = 60  # past days the archive lists


class DayError(ValueError):
    """A day that is not a date, or no daily deal's."""


def today(now: datetime | None = None) -> date:
    return (now or datetime.now(UTC)).astimezone(UTC).date()


def number(day: date) -> int:
    """The deal's number: 1 on ``FIRST_DAY``."""
    return (day - FIRST_DAY).days + 1


def parse_day(text: object, now: datetime | None = None) -> date:
    """A day from ``YYYY-MM-DD`` (or ``today``), from the first deal to today: a day to come
    has no deal yet, and saying so is all a caller learns of it."""
    if text in (None, "", "today"):
        return today(now)
    if not isinstance(text, str) or len(text) != 10:
        raise DayError(f"a day is written YYYY-MM-DD, not {str(text)[:20]!r}")
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise DayError(f"a day is written YYYY-MM-DD, not {text!r}") from None
    if day < FIRST_DAY:
        raise DayError(f"the first daily deal was on {FIRST_DAY.isoformat()}")
    if day > today(now):
        raise DayError(f"the deal of {text} is not dealt yet")
    return day


def day_seed(secret: str, game: str, day: date) -> str:
    """The seed of ``game``'s deal on ``day``, one-way from the secret."""
    message = f"cardroom-daily/{game}/{day.isoformat()}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()[:32]


def recent_days(now: datetime | None = None, count: int = ARCHIVE_DAYS) -> list[date]:
    """The past days of the archive, yesterday first, never before the first deal."""
    last = today(now)
    days = [last - timedelta(days=k) for k in range(1, count + 1)]
    return [d for d in days if d >= FIRST_DAY]
