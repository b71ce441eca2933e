"""Calendar arithmetic of the date policy (CONTRACT.md section 4): the readings of weekday
phrases, month-day dates, days of the month, weeks and weekends, ordinal weekdays and holidays,
and wall-time localisation with the DST rules. Pure functions of (today, words) -> DatePhrase.

Arithmetic past year 9999 raises OverflowError or ValueError here; the rule runner
(reflection.dates.scan) turns that into an "out of range" contradiction.
"""
from __future__ import annotations

from calendar import monthrange
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal
from zoneinfo import ZoneInfo

from dateutil.relativedelta import relativedelta
from dateutil.rrule import DAILY, MONTHLY, WEEKLY, YEARLY, rrule
from dateutil.rrule import weekday as rr_weekday

from reflection.dates.lexicon import (
    MONTH_NAMES,
    RRULE_DAYS,
    WEEKDAY_NAMES,
    HolidayFn,
    nth_weekday,
)
from reflection.dates.values import (
    OUT_OF_RANGE,
    DatePhrase,
    OutOfRange,
    Reading,
    Recurrence,
)

# ---------------------------------------------------------------- formatting and small helpers

def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def dfmt(d: date) -> str:
    return f"{WEEKDAY_NAMES[d.weekday()]}, {MONTH_NAMES[d.month]} {d.day}, {d.year}"


def tfmt(h: int, m: int, s: int = 0) -> str:
    if h == 12 and m == 0 and not s:
        return "12 PM (noon)"
    if h == 0 and m == 0 and not s:
        return "12 AM (midnight)"
    ap = "AM" if h < 12 else "PM"
    hh = h % 12 or 12
    if s:
        return f"{hh}:{m:02d}:{s:02d} {ap}"
    return f"{hh} {ap}" if m == 0 else f"{hh}:{m:02d} {ap}"


def monday(d: date) -> date:
    return d - timedelta(days=d.weekday())


def year2(y: int) -> int:
    return 2000 + y if y < 40 else 1900 + y


def add_months(d: date, k: int) -> date:
    """`d` moved by k calendar months (the day clipped to the month's length)."""
    out: date = d + relativedelta(months=k)
    return out


def shift_date(d: date, months: int, delta: timedelta) -> date:
    """`d` moved by whole months, then by a timedelta (whole days count)."""
    return add_months(d, months) + timedelta(days=delta.days)


def localize(naive: datetime, z: ZoneInfo) -> tuple[datetime, tuple[str, ...]]:
    """Wall time in z per the policy: a nonexistent time is shifted forward by the gap, a repeated
    time is its first occurrence; both flagged."""
    dt = naive.replace(tzinfo=z, fold=0)
    back = dt.astimezone(UTC).astimezone(z)
    if back.replace(tzinfo=None) != naive:
        return back, ("nonexistent_local_time",)
    if dt.replace(fold=1).utcoffset() != dt.utcoffset():
        return dt, ("repeated_local_time",)
    return dt, ()


def single(d: date, label: str, relative: bool = True) -> DatePhrase:
    return DatePhrase(readings=(Reading(d, None, label),), relative=relative)


def days_span(a: date, b: date, label: str) -> DatePhrase:
    return DatePhrase(readings=(Reading(a, b, label),), is_range=True)


def impossible(why: str, **kw: Any) -> DatePhrase:
    return DatePhrase(contradiction=why, **kw)


# ---------------------------------------------------------------- month and day

def _first_on_or_after(today: date, m: int, d: int) -> date | None:
    for yy in range(today.year, min(today.year + 9, 10000)):
        try:
            cand = date(yy, m, d)
        except ValueError:
            continue
        if cand >= today:
            return cand
    return None


def month_day(today: date, m: int, d: int, y: int | None, wd: int | None = None) -> DatePhrase:
    """An explicit month/day (year given or inferred: the first such date on or after today)."""
    name = MONTH_NAMES[m] if 1 <= m <= 12 else str(m)
    if not (1 <= m <= 12) or d < 1:
        return impossible(f"{name} {d} does not exist", relative=False, explicit=True)
    if y is not None:
        try:
            dd: date | None = date(y, m, d)
        except ValueError:
            return impossible(f"{name} {d}, {y} does not exist", relative=False, explicit=True)
    elif d > (29 if m == 2 else monthrange(2001, m)[1]):
        return impossible(f"{name} {d} does not exist", relative=False, explicit=True)
    else:
        dd = _first_on_or_after(today, m, d)
    if dd is None:
        return impossible(OUT_OF_RANGE, relative=False, explicit=True)
    res = DatePhrase(readings=(Reading(dd, None, f"{name} {d}, {dd.year}"),), relative=False, explicit=True)
    return check_weekday(res, wd) if wd is not None else res


