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
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.commands.usage import Days, Subparsers, fail, fixed_now, read_days
from assistant.settings import load_settings
from tools.calendar.events import Event, zone

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass

DEFAULT_YEARS = 5


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("export", help="write the calendar to an iCalendar (.ics) file")
    parser.add_argument("file", help="the .ics file to write ('-' for standard output)")
    parser.add_argument("--from", dest="start", metavar="DAY",
                        help="first day: YYYY-MM-DD or words such as 'next monday' (a span such as "
                        "'next week' starts on its first day; default: five years ago)")
    parser.add_argument("--to", dest="end", metavar="DAY",
                        help="last day included: YYYY-MM-DD or words such as 'end of the month' (a "
                        "span ends on its last day; default: five years ahead)")
    parser.add_argument("--now", help="read the days as if it were this ISO date or datetime "
                        "(naive means wall time in the configured zone)")
    parser.set_defaults(run=run)


def _days(text: str | None, now: datetime, tz_name: str, option: str) -> Days | None:
    """`--from`/`--to` read as days (`usage.read_days`); an ambiguous phrase's choice is said on
    stderr, since the file written depends on it."""
    if text is None:
        return None
    days = read_days(text, now, tz_name, f"export {option}")
    if days.note:
        print(f"calendar-assistant: {days.note}", file=sys.stderr)
    return days


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
    now = fixed_now(args.now, settings.timezone) or datetime.now(tz)
    today = now.date()
    start_days = _days(args.start, now, settings.timezone, "--from")
    end_days = _days(args.end, now, settings.timezone, "--to")
    first = start_days.first if start_days else today - timedelta(days=365 * DEFAULT_YEARS)
    last = end_days.last if end_days else today + timedelta(days=365 * DEFAULT_YEARS)
    if last < first:
        fail(f"--to {last} is before --from {first}")
    start, end = day_span(first, last, tz)
    with build_services(settings, one_shot=True) as services:
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
    print(f"Wrote {count} event{'' if count == 1 else 's'} to {args.file}.", file=sys.stderr)
    return 0
