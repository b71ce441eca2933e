"""`calendar-assistant calendars`: the calendars of the configured backend, the one in use starred.

On CalDAV these are the account's calendars, by display name and URL; the setting
`CALENDAR_ASSISTANT_CALENDAR` may name one either way.
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers
from assistant.settings import load_settings

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("calendars", help="list the calendars of the configured backend")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.services import Stores, build_backend, primary_calendar
    settings = load_settings()
    with Stores(settings) as stores:
        backend = build_backend(settings, stores)
        # a CalDAV setting may be a display name: the backend resolves it to the calendar's URL
        current = backend.primary_calendar_id() if settings.backend == "caldav" and \
            settings.calendar_id else primary_calendar(settings, backend)[0]
        for cal in backend.calendars():
            mark = "*" if cal.id == current else " "
            primary = " (primary)" if cal.primary else ""
            print(f"{mark} {cal.id}\t{cal.name}{primary}")
    return 0
