"""Occurrences of recurring events: their ids, and the expansion of a series into them.

One rule for every backend and for the guard. CONTRACT section 2: an occurrence of a recurring
event is `<series id>_<YYYYMMDD>` (all day) or `<series id>_<YYYYMMDDTHHMMSSZ>` (its original
start in UTC); Google's own ids use only base32hex (`a-v0-9`, 5 to 1024 characters). A series is
stored once, as RRULE lines, and expanded here with `dateutil.rrule` when listed.
"""
from __future__ import annotations

import re
import threading
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from datetime import date, datetime, timedelta

from dateutil.rrule import rrulestr

from tools.calendar.events import UTC, CalendarError, Event, as_date, local_start_of

__all__ = [
    "BASE32HEX_ALPHABET",
    "GOOGLE_EVENT_ID_RE",
    "GOOGLE_INSTANCE_ID_RE",
    "INSTANCE_RE",
    "MAX_OCCURRENCES",
    "instance_id",
    "instance_parts",
    "instance_stamp",
    "is_google_id",
    "is_occurrence",
    "occurrences",
    "series_of",
    "stamp_original",
    "virtual_instance",
    "virtual_instances",
]

_STAMP = r"(?P<stamp>\d{8}(?:T\d{6}Z)?)"
_GOOGLE_ID = r"[a-v0-9]{5,1024}"
INSTANCE_RE = re.compile(rf"^(?P<base>.+)_{_STAMP}$")
GOOGLE_EVENT_ID_RE = re.compile(rf"^{_GOOGLE_ID}$")
GOOGLE_INSTANCE_ID_RE = re.compile(rf"^(?P<base>{_GOOGLE_ID})_{_STAMP}$")
#: base32hex as Google defines it for event ids: lowercase a-v and digits.
BASE32HEX_ALPHABET = "0123456789abcdefghijklmnopqrstuv"

MAX_OCCURRENCES = 5000  # at most this many occurrences of one series in one listing
MAX_GENERATED = 200_000  # at most this many starts generated for one series, ever
DST_MARGIN = timedelta(hours=3)


# ------------------------------------------------------------------------------ ids
def instance_stamp(original: date | datetime) -> str:
    """An occurrence's id suffix: its original start in UTC, or the date of an all-day one."""
    if isinstance(original, datetime):
        return original.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return original.strftime("%Y%m%d")


def instance_id(series_id: str, original: date | datetime) -> str:
    return f"{series_id}_{instance_stamp(original)}"


def instance_parts(event_id: str) -> tuple[str, str] | None:
    """(series id, stamp) of an occurrence id, or None for any other id."""
    match = INSTANCE_RE.match(event_id)
    return (match.group("base"), match.group("stamp")) if match else None


def series_of(event_id: str) -> str | None:
    parts = instance_parts(event_id)
    return parts[0] if parts else None


def stamp_original(stamp: str) -> date | datetime:
    """The original start a stamp names: an aware UTC datetime, or a date (all day)."""
    if "T" in stamp:
        return datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC)
    return datetime.strptime(stamp, "%Y%m%d").date()


def is_google_id(event_id: str) -> bool:
    """Whether Google could hold this id: a base32hex id, or an occurrence of one."""
    return bool(GOOGLE_EVENT_ID_RE.match(event_id) or GOOGLE_INSTANCE_ID_RE.match(event_id))


# ------------------------------------------------------------------------------ expansion
class _Expansion:
    """The occurrence starts of one series, generated once, in order, and kept for range
    look-ups: listing a month then costs a bisect instead of a walk from the series' first
    occurrence (and a fresh RRULE parse) on every call (bench/RESULTS_backend.md)."""

    __slots__ = ("_iter", "done", "lock", "starts")

    def __init__(self, rule: Iterable[datetime]) -> None:
        self.starts: list[datetime] = []
        self._iter: Iterator[datetime] = iter(rule)
        self.done = False
        self.lock = threading.Lock()

    def extend_to(self, end: datetime, series_id: str) -> None:
        """Generate starts until one is at or after `end` (or the series ends)."""
        starts = self.starts
        while not self.done and (not starts or starts[-1] < end):
            if len(starts) >= MAX_GENERATED:
                self.done = True
                break
            try:
                starts.append(next(self._iter))
            except StopIteration:
                self.done = True
            except (ValueError, TypeError, OverflowError) as exc:
                self.done = True
                raise CalendarError(f"event {series_id!r} has a recurrence that cannot be "
                                    f"expanded: {exc}") from exc