def check_weekday(res: DatePhrase, wd: int) -> DatePhrase:
    """A date said with its weekday: the weekday must match, else a contradiction."""
    if res.contradiction or not res.readings:
        return res
    dd = res.readings[0].start
    if dd.weekday() != wd:
        m, d = dd.month, dd.day
        return DatePhrase(contradiction=(f"{WEEKDAY_NAMES[wd]}, {MONTH_NAMES[m]} {d} {dd.year}: "
                                         f"{MONTH_NAMES[m]} {d} is a {WEEKDAY_NAMES[dd.weekday()]}"),
                          relative=False, explicit=True, weekday=wd)
    label = f"{WEEKDAY_NAMES[wd]}, {MONTH_NAMES[dd.month]} {dd.day}, {dd.year}"
    return DatePhrase(readings=(Reading(dd, None, label),), relative=res.relative, weekday=wd,
                      explicit=res.explicit, weekday_only=res.weekday_only, is_range=res.is_range)


# ---------------------------------------------------------------- weekdays

_NEXT = ("next", "following")
_LAST = ("last", "previous")


def _week_of(today: date, wd: int, which: str) -> DatePhrase:
    """'Friday of next week', 'Friday this week'."""
    name = WEEKDAY_NAMES[wd]
    base = monday(today) + timedelta(days=wd)
    if which in ("next", "following", "coming"):
        return DatePhrase(readings=(Reading(base + timedelta(7), None, f"{name} of next week"),), weekday=wd)
    if which in _LAST:
        return DatePhrase(readings=(Reading(base - timedelta(7), None, f"{name} of last week"),), weekday=wd)
    return DatePhrase(readings=(Reading(base, None, f"{name} of this week"),), weekday=wd)


def _weekday_readings(today: date, wd: int, mod: str) -> list[Reading]:
    name = WEEKDAY_NAMES[wd]
    if mod in _NEXT:
        d = today + timedelta(days=(wd - today.weekday() - 1) % 7 + 1)
        if monday(d) == monday(today):
            return [Reading(d, None, f"the coming {name}"), Reading(d + timedelta(7), None, f"{name} of next week")]
        return [Reading(d, None, f"{name} of next week")]
    if mod in _LAST:
        d = today - timedelta(days=(today.weekday() - wd - 1) % 7 + 1)
        if monday(d) == monday(today):
            return [Reading(d, None, f"this past {name}"), Reading(d - timedelta(7), None, f"{name} of last week")]
        return [Reading(d, None, f"{name} of last week")]
    if mod in ("past", "this past"):
        d = today - timedelta(days=(today.weekday() - wd - 1) % 7 + 1)
        return [Reading(d, None, f"this past {name}")]
    d = today + timedelta(days=(wd - today.weekday()) % 7)      # Friday, this Friday, coming Friday
    if d == today:
        return [Reading(d, None, f"today, {name}"), Reading(d + timedelta(7), None, f"{name} of next week")]
    return [Reading(d, None, f"the coming {name}")]


def weekday_phrase(today: date, wd: int, mod: str, tail: str) -> DatePhrase:
    """'Friday', 'next Friday', 'last Friday', 'Friday after next', 'Friday of next week',
    'Tuesday week' (the Tuesday reading plus 7 days)."""
    name = WEEKDAY_NAMES[wd]
    mod = " ".join(mod.lower().split()).replace("the ", "") if mod else ""
    tail = " ".join(tail.lower().split()) if tail else ""
    if tail.endswith("week") and tail != "week":
        return _week_of(today, wd, tail.split()[-2])
    if tail == "after next":
        mod = "next"
    elif tail == "before last":
        mod = "last"
    items = _weekday_readings(today, wd, mod)
    if tail == "after next":
        suffix = len(items) > 1
        items = [Reading(r.start + timedelta(7), None, f"{name} after next" + (f" ({r.label})" if suffix else ""),
                         r.flags) for r in items]
    elif tail == "before last":
        items = [Reading(r.start - timedelta(7), None, f"{name} before last", r.flags) for r in items]
    elif tail == "week":
        items = [Reading(r.start + timedelta(7), None, f"{name} week ({dfmt(r.start + timedelta(7))})", r.flags)
                 for r in items]
    return DatePhrase(readings=tuple(items), weekday=wd, weekday_only=True)


