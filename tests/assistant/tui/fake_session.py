"""A `ChatSession` for window tests that need no model, calendar or store: it answers from fixed
reports and events, so what such a test checks is the window alone."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from assistant.report import TurnObserver, TurnReport
from assistant.session.chat import ChangeLog, ChatSession
from tools.calendar.events import Event
from tools.journal.changes import Change, RedoReport
from tools.journal.journal import RollbackReport


class NoChanges:
    """A change log with nothing in it: undo and redo say there is nothing to do."""

    def recent(self) -> list[Change]:
        return []

    def last_undoable(self) -> str | None:
        return None

    def last_redoable(self) -> str | None:
        return None

    def undo(self, turn_id: str) -> RollbackReport | None:
        return None

    def redo(self, turn_id: str) -> RedoReport | None:
        return None


class FakeSession:
    """Answers each message with the next of `reports` (saying "checking the change…" first);
    `on_send` may change `events` as the turn's change would. `new_conversations` counts the
    fresh starts asked for."""

    def __init__(self, timezone: str, today: date, *, reports: list[TurnReport] | None = None,
                 events: list[Event] | None = None, recovered: list[RollbackReport] | None = None,
                 history: list[tuple[str, str]] | None = None,
                 on_send: Callable[[FakeSession], object] | None = None) -> None:
        self.timezone = timezone
        self.day = today
        self.reports = list(reports or [])
        self.events = list(events or [])
        self.recovered = list(recovered or [])
        self.notices: list[str] = []
        self.calendar_names: dict[str, str] = {}
        self.said = list(history or [])
        self.on_send = on_send
        self.changes: ChangeLog = NoChanges()
        self.new_conversations = 0

    def send(self, message: str, observer: TurnObserver) -> TurnReport:
        observer.on_status("checking the change…")
        report = self.reports.pop(0)
        if self.on_send is not None:
            self.on_send(self)
        return report

    def history(self) -> list[tuple[str, str]]:
        return list(self.said)

    def start_new_conversation(self) -> None:
        self.new_conversations += 1

    def agenda(self, days: int) -> list[Event]:
        return sorted(self.events, key=lambda e: e.start_instant)

    def today(self) -> date:
        return self.day


def factory(session: ChatSession) -> Callable[[Any], ChatSession]:
    """The app's session factory for a session made beforehand (the confirm callback unused)."""
    return lambda confirm: session
