"""Combining: a group's parts become one Expression whose candidates are every combination of the
readings of its date and its time (CONTRACT.md section 4), in the zone that applies."""
from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from reflection.dates.arithmetic import (
    dfmt,
    localize,
    recurrence_dates,
    rrule_text,
    single,
    tfmt,
)
from reflection.dates.group import UNTIL_BEFORE, Group
from reflection.dates.lexicon import PARTS_OF_DAY
from reflection.dates.result import Candidate, Expression
from reflection.dates.values import (
    OUT_OF_RANGE,
    ClockTime,
    Ctx,
    DatePhrase,
    GroupParts,
    OutOfRange,
    PartOfDay,
    Reading,
)

NIGHTS = ("tonight", "night")
_DAY_WORD = {0: "today", -1: "yesterday"}


@dataclass(frozen=True)
class HourReading:
    """One reading of a time of day: the hour chosen, and a day shift ('tonight at 1' is after
    midnight)."""
    h: int
    m: int
    s: int
    label: str
    flags: tuple[str, ...] = ()
    day_shift: int = 0


# ---------------------------------------------------------------- times of day

def _hours(t: ClockTime) -> list[int]:
    """The hours a time can mean: 3pm -> [15]; 15:00 -> [15]; a bare 3 or 3:15 -> [3, 15]."""
    if t.exact:
        return [t.h]
    if t.ap == "am":
        return [t.h % 12]
    if t.ap == "pm":
        return [t.h % 12 + 12]
    if 1 <= t.h <= 11:
        return [t.h, t.h + 12]
    return [t.h]


def _narrow(hours: list[int], t: ClockTime, pod: str) -> list[int]:
    """An AM/PM question settled by the part of the day said with it ('tonight at 8' -> 20)."""
    if pod in NIGHTS and t.h <= 4:
        # "1 tonight" is most often after midnight, but "4:30 tonight" is as often the afternoon
        # said loosely: neither is inside tonight's 17:00-23:59, so both stay readings
        return hours
    lo, hi, hint = PARTS_OF_DAY[pod]
    fit = [x for x in hours if lo <= x * 60 + t.m < hi]
    if len(fit) == 1:
        return fit
    if hint == "am":
        return [hours[0]]
    if hint == "pm":
        return [hours[1]]
    return [hours[0] if t.h >= 11 else hours[1]]      # lunch


def _hour_flags(x: int, t: ClockTime, pod: str, on_day: date | None, ctx: Ctx) -> tuple[tuple[str, ...], int]:
    lo, hi, _ = PARTS_OF_DAY[pod]
    if pod in NIGHTS and x < 5:
        return (), 0 if (on_day == ctx.today and ctx.now.hour < 5) else 1
    if not lo <= x * 60 + t.m < hi + (1 if hi == 23 * 60 + 59 else 0):
        return ("outside_part_of_day",), 0
    return (), 0


def time_readings(t: ClockTime, pod: PartOfDay | None, ctx: Ctx, on_day: date | None) -> list[HourReading]:
    """Every reading of a time of day, narrowed by a part of the day."""
    if t.word in ("noon", "midday", "mid-day"):
        return [HourReading(12, 0, 0, "noon")]
    if pod is not None and pod.name in NIGHTS and \
            (t.word == "midnight" or (t.word is None and t.h == 12 and t.ap is None)):
        # "tonight at 12", "midnight tonight": the midnight that ends the night, never noon or
        # the midnight it began with; many people write it as the night's last minute, 23:59
        minute = 0 if t.word else t.m
        if minute:
            return [HourReading(0, minute, 0, tfmt(0, minute, 0), (), 1)]
        return [HourReading(0, 0, 0, "midnight", (), 1), HourReading(23, 59, 0, "23:59 (the night's last minute)")]
    if t.word == "midnight":
        return [HourReading(0, 0, 0, "midnight")]
    hours = _hours(t)
    if pod is not None and len(hours) == 2:
        hours = _narrow(hours, t, pod.name)
    out = []
    for x in hours:
        flags, shift = _hour_flags(x, t, pod.name, on_day, ctx) if pod is not None else ((), 0)
        out.append(HourReading(x, t.m, t.s, tfmt(x, t.m, t.s), flags, shift))
    return out


