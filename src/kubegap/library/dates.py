"""The date-range filter as a bit mask: incidents whose start date lies between `since` and `until`.

Rowids follow (date, id) when the index is built (see index.py), so the incidents of any date range are
one run of consecutive rowids: two binary searches find its ends and the mask is one subtraction, the
same price for ten incidents as for ten thousand. An incident counts by the day it began (`date`); one
that began before `since` and ran on past it is left out, as a reader who asks for "2024 onwards"
expects of an incident dated 2023.
"""

from __future__ import annotations

import bisect
import datetime as dt
import re
import sqlite3
from dataclasses import dataclass

_DAY = re.compile(r"^(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?$")


@dataclass(frozen=True)
class RowDates:
    """The start date of every incident in rowid order (rowid n is at position n - first)."""

    first: int
    days: tuple[str, ...]  # ISO dates, ascending, so string order is date order

    @classmethod
    def load(cls, connection: sqlite3.Connection) -> RowDates:
        rows = connection.execute("SELECT rowid, date FROM incidents ORDER BY rowid").fetchall()
        return cls(rows[0][0] if rows else 1, tuple(day for _, day in rows))

    def mask(self, since: dt.date | None, until: dt.date | None) -> int:
        """Bits of the rowids dated within [since, until], either end open; all bits when both are None."""
        low = 0 if since is None else bisect.bisect_left(self.days, since.isoformat())
        high = len(self.days) if until is None else bisect.bisect_right(self.days, until.isoformat())
        if high <= low:
            return 0
        return ((1 << (high - low)) - 1) << (low + self.first)


def parse_day(value: str, *, last: bool) -> dt.date | None:
    """YYYY, YYYY-MM or YYYY-MM-DD as a day: a year or month is its first day, or its last with `last`."""
    match = _DAY.match(value)
    if match is None:
        return None
    year = int(match.group(1))
    month = int(match.group(2)) if match.group(2) else (12 if last else 1)
    try:
        if match.group(3):
            return dt.date(year, month, int(match.group(3)))
        if not last:
            return dt.date(year, month, 1)
        following = dt.date(year + 1, 1, 1) if month == 12 else dt.date(year, month + 1, 1)
        return following - dt.timedelta(days=1)
    except ValueError:  # month 13, day 31 of a 30-day month, year 0
        return None
