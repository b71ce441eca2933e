"""`calendar-assistant export FILE [--from DATE] [--to DATE]`: the configured calendar as an
iCalendar file (CONTRACT section 8).

Series keep their RRULE, changed occurrences become RECURRENCE-ID overrides, removed ones
EXDATEs, and every zone used gets its VTIMEZONE (`tools.ical.files.series_for_export`). The
window says which events go in (those overlapping it, each series whole); by default the five
years either side of today. `FILE` may be `-` for standard output.
"""
from __future__ import annotations

import argparse
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers, fail
from assistant.settings import load_settings
from tools.calendar.events import Event, zone

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass

DEFAULT_YEARS = 5


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("export", help="write the calendar to an iCalendar (.ics) file")
    parser.add_argument("file", help="the .ics file to write ('-' for standard output)")
    parser.add_argument("--from", dest="start", type=_day, help="first day (YYYY-MM-DD)")
    parser.add_argument("--to", dest="end", type=_day, help="last day included (YYYY-MM-DD)")
    parser.set_defaults(run=run)


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date as YYYY-MM-DD, got {text!r}") from None


def export_bytes(events: list[Event], masters: dict[str, Event], start: datetime,
                 end: datetime) -> bytes:
    """The file for the listed `events` (occurrences grouped under their series' `masters`)."""
    from tools.ical.files import export_calendar, series_for_export
    by_series: dict[str, list[Event]] = {}
    singles: list[Event] = []
    for event in events:
        if event.recurring_event_id:
            by_series.setdefault(event.recurring_event_id, []).append(event)
        else:
            singles.append(event)
    groups = [series_for_export(e, [], start, end) for e in singles]
    groups += [series_for_export(masters[sid], listed, start, end)
               for sid, listed in by_series.items() if sid in masters]
    return export_calendar(groups)


def run(args: argparse.Namespace) -> int:
    from assistant.services import build_services
    from tools.ical.files import day_span
    settings = load_settings()
    tz = zone(settings.timezone)
    today = datetime.now(tz).date()
    first = args.start or today - timedelta(days=365 * DEFAULT_YEARS)
    last = args.end or today + timedelta(days=365 * DEFAULT_YEARS)
    if last < first:
        fail(f"--to {last} is before --from {first}")
    start, end = day_span(first, last, tz)
    with build_services(settings) as services:
        backend, cal = services.backend, services.calendar_id
        events = backend.list_events(cal, start, end)
        masters: dict[str, Event] = {}
        for series_id in dict.fromkeys(e.recurring_event_id for e in events if e.recurring_event_id):
            master = backend.get_event(cal, series_id)
            if master is not None:
                masters[series_id] = master
    data = export_bytes(events, masters, start, end)
    if args.file == "-":
        sys.stdout.buffer.write(data)
        return 0
    try:
        Path(args.file).write_bytes(data)
    except OSError as exc:
        fail(f"{args.file}: {exc.strerror or exc}")
    count = len({e.recurring_event_id or e.id for e in events})
    print(f"Wrote {count} event(s) to {args.file}.", file=sys.stderr)
    return 0
