"""The chat window: an input, the conversation, the agenda, and the wiring between them.

The app only lays the window out, starts the assistant and hands each action to its home: the
assistant is a `ChatSession` (`assistant.session.chat`, the only thing the window talks to);
requests run in `turns.TurnRunner` (one at a time, in a worker thread, see its threading model);
undo and redo in `undo.UndoRedo`; which key or slash command does what in `keys`; the first-run
key in `screens/first_run.py`; the theme in `theme`; every widget and screen in a file of its own.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Static

from assistant.report import TurnReport
from assistant.session.chat import ChatSession, SessionFactory
from assistant.session.spoken import zone_words
from assistant.settings import Settings
from assistant.tui import keys
from assistant.tui.formatting import findings_markdown
from assistant.tui.screens.findings import FindingsScreen
from assistant.tui.screens.first_run import SetupScreen
from assistant.tui.screens.help import HelpScreen
from assistant.tui.screenshots import screenshot_dir
from assistant.tui.theme import keep_theme
from assistant.tui.turns import TurnRunner, touched_calendar
from assistant.tui.undo import UndoRedo
from assistant.tui.widgets.agenda import AgendaPanel
from assistant.tui.widgets.conversation import Conversation, welcome
from tools.backends.errors import person_message

NARROW_BELOW = 100
"""Below this many columns the agenda folds away (ctrl+g shows it under the chat): at 80
columns a side panel would leave the conversation too narrow to read."""


class CalendarApp(App[int]):
    """The family calendar assistant's terminal UI."""

    CSS_PATH = Path(__file__).with_name("styles.tcss")
    TITLE = "calendar-assistant"
    BINDINGS = keys.BINDINGS

    def __init__(self, settings: Settings, session_factory: SessionFactory, *, demo: bool = False,
                 prefill: str = "", needs_setup: bool = False, animate: bool = True,
                 agenda_days: int = 7, save_key: Callable[[str], None] | None = None,
                 save_theme: Callable[[str], None] | None = None,
                 demo_steps: list[str] | None = None, demo_banner: str = "") -> None:
        super().__init__()
        self.settings = settings
        self.session_factory = session_factory
        self.demo = demo
        self.prefill = prefill
        self.needs_setup = needs_setup
        self.show_motion = animate  # not `self.animate`: Textual calls its animate() method
        self.agenda_days = agenda_days
        self.save_key = save_key
        self.save_theme = save_theme
        self.demo_steps = list(demo_steps or [])
        self.demo_banner = demo_banner
        self.narrow = False
        self.conversation = Conversation(welcome(settings.timezone), id="conversation")
        self.turns = TurnRunner(self, self.conversation, animate=animate, turn_over=self._turn_over)
        self.undo_redo = UndoRedo(self, self.turns, self.conversation, changed=self.refresh_agenda)
        self.sub_title = "sample calendar, scripted model" if demo else zone_words(settings.timezone)

    @property
    def session(self) -> ChatSession | None:
        """The assistant, once started (None before the first-run key, or when it cannot start)."""
        return self.turns.session

    @property
    def tz_name(self) -> str:
        return self.session.timezone if self.session is not None else self.settings.timezone

    # ------------------------------------------------------------------ layout and start
    def compose(self) -> ComposeResult:
        yield Header(icon="📅")
        if self.demo:
            yield Static(self.demo_banner, id="demo-banner")
        with Horizontal(id="body"):
            yield self.conversation
            yield AgendaPanel(self.settings.timezone, self.agenda_days, id="agenda")
        # select_on_focus off: coming back to the input (a click, a key typed in the conversation)
        # must not select what was typed so far, or the next key would replace it all
        yield Input(value=self.prefill, placeholder="Tell me what to change, e.g. move dinner to next Friday",
                    id="prompt", select_on_focus=False)
        yield Footer()

    def on_mount(self) -> None:
        keep_theme(self, self.settings, self.save_theme)
        self.apply_width(self.size.width)
        prompt = self.query_one("#prompt", Input)
        prompt.cursor_blink = self.show_motion
        prompt.focus()
        if self.needs_setup:
            self.push_screen(SetupScreen(str(self.settings.config_path), self.save_key), self._setup_done)
        else:
            self.start_session()

    def _setup_done(self, key: str | None) -> None:
        if key:
            self.needs_setup = False
            self.start_session()

    def start_session(self) -> None:
        """Start the assistant (its questions come to the turn runner) and show the resumed
        conversation and what start-up recovery undid."""
        try:
            session = self.session_factory(self.turns.confirm)
        except Exception as exc:  # noqa: BLE001 - a bad setting or backend is a notice, not a crash
            self.conversation.add_notice(f"Could not start the assistant: {person_message(exc, 'start')}",
                                         error=True)
            return
        self.turns.session = session
        try:
            self.conversation.show_past(session.history())
        except Exception:  # noqa: BLE001 - an unreadable history must not block the chat
            pass
        self.conversation.show_recovered(session.recovered)
        for notice in session.notices:
            self.conversation.add_notice(notice)
        self.refresh_agenda()

    def on_resize(self, event: events.Resize) -> None:
        """Fold the agenda away below `NARROW_BELOW` columns and keep the latest message in view."""
        self.apply_width(event.size.width)
        self.conversation.follow()

    def apply_width(self, width: int) -> None:
        narrow = width < NARROW_BELOW
        body = self.query_one("#body")
        if narrow == self.narrow and body.has_class("-laid-out"):
            return
        self.narrow = narrow
        body.add_class("-laid-out")
        body.set_class(narrow, "-narrow")
        self.query_one(AgendaPanel).display = not narrow  # the person's ctrl+g turns it back on

    # ------------------------------------------------------------------ requests and the agenda
    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "prompt":
            return
        text = event.value.strip()
        event.input.value = ""
        if text.startswith("/"):
            action = keys.slash_action(text)
            if action is None:
                self.notify(keys.UNKNOWN_COMMAND.format(text), severity="warning")
            elif action == "undo" and self.demo and text in self.demo_steps:
                self.undo_redo.undo(demo_step=True)  # the step shows an undo: Enter does it
            else:
                await self.run_action(action)
        elif text:
            self.turns.send(text)

    def _turn_over(self, message: str, report: TurnReport | None) -> None:
        """After a turn the agenda shows what it changed (a turn that raised may have written
        before it did); in the demo, the next scripted step waits in the input."""
        if report is None:
            self.refresh_agenda()
            return
        if touched_calendar(report):
            self.refresh_agenda({card.event.id for card in report.cards})
        if self.demo and message in self.demo_steps:
            index = self.demo_steps.index(message) + 1
            prompt = self.query_one("#prompt", Input)
            if index < len(self.demo_steps) and not prompt.value:
                prompt.value = self.demo_steps[index]
                prompt.cursor_position = len(prompt.value)  # typing goes after it, ctrl+u clears it

    def refresh_agenda(self, highlight: set[str] | None = None) -> None:
        """Reload the agenda; `highlight`, when given, marks the events the last change touched."""
        if self.session is not None:
            self.query_one(AgendaPanel).reload(self.session, highlight)

    # ------------------------------------------------------------------ actions (see keys.py)
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """App keys do nothing while a dialog or the setup screen is up."""
        return not (action in keys.MODAL_SENSITIVE and len(self.screen_stack) > 1)

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_undo(self) -> None:
        self.undo_redo.undo()

    def action_redo(self) -> None:
        self.undo_redo.redo()

    def action_changes(self) -> None:
        self.undo_redo.choose()

    def action_retry(self) -> None:
        self.turns.retry()

    def action_new_conversation(self) -> None:
        self.turns.new_conversation()

    def action_findings(self) -> None:
        report = self.turns.findings_report()
        if report is None:
            self.notify("No turn yet: the findings appear once a change has been checked.")
            return
        self.push_screen(FindingsScreen(findings_markdown(report, self.tz_name)))

    def action_page_conversation(self, direction: int) -> None:
        """One page of the conversation up (-1) or down (1), the input keeping the focus."""
        self.conversation.read_on()
        if direction < 0:
            self.conversation.scroll_page_up(animate=False)
        else:
            self.conversation.scroll_page_down(animate=False)

    def on_key(self, event: events.Key) -> None:
        """A printable key typed while the conversation (or the agenda, or anything but a text
        field) has the focus goes to the input, at its cursor: the person meant to type, and a
        key that vanished would be lost words. Dialogs keep their own keys (a y or n there is an
        answer), so only the chat screen does this.

        A key reaches the window only when no text field took it (an `Input` stops every
        printable key it is given), so it is typed whatever has the focus by now: a fast
        typist's next keys were sent to the conversation before the first one moved the focus,
        and come up here after the input has it (asking whether the input is focused lost them:
        "and fri" + "day" became "and frida")."""
        if not event.is_printable or not event.character or len(self.screen_stack) > 1:
            return
        prompt = self.query_one("#prompt", Input)
        prompt.focus()
        prompt.insert_text_at_cursor(event.character)
        event.stop()
        event.prevent_default()

    def action_toggle_agenda(self) -> None:
        panel = self.query_one(AgendaPanel)
        panel.display = not panel.display
        if panel.display:
            self.refresh_agenda()

    def action_refresh_agenda(self) -> None:
        self.refresh_agenda()

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Every action of the app is also in the command palette (ctrl+p)."""
        yield from super().get_system_commands(screen)
        for title, help_text, action in keys.PALETTE:
            yield SystemCommand(title, help_text, getattr(self, f"action_{action}"))

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's screenshot goes where it can be written (`screenshots.screenshot_dir`)."""
        return super().deliver_screenshot(filename, path or str(screenshot_dir()), time_format)
