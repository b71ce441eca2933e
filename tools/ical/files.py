"""Reading and writing iCalendar files (RFC 5545) for `import` and `export`.

Reading checks the whole file before anything is written, and names the line of the first
problem: a line that is not `NAME[;PARAMS]:VALUE`, a BEGIN without its END, a value that does not
parse, a repeat rule that cannot be read, or a TZID that is neither a VTIMEZONE of the file nor a
known zone (icalendar would read that time as floating, in whatever zone the reader is in: a
wrong time no one would notice). Each UID becomes one `FileSeries`: the event or series, the
occurrences its EXDATEs remove and its RECURRENCE-ID overrides.

Writing goes the other way from any backend's events (`series_for_export`): a series keeps its
RRULE, an occurrence that differs from its series becomes a RECURRENCE-ID override, and one that
is missing an EXDATE; every zone used gets its VTIMEZONE.
"""
from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import icalendar
from icalendar.parser import Contentline

from tools.calendar.events import Event, EventFieldError, as_date
from tools.calendar.occurrences import (
    instance_parts,
    instance_stamp,
    occurrences,
    stamp_original,
)
from tools.calendar.recurrence import check_recurrence
from tools.ical.events import (
    as_list,
    calendar_of,
    event_of,
    exdates,
    new_component,
    original_of,
)

TIME_PROPS = ("DTSTART", "DTEND", "RECURRENCE-ID", "EXDATE", "RDATE", "DUE")


class IcalFileError(ValueError):
    """A file that cannot be imported; the message names the file and the line."""

    is_usage_error = True

    def __init__(self, path: str, line: int | None, message: str) -> None:
        where = f"{path}, line {line}" if line else path
        super().__init__(f"{where}: {message}")
        self.line = line


@dataclass
class FileSeries:
    """One UID of a file: the event (with its rule), the occurrences it leaves out, and the
    occurrences it changes (each with the original start it replaces)."""

    uid: str
    event: Event
    excluded: list[date | datetime] = field(default_factory=list)
    overrides: list[Event] = field(default_factory=list)
    line: int = 0


@dataclass
class _Block:
    """Where one VEVENT of the file is: its BEGIN line and the first line of each property."""

    begin: int
    lines: dict[str, int] = field(default_factory=dict)


# ---------------------------------------------------------------------------- reading
def _logical_lines(text: str) -> list[tuple[int, str]]:
    """Unfolded lines, each with the number of the physical line it starts on."""
    out: list[tuple[int, str]] = []
    for number, raw in enumerate(re.split(r"\r\n|\n|\r", text), start=1):
        if raw[:1] in (" ", "\t") and out:
            out[-1] = (out[-1][0], out[-1][1] + raw[1:])
        elif raw.strip():
            out.append((number, raw))
    return out


def _scan(path: str, text: str) -> list[_Block]:
    """Check the structure line by line; the VEVENT blocks in file order."""
    lines = _logical_lines(text)
    if not lines or lines[0][1].strip().upper() != "BEGIN:VCALENDAR":
        raise IcalFileError(path, lines[0][0] if lines else None,
                            "not an iCalendar file (it must start with BEGIN:VCALENDAR)")
    stack: list[tuple[str, int]] = []
    blocks: list[_Block] = []
    for number, line in lines:
        try:
            name, _params, value = Contentline(line).parts()  # type: ignore[no-untyped-call]
        except (ValueError, IndexError) as exc:
            raise IcalFileError(path, number, f"cannot read this line ({exc})") from None
        name = name.upper()
        if name == "BEGIN":
            stack.append((value.upper(), number))
            if value.upper() == "VEVENT":
                blocks.append(_Block(number))
        elif name == "END":
            if not stack or stack[-1][0] != value.upper():
                expected = f"END:{stack[-1][0]}" if stack else "nothing more"
                raise IcalFileError(path, number, f"END:{value} where {expected} was expected")
            stack.pop()
        elif stack and stack[-1][0] == "VEVENT" and blocks:
            blocks[-1].lines.setdefault(name, number)
        if not stack and name == "END" and value.upper() == "VCALENDAR":
            continue
    if stack:
        kind, number = stack[-1]
        raise IcalFileError(path, number, f"BEGIN:{kind} has no END:{kind}")
    return blocks


def read_ics(path: str | Path, default_tz: str, text: str | None = None) -> list[FileSeries]:
    """Every event of an iCalendar file, checked in full first (IcalFileError names the line)."""
    name = str(path)
    if text is None:
        try:
            text = Path(path).read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise IcalFileError(name, None, f"not UTF-8 text ({exc.reason})") from None
        except OSError as exc:
            raise IcalFileError(name, None, exc.strerror or "cannot be read") from None
    blocks = _scan(name, text)
    try:
        cal = icalendar.Calendar.from_ical(text)
    except ValueError as exc:
        raise IcalFileError(name, None, f"not valid iCalendar ({exc})") from None
    components = [cast(icalendar.Event, c) for c in cal.walk("VEVENT")]
    if len(components) != len(blocks):  # pragma: no cover - the scan and the parser disagree
        raise IcalFileError(name, None, "the events of the file could not be told apart")
    by_uid: dict[str, list[tuple[icalendar.Event, _Block]]] = {}
    for component, block in zip(components, blocks, strict=True):
        _check_component(name, component, block)
        uid = str(component.get("UID") or "") or _made_uid(component)
        by_uid.setdefault(uid, []).append((component, block))
    return [_series(name, uid, parts, default_tz) for uid, parts in by_uid.items()]


