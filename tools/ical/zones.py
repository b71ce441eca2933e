"""The time zones an iCalendar file defines (VTIMEZONE), read within a bound.

icalendar hands a file's VTIMEZONE to dateutil's `tzical`, which expands each part's rule again
for every time it converts, from the part's first onset: a 2.5 KB file with twenty parts
repeating every second took minutes of CPU per time read. icalendar also keeps the zone for the
rest of the process under its TZID, so a second file defining the same name got the first one's.

So `import` reads a file's zones itself, from the file's own lines, and icalendar is given the
file without them. A part either lists its onsets (DTSTART, RDATE) or repeats yearly by month
and day (`FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`, the only kind of rule time zones are written with);
its onsets are worked out once, from its first onset to the end of the last year the file uses
the zone in, each month looked at spent from the file's budget (`tools.ical.limits`). The zone
then answers every conversion by bisection (`FileZone`).
"""
from __future__ import annotations

import calendar
import re
from bisect import bisect_right
from dataclasses import dataclass, field
from datetime import datetime, timedelta, tzinfo

from icalendar.prop import vDatetime, vUTCOffset

from tools.ical.limits import Budget, IcalLimitError, IcalLimits

ZERO = timedelta(0)
RULE_KEYS = frozenset({"FREQ", "INTERVAL", "COUNT", "UNTIL", "BYMONTH", "BYDAY", "BYMONTHDAY",
                       "WKST"})
WEEKDAYS = {"MO": 0, "TU": 1, "WE": 2, "TH": 3, "FR": 4, "SA": 5, "SU": 6}
_BYDAY_RE = re.compile(r"^([+-]?[1-5])?(MO|TU|WE|TH|FR|SA|SU)$")


class ZoneError(ValueError):
    """A VTIMEZONE that cannot be read; `line` is the line to name."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line = line
        self.message = message


@dataclass
class Prop:
    """One property line of the file: where it is, its name, parameters and value."""

    line: int
    name: str
    params: dict[str, str]
    value: str


@dataclass
class PartBlock:
    """One STANDARD or DAYLIGHT part of a VTIMEZONE, as the file wrote it."""

    kind: str
    line: int
    props: list[Prop] = field(default_factory=list)

    def get(self, name: str) -> Prop | None:
        return next((p for p in self.props if p.name == name), None)


@dataclass
class ZoneBlock:
    """One VTIMEZONE of the file, as it wrote it."""

    line: int
    tzid: str = ""
    parts: list[PartBlock] = field(default_factory=list)


@dataclass(frozen=True)
class _Part:
    kind: str
    line: int
    start: datetime  # naive wall time, in the offset before the onset
    offset_from: timedelta
    offset_to: timedelta
    name: str
    rule: dict[str, str] | None
    rule_line: int
    rdates: tuple[datetime, ...]


def _shift(when: datetime, by: timedelta) -> datetime:
    """`when + by`, held at the ends of the calendar (an onset in the year 1 or 9999)."""
    try:
        return when + by
    except OverflowError:
        return datetime.min if by < ZERO else datetime.max


class FileZone(tzinfo):
    """A zone from a file's VTIMEZONE: its onsets, worked out once, looked up by bisection."""

    def __init__(self, tzid: str, before: timedelta, before_name: str,
                 changes: list[tuple[datetime, timedelta, timedelta, str, bool]]) -> None:
        """`changes`: (instant in UTC, naive; offset after; offset before; name; daylight)."""
        self.tzid = tzid
        changes = sorted(changes, key=lambda c: c[0])
        self._utc = [c[0] for c in changes]
        self._offset = [c[1] for c in changes]
        self._name = [c[3] for c in changes]
        self._dst = [c[1] - c[2] if c[4] else ZERO for c in changes]
        self._before, self._before_name = before, before_name
        # wall clock just before and just after each onset (a gap or a repeated hour between)
        self._wall_before = [_shift(c[0], c[2]) for c in changes]
        self._wall_after = [_shift(c[0], c[1]) for c in changes]

    def __repr__(self) -> str:
        return f"FileZone({self.tzid!r})"

    def _index(self, dt: datetime) -> int:
        """The change in force at wall time `dt` (-1: before the first), PEP 495's way: in a
        repeated hour fold 0 is the earlier reading, in a skipped one the offset before."""
        wall = dt.replace(tzinfo=None, fold=0)
        index = bisect_right(self._wall_before, wall) - 1
        nxt = index + 1
        if dt.fold and nxt < len(self._utc) and self._wall_after[nxt] <= wall < self._wall_before[nxt]:
            return nxt  # the second reading of a repeated hour
        if index >= 0 and wall < self._wall_after[index] and not dt.fold:
            return index - 1  # a skipped hour reads with the offset before the change
        return index

    def utcoffset(self, dt: datetime | None) -> timedelta | None:
        if dt is None:
            return None
        index = self._index(dt)
        return self._offset[index] if index >= 0 else self._before

    def dst(self, dt: datetime | None) -> timedelta | None:
        if dt is None:
            return None
        index = self._index(dt)
        return self._dst[index] if index >= 0 else ZERO

    def tzname(self, dt: datetime | None) -> str | None:
        if dt is None:
            return self.tzid
        index = self._index(dt)
        return self._name[index] if index >= 0 else self._before_name

    def fromutc(self, dt: datetime) -> datetime:
        utc = dt.replace(tzinfo=None)
        index = bisect_right(self._utc, utc) - 1
        offset = self._offset[index] if index >= 0 else self._before
        wall = utc + offset
        fold = 1 if index >= 0 and wall < self._wall_before[index] else 0
        return (wall).replace(tzinfo=self, fold=fold)