# ---------------------------------------------------------------- days of the month

def _dom_in_month(today: date, n: int, wd: int | None, month_shift: int) -> DatePhrase:
    first = add_months(today.replace(day=1), month_shift)
    try:
        d = first.replace(day=n)
    except ValueError:
        return impossible(f"{MONTH_NAMES[first.month]} {n} does not exist")
    res = DatePhrase(readings=(Reading(d, None, f"the {ordinal(n)} ({dfmt(d)})"),))
    return check_weekday(res, wd) if wd is not None else res


def day_of_month(today: date, n: int, wd: int | None = None, month_shift: int | None = None) -> DatePhrase:
    """'the 3rd' (first 3rd on or after today), 'Monday the 3rd' (within 400 days),
    'the 15th of next month'."""
    if not 1 <= n <= 31:
        return impossible(f"the {ordinal(n)} is not a day of the month")
    if month_shift is not None:
        return _dom_in_month(today, n, wd, month_shift)
    first = today.replace(day=1)
    for k in range(15):
        mfirst = add_months(first, k)
        if n > monthrange(mfirst.year, mfirst.month)[1]:
            continue
        d = mfirst.replace(day=n)
        if d < today or (d - today).days > 400:
            continue
        if wd is None or d.weekday() == wd:
            label = f"{WEEKDAY_NAMES[wd]} the {ordinal(n)}" if wd is not None else f"the {ordinal(n)}"
            return DatePhrase(readings=(Reading(d, None, f"{label} ({dfmt(d)})"),), weekday=wd)
    if wd is not None:
        return impossible(f"no {WEEKDAY_NAMES[wd]} the {ordinal(n)} within 400 days", weekday=wd)
    return impossible(f"the {ordinal(n)} does not exist")


def end_of_month(today: date, months_ahead: int) -> DatePhrase:
    base = add_months(today, months_ahead)
    d = base.replace(day=monthrange(base.year, base.month)[1])
    return single(d, f"the end of the month ({dfmt(d)})")


def end_of_year(today: date, years_ahead: int) -> DatePhrase:
    y = today.year + years_ahead
    return single(date(y, 12, 31), f"the end of the year ({y}-12-31)")


# ---------------------------------------------------------------- ordinal weekdays of a month

def ordinal_weekday_in_month(today: date, n: int, wd: int, month: int | None, year: int | None,
                             month_shift: int | None) -> DatePhrase:
    """'the first Monday of December' (in the first such month on or after today; when that is
    this month and the day has passed, next year's),
    'the last Friday of the month' (of this month, or of next month once it has passed),
    'the second Tuesday of next month', 'the first Monday of December 2026'."""
    what = f"the {'last' if n < 0 else ordinal(n)} {WEEKDAY_NAMES[wd]}"
    if month is not None:
        y = year if year is not None else today.year + (1 if month < today.month else 0)
        d = _nth_or_none(y, month, wd, n)
        if year is None and d is not None and d < today:      # this month's has passed: next year's
            y += 1
            d = _nth_or_none(y, month, wd, n)
        if d is None:
            return impossible(f"{MONTH_NAMES[month]} {y} has no {what[4:]}", relative=year is None)
        return DatePhrase(readings=(Reading(d, None, f"{what} of {MONTH_NAMES[month]} ({dfmt(d)})"),),
                          relative=year is None, weekday=wd)
    base = add_months(today.replace(day=1), month_shift or 0)
    d = _nth_or_none(base.year, base.month, wd, n)
    if month_shift is None and (d is None or d < today):
        base = add_months(base, 1)
        d = _nth_or_none(base.year, base.month, wd, n)
    if d is None:
        return impossible(f"{MONTH_NAMES[base.month]} {base.year} has no {what[4:]}")
    return DatePhrase(readings=(Reading(d, None, f"{what} of the month ({dfmt(d)})"),), weekday=wd)


def _nth_or_none(year: int, month: int, wd: int, n: int) -> date | None:
    d = nth_weekday(year, month, wd, n)
    return d if d.month == month else None


# ---------------------------------------------------------------- weeks, weekends, months

_WEEK_STEP = {"this": 0, "next": 1, "following": 1, "coming": 1, "last": -1, "previous": -1}


