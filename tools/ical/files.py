"""Reading and writing iCalendar files (RFC 5545) for `import` and `export`.

Reading checks the whole file before anything is written, and names the line of the first
problem: a line that is not `NAME[;PARAMS]:VALUE`, a BEGIN without its END, a value that does not
parse, a repeat rule that cannot be read, or a TZID that is neither a VTIMEZONE of the file nor a
known zone (icalendar would read that time as floating, in whatever zone the reader is in: a
wrong time no one would notice). Each UID becomes one `FileSeries`: the event or series, the
occurrences its EXDATEs remove and its RECURRENCE-ID overrides.

Reading is bounded (`tools.ical.limits`): the file's size, its lines, nesting, events and
components, its time zones (read here, by `tools.ical.zones`, never by icalendar's process-wide
cache) and the repeat-rule walking that checks which occurrences it changes; a file over a limit
is refused naming it. An event the file holds twice (one UID, no RECURRENCE-ID) is imported
once, the later version (highest SEQUENCE, else last in the file), with a note naming both
lines; an EXDATE that removes no occurrence is left aside with a note; a RECURRENCE-ID that
names no occurrence, and an event that has no length, are refused naming the line.

Writing goes the other way from any backend's events (`series_for_export`): a series keeps its
RRULE, an occurrence that differs from its series becomes a RECURRENCE-ID override, and one that
is missing an EXDATE; every zone used gets its VTIMEZONE.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any, cast
from zoneinfo import ZoneInfo

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
from tools.ical.limits import (
    LIMITS,
    Budget,
    IcalLimitError,
    IcalLimits,
    occurrence_key,
    occurrences_among,
)
from tools.ical.zones import FileZone, PartBlock, Prop, ZoneBlock, ZoneError, read_zones

TIME_PROPS = ("DTSTART", "DTEND", "RECURRENCE-ID", "EXDATE", "RDATE", "DUE")
TEXT_PROPS = ("UID", "SUMMARY", "LOCATION", "DESCRIPTION", "ATTENDEE")


class IcalFileError(ValueError):
    """A file that cannot be imported; the message names the file and the line."""

    is_usage_error = True

    def __init__(self, path: str, line: int | None, message: str) -> None:
        where = f"{path}, line {line}" if line else path
        super().__init__(one_line(f"{where}: {message}"))
        self.line = line


def one_line(text: str) -> str:
    """`text` with every character that could break or hide a line (controls, line and
    paragraph separators) written as an escape: a message quoting a file stays one line."""
    return "".join(ch if unicodedata.category(ch) not in ("Cc", "Zl", "Zp")
                   else ch.encode("unicode_escape").decode("ascii") for ch in text)


@dataclass
class FileSeries:
    """One UID of a file: the event (with its rule), the occurrences it leaves out, and the
    occurrences it changes (each with the original start it replaces). `notes` say, in words,
    what of the file was left aside (a second copy of the event, an EXDATE that removes no
    occurrence)."""

    uid: str
    event: Event
    excluded: list[date | datetime] = field(default_factory=list)
    overrides: list[Event] = field(default_factory=list)
    line: int = 0
    notes: list[str] = field(default_factory=list)


@dataclass
class _Block:
    """Where one VEVENT of the file is: its BEGIN line and the first line of each property."""

    begin: int
    lines: dict[str, int] = field(default_factory=dict)


@dataclass
class _Scan:
    """What the line-by-line pass found: the VEVENTs, the VTIMEZONEs (read here, not by
    icalendar: `tools.ical.zones`), the last year each TZID is used in, and the file without
    its VTIMEZONEs, for icalendar."""

    blocks: list[_Block]
    zones: list[ZoneBlock]
    zone_years: dict[str, int]
    text: str


# ---------------------------------------------------------------------------- reading
_LINE_BREAK = re.compile(r"\r\n|\n|\r")
_YEAR_RE = re.compile(r"(?<!\d)(\d{4})\d{4}(?:T|$|,)")


def _logical_lines(path: str, text: str, limits: IcalLimits) -> list[tuple[int, str]]:
    """Unfolded lines, each with the number of the physical line it starts on; a line longer
    than the limit is refused as soon as it gets there (folding it into pieces costs nothing
    more: the pieces are joined once)."""
    out: list[tuple[int, list[str], int]] = []
    for number, raw in enumerate(_LINE_BREAK.split(text), start=1):
        if raw[:1] in (" ", "\t") and out:
            first, pieces, length = out[-1]
            length += len(raw) - 1
            if length > limits.max_line_chars:
                raise IcalLimitError("max_line_chars", limits, first)
            pieces.append(raw[1:])
            out[-1] = (first, pieces, length)
        elif raw.strip():
            if len(raw) > limits.max_line_chars:
                raise IcalLimitError("max_line_chars", limits, number)
            out.append((number, [raw], len(raw)))
    return [(number, pieces[0] if len(pieces) == 1 else "".join(pieces))
            for number, pieces, _ in out]


def _scan(path: str, text: str, limits: IcalLimits) -> _Scan:
    """Check the structure line by line, within the file's limits; see `_Scan`."""
    lines = _logical_lines(path, text, limits)
    if not lines or lines[0][1].strip().upper() != "BEGIN:VCALENDAR":
        raise IcalFileError(path, lines[0][0] if lines else None,
                            "not an iCalendar file (it must start with BEGIN:VCALENDAR)")
    stack: list[tuple[str, int]] = []
    blocks: list[_Block] = []
    zones: list[ZoneBlock] = []
    zone_years: dict[str, int] = {}
    kept: list[str] = []
    components = changes = 0
    zone_depth: int | None = None  # where the VTIMEZONE being read began
    for number, line in lines:
        try:
            name, params, value = Contentline(line).parts()  # type: ignore[no-untyped-call]
        except (ValueError, IndexError) as exc:
            raise IcalFileError(path, number, f"cannot read this line ({exc})") from None
        name = name.upper()
        kind = value.upper()
        in_zone = zone_depth is not None
        if name == "BEGIN":
            stack.append((kind, number))
            components += 1
            if len(stack) > limits.max_depth:
                raise IcalLimitError("max_depth", limits, number)
            if components > limits.max_components:
                raise IcalLimitError("max_components", limits, number)
            if kind == "VEVENT" and not in_zone:
                blocks.append(_Block(number))
                if len(blocks) > limits.max_events:
                    raise IcalLimitError("max_events", limits, number)
            elif kind == "VTIMEZONE" and not in_zone:
                zone_depth = len(stack)
                zones.append(ZoneBlock(number))
            elif in_zone and len(stack) == (zone_depth or 0) + 1:
                zones[-1].parts.append(PartBlock(kind, number))
        elif name == "END":
            if not stack or stack[-1][0] != kind:
                expected = f"END:{stack[-1][0]}" if stack else "nothing more"
                raise IcalFileError(path, number, f"END:{value} where {expected} was expected")
            if in_zone and len(stack) == zone_depth:
                zone_depth = None
            stack.pop()
        elif in_zone:
            assert zone_depth is not None
            if len(stack) == zone_depth and name == "TZID" and not zones[-1].tzid:
                zones[-1].tzid = value
            elif len(stack) == zone_depth + 1:
                zones[-1].parts[-1].props.append(
                    Prop(number, name, {str(k).upper(): str(v) for k, v in params.items()}, value))
        else:
            if stack and stack[-1][0] == "VEVENT" and blocks:
                blocks[-1].lines.setdefault(name, number)
                if name in ("EXDATE", "RECURRENCE-ID"):
                    changes += value.count(",") + 1
                    if changes > limits.max_occurrence_changes:
                        raise IcalLimitError("max_occurrence_changes", limits, number)
            tzid = params.get("TZID")
            if tzid:
                years = [int(y) for y in _YEAR_RE.findall(value)]
                if years:
                    key = str(tzid).strip("/")
                    zone_years[key] = max(zone_years.get(key, 0), *years)
        if not in_zone and zone_depth is None:
            kept.append(line)
    if stack:
        kind, number = stack[-1]
        raise IcalFileError(path, number, f"BEGIN:{kind} has no END:{kind}")
    return _Scan(blocks, zones, zone_years, "\r\n".join(kept) + "\r\n")


