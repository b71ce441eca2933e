"""`calendar-assistant agenda [WHEN] [--days N] [--json]`: the events of the configured calendar,
from today or for the days WHEN names ("tomorrow", "friday", "next week", as khal and gcalcli
users type them; read by `usage.read_days`, with the project's own resolver).

The text is for family members: grouped under a heading per day, each event's time in words and
the zone named once at the top, its title and place, never an event id. `--json` gives the
contract's event objects (section 2), unchanged by the grouping. The events come from
`Services.agenda`, the same listing the chat's agenda panel shows, and the words from
`tools.calendar.wording`, the same sentences the chat prints.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from datetime import date, datetime, time, timedelta

from assistant.commands.usage import Subparsers, fixed_now, positive_int, read_days, span_words
from assistant.session.spoken import zone_words
from assistant.settings import load_settings
from tools.calendar.events import Event, as_date, plain_text, zone

DEFAULT_DAYS = 7


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "agenda", help="print the coming events, or those of the days you name",
        description="Print the events of the configured calendar, grouped by day. WHEN names the "
        "days in words, read as the chat reads them: tomorrow, friday, next week, this weekend, "
        "nov 3, 2025-11-03. A phrase with two readings ('next friday' said on a Monday) shows "
        "the first and says so on stderr, naming the other.")
    parser.add_argument("when", nargs="*", metavar="WHEN",
                        help="the day or days to list, in words (default: from today)")
    parser.add_argument("--days", type=positive_int, default=None,
                        help=f"how many days to list (default {DEFAULT_DAYS} from today; with WHEN, "
                        "the days it names, or this many from its first day)")
    parser.add_argument("--json", action="store_true",
                        help="print the events as a JSON list of event objects instead of words")
    parser.add_argument("--now", help="list from this ISO date or datetime instead of the clock "
                        "(naive means wall time in the configured zone)")
    parser.set_defaults(run=run)


def plural(count: int, word: str) -> str:
    """`1 day`, `3 days`."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _local(value: date | datetime, event: Event, tz_name: str) -> datetime:
    if isinstance(value, datetime):
        return value.astimezone(zone(tz_name))
    return datetime.combine(value, time(0), tzinfo=event.zone).astimezone(zone(tz_name))


def listed_day(event: Event, tz_name: str, first: date) -> date:
    """The day an event is listed under: the day it starts, or the first day shown when it
    started before (a trip already under way)."""
    start = as_date(event.start) if event.all_day else _local(event.start, event, tz_name).date()
    return max(start, first)


def time_words(event: Event, tz_name: str, day: date) -> str:
    """The time column under a day heading: `6:00 PM – 7:30 PM`, `11:00 PM – Saturday, October 25,
    1:00 AM`, `all day`, `all day, until Sunday, October 26`, `since Monday, October 20, 9:00 AM
    – 5:00 PM`."""
    from tools.calendar.wording import clock_label, day_label

    if event.all_day:
        last = as_date(event.end) - timedelta(days=1)
        return "all day" if last <= day else f"all day, until {day_label(last)}"
    start, end = _local(event.start, event, tz_name), _local(event.end, event, tz_name)
    begins = clock_label(start) if start.date() == day else f"since {day_label(start.date())}, {clock_label(start)}"
    ends = clock_label(end) if end.date() == start.date() else f"{day_label(end.date())}, {clock_label(end)}"
    return f"{begins} – {ends}"


OVERLAPS_NAMED = 3
"""At most this many overlapping events are named on an event's line; the rest are counted."""


