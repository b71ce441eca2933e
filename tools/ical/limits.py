"""How much work one iCalendar file may cost `import`, and the counters that enforce it.

A file is text anyone can send (an invitation, a download): its size must not decide how long the
import runs. Two small files showed why: a 2.5 KB file whose time zone changed its offset every
second since 1970 cost minutes of CPU for each time read in that zone, and a repeat rule no day
satisfies (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`) walks every day up to the year 9999 before it
gives up. So each file gets a budget (`IcalLimits`): its size, the length of a line, how deep
components nest, how many events and components it holds, how many time-zone parts it defines and
how many steps working their onsets out may take, how many occurrences its events leave out or
change, and how many periods the repeat rules may be walked to check those occurrences. A file
over any of them is refused with one line naming the limit (`IcalLimitError`), before anything is
written.

`walk_rules` expands a series with `dateutil` as the backends do, but counts every period
dateutil walks (a month for daily and weekly rules, a month or a year for the others) and every
occurrence it passes, so a rule that yields nothing, or yields a hundred years of days, is
stopped by the budget instead of running to the year 9999. It relies on
dateutil calling `_iterinfo.rebuild` once per period, which reads the rule's `_byeaster`: the one
dateutil internal used here, and `tests/test_ical_limits.py` fails if a dateutil release changes
it.
"""
from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from dateutil.rrule import rrule, rruleset, rrulestr

from tools.calendar.events import UTC, Event, local_start_of
from tools.calendar.occurrences import rule_set


@dataclass(frozen=True)
class IcalLimits:
    """The most one file may hold or cost. Real exports stay far below every figure: a
    calendar of ten years is a few thousand events, a time zone two parts with a few hundred
    onsets, and a line a few hundred characters."""

    max_bytes: int = 10_000_000
    max_line_chars: int = 100_000
    max_depth: int = 5
    max_components: int = 50_000
    max_events: int = 10_000
    max_zone_parts: int = 1_000
    max_zone_steps: int = 1_000_000
    max_zone_onsets: int = 100_000
    max_occurrence_changes: int = 10_000
    max_rule_steps: int = 200_000

    def describe(self, name: str) -> str:
        """The limit `name`, in words, for the message that names it."""
        value = getattr(self, name)
        return _WORDS[name].format(f"{value:,}")


_WORDS = {
    "max_bytes": "a file may be at most {} bytes",
    "max_line_chars": "a line may be at most {} characters long",
    "max_depth": "components may nest at most {} deep",
    "max_components": "a file may hold at most {} components",
    "max_events": "a file may hold at most {} events",
    "max_zone_parts": "the time zones of a file may have at most {} parts together",
    "max_zone_steps": "working out a file's time zones may take at most {} steps",
    "max_zone_onsets": "the time zones of a file may change their offset at most {} times",
    "max_occurrence_changes": "a file may leave out or change at most {} occurrences",
    "max_rule_steps": "checking a file's repeat rules may take at most {} steps",
}

LIMITS = IcalLimits()


class IcalLimitError(Exception):
    """A file over one of its limits: `name` is the field of `IcalLimits` it broke."""

    def __init__(self, name: str, limits: IcalLimits, line: int | None = None,
                 detail: str = "") -> None:
        self.name = name
        self.line = line
        self.message = f"{detail}{'; ' if detail else ''}too much for one import " \
                       f"({limits.describe(name)})"
        super().__init__(self.message)


class Budget:
    """A count that may not go below zero: each `spend` is one step of work."""

    def __init__(self, name: str, limits: IcalLimits) -> None:
        self.name = name
        self.limits = limits
        self.left: int = getattr(limits, name)
        self.spent = 0

    def spend(self, steps: int = 1, line: int | None = None, detail: str = "") -> None:
        self.left -= steps
        self.spent += steps
        if self.left < 0:
            raise IcalLimitError(self.name, self.limits, line, detail)


# ---------------------------------------------------------------------------- repeat rules
class _PastLast(Exception):
    """The walk has gone a year past the last occurrence it looks for without reaching it."""