def _read_text(name: str, limits: IcalLimits) -> str:
    try:
        with open(name, "rb") as handle:
            data = handle.read(limits.max_bytes + 1)
    except OSError as exc:
        raise IcalFileError(name, None, exc.strerror or "cannot be read") from None
    if len(data) > limits.max_bytes:
        raise IcalFileError(name, None, IcalLimitError("max_bytes", limits).message)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise IcalFileError(name, None, f"not UTF-8 text ({exc.reason})") from None


def read_ics(path: str | Path, default_tz: str, text: str | None = None,
             limits: IcalLimits = LIMITS) -> list[FileSeries]:
    """Every event of an iCalendar file, checked in full first (IcalFileError names the line),
    within `limits` (IcalFileError naming the limit)."""
    name = str(path)
    if text is None:
        text = _read_text(name, limits)
    elif len(text) > limits.max_bytes:
        raise IcalFileError(name, None, IcalLimitError("max_bytes", limits).message)
    try:
        scan = _scan(name, text, limits)
        zones = read_zones(scan.zones, scan.zone_years, limits)
    except (IcalLimitError, ZoneError) as exc:
        raise IcalFileError(name, exc.line, exc.message) from None
    try:
        cal = icalendar.Calendar.from_ical(scan.text)
    except Exception as exc:  # noqa: BLE001 - any failure of the parser on a file is a bad file
        raise IcalFileError(name, None, f"not valid iCalendar ({_short(exc)})") from None
    components = [cast(icalendar.Event, c) for c in cal.walk("VEVENT")]
    if len(components) != len(scan.blocks):  # pragma: no cover - the scan and the parser disagree
        raise IcalFileError(name, None, "the events of the file could not be told apart")
    by_uid: dict[str, list[tuple[icalendar.Event, _Block]]] = {}
    for component, block in zip(components, scan.blocks, strict=True):
        _check_parsed(name, component, block)
        _use_file_zones(component, zones)
        _check_component(name, component, block)
        uid = str(component.get("UID") or "") or _made_uid(component)
        by_uid.setdefault(uid, []).append((component, block))
    periods = Budget("max_rule_steps", limits)
    return [_series(name, uid, parts, default_tz, periods) for uid, parts in by_uid.items()]