def overlap_words(others: list[Event]) -> str:
    """`Dentist, Soccer and Lunch`, or `Dentist, Soccer, Lunch and 12 more`: a line a person
    reads, not a list as long as a busy day (a dense calendar named sixty events per line)."""
    names = [plain_text(o.title) for o in others[:OVERLAPS_NAMED]]
    rest = len(others) - len(names)
    if rest:
        return ", ".join(names) + f" and {rest} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def agenda_lines(events: list[Event], tz_name: str, first: date = date.min,
                 calendar_names: Mapping[str, str] | None = None) -> list[str]:
    """A heading per day that has events, then one line per event: `  6:00 PM – 7:30 PM  Family
    dinner  @ 123 Maple St`, with `  ⚠ overlaps Dentist` after a timed event that overlaps another
    (the guard's conflict rule: all-day events overlap nothing). An event with reminders of its
    own says them (`· reminder 1 day before`), and one that ends in another zone says both ends
    in their zones' time (`(Chicago 9:00 AM → London 10:40 PM)`). An event that began before
    `first` (the first day shown) is listed under it. With `calendar_names` (an agenda over
    several calendars) each line says whose calendar the event is on: `  (Leo)`, and only
    events of one calendar are said to overlap."""
    from tools.calendar.free_time import overlapping
    from tools.calendar.wording import day_label, reminder_words, two_zone_span

    # over several calendars, an overlap is one calendar's own: the family's calendars side by
    # side overlap all the time, and that is no clash for anyone (the guard's rule too)
    by_calendar: dict[str, list[Event]] = {}
    for event in events:
        by_calendar.setdefault(event.calendar_id if calendar_names is not None else "", []).append(event)
    clashes = {(calendar_id, event_id): others for calendar_id, group in by_calendar.items()
               for event_id, others in overlapping(group).items()}
    by_day: dict[date, list[Event]] = {}
    for event in events:
        by_day.setdefault(listed_day(event, tz_name, first), []).append(event)
    lines: list[str] = []
    for day in sorted(by_day):
        lines += ([""] if lines else []) + [day_label(day)]
        for event in by_day[day]:
            place = f"  @ {plain_text(event.location)}" if event.location else ""
            clash = ""
            others = clashes.get((event.calendar_id if calendar_names is not None else "", event.id))
            if others:
                clash = "  ⚠ overlaps " + overlap_words(others)
            whose = ""
            if calendar_names is not None:
                whose = f"  ({plain_text(calendar_names.get(event.calendar_id) or event.calendar_id)})"
            flight = two_zone_span(event)
            zones = f"  ({flight})" if flight else ""
            reminded = reminder_words(event.reminders)
            reminders = f"  · {reminded}" if reminded else ""
            lines.append(f"  {time_words(event, tz_name, day)}  {plain_text(event.title)}{zones}"
                         f"{place}{reminders}{whose}{clash}")
    return lines


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    now = fixed_now(args.now, settings.timezone) or datetime.now(zone(settings.timezone))
    phrase = " ".join(args.when)
    first, days, span = now.date(), args.days or DEFAULT_DAYS, None
    if phrase:
        named = read_days(phrase, now, settings.timezone, "agenda")
        if named.note:
            print(f"calendar-assistant: {named.note}", file=sys.stderr)
        first = named.first
        days = args.days or (named.last - named.first).days + 1
        span = span_words(named) if args.days is None else None
    from assistant.services import build_services

    start = datetime.combine(first, time(0), tzinfo=now.tzinfo)
    with build_services(settings, one_shot=True) as services:
        listing = services.agenda_listing(start, days)
        several = len(services.calendars.ids) > 1
        names = dict(services.calendars.names) if several else None
    events = listing.events
    for skipped in listing.skipped:
        print(f"calendar-assistant: warning: the repeating event '{plain_text(skipped.title)}' is "
              "not listed: its repeat rule cannot be read", file=sys.stderr)
    for calendar_id, why in listing.unreadable.items():
        name = names.get(calendar_id, calendar_id) if names else calendar_id
        print(f"calendar-assistant: warning: the calendar '{plain_text(name)}' could not be read, "
              f"so its events are not listed ({plain_text(why)})", file=sys.stderr)
    if args.json:  # a listing over several calendars says each event's (CONTRACT section 2)
        print(json.dumps([{**e.to_contract(), "calendar_id": e.calendar_id} if several
                          else e.to_contract() for e in events], indent=1))
        return 0
    from tools.calendar.wording import day_label

    last = first + timedelta(days=days - 1)
    default = first == now.date() and not phrase
    if not events:
        print("No events " + (f"in the next {plural(days, 'day')}." if default else
                              f"on {day_label(first)}." if days == 1 else
                              f"from {day_label(first)} to {day_label(last)}."))
        return 0
    if span is None:
        span = f"the next {plural(days, 'day')}" if default else \
            day_label(first) if days == 1 else f"{day_label(first)} – {day_label(last)}"
    where = zone_words(settings.timezone)  # said once, not on every line: "Los Angeles time"
    print(f"Times are {where}" if days == 1 else f"{span[0].upper()}{span[1:]} · {where}")
    print()
    for line in agenda_lines(events, settings.timezone, first, names):
        print(line)
    return 0
