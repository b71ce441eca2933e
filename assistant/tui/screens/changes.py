"""The recent changes, newest first: undo any that still stands, or redo one undone."""
from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList
from textual.widgets.option_list import Option

from assistant.tui.formatting import calendar_tag
from tools.journal.changes import Change


class ChangesScreen(ModalScreen[tuple[str, str] | None]):
    """The recent changes, newest first; enter undoes the chosen one, or redoes one undone."""

    BINDINGS = [Binding("escape,q,f4", "close", "Close")]

    def __init__(self, changes: list[Change], tz_name: str,
                 calendar_names: Mapping[str, str] | None = None) -> None:
        super().__init__()
        self.changes = changes
        self.tz_name = tz_name
        self.calendar_names = calendar_names or {}  # several calendars: whose each event is

    def compose(self) -> ComposeResult:
        options = []
        for change in self.changes:
            text = Text()
            text.append(change.headline(self.tz_name), style="bold")
            lines = change.lines(self.tz_name)
            counted = len(lines) != len(change.events)  # a big change is counted, not listed
            for n, line in enumerate(lines):
                text.append("\n  ")
                name = None if counted else self.calendar_names.get(change.events[n].calendar_id)
                if name:  # first, so a long sentence that wraps never parts the dot from its name
                    text.append_text(calendar_tag(name)).append("  ")
                text.append(line)
            verb = "enter: undo" if change.undoable else "enter: redo" if change.redoable else "redone"
            text.append(f"\n  ({verb})", style="italic")
            options.append(Option(text, id=change.turn_id, disabled=not (change.undoable or change.redoable)))
        with Vertical(id="changes"):
            yield OptionList(*options, id="change-list")
        yield Footer()

    def on_mount(self) -> None:
        box = self.query_one("#changes")
        box.border_title = "Recent changes"
        box.border_subtitle = "enter: undo / redo · escape: close"
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        change = next(c for c in self.changes if c.turn_id == event.option.id)
        self.dismiss(("undo" if change.undoable else "redo", change.turn_id))

    def action_close(self) -> None:
        self.dismiss(None)
