"""The first run with no key: how to get going, and a pasted key checked and saved."""
from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Markdown, Static

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
    """First run with no key: how to get going instead of a traceback. A pasted key is saved
    with `save_key` (to the config file) and the screen is dismissed with it, so the app can
    start the assistant."""

    BINDINGS = [Binding("escape", "quit_app", "Quit")]

    def __init__(self, config_path: str, save_key: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.config_path = config_path
        self.save_key = save_key

    def compose(self) -> ComposeResult:
        yield Header()
        # The input sits below the scrolled text, not inside it: focused at the end of one
        # scrolled column, it scrolled the screen past the heading at 80x24. Here both are in view.
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
        try:
            if self.save_key is not None:
                self.save_key(key)
        except Exception as exc:  # noqa: BLE001 - a config file we cannot write is a notice
            self.notify(f"Could not save the key: {exc}", severity="error")
        else:
            self.notify("API key saved.")
        self.dismiss(key)

    def action_quit_app(self) -> None:
        """Leaving setup is the person's choice, not a failure: exit 0."""
        self.app.exit(0)