# ---------------------------------------------------------------- the combiner

@dataclass
class _Build:
    """What one group is being resolved with."""
    g: Group
    p: GroupParts
    ctx: Ctx
    zone: ZoneInfo
    base: Expression

    @property
    def now_z(self) -> datetime:
        return self.ctx.now.astimezone(self.zone)

    def at(self, day: date, dr: str, dflags: tuple[str, ...], hr: HourReading) -> Candidate:
        naive = datetime.combine(day + timedelta(hr.day_shift), time(hr.h, hr.m, hr.s))
        dt, fl = localize(naive, self.zone)
        return Candidate(dt, None, f"{dr} at {hr.label}" if dr else hr.label, dflags + hr.flags + fl)


def _span(g: Group, text: str) -> tuple[int, int]:
    """The expression's span; 'until Friday' / 'through Monday, November 3' include the keyword."""
    start = g.start
    if g.parts.until and g.parts.date is not None and g.parts.range_end is None:
        mm = UNTIL_BEFORE.search(text[max(0, start - 10):start])
        if mm is not None:
            start = max(0, start - 10) + mm.start()
    return start, g.end


def _base(g: Group, text: str, ctx: Ctx) -> tuple[Expression, ZoneInfo]:
    p = g.parts
    start, end = _span(g, text)
    leftover = list(p.leftover)
    if p.badzone is not None:
        leftover.append(p.badzone.words)
    z = ZoneInfo(p.zone.iana) if p.zone is not None else ctx.tz
    base = Expression(span=text[start:end], start_index=start, end_index=end, kind="date", candidates=(),
                      relative=False, explicit_zone=p.zone.iana if p.zone else None, leftover=tuple(leftover),
                      part_of_day=p.pod.name if p.pod else None, city=p.zone.city if p.zone else None)
    return base, z


def _instant(b: _Build) -> Expression:
    assert b.p.instant is not None
    cands = []
    for dt, reading in b.p.instant.items:
        fl: tuple[str, ...] = ()
        if dt.tzinfo is None:
            dt, fl = localize(dt, b.ctx.tz)
        cands.append(Candidate(dt, None, reading, fl))
    return replace(b.base, kind="datetime", candidates=tuple(cands), relative=True)


def _contradicted(b: _Build, d: DatePhrase | None, why: str) -> Expression:
    p = b.p
    if p.time or p.span:
        kind = "datetime" if d is not None or p.recur is not None else "time"
    else:
        kind = "range" if (d is not None and d.is_range) else "date"
    return replace(b.base, contradiction=why, kind=kind)


def _flag_past(e: Expression, ctx: Ctx) -> Expression:
    cands = []
    for c in e.candidates:
        edge = c.end if c.end is not None else c.start
        past = edge < ctx.now if isinstance(edge, datetime) else edge < ctx.today
        cands.append(replace(c, flags=c.flags + ("past",)) if past and "past" not in c.flags else c)
    return replace(e, candidates=tuple(cands))


def _date_range(b: _Build, days: tuple[Reading, ...], relative: bool) -> Expression:
    """'Monday through Friday', 'until Nov 3' (from today), with the last day included."""
    end = b.p.range_end
    if end is not None:
        # "friday 24 july thru sunday": a weekday alone as the last day is the first one on or
        # after the first day, not the coming one (which may come before it)
        cands = [Candidate(a.start, _on_or_after(e.end or e.start, a.start) if end.weekday_only else e.end or e.start,
                           f"{a.label} through {e.label}")
                 for a in days for e in end.readings]
        return replace(b.base, kind="range", candidates=tuple(cands), relative=relative or end.relative)
    cands = [Candidate(b.ctx.today, e.end or e.start, f"today through {e.label}") for e in days]
    return replace(b.base, kind="range", candidates=tuple(cands), relative=True)