_UNTIL_DATE = re.compile(r"(?<=UNTIL=)(\d{8})(?=;|$)", re.IGNORECASE | re.MULTILINE)


def rule_set(lines: Iterable[str], dtstart: datetime, all_day: bool) -> str:
    """The rule lines as dateutil reads them from an aware first start: an all-day series'
    UNTIL, a date as RFC 5545 wants it, becomes the end of that day in the start's zone, in
    UTC. dateutil refuses a date UNTIL next to an aware start, so an all-day series ended on a
    date could not be expanded. A timed series' UNTIL must be a time (RFC 5545 3.3.10) and is
    left for dateutil to refuse."""
    def end_of_day(match: re.Match[str]) -> str:
        day = datetime.strptime(match.group(1), "%Y%m%d")
        last = day.replace(hour=23, minute=59, second=59, tzinfo=dtstart.tzinfo)
        return last.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")

    text = "\n".join(lines)
    return _UNTIL_DATE.sub(end_of_day, text) if all_day and dtstart.tzinfo is not None else text


_ExpansionKey = tuple[tuple[str, ...] | None, str, str, bool]
_EXPANSIONS: OrderedDict[_ExpansionKey, _Expansion] = OrderedDict()
_EXPANSIONS_MAX = 128
_EXPANSIONS_LOCK = threading.Lock()


def _expansion(master: Event, dtstart: datetime) -> _Expansion:
    """The cached expansion for this rule and first start (keyed by content, so an edited
    series simply gets a new entry and nothing needs invalidating)."""
    key: _ExpansionKey = (master.recurrence, dtstart.isoformat(), master.timezone, master.all_day)
    with _EXPANSIONS_LOCK:
        found = _EXPANSIONS.get(key)
        if found is not None:
            _EXPANSIONS.move_to_end(key)
            return found
    try:
        rule = rrulestr(rule_set(master.recurrence or (), dtstart, master.all_day), dtstart=dtstart, forceset=True)
    except (ValueError, TypeError) as exc:
        raise CalendarError(f"event {master.id!r} has a recurrence that cannot be read: "
                            f"{exc}") from exc
    made = _Expansion(rule)
    with _EXPANSIONS_LOCK:
        made = _EXPANSIONS.setdefault(key, made)
        _EXPANSIONS.move_to_end(key)
        while len(_EXPANSIONS) > _EXPANSIONS_MAX:
            _EXPANSIONS.popitem(last=False)
    return made


_PERIOD_DAYS = {"DAILY": 1, "WEEKLY": 7}
_LEAP_KEYS = re.compile(r"(?:^|;)(?:COUNT|BYSETPOS|BYWEEKNO|BYYEARDAY)=", re.IGNORECASE)
_FREQ_INTERVAL = re.compile(r"(?:^|;)(FREQ|INTERVAL)=(\w+)", re.IGNORECASE)
LEAP_AFTER = timedelta(days=91)
"""A window this far past a series' first start begins its expansion nearer the window."""


