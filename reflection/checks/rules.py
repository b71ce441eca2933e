"""Repeat rules compared by what they do (their next occurrences), not by their text:
`FREQ=WEEKLY;INTERVAL=1;BYDAY=TU` and `FREQ=WEEKLY;BYDAY=TU` are the same rule."""
from __future__ import annotations

import re
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


def next_days(rule: Any, start: date, count: int = SAMPLE) -> list[date] | None:
    """The first `count` days the rule gives from `start`; None when it cannot be read."""
    lines = _lines(rule)
    if not lines:
        return None
    try:
        body = lines[0].split(":", 1)[1]
        # an UNTIL in UTC (as Google writes it) needs a start in UTC too: at noon, its day is `start`
        utc = re.search(r"UNTIL=\d{8}T\d{6}Z", body, re.I) is not None
        parsed = rrulestr(body, dtstart=datetime.combine(start, time(12), tzinfo=UTC if utc else None))
        days: list[date] = []
        for when in parsed:
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
    body = lines[0].split(":", 1)[1]
    try:
        utc = re.search(r"UNTIL=\d{8}T\d{6}Z", body, re.I) is not None
        wall = start.replace(tzinfo=None)
        parsed = rrulestr(body, dtstart=wall.replace(tzinfo=UTC) if utc else wall)
        days: list[date] = []
        for when in parsed:
            on_clock = when.replace(tzinfo=start.tzinfo) if not utc else \
                when.replace(tzinfo=None).replace(tzinfo=start.tzinfo)
            days.append(on_clock.astimezone(seen_in).date())
            if len(days) >= count:
                break
        return days
    except (ValueError, TypeError, OverflowError):
        return None


def compare_rules(said: str, written: Any, first: date, written_days: list[date] | None = None) -> str | None:
    """None when the rules give the same days; else what the written rule does instead.

    Both are expanded from `first`, the series' first start (its DTSTART), never from today: a
    weekly rule with no BYDAY repeats on the weekday of its first start, so a series that starts
    on a Saturday is a Saturday series whatever day the person speaks on. `written_days`: the
    written rule's days already worked out on the clock the person spoke of (`days_seen_in`)."""
    want = next_days(said, first)
    got = written_days if written_days is not None else next_days(written, first)
    if want is None or got is None:
        return None  # a rule we cannot read proves nothing
    if want[: len(got)] == got[: len(want)]:
        return None  # the same days, one ending sooner perhaps ("6 classes total"): `ends_apart`
    shown = ", ".join(d.strftime("%a %b %d") for d in got[:3])
    expected = ", ".join(d.strftime("%a %b %d") for d in want[:3])
    return f"on {expected}, …; the call's rule gives {shown}, …"


def ends_apart(said: str, written: Any, first: date, written_days: list[date] | None = None) -> bool:
    """Whether the two rules give the same days but one stops before the other within the
    sample (a COUNT or UNTIL only one has): an end the person may have given in words the rule
    reading does not hold ("6 classes total"), so for judgement, neither proven nor verified."""
    want = next_days(said, first)
    got = written_days if written_days is not None else next_days(written, first)
    return want is not None and got is not None and len(got) != len(want) and \
        want[: len(got)] == got[: len(want)]