def _on_or_after(day: date, first: date) -> date:
    """`day`'s weekday on or after `first` ("thru sunday" after "friday 24 july"); a time of
    day, if either has one, is left as it is."""
    d = day.date() if isinstance(day, datetime) else day
    f = first.date() if isinstance(first, datetime) else first
    if d >= f:
        return day
    return day + timedelta(days=7 * -(-(f - d).days // 7))


def _time_only(b: _Build, t: ClockTime) -> list[tuple[Candidate, date]]:
    """A time with no date: today while it is still ahead, else tomorrow."""
    out = []
    for hr in time_readings(t, b.p.pod, b.ctx, None):
        day = b.now_z.date()
        c = b.at(day, "", (), hr)
        if c.start <= b.now_z:
            day += timedelta(1)
            c = b.at(day, "", (), hr)
            c = replace(c, reading=f"tomorrow at {c.reading}")
        else:
            c = replace(c, reading=f"today at {c.reading}")
        out.append((c, day))
    return out


def _timed_days(b: _Build, t: ClockTime, days: tuple[Reading, ...],
                second: date | None) -> list[tuple[Candidate, date]]:
    out = []
    for r in days:
        for hr in time_readings(t, b.p.pod, b.ctx, r.start):
            c = b.at(r.start, r.label, r.flags, hr)
            if b.p.recur is not None and second is not None and c.start < b.now_z:
                c = b.at(second, f"first occurrence: {dfmt(second)}", r.flags, hr)
            out.append((c, r.start))
    return out


def _end_of_span(b: _Build, c: Candidate) -> Candidate:
    """The end of a time range: its reading nearest after the start (next day if earlier)."""
    assert b.p.span is not None and isinstance(c.start, datetime)
    start_naive = c.start.replace(tzinfo=None)
    best: datetime | None = None
    for e in time_readings(b.p.span.second, None, b.ctx, None):
        end_naive = datetime.combine(start_naive.date(), time(e.h, e.m, e.s))
        if end_naive <= start_naive:
            end_naive += timedelta(1)
        if best is None or end_naive < best:
            best = end_naive
    assert best is not None
    edt, efl = localize(best, b.zone)
    return Candidate(c.start, edt, f"{c.reading} to {tfmt(best.hour, best.minute)}", c.flags + efl)


def _timed(b: _Build, days: tuple[Reading, ...] | None, second: date | None) -> Expression:
    p = b.p
    t = p.time if p.time is not None else p.span.first if p.span is not None else None
    assert t is not None
    base = b.base if days is not None else replace(b.base, time_of_day_only=True)
    pairs = _time_only(b, t) if days is None else _timed_days(b, t, days, second)
    if p.span is not None:
        return replace(base, kind="range", candidates=tuple(_end_of_span(b, c) for c, _ in pairs))
    cands = [c for c, _ in pairs]
    if days is None:
        cands.sort(key=lambda c: c.start)
    return replace(base, kind="time" if days is None else "datetime", candidates=tuple(cands))


def _part_of_day(b: _Build, pod: PartOfDay, days: tuple[Reading, ...] | None) -> Expression:
    """'Friday afternoon', 'tonight', 'this morning': the part's range on each day."""
    lo, hi, _ = PARTS_OF_DAY[pod.name]
    base = b.base
    if days is None:
        day = b.ctx.today
        if localize(datetime.combine(day, time(hi // 60, hi % 60)), b.zone)[0] <= b.now_z:
            day += timedelta(1)
        days = (Reading(day, None, "today" if day == b.ctx.today else "tomorrow"),)
        base = replace(base, time_of_day_only=True)
    cands = []
    for r in days:
        a, f1 = localize(datetime.combine(r.start, time(lo // 60, lo % 60)), b.zone)
        e, f2 = localize(datetime.combine(r.start, time(hi // 60, hi % 60)), b.zone)
        reading = "tonight" if pod.name == "tonight" else f"{r.label} {pod.name}"
        cands.append(Candidate(a, e, reading, r.flags + f1 + f2))
    return replace(base, kind="range", candidates=tuple(cands))


def _date_of(b: _Build) -> tuple[DatePhrase | None, PartOfDay | None]:
    """The group's date (a 'tonight' or 'this morning' alone names today) and part of the day."""
    p = b.p
    d, pod = p.date, p.pod
    if pod is not None and pod.day is not None and d is None:
        label = "tonight" if pod.name == "tonight" else _DAY_WORD[pod.day]
        d = single(b.ctx.today + timedelta(pod.day), label)
    if p.recur is not None and pod is None and p.recur.pod:
        pod = PartOfDay(p.recur.pod)
    return d, pod


def _days_of(b: _Build, d: DatePhrase | None) -> tuple[tuple[Reading, ...] | None, date | None]:
    """The day readings, and for a recurrence its second occurrence (used when the first is past)."""
    rule = b.p.recur
    if rule is not None:
        dates = recurrence_dates(rule, b.ctx.today)
        first = (Reading(dates[0], None, f"first occurrence: {dfmt(dates[0])}"),)
        return first, dates[1] if len(dates) > 1 else None
    return (d.readings if d is not None else None), None


def _resolve(b: _Build) -> Expression | None:
    p = b.p
    if p.length is not None:
        return replace(b.base, kind="duration", duration=p.length.value)
    if p.instant is not None:
        return _instant(b)
    d, pod = _date_of(b)
    relative = (d.relative if d is not None else False) or p.recur is not None
    b.base = replace(b.base, relative=relative, weekday_named=p.date.weekday if p.date is not None else None,
                     recurrence=rrule_text(p.recur) if p.recur is not None else None,
                     part_of_day=pod.name if pod is not None else None)
    if p.badzone is not None or (p.date is not None and p.date.contradiction):
        why = p.date.contradiction if p.date is not None and p.date.contradiction else None
        return _contradicted(b, d, why or f"unknown time zone '{p.badzone.words if p.badzone else ''}'")
    days, second = _days_of(b, d)
    return _shape(b, days, second, pod, relative)


def _shape(b: _Build, days: tuple[Reading, ...] | None, second: date | None, pod: PartOfDay | None,
           relative: bool) -> Expression | None:
    p = b.p
    timed = p.time is not None or p.span is not None
    if days is not None and (p.range_end is not None or p.until) and not timed:
        return _date_range(b, days, relative)
    if days is not None and any(r.end is not None for r in days):
        return replace(b.base, kind="range",
                       candidates=tuple(Candidate(r.start, r.end, r.label, r.flags) for r in days))
    if timed:
        return _timed(b, days, second)
    if pod is not None:
        return _part_of_day(b, pod, days)
    if days is None:
        return None
    return replace(b.base, kind="date", candidates=tuple(Candidate(r.start, r.end, r.label, r.flags) for r in days))


def combine(g: Group, text: str, ctx: Ctx) -> Expression | None:
    """The Expression of a group, or None when it holds nothing that stands alone (only weak
    atoms, or an amount with no date to count from)."""
    if all(a.weak for a in g.atoms) or (g.parts.anchor is not None and len(g.atoms) == 1):
        return None
    base, z = _base(g, text, ctx)
    b = _Build(g, g.parts, ctx, z, base)
    try:
        e = _resolve(b)
    except (OverflowError, ValueError, OutOfRange):
        return _contradicted(b, b.p.date, OUT_OF_RANGE)
    if e is None or g.parts.instant is not None:
        return e
    return _flag_past(e, ctx)