def _leap(master: Event, dtstart: datetime, window_start: datetime) -> datetime:
    """A first start for the expansion that yields the same occurrences from `window_start`
    on without walking the years before it: `dtstart` moved by whole repeat periods (a daily or
    weekly rule has the same wall-clock days and times from any of its own periods on; Python
    adds days to an aware datetime on the wall clock, as dateutil expands). A ten-year calendar
    of 2,000 weekly series walked 100,000 starts for one week's agenda (5 s); this walks half a
    year at most. Only plain daily and weekly rules leap: a COUNT counts from the real first
    start, and a monthly or yearly one may fall on a day some months lack. The leap is a whole
    number of quarters' periods, so nearby windows share one cached expansion."""
    lines = master.recurrence or ()
    if window_start - dtstart < LEAP_AFTER or len(lines) != 1 or _LEAP_KEYS.search(lines[0]):
        return dtstart
    head, _, body = lines[0].partition(":")
    if head.upper() != "RRULE":
        return dtstart
    parts = {k.upper(): v.upper() for k, v in _FREQ_INTERVAL.findall(body)}
    days = _PERIOD_DAYS.get(parts.get("FREQ", ""))
    if days is None or not parts.get("INTERVAL", "1").isdigit():
        return dtstart
    period = days * max(1, int(parts.get("INTERVAL", "1")))
    per_quarter = max(1, 91 // period)
    wall = window_start.astimezone(dtstart.tzinfo).replace(tzinfo=None) - dtstart.replace(tzinfo=None)
    periods = (wall - LEAP_AFTER).days // period
    periods -= periods % per_quarter
    if periods <= 0:
        return dtstart
    return dtstart + timedelta(days=periods * period)


def occurrences(master: Event, start: datetime, end: datetime) -> list[date | datetime]:
    """Original starts of `master`'s occurrences whose span overlaps [start, end).

    Expansion runs on aware local datetimes so 17:00 stays 17:00 across a DST change.
    """
    tz = master.zone
    dtstart = local_start_of(master.start, tz)
    duration = master.duration
    # starts are compared by wall clock (they share the zone), so reach back past a DST gap:
    # an occurrence at a skipped time (02:30 on spring-forward day) sorts before its instant.
    window_start = (start - duration - DST_MARGIN).astimezone(tz)
    expansion = _expansion(master, _leap(master, dtstart, window_start))
    picked: list[date | datetime] = []
    with expansion.lock:
        expansion.extend_to(end, master.id)
        starts = expansion.starts
        first = bisect_left(starts, window_start)
        for occ in starts[first:first + MAX_OCCURRENCES + 1]:
            if occ >= end:
                break
            if occ + duration > start or (duration == timedelta(0) and occ >= start):
                picked.append(occ.date() if master.all_day else occ)
    return picked


def series_end(master: Event) -> datetime | None:
    """The end of the series' last occurrence when its rule is known to have ended (every
    occurrence generated by an earlier expansion), else None (unbounded, or not generated that
    far yet). Lets a listing pass over a finished series without expanding it again for a new
    window: a calendar keeps every series it ever had (issue 25)."""
    expansion = _expansion(master, local_start_of(master.start, master.zone))
    with expansion.lock:
        if not expansion.done or not expansion.starts:
            return None
        last = expansion.starts[-1]
    return last + master.duration


def is_occurrence(master: Event, original: date | datetime) -> bool:
    """Whether `master`'s rule has an occurrence starting exactly at `original`."""
    tz = master.zone
    # Compare instants in UTC: two datetimes sharing a ZoneInfo compare by wall clock, which
    # disagrees with the instant for a time skipped by a DST change (02:30 on spring-forward day).
    probe = local_start_of(original, tz).astimezone(UTC)
    for occ in occurrences(master, probe, probe + timedelta(seconds=1)):
        if local_start_of(occ, tz).astimezone(UTC) == probe:
            return True
    return False


def virtual_instance(master: Event, original: date | datetime) -> Event:
    return virtual_instances(master, [original])[0]


def virtual_instances(master: Event, originals: Iterable[date | datetime]) -> list[Event]:
    """The occurrences of `master` starting at `originals` (zone and length worked out once)."""
    tz = master.zone
    end_tz = master.end_zone if master.end_timezone else tz  # a flight lands in its own zone
    duration = master.duration
    days = timedelta(days=duration.days or 1)
    made = []
    for original in originals:
        start: date | datetime
        end: date | datetime
        if master.all_day:
            start = as_date(original)
            end = start + days
        else:
            start = local_start_of(original, tz).astimezone(tz)
            end = (start + duration).astimezone(end_tz)
        made.append(Event(  # built directly: dataclasses.replace costs more in a listing
            id=instance_id(master.id, original), title=master.title, start=start,
            end=end, all_day=master.all_day, timezone=master.timezone, location=master.location,
            description=master.description, attendees=master.attendees, recurrence=None,
            calendar_id=master.calendar_id, version="0", recurring_event_id=master.id,
            original_start=original, status=master.status, reminders=master.reminders,
            end_timezone=master.end_timezone))
    return made
