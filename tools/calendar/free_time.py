"""Free time as interval arithmetic: busy intervals in, free slots out. No backend, no I/O.

Every instant is handled in UTC: Python compares and subtracts two datetimes that share a tzinfo
by their wall-clock readings, which is wrong across a daylight-saving change. Daily hours
("09:00-17:00") are laid out per local day with zoneinfo, so a window on a day that springs
forward or falls back is that day's real stretch of time.

What blocks time (the same rule as the guard's `conflict` finding, reflection/checks/overlaps.py):
a timed event that is not cancelled. An all-day event ("Grandma visiting", "School holiday")
marks a day, not an hour, so it does not block time. The event model has no free/busy mark of its
own; a backend whose server keeps one (Google's "Show as free") answers with the server's own
free/busy query, which honours it.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from tools.calendar.events import Event

__all__ = ["DailyHours", "FreeBusy", "Interval", "busy_interval", "busy_intervals", "free_slots",
           "merge", "overlapping", "subtract", "windows"]

Interval = tuple[datetime, datetime]
"""[start, end) as two aware datetimes."""

_HOURS_RE = re.compile(r"^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$")


def _utc(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError(f"{value!r} has no zone")
    return value.astimezone(UTC)


@dataclass(frozen=True)
class DailyHours:
    """The hours of each day a slot may use, in the person's zone. An `end` at or before
    `start` runs past midnight ("22:00-02:00"); "24:00" is the end of the day."""

    start: time
    end: time

    @classmethod
    def parse(cls, text: str) -> DailyHours:
        """"HH:MM-HH:MM"; raises ValueError naming what is wrong."""
        match = _HOURS_RE.match(text)
        if match is None:
            raise ValueError(f"daily hours {text!r} are not 'HH:MM-HH:MM', e.g. '09:00-17:00'")
        h1, m1, h2, m2 = (int(g) for g in match.groups())
        if h1 > 23 or m1 > 59 or m2 > 59 or h2 > 24 or (h2 == 24 and m2):
            raise ValueError(f"daily hours {text!r} name a time that does not exist")
        return cls(time(h1, m1), time(0 if h2 == 24 else h2, m2))

    def on(self, day: date, tz: ZoneInfo) -> Interval:
        """This window on local `day`, in UTC. A wall time skipped by a spring-forward reads as
        the same reading shifted by the gap, a repeated one as its first occurrence (zoneinfo's
        fold=0), as the contract's date policy says."""
        end_day = day if self.end > self.start else day + timedelta(days=1)
        return (datetime.combine(day, self.start, tzinfo=tz).astimezone(UTC),
                datetime.combine(end_day, self.end, tzinfo=tz).astimezone(UTC))

    def label(self) -> str:
        return f"{self.start:%H:%M}-{'24:00' if self.end == time(0) else f'{self.end:%H:%M}'}"


@dataclass(frozen=True)
class FreeBusy:
    """Busy intervals per calendar that was read, and why each other calendar could not be.

    A calendar in `unreadable` has no busy list: nothing is known about it, so no time may be
    called free on it."""

    busy: Mapping[str, tuple[Interval, ...]] = field(default_factory=dict)
    unreadable: Mapping[str, str] = field(default_factory=dict)

    def all_busy(self) -> list[Interval]:
        """Every readable calendar's busy time, merged."""
        return merge(i for intervals in self.busy.values() for i in intervals)


def busy_interval(event: Event) -> Interval | None:
    """The time `event` blocks, in UTC, or None: cancelled and all-day events block none."""
    if event.all_day or event.status == "cancelled":
        return None
    start, end = _utc(event.start_instant), _utc(event.end_instant)
    return (start, end) if end > start else None


def busy_intervals(events: Iterable[Event]) -> tuple[Interval, ...]:
    """The merged busy time of some events (each read in its own zone)."""
    return tuple(merge(i for i in map(busy_interval, events) if i is not None))


def overlapping(events: Sequence[Event]) -> dict[str, list[Event]]:
    """For each event that blocks time, the other events of `events` it overlaps (by id), in
    start order; events that overlap nothing are left out. Touching events do not overlap."""
    timed = sorted(((span, e) for e in events if (span := busy_interval(e)) is not None),
                   key=lambda item: item[0])
    out: dict[str, list[Event]] = {}
    for i, ((start, end), event) in enumerate(timed):
        for (other_start, other_end), other in timed[i + 1:]:
            if other_start >= end:
                break
            if other_end > start and other.id != event.id:
                out.setdefault(event.id, []).append(other)
                out.setdefault(other.id, []).append(event)
    return out


def merge(intervals: Iterable[Interval]) -> list[Interval]:
    """Sorted, with overlapping and touching intervals joined and empty ones dropped."""
    out: list[Interval] = []
    for start, end in sorted((_utc(s), _utc(e)) for s, e in intervals):
        if end <= start:
            continue
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def subtract(window: Interval, busy: Sequence[Interval]) -> list[Interval]:
    """The parts of `window` outside every interval of `busy` (sorted and merged)."""
    lo, hi = _utc(window[0]), _utc(window[1])
    out: list[Interval] = []
    for b_start, b_end in busy:
        if b_end <= lo:
            continue
        if b_start >= hi:
            break
        if b_start > lo:
            out.append((lo, b_start))
        lo = max(lo, b_end)
    if lo < hi:
        out.append((lo, hi))
    return out


def windows(start: datetime, end: datetime, tz: ZoneInfo,
            hours: DailyHours | None = None) -> list[Interval]:
    """[start, end) cut to the daily hours of each local day (the whole range without hours)."""
    lo, hi = _utc(start), _utc(end)
    if hi <= lo:
        return []
    if hours is None:
        return [(lo, hi)]
    out: list[Interval] = []
    day = lo.astimezone(tz).date() - timedelta(days=1)  # a window from the day before may run past midnight
    last = hi.astimezone(tz).date()
    while day <= last:
        w_start, w_end = hours.on(day, tz)
        w_start, w_end = max(w_start, lo), min(w_end, hi)
        if w_start < w_end:
            out.append((w_start, w_end))
        day += timedelta(days=1)
    return merge(out)


def free_slots(start: datetime, end: datetime, busy: Iterable[Interval], duration: timedelta,
               tz: ZoneInfo, hours: DailyHours | None = None) -> list[Interval]:
    """Each free stretch of at least `duration` inside [start, end) and the daily hours, in UTC.

    A stretch is returned whole (9:00-12:00 for a one-hour request), so the person can choose
    within it; it never overlaps a busy interval and never leaves its day's window."""
    blocked = merge(busy)
    return [gap for window in windows(start, end, tz, hours) for gap in subtract(window, blocked)
            if gap[1] - gap[0] >= duration]
