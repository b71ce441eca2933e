"""The starts a phrase allows for one event, and how a written start compares with them.

A phrase constrains an instant ("Friday at 7pm", "push it back 30 min" from the event's start), a
day ("next Friday", "the day after"), or a clock time ("at 4pm" on the event's own day, "same
time"). A start is inside the phrases when it matches an instant, or when it is on an allowed day
at an allowed time (a constraint nobody stated is left open). Times are compared as instants in
the person's zone, so a correct time written in UTC passes and a wrong offset does not.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Literal
from zoneinfo import ZoneInfo

from reflection.reading.request import Phrase
from reflection.wording import describe_day, describe_when, join_or
from tools.calendar.events import Event, as_date

Problem = Literal["date", "time", "timezone"]
SLACK = timedelta(seconds=59)


@dataclass(frozen=True)
class InstantSlot:
    start: datetime          # aware, in the zone the phrase named (the person's by default)
    end: datetime | None     # a window ("Friday afternoon"): the start must fall inside
    phrase: Phrase
    reading: str

    def holds(self, value: datetime) -> bool:
        if self.end is not None:  # the window's end is the next part's start (CONTRACT 4:
            return self.start - SLACK <= value < self.end  # afternoon 12:00-17:00, evening 17:00-)
        return abs(value - self.start) <= SLACK


@dataclass(frozen=True)
class DaySlot:
    day: date
    phrase: Phrase
    reading: str


@dataclass(frozen=True)
class TimeSlot:
    """A clock time (or a window of them) in a zone, on whatever day the rest allows."""

    lo: time
    hi: time | None
    zone: ZoneInfo
    phrase: Phrase
    reading: str

    def holds(self, value: datetime) -> bool:
        clock = value.astimezone(self.zone).time().replace(second=0, microsecond=0)
        if self.hi is None:
            return clock == self.lo.replace(second=0, microsecond=0)
        return self.lo <= clock < self.hi


@dataclass
class Allowed:
    instants: list[InstantSlot] = field(default_factory=list)
    days: list[DaySlot] = field(default_factory=list)
    times: list[TimeSlot] = field(default_factory=list)
    keeps_day: date | None = None     # a time-only change of an existing event keeps its date
    keeps_time: time | None = None    # a day-only change of an existing event keeps its time
    same_time: time | None = None     # "friday morning, same time": the event's own clock, said to stay
    ambiguous_phrases: list[Phrase] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (self.instants or self.days or self.times)

    def days_named(self, tz: ZoneInfo) -> set[date]:
        """The days the readings name: each day slot's, and each instant's start day on `tz`'s
        clock (not the days a window reaches into, nor a kept day)."""
        return {s.day for s in self.days} | {s.start.astimezone(tz).date() for s in self.instants}

    def phrases(self) -> list[Phrase]:
        seen: dict[int, Phrase] = {}
        slots: list[InstantSlot | DaySlot | TimeSlot] = [*self.instants, *self.days, *self.times]
        for slot in slots:
            seen.setdefault(slot.phrase.start_index, slot.phrase)
        return list(seen.values())


@dataclass
class Judgement:
    ok: bool
    exact: bool                  # the start is pinned by the phrases (day and time, or an instant)
    problem: Problem | None = None
    matched: Phrase | None = None
    reading: str = ""


def _event_day(event: Event, tz: ZoneInfo) -> date:
    start = event.start
    return start.astimezone(tz).date() if isinstance(start, datetime) else start


_CLOCK_RE = re.compile(r"\d\s*(?:am|pm|a\.m\.|p\.m\.|[ap]\b|h\b|:\d\d)|\d\s*(?:-|–|to|until|till)\s*\d|"
                       r"\b(?:noon|midday|midnight)\b|\b(?:thirty|fifteen|forty[\s-]?five|o['\u2019]?clock|half\s+past|"
                       r"quarter\s+(?:past|to))\s*(?:-|–|to|until|till|til)\s*\d", re.I)
"""A clock time in a range's words ("3-6pm", "9:30 to 11", "ten thirty till 12"): its start is that time. Without
one ("nov 22 afternoon", "sunday morning") the range is a window the start may fall anywhere in;
the date's own digits do not make it a clock time."""