def week_phrase(today: date, which: str, unit: str) -> DatePhrase | None:
    """'this week', 'next week', 'this month', 'this weekend', 'next weekend' ..."""
    mon = monday(today)
    if unit == "week":
        k = _WEEK_STEP.get(which)
        if k is None:
            return None
        a = mon + timedelta(7 * k)
        label = {0: "this week", 1: "next week", -1: "last week"}[k]
        return days_span(a, a + timedelta(6), f"{label} ({a} to {a + timedelta(6)})")
    if unit == "month":
        k = _WEEK_STEP.get(which)
        if k is None:
            return None
        a = add_months(today.replace(day=1), k)
        b = a.replace(day=monthrange(a.year, a.month)[1])
        return days_span(a, b, f"{MONTH_NAMES[a.month]} {a.year}")
    return _weekend(today, which)


def _weekend(today: date, which: str) -> DatePhrase | None:
    sat = monday(today) + timedelta(5)
    one = timedelta(1)
    if which in ("this", "", "over", "on", "coming"):
        return days_span(sat, sat + one, f"this weekend ({sat} to {sat + one})")
    if which in _NEXT:
        s2 = sat + timedelta(7)
        if today.weekday() >= 5:
            return days_span(s2, s2 + one, f"the following weekend ({s2} to {s2 + one})")
        return DatePhrase(readings=(Reading(sat, sat + one, f"the coming weekend ({sat} to {sat + one})"),
                                    Reading(s2, s2 + one, f"the weekend after ({s2} to {s2 + one})")),
                          is_range=True)
    if which in _LAST:
        s = sat - timedelta(7)
        return days_span(s, s + one, f"last weekend ({s} to {s + one})")
    return None


# ---------------------------------------------------------------- holidays

def holiday_phrase(today: date, f: HolidayFn, name: str, mod: str, year: int | None,
                   which: str | None) -> DatePhrase:
    """'Christmas' (the next one on or after today), 'next Easter', 'last Thanksgiving',
    'Christmas 2026', 'Christmas next year'."""
    if year is not None or which:
        y = year if year is not None else today.year + {"this": 0, "next": 1, "last": -1}[which or "this"]
        d = f(y)
        return DatePhrase(readings=(Reading(d, None, f"{name} {y} ({dfmt(d)})"),), relative=year is None)
    if mod in _LAST:
        d = f(today.year)
        if d >= today:
            d = f(today.year - 1)
        return DatePhrase(readings=(Reading(d, None, f"the last {name} ({dfmt(d)})"),))
    d = f(today.year)
    if d < today or (mod in _NEXT and d == today):
        d = f(today.year + 1)
    return DatePhrase(readings=(Reading(d, None, f"{name} ({dfmt(d)})"),), relative=bool(mod))


# ---------------------------------------------------------------- recurrences

_RRULE_FREQ: dict[str, Literal[0, 1, 2, 3]] = {"DAILY": DAILY, "WEEKLY": WEEKLY, "MONTHLY": MONTHLY,
                                               "YEARLY": YEARLY}


def rrule_text(rule: Recurrence) -> str:
    """'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU'."""
    parts = [f"FREQ={rule.freq}"]
    if rule.interval > 1:
        parts.append(f"INTERVAL={rule.interval}")
    if rule.byday:
        nth = str(rule.nth) if rule.nth else ""
        parts.append("BYDAY=" + ",".join(nth + RRULE_DAYS[d] for d in rule.byday))
    if rule.bymonthday:
        parts.append(f"BYMONTHDAY={rule.bymonthday}")
    return "RRULE:" + ";".join(parts)


def recurrence_dates(rule: Recurrence, today: date, count: int = 2) -> list[date]:
    """The first `count` days of the rule on or after today."""
    kw: dict[str, Any] = {}
    if rule.byday:
        kw["byweekday"] = [rr_weekday(d, rule.nth) for d in rule.byday]
    if rule.bymonthday:
        kw["bymonthday"] = rule.bymonthday
    freq = _RRULE_FREQ[rule.freq]
    firsts = list(rrule(freq, dtstart=datetime.combine(today, time(0)), count=1, **kw))
    if not firsts:
        raise OutOfRange(rrule_text(rule))
    first = firsts[0]
    out = [x.date() for x in rrule(freq, interval=rule.interval, dtstart=first, count=count, **kw)]
    if not out:
        raise OutOfRange(rrule_text(rule))
    return out
