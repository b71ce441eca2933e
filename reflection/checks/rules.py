"""Repeat rules compared by what they do (their next occurrences), not by their text:
`FREQ=WEEKLY;INTERVAL=1;BYDAY=TU` and `FREQ=WEEKLY;BYDAY=TU` are the same rule."""
from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

SAMPLE = 8


def _lines(value: Any) -> list[str]:
    items = value if isinstance(value, list) else [value]
    out: list[str] = []
    for item in items:
        for line in str(item).splitlines():
            line = line.strip()
            if not line:
                continue
            if line.upper().startswith("FREQ="):
                line = "RRULE:" + line
            if line.upper().startswith("RRULE:"):
                out.append(line)
    return out


_UTC_UNTIL_RE = re.compile(r"UNTIL=\d{8}T\d{6}Z", re.I)


def _expand(body: str, wall: datetime) -> Iterator[datetime]:
    """A rule's occurrences from the naive wall time `wall`, as naive wall times. An UNTIL in UTC
    (as Google writes it) needs a start in UTC too: the wall time is tagged so, and the tag
    dropped again from each occurrence."""
    utc = _UTC_UNTIL_RE.search(body) is not None
    for when in rrulestr(body, dtstart=wall.replace(tzinfo=UTC) if utc else wall):
        yield when.replace(tzinfo=None)


def next_days(rule: Any, start: date, count: int = SAMPLE) -> list[date] | None:
    """The first `count` days the rule gives from `start`; None when it cannot be read."""
    lines = _lines(rule)
    if not lines:
        return None
    try:
        days: list[date] = []
        for when in _expand(lines[0].split(":", 1)[1], datetime.combine(start, time(12))):
            days.append(when.date())
            if len(days) >= count:
                break
        return days
    except (ValueError, TypeError, OverflowError):
        return None


def days_seen_in(rule: Any, start: datetime, seen_in: ZoneInfo, count: int = SAMPLE) -> list[date] | None:
    """The days a rule's first `count` occurrences fall on, seen on another clock: the rule is
    expanded on its own event's clock from its start (an aware datetime: BYDAY=MO is Monday
    there), each occurrence then read in `seen_in`. None when it cannot be read."""
    lines = _lines(rule)
    if not lines or start.tzinfo is None:
        return None
    try:
        days: list[date] = []
        for when in _expand(lines[0].split(":", 1)[1], start.replace(tzinfo=None)):
            days.append(when.replace(tzinfo=start.tzinfo).astimezone(seen_in).date())
            if len(days) >= count:
                break
        return days
    except (ValueError, TypeError, OverflowError):
        return None


def compare_rules(said: str, written: Any, first: date, written_days: list[date] | None = None
                  ) -> tuple[str | None, bool]:
    """What the written rule does instead of the said one (None when they give the same days),
    and whether the two give the same days but one stops before the other within the sample (a
    COUNT or UNTIL only one has: an end the person may have given in words the rule reading does
    not hold, "6 classes total", so for judgement, neither proven nor verified).

    Both are expanded from `first`, the series' first start (its DTSTART), never from today: a
    weekly rule with no BYDAY repeats on the weekday of its first start, so a series that starts
    on a Saturday is a Saturday series whatever day the person speaks on. `written_days`: the
    written rule's days already worked out on the clock the person spoke of (`days_seen_in`)."""
    want = next_days(said, first)
    got = written_days if written_days is not None else next_days(written, first)
    if want is None or got is None:
        return None, False  # a rule we cannot read proves nothing
    if want[: len(got)] == got[: len(want)]:
        return None, len(got) != len(want)
    shown = ", ".join(d.strftime("%a %b %d") for d in got[:3])
    expected = ", ".join(d.strftime("%a %b %d") for d in want[:3])
    return f"on {expected}, …; the call's rule gives {shown}, …", False
