"""`calendar-assistant agenda [--days N] [--json]`: the coming events of the configured calendar.

The text is for family members: each event's day and time in words in the person's zone, its
title and place, never an event id. `--json` gives the contract's event objects (section 2).
The events come from `Services.agenda`, the same listing the chat's agenda panel shows, and the
words from `assistant.tui.formatting`, the same sentences the chat prints.
"""
from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers, fixed_now, positive_int
from assistant.settings import load_settings
from tools.calendar.events import Event, plain_text, zone

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("agenda", help="print the coming events")
    parser.add_argument("--days", type=positive_int, default=7)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--now", help="list from this ISO date or datetime instead of the clock "
                        "(naive means wall time in the configured zone)")
    parser.set_defaults(run=run)


def agenda_lines(events: list[Event], tz_name: str) -> list[str]:
    """One line per event: `Tuesday, October 21, 6:00 PM – 7:30 PM  Family dinner  @ 123 Maple St`,
    and `  ⚠ overlaps Dentist` after a timed event that overlaps another (the guard's conflict
    rule: all-day events overlap nothing)."""
    from assistant.tui.formatting import when_label
    from tools.calendar.free_time import overlapping
    clashes = overlapping(events)
    lines = []
    for event in events:
        place = f"  @ {plain_text(event.location)}" if event.location else ""
        clash = ""
        if event.id in clashes:
            clash = "  ⚠ overlaps " + ", ".join(plain_text(o.title) for o in clashes[event.id])
        lines.append(f"{when_label(event, tz_name)}  {plain_text(event.title)}{place}{clash}")
    return lines


def run(args: argparse.Namespace) -> int:
    from assistant.services import build_services
    settings = load_settings()
    now = fixed_now(args.now, settings.timezone) or datetime.now(zone(settings.timezone))
    with build_services(settings) as services:
        events = services.agenda(now, args.days)
        unreadable = services.backend.skipped_series()
    for skipped in unreadable:
        print(f"calendar-assistant: warning: the repeating event '{plain_text(skipped.title)}' is "
              "not listed: its repeat rule cannot be read", file=sys.stderr)
    if args.json:
        print(json.dumps([e.to_contract() for e in events], indent=1))
        return 0
    if not events:
        print(f"No events in the next {args.days} day(s).")
    for line in agenda_lines(events, settings.timezone):
        print(line)
    return 0
