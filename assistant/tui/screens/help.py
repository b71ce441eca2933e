"""The key bindings and slash commands."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

KEYS: list[tuple[str, str]] = [
    ("enter", "send the message"),
    ("ctrl+z  /undo", "undo the last request's changes (asks first)"),
    ("ctrl+y  /redo", "put back what the last undo took back"),
    ("f4  /changes", "recent changes: undo or redo any of them"),
    ("ctrl+n  /clear", "new conversation (the calendar is kept)"),
    ("ctrl+r  /retry", "retry the last request after an error"),
    ("ctrl+f  /why", "why this confidence: the guard's findings and facts"),
    ("ctrl+g  /agenda", "show or hide the agenda"),
    ("pgup  pgdn", "scroll the conversation (while you type, too)"),
    ("f1  /help", "this help"),
    ("ctrl+p", "command palette (every action)"),
    ("ctrl+q  /quit", "quit"),
]


class HelpScreen(ModalScreen[None]):
    """The key bindings and slash commands."""

    BINDINGS = [Binding("escape,q,f1", "close", "Close")]

    def compose(self) -> ComposeResult:
        text = Text()
        text.append("Type what you want done, e.g. \"move dinner to next Friday\".\n"
                    "Every change is checked against what you said before you see it; a wrong\n"
                    "change is rolled back and redone. The badge under a reply says how sure\n"
                    "the assistant is.\n\n")
        for key, what in KEYS:
            text.append(f"{key:<18}", style="bold")
            text.append(f"{what}\n")
        with Vertical(id="help"):
            yield Static(text)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#help").border_title = "Help"
        self.query_one("#help").border_subtitle = "escape: close"

    def action_close(self) -> None:
        self.dismiss(None)