# ---------------------------------------------------------------------------- reading parts
def _offset(part: PartBlock, name: str) -> timedelta:
    prop = part.get(name)
    if prop is None:
        raise ZoneError(part.line, f"the time zone part has no {name}")
    try:
        value = vUTCOffset.from_ical(prop.value.strip())  # type: ignore[no-untyped-call]
    except (ValueError, TypeError) as exc:
        raise ZoneError(prop.line, f"{name}: {exc}") from None
    if not isinstance(value, timedelta):  # pragma: no cover - vUTCOffset gives a timedelta
        raise ZoneError(prop.line, f"{name}: not an offset")
    return value


def _wall(prop: Prop, text: str) -> datetime:
    """A DATE-TIME of a time-zone part: local wall time (RFC 5545 writes them floating)."""
    try:
        value = vDatetime.from_ical(text.strip())  # type: ignore[no-untyped-call]
    except (ValueError, TypeError) as exc:
        raise ZoneError(prop.line, f"{prop.name}: not a date and time ({exc})") from None
    if not isinstance(value, datetime):
        raise ZoneError(prop.line, f"{prop.name}: not a date and time")
    return value.replace(tzinfo=None)


def _rule(prop: Prop) -> dict[str, str]:
    rule: dict[str, str] = {}
    for item in prop.value.strip().split(";"):
        key, sep, value = item.partition("=")
        key = key.strip().upper()
        if not sep or not key or key in rule:
            raise ZoneError(prop.line, f"RRULE: {item!r} is not KEY=VALUE once per key")
        rule[key] = value.strip().upper()
    unknown = sorted(set(rule) - RULE_KEYS)
    if rule.get("FREQ") != "YEARLY":
        raise ZoneError(prop.line, f"time zone parts repeat yearly; this one repeats "
                        f"{rule.get('FREQ', 'with no FREQ')} (only FREQ=YEARLY is read)")
    if unknown:
        raise ZoneError(prop.line, f"time zone rules by month and day are read; not "
                        f"{', '.join(unknown)}")
    return rule


def _part(block: PartBlock) -> _Part:
    start_prop = block.get("DTSTART")
    if start_prop is None:
        raise ZoneError(block.line, "the time zone part has no DTSTART")
    start = _wall(start_prop, start_prop.value)
    rule_prop = block.get("RRULE")
    rdates: list[datetime] = []
    for prop in block.props:
        if prop.name == "RDATE":
            if prop.params.get("VALUE", "DATE-TIME").upper() != "DATE-TIME":
                raise ZoneError(prop.line, "RDATE: a time zone's onsets are dates and times")
            rdates += [_wall(prop, text) for text in prop.value.split(",") if text.strip()]
    if sum(1 for p in block.props if p.name == "RRULE") > 1:
        raise ZoneError(block.line, "a time zone part has at most one RRULE")
    name_prop = block.get("TZNAME")
    return _Part(block.kind, block.line, start, _offset(block, "TZOFFSETFROM"),
                 _offset(block, "TZOFFSETTO"), name_prop.value.strip()[:64] if name_prop else "",
                 _rule(rule_prop) if rule_prop else None, rule_prop.line if rule_prop else block.line,
                 tuple(rdates))


def _numbers(text: str | None, low: int, high: int, key: str, line: int) -> list[int]:
    if text is None:
        return []
    out = []
    for item in text.split(","):
        try:
            value = int(item)
        except ValueError:
            raise ZoneError(line, f"RRULE: {key}={text} is not a list of numbers") from None
        if not low <= abs(value) <= high or (low < 0 and value == 0):
            raise ZoneError(line, f"RRULE: {key}={value} is out of range")
        out.append(value)
    return out


def _bydays(text: str | None, line: int) -> list[tuple[int, int]]:
    if text is None:
        return []
    out = []
    for item in text.split(","):
        match = _BYDAY_RE.match(item.strip())
        if match is None:
            raise ZoneError(line, f"RRULE: BYDAY={text} is not a list of weekdays like -1SU")
        out.append((int(match.group(1) or 0), WEEKDAYS[match.group(2)]))
    return out


def _until(text: str | None, part: _Part) -> datetime | None:
    """UNTIL as wall time in the offset before the onset (RFC 5545 writes it in UTC)."""
    if text is None:
        return None
    try:
        value: datetime = (vDatetime.from_ical(text)  # type: ignore[no-untyped-call]
                           if "T" in text else datetime.strptime(text, "%Y%m%d"))
    except (ValueError, TypeError):
        raise ZoneError(part.rule_line, f"RRULE: UNTIL={text} is not a date and time") from None
    if value.tzinfo is not None:
        return value.replace(tzinfo=None) + part.offset_from
    return value


