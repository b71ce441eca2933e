"""The guard's findings and the computed facts of one turn: what its confidence rests on."""
from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown


class FindingsScreen(ModalScreen[None]):
    """The guard's findings and the computed facts of one turn (what the confidence rests on)."""

    BINDINGS = [Binding("escape,q,ctrl+f,f3", "close", "Close")]

    def __init__(self, markdown: str) -> None:
        super().__init__()
        self.markdown = markdown

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="findings"):
            yield Markdown(self.markdown)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#findings").border_title = "Why this confidence"
        self.query_one("#findings").border_subtitle = "escape: close"

    def action_close(self) -> None:
        self.dismiss(None)