def slots_for(phrase: Phrase, event: Event | None, tz: ZoneInfo, allowed: Allowed,
              anchor_time_to_event: bool) -> None:
    """Add what one phrase allows, for this event (None for a new event)."""
    if phrase.shift is not None:
        if event is None:
            return
        for moved in phrase.shift.readings(event.start):
            if isinstance(moved, datetime):
                allowed.instants.append(InstantSlot(moved.astimezone(tz), None, phrase,
                                                    f"{phrase.text} from the event's start"))
            else:
                allowed.days.append(DaySlot(moved, phrase, f"{phrase.text} from the event's day"))
        if len(phrase.shift.directions) > 1:
            allowed.ambiguous_phrases.append(phrase)
        return
    if phrase.day_relative is not None:
        if event is None:
            return
        base = _event_day(event, tz)
        for days in phrase.day_relative.days:
            allowed.days.append(DaySlot(base + timedelta(days=days), phrase, f"{phrase.text} the event"))
        if phrase.day_relative.keeps_time and isinstance(event.start, datetime):
            local = event.start.astimezone(tz)
            allowed.times.append(TimeSlot(local.time(), None, tz, phrase, "the event's own time"))
        return
    expr = phrase.expression
    if expr is None or not expr.candidates:
        return
    if len(expr.candidates) > 1:
        allowed.ambiguous_phrases.append(phrase)
    time_only = expr.time_of_day_only or expr.kind == "time"
    for cand in expr.candidates:
        start, end = cand.start, cand.end
        if not isinstance(start, datetime):
            last = as_date(end) if end is not None else start
            day = start
            while day <= last and (day - start).days <= 62:
                allowed.days.append(DaySlot(day, phrase, cand.reading))
                day += timedelta(days=1)
            continue
        zone_of = start.tzinfo if isinstance(start.tzinfo, ZoneInfo) else tz
        window_end = end if isinstance(end, datetime) and expr.kind == "range" and \
            not _CLOCK_RE.search(expr.span) else None
        if time_only and anchor_time_to_event:
            allowed.times.append(TimeSlot(start.time(), window_end.time() if window_end else None,
                                          zone_of, phrase, cand.reading))
        else:
            allowed.instants.append(InstantSlot(start, window_end, phrase, cand.reading))


def on_clock(allowed: Allowed, person: ZoneInfo, own: ZoneInfo) -> Allowed:
    """The same readings on another place's clock: every instant and time read in the person's
    zone (a phrase that named no zone) moved to the same wall-clock time in `own`; days, and
    readings in a zone the phrase named, as they are."""
    def moved(value: datetime) -> datetime:
        return value.replace(tzinfo=own) if value.tzinfo == person else value

    return Allowed(
        instants=[InstantSlot(moved(s.start), moved(s.end) if s.end is not None else None, s.phrase,
                              s.reading) for s in allowed.instants],
        days=list(allowed.days),
        times=[TimeSlot(s.lo, s.hi, own if s.zone == person else s.zone, s.phrase, s.reading)
               for s in allowed.times],
        keeps_day=allowed.keeps_day, keeps_time=allowed.keeps_time, same_time=allowed.same_time,
        ambiguous_phrases=list(allowed.ambiguous_phrases))


def judge(value: date | datetime, allowed: Allowed, tz: ZoneInfo, written_wall: datetime | None) -> Judgement:
    """Whether a written start is inside what the phrases allow, and if not, what is off."""
    if not isinstance(value, datetime):
        return _judge_day(value, allowed)
    for slot in sorted(allowed.instants, key=lambda s: s.end is not None):  # points first
        if slot.holds(value):
            if _only_a_window(allowed, slot.phrase, slot.end is not None, value, tz):
                by_parts = _judge_parts(value, allowed, tz, written_wall)
                if by_parts.ok and by_parts.exact:  # "afternoon ... at 2": the clock holds it too
                    return by_parts
                return Judgement(True, False, matched=slot.phrase, reading=slot.reading)
            return Judgement(True, True, matched=slot.phrase, reading=slot.reading)
    return _judge_parts(value, allowed, tz, written_wall)


def _judge_parts(value: datetime, allowed: Allowed, tz: ZoneInfo, written_wall: datetime | None) -> Judgement:
    """`judge` by the day and clock slots (the instants aside)."""
    local_day = value.astimezone(tz).date()
    day_slot = next((s for s in allowed.days if s.day == local_day), None)
    time_slot = next((s for s in sorted(allowed.times, key=lambda s: s.hi is not None) if s.holds(value)), None)
    day_known = bool(allowed.days) or allowed.keeps_day is not None
    day_ok = day_slot is not None if allowed.days else (
        local_day == allowed.keeps_day if allowed.keeps_day is not None else None)
    time_ok = time_slot is not None if allowed.times else None
    if (allowed.days or allowed.times) and day_ok is not False and time_ok is not False:
        matched = (time_slot or day_slot)
        phrase = matched.phrase if matched else None
        exact = bool(time_ok) and day_known and not (
            time_slot is not None and _only_a_window(allowed, time_slot.phrase, time_slot.hi is not None, value, tz))
        if time_ok is None and allowed.keeps_time is not None and day_ok:
            exact = value.astimezone(tz).time().replace(second=0, microsecond=0) == allowed.keeps_time
        return Judgement(True, exact, matched=phrase, reading=matched.reading if matched else "")
    if allowed.empty:
        return Judgement(True, False)
    return Judgement(False, False, problem=_problem(value, allowed, tz, written_wall, day_ok, time_ok))