def _short(exc: BaseException) -> str:
    """An exception's message on one line, capped: it is quoted in a one-line error."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:159] + "…"


def _made_uid(component: icalendar.Event) -> str:
    """A UID for an event that has none, the same on every import of the same event."""
    return "import-" + hashlib.sha1(component.to_ical()).hexdigest()[:20]


def _use_file_zones(component: icalendar.Event, zones: dict[str, FileZone]) -> None:
    """Times whose TZID is a zone the file defines are read in that zone (`tools.ical.zones`),
    unless the TZID is the name of a known zone (then icalendar has read it in that zone)."""
    if not zones:
        return
    for prop_name in TIME_PROPS:
        for prop in as_list(component.get(prop_name)):
            params = getattr(prop, "params", None)
            tzid = str(params.get("TZID") or "") if params else ""
            found = zones.get(tzid.strip("/")) if tzid else None
            if found is None:
                continue
            for value in (prop.dts if hasattr(prop, "dts") else [prop]):
                when = value.dt
                if isinstance(when, datetime) and not (isinstance(when.tzinfo, ZoneInfo)
                                                       and when.tzinfo.key == tzid.strip("/")):
                    value.dt = when.replace(tzinfo=found)


def _check_parsed(path: str, component: icalendar.Event, block: _Block) -> None:
    """Every property icalendar could not read is named (it keeps them aside as errors), and
    every time property holds dates or times (not a duration or a period)."""
    for prop_name, message in getattr(component, "errors", []) or []:
        raise IcalFileError(path, block.lines.get(str(prop_name).upper(), block.begin),
                            f"{prop_name}: {message}")
    for prop_name in TIME_PROPS:
        for prop in as_list(component.get(prop_name)):
            values = [v.dt for v in prop.dts] if hasattr(prop, "dts") else [getattr(prop, "dt", None)]
            if not all(isinstance(v, date) for v in values):
                raise IcalFileError(path, block.lines.get(prop_name, block.begin),
                                    f"{prop_name}: expected dates or dates and times")


def _check_component(path: str, component: icalendar.Event, block: _Block) -> None:
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
    for prop_name in TEXT_PROPS:
        for prop in as_list(component.get(prop_name)):
            if "\x00" in str(prop):
                raise IcalFileError(path, block.lines.get(prop_name, block.begin),
                                    f"{prop_name} holds a NUL character, which no calendar stores")


def _sequence(component: icalendar.Event) -> int:
    try:
        return int(str(component.get("SEQUENCE", 0)))
    except ValueError:
        return 0


def _latest(copies: list[tuple[icalendar.Event, _Block]], notes: list[str], what: str
            ) -> tuple[icalendar.Event, _Block]:
    """The copy to import of an event the file holds several times: the highest SEQUENCE (the
    latest version, RFC 5546), the last in the file among equals; each other one is a note."""
    kept = max(enumerate(copies), key=lambda item: (_sequence(item[1][0]), item[0]))[1]
    for _component, block in copies:
        if block is not kept[1]:
            notes.append(f"line {block.begin}: this event {what} the one at line {kept[1].begin}; "
                         f"only the later version (line {kept[1].begin}) is imported")
    return kept


def _series(path: str, uid: str, parts: list[tuple[icalendar.Event, _Block]],
            default_tz: str, periods: Budget) -> FileSeries:
    notes: list[str] = []
    masters = [(c, b) for c, b in parts if "RECURRENCE-ID" not in c]
    if not masters:  # only changed occurrences of a series the file does not hold
        _component, block = parts[0]
        raise IcalFileError(path, block.begin, "a changed occurrence (RECURRENCE-ID) of an "
                            "event the file does not hold")
    component, block = _latest(masters, notes, "has the same UID (and no RECURRENCE-ID) as")
    event = _event(path, component, block, uid, default_tz)
    try:
        check_recurrence(event.recurrence, event.start, event.timezone)
    except EventFieldError as exc:
        raise IcalFileError(path, block.lines.get("RRULE", block.begin), exc.message) from None
    changed = [b for c, b in parts if "RECURRENCE-ID" in c]
    if changed and not event.recurrence:
        raise IcalFileError(path, changed[0].lines.get("RECURRENCE-ID", changed[0].begin),
                            "a changed occurrence (RECURRENCE-ID) of an event that does not "
                            f"repeat (line {block.begin})")
    by_original: dict[str, list[tuple[icalendar.Event, _Block, Event]]] = {}
    for c, b in parts:
        if "RECURRENCE-ID" in c:
            made = _event(path, c, b, uid, default_tz)
            assert made.original_start is not None
            by_original.setdefault(instance_stamp(made.original_start), []).append((c, b, made))
    overrides: list[tuple[_Block, Event]] = []
    for copies in by_original.values():
        kept = _latest([(c, b) for c, b, _ in copies], notes,
                       "has the same UID and RECURRENCE-ID as")
        for c, b, made in copies:
            if b is not kept[1]:
                continue
            if made.end_instant == made.start_instant and "DTEND" not in c and "DURATION" not in c:
                made = made.with_changes(end=made.start + event.duration)  # the series' length
            if not made.all_day and made.end_instant <= made.start_instant:
                raise IcalFileError(path, b.lines.get("DTEND", b.begin),
                                    "the changed occurrence ends before it starts")
            overrides.append((b, made))
    excluded = [stamp_original(s) for s in sorted(exdates(component))]
    if not event.recurrence:
        if excluded:
            notes.append(f"line {block.lines.get('EXDATE', block.begin)}: EXDATE on an event that "
                         "does not repeat; left aside")
        return FileSeries(uid, event, [], [], block.begin, notes)
    originals = [*excluded, *(made.original_start for _, made in overrides
                              if made.original_start is not None)]
    try:
        found = occurrences_among(event, originals, periods, block.lines.get("RRULE", block.begin))
    except IcalLimitError as exc:
        raise IcalFileError(path, exc.line, exc.message) from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise IcalFileError(path, block.lines.get("RRULE", block.begin),
                            f"the repeat rule cannot be expanded ({_short(exc)})") from None
    for override_block, made in overrides:
        assert made.original_start is not None
        if occurrence_key(made.original_start, event) not in found:
            raise IcalFileError(path, override_block.lines.get("RECURRENCE-ID", override_block.begin),
                                "RECURRENCE-ID names a time at which the series (line "
                                f"{block.begin}) does not repeat")
    kept_excluded = [o for o in excluded if occurrence_key(o, event) in found]
    if len(kept_excluded) < len(excluded):
        notes.append(f"line {block.lines.get('EXDATE', block.begin)}: "
                     f"{len(excluded) - len(kept_excluded)} EXDATE value(s) name no occurrence of "
                     "the series; left aside")
    gone = {occurrence_key(o, event) for o in kept_excluded}
    kept_overrides = []
    for override_block, made in overrides:
        assert made.original_start is not None
        if occurrence_key(made.original_start, event) in gone:
            notes.append(f"line {override_block.begin}: a changed occurrence the series also "
                         "leaves out (EXDATE); it stays left out")
        else:
            kept_overrides.append(made)
    return FileSeries(uid, event, kept_excluded, kept_overrides, block.begin, notes)


def _event(path: str, component: icalendar.Event, block: _Block, uid: str,
           default_tz: str) -> Event:
    if "UID" not in component:
        component.add("UID", uid)
    try:
        made = event_of(component, "", "", default_tz)
    except (EventFieldError, ValueError, TypeError, AttributeError, OverflowError) as exc:
        raise IcalFileError(path, block.begin, f"the event cannot be read ({_short(exc)})") from None
    if made.original_start is None and not made.all_day and made.end_instant <= made.start_instant:
        where = block.lines.get("DTEND", block.lines.get("DURATION", block.begin))
        raise IcalFileError(path, where, "the event ends before it starts" if made.end_instant
                            < made.start_instant else "the event has no length (no DTEND or "
                            "DURATION, or one that ends as it starts); every event here lasts")
    return made


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
    keys = ("title", "start", "end", "all_day", "location", "description", "attendees",
            "reminders", "end_timezone")
    return any(a.to_contract().get(k) != b.to_contract().get(k) for k in keys)


def export_calendar(groups: Iterable[list[icalendar.Event]]) -> bytes:
    """One VCALENDAR of every group's components, a VTIMEZONE for every zone they use."""
    return cast(bytes, calendar_of([c for group in groups for c in group]).to_ical())


def day_span(start: date, end: date, tz: Any) -> tuple[datetime, datetime]:
    """[start 00:00, the day after end 00:00) in `tz`: a DATE range read as whole days."""
    return (datetime.combine(start, datetime.min.time(), tzinfo=tz),
            datetime.combine(end + timedelta(days=1), datetime.min.time(), tzinfo=tz))


__all__ = ["FileSeries", "IcalFileError", "as_date", "day_span", "export_calendar", "original_of",
           "read_ics", "series_for_export"]
