"""Splitting a recurring series at one occurrence: the rule the old part keeps and the rule the
new part takes (CONTRACT section 3, `scope: following`).

"From January on, piano is on Thursdays at 4" ends the old series with its last occurrence
before the one named (an UNTIL, which every backend and server honours; RANGE=THISANDFUTURE is
rarely honoured, so it is not relied on) and starts a new series at that occurrence, moved as
the change says. The rules are worked out here, apart from any backend, so the local calendar,
Google and CalDAV split the same way and the guard can predict the outcome.

A weekly rule that names the day it repeats on (`BYDAY=TU`) would keep naming it after the start
moves to a Thursday, and the series would silently go on on Tuesdays (the drift calendar agents
are known for); `follow_weekday` moves the days with the start, and a rule whose days cannot
follow unambiguously ("the second Tuesday", a day of the month) is refused.
"""
from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

from tools.calendar.events import UTC, Event, EventFieldError, as_date, local_start_of
from tools.calendar.occurrences import occurrences

_DAYS = ("MO", "TU", "WE", "TH", "FR", "SA", "SU")


def _parts(line: str) -> tuple[str, list[tuple[str, str]]]:
    """("RRULE", [(key, value), ...]) of one rule line."""
    head, _, body = line.partition(":")
    pairs = [(p.partition("=")[0].upper(), p.partition("=")[2]) for p in body.split(";") if p]
    return head.upper(), pairs


def _line(head: str, pairs: list[tuple[str, str]]) -> str:
    return f"{head}:" + ";".join(f"{k}={v}" for k, v in pairs)


def _is_rule(line: str) -> bool:
    return line.upper().startswith("RRULE")


def _until(value: date | datetime, all_day: bool) -> str:
    """An UNTIL value as RFC 5545 wants it next to the series' DTSTART: a date for an all-day
    series, a UTC time otherwise."""
    if all_day:
        return as_date(value).strftime("%Y%m%d")
    assert isinstance(value, datetime)
    return value.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def before_split(master: Event, original: date | datetime) -> list[date | datetime]:
    """The original starts of the occurrences before `original` (the ones the old part keeps)."""
    tz = master.zone
    first = local_start_of(master.start, tz)
    cut = local_start_of(original, tz)
    found = occurrences(master, first, cut)
    return [o for o in found if local_start_of(o, tz) < cut]


def kept_rule(master: Event, original: date | datetime) -> tuple[str, ...]:
    """The old part's rule lines: each RRULE ends with the last occurrence before `original`
    (its COUNT or UNTIL replaced), other lines (EXDATE, RDATE) kept as they are."""
    earlier = before_split(master, original)
    if not earlier:
        raise EventFieldError("event_id", "that is the series' first occurrence: change the "
                              "whole series instead")
    until = _until(earlier[-1], master.all_day)
    lines: list[str] = []
    for line in master.recurrence or ():
        if _is_rule(line):
            head, pairs = _parts(line)
            pairs = [(k, v) for k, v in pairs if k not in ("COUNT", "UNTIL")] + [("UNTIL", until)]
            lines.append(_line(head, pairs))
        else:
            lines.append(line)
    return tuple(lines)


def following_rule(master: Event, original: date | datetime, shift: timedelta) -> tuple[str, ...]:
    """The new part's rule lines, read from its new first start (`original` moved by `shift`):
    a COUNT keeps only the occurrences not already held by the old part, an UNTIL moves with
    the start (so the last occurrence is not cut off by a later time of day), and a day named
    in the rule follows the start to its new weekday. EXDATE and RDATE lines stay only when
    nothing moves: moved, they would name times the new series never has."""
    return _moved_rule(master.recurrence or (), shift, as_date(original + shift) - as_date(original),
                       held=len(before_split(master, original)))


def moved_rule(lines: tuple[str, ...] | None, before: date | datetime,
               after: date | datetime, shift: timedelta = timedelta(0)) -> tuple[str, ...] | None:
    """A whole series' rule after its start moved from `before` to `after` (`shift` on the wall
    clock) with no new rule given: the day it names follows the start ("piano is on Thursdays
    now") and an UNTIL moves with it, so "half an hour later" does not cut off the last
    occurrence; None when the rule needs no change."""
    days = as_date(after) - as_date(before)
    until = bool(shift) and any(_is_rule(line) and "UNTIL=" in line.upper() for line in lines or ())
    if not lines or (not days.days % 7 and not until):
        return None
    return _moved_rule(lines, shift if until else timedelta(0), days, held=0)


