"""`calendar-assistant undo`: roll back the last turn's changes.

The chat's `/undo` (and ctrl+z) runs the same `undo_last` after its confirmation dialog, so the
command line and the window take back the same change and say the same words about it.
"""
from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Protocol

from assistant.commands.usage import Subparsers
from assistant.services import build_services
from assistant.settings import load_settings
from tools.journal import RollbackReport

NOTHING_TO_UNDO = "Nothing to undo."


class CanUndo(Protocol):
    """Anything that takes back the last change: the journal, or the chat's agent."""

    def undo_last(self) -> RollbackReport | None: ...


@dataclass(frozen=True)
class UndoOutcome:
    """What one undo did: the rollback (None when there was nothing to take back) in words."""

    report: RollbackReport | None

    @property
    def message(self) -> str:
        return NOTHING_TO_UNDO if self.report is None else self.report.summary()

    @property
    def exit_code(self) -> int:
        """0 when everything is back (or there was nothing to do), 1 when something could not be
        put back (the summary names it)."""
        return 0 if self.report is None or self.report.clean else 1


def undo_last(source: CanUndo) -> UndoOutcome:
    """Take back the last recorded change of `source`."""
    return UndoOutcome(source.undo_last())


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("undo", help="roll back the last turn's changes")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    outcome = undo_last(build_services(load_settings()).journal)
    print(outcome.message)
    return outcome.exit_code
