"""Typed values that flow through the date grammar: what a rule finds (an `Atom` and its payload)
and the readings of a date phrase.

The pipeline (reflection.dates.parse) is scan -> select -> group -> combine; every stage speaks in
these types, so a rule's result has one shape whatever the phrase family.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

OUT_OF_RANGE = "out of range"


class OutOfRange(Exception):
    """Date arithmetic left the calendar's range (year 1 to 9999)."""


@dataclass(frozen=True)
class Ctx:
    """What every rule may look at: the moment, the person's zone, and the whole text."""
    now: datetime
    tz: ZoneInfo
    today: date
    text: str = ""
    move: bool = False          # the text has a move verb ("move", "push", "reschedule" ...)


@dataclass(frozen=True)
class Reading:
    """One reading of a date phrase: a day (or a span of days when `end` is set)."""
    start: date
    end: date | None
    label: str
    flags: tuple[str, ...] = ()


@dataclass(frozen=True)
class DatePhrase:
    """Every reading of a date phrase, or why it has none."""
    readings: tuple[Reading, ...] = ()
    contradiction: str | None = None
    relative: bool = True
    weekday: int | None = None
    explicit: bool = False        # a month and day (year maybe inferred)
    weekday_only: bool = False    # just a weekday ("Friday", "next Friday")
    is_range: bool = False



@dataclass(frozen=True)
class ClockTime:
    """A time of day as written. `exact`: no AM/PM question (15:00, 08:30, noon); `ap`: 'am'/'pm'
    when written; `clock`: written with minutes as digits (3:15); `word`: noon/midnight."""
    h: int
    m: int = 0
    s: int = 0
    ap: str | None = None
    exact: bool = False
    word: str | None = None
    clock: bool = False


@dataclass(frozen=True)
class TimeSpan:
    """'3-5pm', 'from 3 to 5pm': a start and an end time."""
    first: ClockTime
    second: ClockTime


@dataclass(frozen=True)
class PartOfDay:
    """'morning', 'tonight', 'this afternoon'; `day` is 0 (today) or -1 (last night) when said."""
    name: str
    day: int | None = None


@dataclass(frozen=True)
class Zone:
    """A named zone after a time ('3pm Eastern', '9am London time'); `city` when a city named it."""
    iana: str
    city: str | None = None


@dataclass(frozen=True)
class BadZone:
    """Something written where a zone goes that no zone table knows ('Martian time')."""
    words: str


@dataclass(frozen=True)
class Anchor:
    """A bare amount waiting for 'from/after/before <date>' ('2 weeks before Christmas')."""
    months: int
    delta: timedelta
    label: str


@dataclass(frozen=True)
class Instant:
    """A moment fixed by the phrase itself ('now', 'in 90 minutes', 'end of the day').
    Naive datetimes are wall time in the person's zone."""
    items: tuple[tuple[datetime, str], ...]


@dataclass(frozen=True)
class Length:
    """A duration ('for 2 hours', '90 minutes')."""
    value: timedelta


@dataclass(frozen=True)
class Recurrence:
    """A repeating rule ('every other Tuesday', 'monthly on the 3rd')."""
    freq: str                     # DAILY | WEEKLY | MONTHLY | YEARLY
    interval: int = 1
    byday: tuple[int, ...] = ()
    bymonthday: int | None = None
    pod: str | None = None        # 'every morning'
    nth: int | None = None        # 'the first Monday of each month': 1 (-1: the last), with one `byday`


Payload = (DatePhrase | ClockTime | TimeSpan | PartOfDay | Zone | BadZone | Anchor | Instant | Length
           | Recurrence)


@dataclass(frozen=True)
class Atom:
    """What one rule found at text[start:end]. A `weak` atom counts only next to a strong one;
    `prio` breaks ties between overlapping atoms of equal length (lower wins)."""
    start: int
    end: int
    payload: Payload
    weak: bool = False
    prio: int = 5


@dataclass
class GroupParts:
    """The atoms of one group, by role (filled by reflection.dates.group)."""
    date: DatePhrase | None = None
    time: ClockTime | None = None
    span: TimeSpan | None = None
    pod: PartOfDay | None = None
    zone: Zone | None = None
    badzone: BadZone | None = None
    anchor: Anchor | None = None
    recur: Recurrence | None = None
    instant: Instant | None = None
    length: Length | None = None
    range_end: DatePhrase | None = None
    until: bool = False
    leftover: list[str] = field(default_factory=list)
