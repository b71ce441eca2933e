"""A yes or no before something that cannot be taken back lightly."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class ConfirmScreen(ModalScreen[bool]):
    """Asks yes or no before something that cannot be taken back lightly.

    Dismisses with True only on an explicit yes; escape, `n` and "No" all mean no, so a stray key
    never grants a destructive change. "No" has the focus (Enter refuses) unless `yes_focused`:
    only a demo step that shows the yes passes it, so pressing Enter through the demo does what
    the step shows while every real question keeps the safe default.
    """

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, title: str, summary: str, reasons: tuple[str, ...] | list[str] = (),
                 yes: str = "Yes, do it", no: str = "No", *, yes_focused: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.summary = summary
        self.reasons = list(reasons)
        self.yes_label = yes
        self.no_label = no
        self.yes_focused = yes_focused

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self.title_text, style="bold"), id="dialog-title")
            yield Static(Text(self.summary), id="dialog-summary")
            if self.reasons:
                yield Static(Text("\n".join(f"• {r}" for r in self.reasons), style="italic"),
                             id="dialog-reasons")
            with Horizontal(id="dialog-buttons"):
                yield Button(self.no_label, id="no", variant="primary")
                yield Button(self.yes_label, id="yes", variant="error")

    def on_mount(self) -> None:
        self.query_one("#yes" if self.yes_focused else "#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