class _Meter:
    """What one walk may spend: the file's budget, and a cap of its own (None: none)."""

    def __init__(self, budget: Budget, cap: int | None = None) -> None:
        self.budget = budget
        self.cap = cap

    def spend(self) -> None:
        self.budget.spend()
        if self.cap is not None:
            self.cap -= 1
            if self.cap < 0:
                raise _PastLast


class _CountedRule(rrule):
    """A dateutil rule that spends one step of its meter per period it walks.

    dateutil's period loop calls `_iterinfo.rebuild` for every period (each month of a daily or
    weekly rule, each month or year of the others), and `rebuild` reads `_byeaster`: counting
    that read counts the periods, including those that yield nothing."""

    meter: _Meter | None = None

    @property
    def _byeaster(self) -> Any:
        if self.meter is not None:
            self.meter.spend()
        return self.__dict__["_counted_byeaster"]

    @_byeaster.setter
    def _byeaster(self, value: Any) -> None:
        self.__dict__["_counted_byeaster"] = value


def _counted(rule: Any, meter: _Meter) -> _CountedRule:
    """The same rule, counted (what `rrule.replace` does, into the counting class)."""
    made = _CountedRule(freq=rule._freq, dtstart=rule._dtstart, interval=rule._interval,
                        wkst=rule._wkst, count=rule._count, until=rule._until,
                        **rule._original_rule)
    made.meter = meter
    return made


def _walk(event: Event, meter: _Meter) -> Iterator[datetime]:
    for start in _expand(event, meter):
        meter.budget.spend()
        yield start


def _expand(event: Event, meter: _Meter) -> Iterator[datetime]:
    tz = event.zone
    dtstart = local_start_of(event.start, tz)
    made = rrulestr(rule_set(event.recurrence or (), dtstart, event.all_day), dtstart=dtstart, forceset=True)
    assert isinstance(made, rruleset)
    parsed: Any = made  # its rules, dates and exclusions are dateutil's private fields
    counted = rruleset()
    for rule in parsed._rrule:
        counted.rrule(_counted(rule, meter))
    for rule in parsed._exrule:
        counted.exrule(_counted(rule, meter))
    for when in parsed._rdate:
        counted.rdate(when)
    for when in parsed._exdate:
        counted.exdate(when)
    yield from counted


def walk_rules(event: Event, budget: Budget) -> Iterator[datetime]:
    """The starts of `event`'s occurrences in order (aware, in its zone), as the backends expand
    them, every period walked spent from `budget` (IcalLimitError once it is gone)."""
    yield from _walk(event, _Meter(budget))


def occurrence_key(value: date | datetime, event: Event) -> str:
    """What identifies an occurrence: its date (all day) or its instant in UTC."""
    if event.all_day or not isinstance(value, datetime):
        return (value.date() if isinstance(value, datetime) else value).isoformat()
    return local_start_of(value, event.zone).astimezone(UTC).isoformat()


def occurrences_among(event: Event, originals: list[date | datetime], budget: Budget,
                      line: int | None = None) -> set[str]:
    """The `occurrence_key`s of those `originals` that are occurrences of `event`'s rule.

    The rule is walked up to the last of them and no further: at most one period per month
    from the series' start to a year after the last original (a rule that yields nothing stops
    there, not in the year 9999), all of it spent from the file's `budget`."""
    if not originals or not event.recurrence:
        return set()
    wanted = {occurrence_key(o, event) for o in originals}
    first = local_start_of(event.start, event.zone)
    starts = [local_start_of(o, event.zone) for o in originals]
    earliest, last = min(starts), max(starts)
    months = max(0, (last.year - first.year) * 12 + last.month - first.month)
    found: set[str] = set()
    try:
        for start in _walk(event, _Meter(budget, months + 13)):
            if start > last:
                break
            if start < earliest:
                continue
            key = occurrence_key(start, event)
            if key in wanted:
                found.add(key)
                if found == wanted:
                    break
    except _PastLast:
        pass
    except IcalLimitError as exc:
        raise IcalLimitError(exc.name, budget.limits, line,
                             "its repeat rule takes too long to reach the occurrences the file "
                             "changes or leaves out") from None
    return found


__all__ = ["LIMITS", "Budget", "IcalLimitError", "IcalLimits", "occurrence_key",
           "occurrences_among", "walk_rules"]