def _month_days(year: int, month: int, monthdays: list[int], bydays: list[tuple[int, int]],
                day: int) -> list[int]:
    """The days of one month a yearly rule names (RFC 5545: BYMONTHDAY and BYDAY limit each
    other; an ordinal BYDAY counts within the month). Plain arithmetic on the month's first
    weekday: this runs for every month of every part."""
    first, length = calendar.monthrange(year, month)
    if monthdays:
        days = sorted({d if d > 0 else length + d + 1 for d in monthdays if -length <= d <= length})
    elif bydays:
        days = list(range(1, length + 1))
    else:
        return [day] if day <= length else []
    if not bydays:
        return days
    picked: set[int] = set()
    for nth, weekday in bydays:
        matching = [d for d in days if (first + d - 1) % 7 == weekday]
        if nth == 0:
            picked.update(matching)
        elif -len(matching) <= nth <= len(matching):
            picked.add(matching[nth - 1 if nth > 0 else nth])
    return sorted(picked)


def _onsets(part: _Part, last_year: int, steps: Budget, made_budget: Budget,
            tzid: str) -> list[datetime]:
    """The wall times (before the change) at which `part` takes effect, up to `last_year`:
    its DTSTART and RDATEs, or (as dateutil reads a rule) the RDATEs and the rule's own
    occurrences from DTSTART on (DTSTART itself only when the rule has it)."""
    rule = part.rule
    if rule is None:
        onsets = [part.start, *part.rdates]
        made_budget.spend(len(onsets), part.line)
        return onsets
    onsets = list(part.rdates)
    made_budget.spend(len(onsets), part.line)
    line = part.rule_line
    interval = (_numbers(rule.get("INTERVAL"), 1, 100, "INTERVAL", line) or [1])[0]
    counts = _numbers(rule.get("COUNT"), 1, 1_000_000, "COUNT", line)
    count = counts[0] if counts else None
    until = _until(rule.get("UNTIL"), part)
    months = sorted(set(_numbers(rule.get("BYMONTH"), 1, 12, "BYMONTH", line)))
    monthdays = _numbers(rule.get("BYMONTHDAY"), -31, 31, "BYMONTHDAY", line)
    bydays = _bydays(rule.get("BYDAY"), line)
    if any(n for n, _ in bydays) and not months:
        raise ZoneError(line, "RRULE: a BYDAY with a number (like -1SU) needs a BYMONTH")
    if not months:
        months = list(range(1, 13)) if monthdays or bydays else [part.start.month]
    made = 0
    start = part.start
    for year in range(start.year, last_year + 1, interval):
        for month in months:
            steps.spend(31, line, f"the time zone {tzid!r} changes its offset too often to work out")
            for day in _month_days(year, month, monthdays, bydays, start.day):
                at = start.replace(year=year, month=month, day=day)
                if at < start:
                    continue
                if until is not None and at > until:
                    return onsets
                made_budget.spend(1, line, f"the time zone {tzid!r} changes its offset too often")
                onsets.append(at)
                made += 1
                if count is not None and made >= count:
                    return onsets
    return onsets


def read_zones(blocks: list[ZoneBlock], last_years: dict[str, int],
               limits: IcalLimits) -> dict[str, FileZone]:
    """The file's zones by TZID (the first definition of a TZID counts), worked out up to the
    last year each is used in (`last_years`); a zone the file never uses is only checked."""
    steps = Budget("max_zone_steps", limits)
    onset_budget = Budget("max_zone_onsets", limits)
    parts_seen = 0
    zones: dict[str, FileZone] = {}
    for block in blocks:
        if not block.tzid:
            raise ZoneError(block.line, "the VTIMEZONE has no TZID")
        parts_seen += len(block.parts)
        if parts_seen > limits.max_zone_parts:
            raise IcalLimitError("max_zone_parts", limits, block.line)
        if not block.parts:
            raise ZoneError(block.line, f"the time zone {block.tzid!r} has no STANDARD or DAYLIGHT part")
        parts = [_part(p) for p in block.parts]
        tzid = block.tzid.strip("/")
        if tzid in zones:
            continue
        last_year = last_years.get(tzid)
        if last_year is None:
            continue
        changes: list[tuple[datetime, timedelta, timedelta, str, bool]] = []
        for part in parts:
            for onset in _onsets(part, last_year, steps, onset_budget, block.tzid):
                changes.append((_shift(onset, -part.offset_from), part.offset_to, part.offset_from,
                                part.name or block.tzid, part.kind == "DAYLIGHT"))
        first = min(parts, key=lambda p: p.start)
        zones[tzid] = FileZone(block.tzid, first.offset_from, first.name or block.tzid, changes)
    return zones


__all__ = ["FileZone", "PartBlock", "Prop", "ZoneBlock", "ZoneError", "read_zones"]