def _moved_rule(lines: tuple[str, ...], shift: timedelta, days: timedelta,
                held: int) -> tuple[str, ...]:
    moved_days = days.days
    out_lines: list[str] = []
    for line in lines:
        if not _is_rule(line):
            if shift or moved_days:
                raise EventFieldError("recurrence", "this series has dates added or removed by "
                                      "hand; give the repeat rule from the new start")
            out_lines.append(line)
            continue
        head, pairs = _parts(line)
        out: list[tuple[str, str]] = []
        for key, value in pairs:
            if key == "COUNT" and held:
                left = int(value) - held
                if left < 1:
                    raise EventFieldError("event_id", "the series has no occurrence from there on")
                value = str(left)
            elif key == "UNTIL" and shift:
                value = _shift_until(value, shift)
            elif key == "BYDAY" and moved_days % 7:
                value = follow_weekday(value, moved_days)
            elif key in ("BYMONTHDAY", "BYYEARDAY", "BYSETPOS", "BYWEEKNO") and moved_days:
                raise EventFieldError("recurrence", f"the repeat rule names days ({key}); give "
                                      "the new rule with the new days")
            out.append((key, value))
        out_lines.append(_line(head, out))
    return tuple(out_lines)


def until_as(lines: tuple[str, ...], all_day: bool, tz: ZoneInfo) -> tuple[str, ...]:
    """The rule with its UNTIL in the form RFC 5545 pairs with the series' start: a date beside
    an all-day start, a UTC time beside a timed one (a split that turns a timed series into an
    all-day one, or back, would otherwise write a rule servers refuse). A time becomes its day
    in the series' zone; a day becomes the end of that day there."""
    out: list[str] = []
    for line in lines:
        if not _is_rule(line):
            out.append(line)
            continue
        head, pairs = _parts(line)
        fixed: list[tuple[str, str]] = []
        for key, value in pairs:
            if key == "UNTIL" and all_day and "T" in value:
                moment = datetime.strptime(value.rstrip("Zz"), "%Y%m%dT%H%M%S")
                if value.upper().endswith("Z"):
                    moment = moment.replace(tzinfo=UTC).astimezone(tz).replace(tzinfo=None)
                value = moment.strftime("%Y%m%d")
            elif key == "UNTIL" and not all_day and "T" not in value:
                last = datetime.strptime(value, "%Y%m%d").replace(hour=23, minute=59, second=59, tzinfo=tz)
                value = last.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
            fixed.append((key, value))
        out.append(_line(head, fixed))
    return tuple(out)


def follow_weekday(byday: str, moved_days: int) -> str:
    """The weekdays a rule names, each moved by `moved_days` days: the whole pattern moves with
    the start ("TU" moved 2 days is "TH"; "MO,WE,FR" moved back a day is "SU,TU,TH"). An
    ordinal day ("2TU", the second Tuesday) is refused: moved, it may name other weeks."""
    days = [d.strip().upper() for d in byday.split(",") if d.strip()]
    if not days or any(d not in _DAYS for d in days):
        raise EventFieldError("recurrence", "the repeat rule names an ordinal day (like the "
                              "second Tuesday); give the new rule with the new days")
    return ",".join(_DAYS[(_DAYS.index(d) + moved_days) % 7] for d in days)


def _shift_until(value: str, shift: timedelta) -> str:
    if "T" in value:
        moved = datetime.strptime(value.rstrip("Z"), "%Y%m%dT%H%M%S") + shift
        return moved.strftime("%Y%m%dT%H%M%S") + ("Z" if value.endswith("Z") else "")
    return (datetime.strptime(value, "%Y%m%d") + timedelta(days=shift.days)).strftime("%Y%m%d")


def wall_shift(before: date | datetime, after: date | datetime, event: Event,
               moved: Event) -> timedelta:
    """How far a start moved on the wall clock (17:00 Tuesday to 16:00 Thursday is 1 day 23 h),
    each read in its own event's zone: the shift that carries the series' other dates along."""
    if isinstance(before, datetime) and isinstance(after, datetime):
        return local_start_of(after, moved.zone).replace(tzinfo=None) - \
            local_start_of(before, event.zone).replace(tzinfo=None)
    return timedelta(days=(as_date(after) - as_date(before)).days)