def _made_uid(component: icalendar.Event) -> str:
    """A UID for an event that has none, the same on every import of the same event."""
    return "import-" + hashlib.sha1(component.to_ical()).hexdigest()[:20]


def _check_component(path: str, component: icalendar.Event, block: _Block) -> None:
    for prop_name, message in getattr(component, "errors", []) or []:
        raise IcalFileError(path, block.lines.get(str(prop_name).upper(), block.begin),
                            f"{prop_name}: {message}")
    if "DTSTART" not in component:
        raise IcalFileError(path, block.begin, "the event has no DTSTART")
    for prop_name in TIME_PROPS:
        for prop in as_list(component.get(prop_name)):
            tzid = prop.params.get("TZID") if getattr(prop, "params", None) else None
            values = [v.dt for v in prop.dts] if hasattr(prop, "dts") else [prop.dt]
            if tzid and any(isinstance(v, datetime) and v.tzinfo is None for v in values):
                raise IcalFileError(path, block.lines.get(prop_name, block.begin),
                                    f"time zone {tzid!r} is neither defined in the file "
                                    "(VTIMEZONE) nor a known zone")


def _series(path: str, uid: str, parts: list[tuple[icalendar.Event, _Block]],
            default_tz: str) -> FileSeries:
    master = next(((c, b) for c, b in parts if "RECURRENCE-ID" not in c), None)
    if master is None:  # only changed occurrences of a series the file does not hold
        component, block = parts[0]
        raise IcalFileError(path, block.begin, f"a changed occurrence (RECURRENCE-ID) of an "
                            f"event the file does not hold ({component.get('SUMMARY', '')!s})")
    component, block = master
    event = _event(path, component, block, uid, default_tz)
    try:
        check_recurrence(event.recurrence, event.start, event.timezone)
    except EventFieldError as exc:
        raise IcalFileError(path, block.lines.get("RRULE", block.begin), exc.message) from None
    excluded = [stamp_original(s) for s in sorted(exdates(component))]
    overrides = [_event(path, c, b, uid, default_tz) for c, b in parts if c is not component]
    return FileSeries(uid, event, excluded, overrides, block.begin)


def _event(path: str, component: icalendar.Event, block: _Block, uid: str,
           default_tz: str) -> Event:
    if "UID" not in component:
        component.add("UID", uid)
    try:
        return event_of(component, "", "", default_tz)
    except (EventFieldError, ValueError, TypeError, AttributeError) as exc:
        raise IcalFileError(path, block.begin, f"the event cannot be read ({exc})") from None


# ---------------------------------------------------------------------------- writing
def series_for_export(master: Event, listed: Iterable[Event], start: datetime,
                      end: datetime) -> list[icalendar.Event]:
    """The components of one event or series: for a series, an override for each listed
    occurrence that differs from what the rule makes, and an EXDATE for each missing one."""
    component = new_component(master, master.id)
    if not master.recurrence:
        return [component]
    made = {instance_stamp(o): o for o in occurrences(master, start, end)}
    seen: set[str] = set()
    overrides = []
    from tools.calendar.occurrences import virtual_instance

    for occ in listed:
        parts = instance_parts(occ.id)
        if parts is None:
            continue
        stamp = parts[1]
        seen.add(stamp)
        original = stamp_original(stamp)
        expected = virtual_instance(master, original.astimezone(master.zone)
                                    if isinstance(original, datetime) else original)
        if _differs(occ, expected):
            overrides.append(new_component(occ.with_changes(recurrence=None), master.id,
                                           original=expected.original_start or original))
    missing = [o for stamp, o in made.items() if stamp not in seen]
    if missing:
        from tools.ical.events import set_exdates

        set_exdates(component, [*_existing_exdates(component), *missing], master.timezone)
    return [component, *overrides]


def _existing_exdates(component: icalendar.Event) -> list[date | datetime]:
    return [stamp_original(s) for s in exdates(component)]


def _differs(a: Event, b: Event) -> bool:
    keys = ("title", "start", "end", "all_day", "location", "description", "attendees")
    return any(a.to_contract()[k] != b.to_contract()[k] for k in keys)


def export_calendar(groups: Iterable[list[icalendar.Event]]) -> bytes:
    """One VCALENDAR of every group's components, a VTIMEZONE for every zone they use."""
    return cast(bytes, calendar_of([c for group in groups for c in group]).to_ical())


def day_span(start: date, end: date, tz: Any) -> tuple[datetime, datetime]:
    """[start 00:00, the day after end 00:00) in `tz`: a DATE range read as whole days."""
    return (datetime.combine(start, datetime.min.time(), tzinfo=tz),
            datetime.combine(end + timedelta(days=1), datetime.min.time(), tzinfo=tz))


__all__ = ["FileSeries", "IcalFileError", "as_date", "day_span", "export_calendar", "original_of",
           "read_ics", "series_for_export"]
