"""Modal screens: confirmation, findings, help, and the first-run setup screen."""
from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Footer, Header, Input, Markdown, OptionList, Static
from textual.widgets.option_list import Option

from tools.journal.changes import Change

KEYS: list[tuple[str, str]] = [
    ("enter", "send the message"),
    ("ctrl+z  /undo", "undo the last request's changes (asks first)"),
    ("ctrl+y  /redo", "put back what the last undo took back"),
    ("f4  /changes", "recent changes: undo or redo any of them"),
    ("ctrl+n  /clear", "new conversation (the calendar is kept)"),
    ("ctrl+r  /retry", "retry the last request after an error"),
    ("ctrl+f  /why", "why this confidence: the guard's findings and facts"),
    ("ctrl+g  /agenda", "show or hide the agenda"),
    ("f1  /help", "this help"),
    ("ctrl+p", "command palette (every action)"),
    ("ctrl+q  /quit", "quit"),
]


class ConfirmScreen(ModalScreen[bool]):
    """Asks yes or no before something that cannot be taken back lightly.

    Dismisses with True only on an explicit yes; escape, `n` and "No" all mean no, so a stray key
    never grants a destructive change.
    """

    BINDINGS = [Binding("y", "answer(True)", "Yes"), Binding("n,escape", "answer(False)", "No")]

    def __init__(self, title: str, summary: str, reasons: tuple[str, ...] | list[str] = (),
                 yes: str = "Yes, do it", no: str = "No") -> None:
        super().__init__()
        self.title_text = title
        self.summary = summary
        self.reasons = list(reasons)
        self.yes_label = yes
        self.no_label = no

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
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


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


SETUP_TEXT = """\
# Set up the assistant

The assistant talks to Claude, so it needs an **Anthropic API key** (or a local server).

**Option 1: an API key.** Get one at https://console.anthropic.com/ and either

- paste it below (it is saved to `{config}`), or
- start the app with it in the environment: `ANTHROPIC_API_KEY=sk-ant-... calendar-assistant`

**Option 2: a local Anthropic-compatible server** (for example Ollama):

```
ANTHROPIC_BASE_URL=http://localhost:11434 calendar-assistant
```

**Just looking?** `calendar-assistant demo` runs on a sample calendar with a scripted model.
"""


class SetupScreen(Screen[str | None]):
    """First run with no key: how to get going instead of a traceback; may save a pasted key."""

    BINDINGS = [Binding("escape", "quit_app", "Quit")]

    def __init__(self, config_path: str) -> None:
        super().__init__()
        self.config_path = config_path

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="setup"):
            yield Markdown(SETUP_TEXT.format(config=self.config_path))
            yield Input(placeholder="paste your API key (sk-ant-…) and press Enter", password=True,
                        id="api-key")
            yield Static("", id="setup-error")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#api-key", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        key = event.value.strip()
        if not key:
            self.query_one("#setup-error", Static).update("Paste a key first (or press escape to quit).")
            return
        if any(ch.isspace() for ch in key) or len(key) < 8:
            self.query_one("#setup-error", Static).update("That does not look like an API key.")
            return
        self.dismiss(key)

    def action_quit_app(self) -> None:
        """Leaving setup is the person's choice, not a failure: exit 0."""
        self.app.exit(0)


class ChangesScreen(ModalScreen[tuple[str, str] | None]):
    """The recent changes, newest first; enter undoes the chosen one, or redoes one undone."""

    BINDINGS = [Binding("escape,q,f4", "close", "Close")]

    def __init__(self, changes: list[Change], tz_name: str) -> None:
        super().__init__()
        self.changes = changes
        self.tz_name = tz_name

    def compose(self) -> ComposeResult:
        options = []
        for change in self.changes:
            text = Text()
            text.append(change.headline(self.tz_name), style="bold")
            for line in change.lines(self.tz_name):
                text.append("\n  " + line)
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


def screen_text(screen: Screen[object]) -> str:
    """Helper for tests: every Static/Markdown text on a screen, joined."""
    parts: list[str] = []
    for widget in screen.query("Static, Markdown"):
        if isinstance(widget, Markdown):
            parts.append(widget.source)
        else:
            parts.append(str(widget.render()))
    return "\n".join(parts)
