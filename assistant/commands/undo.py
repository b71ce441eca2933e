"""`calendar-assistant undo [--yes]`: roll back the last turn's changes.

It goes through `tools.journal.changes.Changes`, like the chat's `/undo` (and ctrl+z) and MCP's
`undo_last_change`, so every door takes back the same change, says the same words about it (an
added event is "Removed", never "restored"; thousands are counted, not listed), and the chat's
redo can put it back. Like the chat, it shows what it will take back and asks first when that
is more than one event.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers, fail
from assistant.settings import load_settings

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    from tools.journal.changes import Change, Changes
    from tools.journal.journal import RollbackReport

NOTHING_TO_UNDO = "Nothing to undo."


@dataclass(frozen=True)
class UndoOutcome:
    """What one undo did: the rollback (None when there was nothing to take back) in words."""

    report: RollbackReport | None
    tz_name: str = "UTC"

    @property
    def message(self) -> str:
        from tools.journal.changes import rollback_words

        if self.report is None:
            return NOTHING_TO_UNDO
        return "Undone: " + "; ".join(rollback_words(self.report, self.tz_name)) + "."

    @property
    def exit_code(self) -> int:
        """0 when everything is back (or there was nothing to do), 1 when something could not be
        put back (the summary names it)."""
        return 0 if self.report is None or self.report.clean else 1


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("undo", help="roll back the last turn's changes")
    parser.add_argument("--yes", action="store_true",
                        help="undo without asking, even when it takes back several events")
    parser.set_defaults(run=run)


def _agreed(change: Change, tz_name: str) -> bool | None:
    """Show what the undo takes back and ask on the terminal: None when there is no terminal to
    ask on (a script, a pipe), else the person's answer (anything but yes is no)."""
    stdin = sys.stdin
    if stdin is None or stdin.closed or not stdin.isatty():
        return None
    count = len(change.events)
    print("This takes back:")
    for line in change.lines(tz_name):
        print(f"  {line}")
    try:
        answer = input(f"Undo these {count:,} changes? [y/N] ")
    except EOFError:
        return False
    return answer.strip().lower() in ("y", "yes")


def run(args: argparse.Namespace) -> int:
    """Undo the newest change that stands. More than one event is shown and asked about first
    (a whole import is one change): `--yes` skips the question, and with no terminal to ask on
    and no `--yes` nothing is undone (exit 2, one line)."""
    from assistant.services import build_services
    from tools.journal.changes import Changes
    settings = load_settings()
    with build_services(settings) as services:
        return _undo(args, Changes(services.journal), settings.timezone)


def _undo(args: argparse.Namespace, changes: Changes, tz_name: str) -> int:
    turn_id = changes.last_undoable()
    if turn_id is None:
        print(NOTHING_TO_UNDO)
        return 0
    pending = changes.standing(turn_id)
    count = len(pending.events) if pending is not None else 0
    if pending is not None and count > 1 and not args.yes:
        agreed = _agreed(pending, tz_name)
        if agreed is None:
            fail(f"undo: the last change takes back {count:,} events; pass --yes to undo them "
                 "without a terminal to ask on")
        if not agreed:
            print("Nothing was undone.")
            return 1
    outcome = UndoOutcome(changes.undo(turn_id), tz_name)
    print(outcome.message)
    return outcome.exit_code
