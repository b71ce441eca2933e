"""What an undo (or a redo) did, in words and as cards."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from assistant.tui.formatting import undo_lines
from assistant.tui.widgets.event_card import EventCardView
from tools.calendar.events import EventCard
from tools.journal.changes import RedoReport
from tools.journal.journal import RollbackReport

CARDS_SHOWN = 10
"""Cards an undo shows at most; its words count the rest (an undone import of thousands)."""

class UndoView(Vertical):
    """What an undo (or a redo) did, in words and as cards."""

    def __init__(self, rollback: RollbackReport | RedoReport, tz_name: str, *, redo: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rollback = rollback
        self.tz_name = tz_name
        self.redo = redo

    @property
    def plain(self) -> str:
        head = "Redone." if self.redo else "Undone."
        return "\n".join([head, *undo_lines(self.rollback, self.tz_name)])

    def compose(self) -> ComposeResult:
        lines = undo_lines(self.rollback, self.tz_name)
        head = "↷ Redone" if self.redo else "↶ Undone"
        head += "." if self.rollback.clean else ", except where it could not be."
        yield Static(Text.assemble((head, "bold"), *[("\n" + line) for line in lines]),
                     classes="undo-summary")
        for item in self.rollback.restored[:CARDS_SHOWN]:  # a big undo is counted in the words
            if item.restored is not None and item.wrong is not None:
                card = EventCard("updated", item.restored, item.wrong)
            elif item.restored is not None:
                card = EventCard("created", item.restored)
            elif item.wrong is not None:
                card = EventCard("deleted", None, item.wrong)
            else:
                continue
            yield EventCardView(card, self.tz_name, classes="card")
