"""`calendar-assistant import FILE [--dry-run]`: the events of an iCalendar file into the
configured calendar, as one change `undo` takes back (CONTRACT section 8).

The file is checked in full before anything is written, within the limits of
`tools.ical.limits`: a malformed one, or one over a limit, exits 2 naming the line (and the limit)
and writes nothing. What of the file is left aside (a second copy of an event, an EXDATE that
removes no occurrence) is said on stderr, one line each. An event whose UID is already in the
calendar is updated, not duplicated. `--dry-run` prints what would change, in words, and writes
nothing.
"""
from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers, fail
from assistant.settings import load_settings

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("import", help="add the events of an iCalendar (.ics) file")
    parser.add_argument("file", help="the .ics file to read")
    parser.add_argument("--dry-run", action="store_true",
                        help="print what would change and write nothing")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.services import build_services  # the store and the parser: only when run
    from tools.ical.files import IcalFileError, read_ics
    from tools.ical_import import ImportFailed, apply_import, plan_import
    from tools.masking import mask_secrets
    settings = load_settings()
    try:
        series = read_ics(args.file, settings.timezone)
    except IcalFileError as exc:
        fail(str(exc))
    for item in series:
        for note in item.notes:
            print(f"calendar-assistant: {args.file}, {note}", file=sys.stderr)
    with build_services(settings) as services:
        steps = plan_import(services.backend, services.calendar_id, series, settings.timezone)
        if not steps:
            print("Nothing to import: the calendar already has every event of the file.")
            return 0
        if args.dry_run:
            print(f"Importing {args.file} would:")
            for step in steps:
                print(f"  {step.words}")
            print("Nothing was written (dry run).")
            return 0
        try:
            apply_import(services.journal, services.calendar_id, steps)
        except ImportFailed as exc:
            print(f"calendar-assistant: {mask_secrets(str(exc))}", file=sys.stderr)
            return 1
    count = len(steps)
    print(f"Imported {args.file}: {count} change{'' if count == 1 else 's'}. `calendar-assistant "
          f"undo` takes {'it' if count == 1 else 'them'} back.")
    return 0
