"""Repeat rules checked when they are written, not when they are listed.

A rule that `dateutil` cannot read (`FREQ=SOMETIMES`, `BYDAY=XX`) used to be stored as given,
and every later listing over its window failed; a `FREQ=SECONDLY` rule filled a listing with
thousands of occurrences. So a rule is parsed here with `dateutil.rrule.rrulestr`, against the
event's own first start (the same way the local backend expands it), and refused with an error
naming the field unless it repeats daily or less often.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime

from dateutil.rrule import rrulestr

from tools.calendar.events import EventFieldError, local_start_of, zone
from tools.calendar.occurrences import rule_set

ALLOWED_FREQS = ("DAILY", "WEEKLY", "MONTHLY", "YEARLY")
TOO_OFTEN = ("SECONDLY", "MINUTELY", "HOURLY")
_FREQ_RE = re.compile(r"(?:^|[;:])FREQ=([A-Z]+)", re.IGNORECASE)
_INTERVAL_RE = re.compile(r"(?:^|[;:])INTERVAL=(-?\d+)", re.IGNORECASE)
_RULE_LINE_RE = re.compile(r"^(RRULE|EXRULE)[:;]", re.IGNORECASE)


def check_recurrence(lines: Iterable[str] | None, start: date | datetime, timezone: str,
                     field: str = "recurrence") -> None:
    """Raise EventFieldError(field, ...) unless `lines` is a readable rule set that repeats at
    most daily, read from `start` in `timezone` as the local backend expands it."""
    lines = list(lines or ())
    if not lines:
        return
    for line in lines:
        if not _RULE_LINE_RE.match(line):
            continue
        freq = _FREQ_RE.search(line)
        if freq is None:
            raise EventFieldError(field, f"{line!r} has no FREQ (e.g. FREQ=WEEKLY)")
        name = freq.group(1).upper()
        if name in TOO_OFTEN:
            raise EventFieldError(field, f"FREQ={name} repeats more often than daily; use DAILY, "
                                  "WEEKLY, MONTHLY or YEARLY")
        if name not in ALLOWED_FREQS:
            raise EventFieldError(field, f"FREQ={name} is not a frequency; use DAILY, WEEKLY, "
                                  "MONTHLY or YEARLY")
        interval = _INTERVAL_RE.search(line)
        if interval is not None and int(interval.group(1)) < 1:
            raise EventFieldError(field, f"INTERVAL={interval.group(1)} must be 1 or more")
    try:
        first = local_start_of(start, zone(timezone))
        rrulestr(rule_set(lines, first, not isinstance(start, datetime)), dtstart=first, forceset=True)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError) as exc:
        raise EventFieldError(field, f"not a readable RFC 5545 rule ({exc})") from None
