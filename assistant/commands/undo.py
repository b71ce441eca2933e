"""`calendar-assistant undo`: roll back the last turn's changes.

It goes through `tools.journal.changes.Changes`, like the chat's `/undo` (and ctrl+z), so the command
line and the window take back the same change, say the same words about it (an added event is
"Removed", never "restored"), and the chat's redo can put it back.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass

from assistant.commands.usage import Subparsers
from assistant.services import build_services
from assistant.settings import load_settings
from tools.journal.changes import Changes, rollback_words
from tools.journal.journal import RollbackReport

NOTHING_TO_UNDO = "Nothing to undo."


@dataclass(frozen=True)
class UndoOutcome:
    """What one undo did: the rollback (None when there was nothing to take back) in words."""

    report: RollbackReport | None
    tz_name: str = "UTC"

    @property
    def message(self) -> str:
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    settings = load_settings()
    outcome = UndoOutcome(Changes(build_services(settings).journal).undo(), settings.timezone)
    print(outcome.message)
    return outcome.exit_code