def _only_a_window(allowed: Allowed, phrase: Phrase, window: bool, value: datetime, tz: ZoneInfo) -> bool:
    """Whether a start held only by a window ("tonight", "morning") misses every clock time
    another phrase gives ("tonight → 5pm", "sat morning 8, no 8:30"): the two may be one time
    said in two places, so a start inside the window but off the clock is not pinned down (it is
    not proven wrong either: the clock may be another event's). A clock read on another day
    ("thursday afternoon ... at 2": today's or tomorrow's 2) still names the clock."""
    if not window:
        return False
    clock = value.astimezone(tz).time().replace(second=0, microsecond=0)
    points = [s.start.astimezone(tz).time().replace(second=0, microsecond=0) for s in allowed.instants
              if s.end is None and s.phrase.start_index != phrase.start_index]
    points += [s.lo.replace(second=0, microsecond=0) for s in allowed.times
               if s.hi is None and s.phrase.start_index != phrase.start_index]
    if allowed.same_time is not None:
        points.append(allowed.same_time)
    return bool(points) and clock not in points


def _judge_day(value: date, allowed: Allowed) -> Judgement:
    days = {s.day for s in allowed.days} | {s.start.date() for s in allowed.instants}
    if allowed.keeps_day is not None and not allowed.days and not allowed.instants:
        days.add(allowed.keeps_day)
    if not days:
        return Judgement(True, False)
    for slot in allowed.days:
        if slot.day == value:
            return Judgement(True, not allowed.times and not allowed.instants, matched=slot.phrase,
                             reading=slot.reading)
    if value in days:
        return Judgement(True, False)
    return Judgement(False, False, problem="date")


def _problem(value: datetime, allowed: Allowed, tz: ZoneInfo, wall: datetime | None,
             day_ok: bool | None, time_ok: bool | None) -> Problem:
    for slot in allowed.instants:
        said = slot.start.replace(tzinfo=None)
        if wall is not None and wall == said.replace(second=0, microsecond=0):
            return "timezone"
    for tslot in allowed.times:
        local_clock = value.astimezone(tslot.zone).time().replace(second=0, microsecond=0)
        if wall is not None and wall.time() == tslot.lo.replace(second=0, microsecond=0) \
                and local_clock != wall.time():
            return "timezone"
    if day_ok is False:
        return "date"
    if time_ok is False:
        return "time"
    local_day = value.astimezone(tz).date()
    if any(s.start.astimezone(tz).date() == local_day for s in allowed.instants):
        return "time"
    return "date"


def am_pm_swapped(value: datetime, allowed: Allowed, tz: ZoneInfo) -> bool:
    local = value.astimezone(tz)
    clocks = [s.start.astimezone(tz) for s in allowed.instants] + \
        [datetime.combine(local.date(), s.lo, tz) for s in allowed.times]
    return any(abs(c.hour - local.hour) == 12 and c.minute == local.minute for c in clocks)


def describe(allowed: Allowed, tz: ZoneInfo) -> str:
    """What the phrases allow, in words, e.g. "Friday 2025-10-24 19:00 or Friday 2025-10-31 19:00"."""
    parts: list[str] = []
    for slot in allowed.instants:
        local = slot.start.astimezone(tz)
        text = describe_when(local)
        if slot.start.utcoffset() != local.utcoffset() or slot.start.tzinfo != tz:
            if slot.start.tzinfo is not None and str(slot.start.tzinfo) != str(tz):
                text += f" ({slot.start:%H:%M} {slot.start.tzinfo})"
        if slot.end is not None:
            text += f" to {slot.end.astimezone(tz):%H:%M}"
        parts.append(text)
    days = [s.day for s in allowed.days] or ([allowed.keeps_day] if allowed.keeps_day else [])
    clock = [f"{s.lo:%H:%M}" + (f"-{s.hi:%H:%M}" if s.hi else "") for s in allowed.times]
    if days and clock:
        parts += [f"{describe_day(d)} {c}" for d in dict.fromkeys(days) for c in dict.fromkeys(clock)]
    elif days:
        parts += [describe_day(d) for d in dict.fromkeys(days)]
    elif clock:
        parts += [f"{c} on its day" for c in clock]
    return join_or(parts)
