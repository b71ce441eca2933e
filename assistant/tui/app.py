"""The chat app: an input, a scrolling conversation, the agenda, and how sure each change is.

Threading model. `Agent.run_turn` blocks (model calls, tools, the guard), so each turn runs in a
Textual *thread* worker. The agent reports progress through a `TurnObserver` from that thread;
`TurnBridge` forwards every call to the UI thread with `App.call_from_thread`, which waits for the
UI to apply it, so deltas and status changes arrive in order. A destructive tool call asks the
person through `confirm_from_worker`: it pushes a modal on the UI thread and blocks the worker on a
`threading.Event` until the person answers (or the app shuts down, which means no).
"""
from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable
from datetime import date, datetime
from pathlib import Path
from typing import Protocol

from rich.text import Text
from textual import events, work
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Markdown, Static
from textual.worker import get_current_worker

from assistant.history import History
from assistant.report import TurnReport
from assistant.services import Services
from assistant.session.attempt import UnverifiedChange
from assistant.settings import Settings
from assistant.tui.formatting import findings_markdown
from assistant.tui.screens.changes import ChangesScreen
from assistant.tui.screens.confirm import ConfirmScreen
from assistant.tui.screens.findings import FindingsScreen
from assistant.tui.screens.first_run import SetupScreen
from assistant.tui.screens.help import HelpScreen
from assistant.tui.widgets.agenda import AgendaPanel
from assistant.tui.widgets.messages import NoticeMessage, UserMessage
from assistant.tui.widgets.turn import TurnView
from assistant.tui.widgets.undo import UndoView
from tools.backends.errors import person_message
from tools.calendar.events import Event, zone
from tools.context import Confirmation, ConfirmCallback
from tools.journal.changes import Changes, RedoReport
from tools.journal.journal import RollbackReport
from tools.masking import mask_secrets

CSS_PATH = Path(__file__).with_name("styles.tcss")
NARROW_BELOW = 100
"""Below this many columns the agenda folds away (ctrl+g shows it under the chat): at 80
columns a side panel would leave the conversation too narrow to read."""


class TurnObserverLike(Protocol):
    def on_status(self, text: str) -> None: ...

    def on_text_delta(self, text: str) -> None: ...

    def on_draft_discarded(self) -> None: ...


class AgentLike(Protocol):
    """What the app needs from `assistant.agent.Agent` (tests pass a fake with the same shape)."""

    settings: Settings
    services: Services
    history: History

    def run_turn(self, message: str, observer: TurnObserverLike) -> TurnReport: ...

    def agenda(self, days: int = 7) -> list[Event]: ...

    def history_for_display(self) -> list[tuple[str, str]]: ...

    def now(self) -> datetime: ...


AgentFactory = Callable[[ConfirmCallback], AgentLike]


class TurnBridge:
    """The `TurnObserver` of one turn: forwards the worker thread's calls to the UI thread."""

    def __init__(self, app: CalendarApp, view: TurnView) -> None:
        self.app = app
        self.view = view

    def _call(self, callback: Callable[..., object], *args: object) -> None:
        try:
            self.app.call_from_thread(callback, *args)
        except RuntimeError:  # the app is closing: nobody is watching any more
            pass

    def on_status(self, text: str) -> None:
        self._call(self.view.set_status, text)

    def on_text_delta(self, text: str) -> None:
        self._call(self.view.add_delta, text)
        self._call(self.app.scroll_down)

    def on_draft_discarded(self) -> None:
        self._call(self.view.discard_draft)


class CalendarApp(App[int]):
    """The family calendar assistant's terminal UI."""

    CSS_PATH = CSS_PATH
    TITLE = "calendar-assistant"
    BINDINGS = [
        Binding("f1", "help", "Help"),
        Binding("ctrl+z", "undo", "Undo"),
        Binding("ctrl+y", "redo", "Redo", show=False),
        Binding("f4", "changes", "Changes"),
        Binding("ctrl+r", "retry", "Retry", show=False),
        Binding("ctrl+f,f3", "findings", "Why?"),
        Binding("ctrl+g,f2", "toggle_agenda", "Agenda"),
        Binding("ctrl+n", "new_conversation", "New chat", show=False),
    ]
    MODAL_SENSITIVE = {"help", "undo", "redo", "changes", "retry", "findings", "toggle_agenda",
                       "new_conversation"}

    def __init__(self, settings: Settings, agent_factory: AgentFactory, *, demo: bool = False,
                 prefill: str = "", needs_setup: bool = False, animate: bool = True,
                 agenda_days: int = 7, save_key: Callable[[str], None] | None = None,
                 save_theme: Callable[[str], None] | None = None,
                 demo_steps: list[str] | None = None, demo_banner: str = "") -> None:
        super().__init__()
        self.settings = settings
        self.agent_factory = agent_factory
        self.agent: AgentLike | None = None
        self.demo = demo
        self.prefill = prefill
        self.needs_setup = needs_setup
        self.show_motion = animate  # not `self.animate`: Textual calls its animate() method
        self.agenda_days = agenda_days
        self.save_key = save_key
        self.save_theme = save_theme
        self.demo_steps = list(demo_steps or [])
        self.demo_banner = demo_banner
        self.turn_running = False
        self.narrow = False
        self.pending: deque[str] = deque()
        self.reports: list[TurnReport] = []
        self._undo_target: str | None = None
        self.last_failed: str | None = None
        self.confirmations: list[Confirmation] = []
        self._highlight: set[str] = set()
        self._active_view: TurnView | None = None
        if demo:
            self.sub_title = "sample calendar, scripted model"
        else:
            self.sub_title = f"times in {settings.timezone}"

    # ------------------------------------------------------------------ layout
    @property
    def tz_name(self) -> str:
        agent = self.agent
        return str(getattr(getattr(agent, "settings", None), "timezone", None) or self.settings.timezone)

    def compose(self) -> ComposeResult:
        yield Header(icon="📅")
        if self.demo:
            yield Static(self.demo_banner, id="demo-banner")
        with Horizontal(id="body"):
            with VerticalScroll(id="conversation"):
                yield NoticeMessage(self._welcome(), classes="welcome")
            yield AgendaPanel(self.settings.timezone, self.agenda_days, id="agenda")
        yield Input(value=self.prefill, placeholder="Tell me what to change, e.g. move dinner to next Friday",
                    id="prompt")
        yield Footer()

    def _welcome(self) -> Text:
        text = Text()
        text.append("Hi! Tell me what to add, move or cancel. ", style="bold")
        text.append(f"Times are shown in {self.settings.timezone}. Every change is checked against "
                    "what you said before you see it, and the badge under it says how sure I am. "
                    "F1 for help.")
        return text

    def on_resize(self, event: events.Resize) -> None:
        """Fold the agenda away below `NARROW_BELOW` columns and keep the latest message in view."""
        self.apply_width(event.size.width)
        self.scroll_down()

    def apply_width(self, width: int) -> None:
        narrow = width < NARROW_BELOW
        body = self.query_one("#body")
        if narrow == self.narrow and body.has_class("-laid-out"):
            return
        self.narrow = narrow
        body.add_class("-laid-out")
        body.set_class(narrow, "-narrow")
        self.query_one(AgendaPanel).display = not narrow  # the person's ctrl+g turns it back on

    def _remember_theme(self, theme: object) -> None:
        name = getattr(theme, "name", None)
        if isinstance(name, str) and self.save_theme is not None and name != self.settings.theme:
            try:
                self.save_theme(name)
            except Exception as exc:  # noqa: BLE001 - a config file we cannot write is a notice
                self.notify(f"Could not save the theme: {exc}", severity="warning")

    def on_mount(self) -> None:
        if self.settings.theme and self.settings.theme in self.available_themes:
            self.theme = self.settings.theme
        self.theme_changed_signal.subscribe(self, self._remember_theme)
        self.apply_width(self.size.width)
        prompt = self.query_one("#prompt", Input)
        if not self.show_motion:
            prompt.cursor_blink = False
        prompt.focus()
        if self.needs_setup:
            self.push_screen(SetupScreen(str(self.settings.config_path)), self._setup_done)
        else:
            self.start_agent()

    def _setup_done(self, key: str | None) -> None:
        if not key:
            return
        try:
            if self.save_key is not None:
                self.save_key(key)
        except Exception as exc:  # noqa: BLE001 - a config file we cannot write is a notice
            self.notify(f"Could not save the key: {exc}", severity="error")
        self.needs_setup = False
        self.notify("API key saved.")
        self.start_agent()

    def start_agent(self) -> None:
        """Build the agent (it gets our confirm callback) and show the resumed conversation."""
        try:
            self.agent = self.agent_factory(self.confirm_from_worker)
        except Exception as exc:  # noqa: BLE001 - a bad setting or backend is a notice, not a crash
            self.add_notice(f"Could not start the assistant: {person_message(exc, 'start')}", error=True)
            return
        history = []
        try:
            history = self.agent.history_for_display()
        except Exception:  # noqa: BLE001 - an unreadable history must not block the chat
            history = []
        conversation = self.query_one("#conversation", VerticalScroll)
        for role, text in history:
            if role == "user":
                conversation.mount(UserMessage(text, classes="past"))
            else:
                conversation.mount(Markdown(text, classes="past-reply"))
        self.show_recovered(self.agent.services.recovered)
        self.refresh_agenda()

    def show_recovered(self, reports: list[RollbackReport]) -> None:
        """What start-up recovery undid (or could not) before this window opened, in words: a
        notice in the conversation and a notification, one per unfinished request."""
        for report in reports:
            text = report.notice()
            self.add_notice(text, error=not report.complete)
            if report.complete:
                self.notify(text, title="Unfinished request undone", timeout=10)

    # ------------------------------------------------------------------ input
    async def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id != "prompt":
            return
        text = event.value.strip()
        event.input.value = ""
        if not text:
            return
        if text.startswith("/"):
            self.run_command(text)
        else:
            self.start_turn(text)

    def run_command(self, text: str) -> None:
        """Slash commands, for people who would rather type than remember keys."""
        name = text[1:].split()[0].lower() if len(text) > 1 else ""
        actions: dict[str, Callable[[], object]] = {
            "undo": self.action_undo, "redo": self.action_redo, "changes": self.action_changes,
            "retry": self.action_retry, "why": self.action_findings,
            "findings": self.action_findings, "agenda": self.action_toggle_agenda,
            "clear": self.action_new_conversation, "new": self.action_new_conversation,
            "help": self.action_help, "quit": self.exit, "exit": self.exit,
        }
        action = actions.get(name)
        if action is None:
            self.notify(f"Unknown command {text!r}. Try /undo, /redo, /changes, /clear, /retry, "
                        "/why, /agenda, /help, /quit.", severity="warning")
            return
        action()

    # ------------------------------------------------------------------ turns
    def start_turn(self, message: str) -> None:
        if self.agent is None:
            self.notify("The assistant is not ready (see the setup notice).", severity="warning")
            return
        if self.turn_running:
            self.pending.append(message)
            self.notify("Still working on the last request; yours is next.")
            return
        conversation = self.query_one("#conversation", VerticalScroll)
        view = TurnView(message, self.tz_name, animate=self.show_motion, classes="turn")
        conversation.mount(UserMessage(message, classes="user"))
        conversation.mount(view)
        self.turn_running = True
        self._active_view = view
        self.scroll_down()
        self._run_turn(message, view)

    @work(thread=True, group="turn")
    def _run_turn(self, message: str, view: TurnView) -> None:
        """Runs in a worker thread: `run_turn` blocks for the model, the tools and the guard."""
        agent = self.agent
        assert agent is not None
        try:
            report = agent.run_turn(message, TurnBridge(self, view))
        except Exception as exc:  # noqa: BLE001 - shown as a readable notice, the turn can be retried
            try:
                self.call_from_thread(self._turn_failed, message, view,  # type: ignore[arg-type]  # Textual types a coroutine callback as Awaitable[Never]
                                      person_message(exc, "finish the request"))
            except RuntimeError:
                pass
            return
        try:
            self.call_from_thread(self._turn_done, message, view, report)  # type: ignore[arg-type]  # as above
        except RuntimeError:
            pass

    def scroll_down(self) -> None:
        """Keep the newest message in view (after the next refresh, once it has a size), and
        stay there while the window is resized or the reply grows (Textual's anchor, released
        when the person scrolls up to read)."""
        conversation = self.query_one("#conversation", VerticalScroll)
        conversation.anchor()
        self.call_after_refresh(conversation.scroll_end, animate=False)

    async def _turn_done(self, message: str, view: TurnView, report: TurnReport) -> None:
        await view.finish(report)
        self.scroll_down()
        self.reports.append(report)
        if report.error:
            self.last_failed = message
            self.notify(report.error, title="Not done", severity="error", timeout=8)
        else:
            self.last_failed = None
        if report.cards or report.rolled_back or report.error is None and report.attempts and any(
                a.calls for a in report.attempts):
            self._highlight = {c.event.id for c in report.cards}
            self.refresh_agenda()
        self._next_demo_step(message)
        self._turn_over()

    def _next_demo_step(self, done: str) -> None:
        """In the demo, the next scripted step waits in the input after each one."""
        if not self.demo or done not in self.demo_steps:
            return
        index = self.demo_steps.index(done) + 1
        prompt = self.query_one("#prompt", Input)
        if index < len(self.demo_steps) and not prompt.value:
            prompt.value = self.demo_steps[index]

    async def _turn_failed(self, message: str, view: TurnView, problem: str) -> None:
        await view.fail(problem)
        self.scroll_down()
        self.last_failed = message
        self.notify(problem, title="Not done", severity="error", timeout=8)
        self.refresh_agenda()
        self._turn_over()

    def _turn_over(self) -> None:
        self.turn_running = False
        self._active_view = None
        if self.pending:
            self.start_turn(self.pending.popleft())

    # ------------------------------------------------------------------ confirmation
    def confirm_from_worker(self, confirmation: Confirmation) -> bool:
        """The agent's confirm callback; called FROM the worker thread, blocks for the answer."""
        if threading.get_ident() == self._thread_id:
            raise RuntimeError("confirm_from_worker must be called from a worker thread")
        self.confirmations.append(confirmation)
        answered = threading.Event()
        box: dict[str, bool] = {"yes": False}

        def done(result: bool | None) -> None:
            box["yes"] = bool(result)
            answered.set()

        view = self._active_view
        before = view.working.label if view is not None and view.working is not None else None

        def ask() -> None:
            if view is not None:
                view.set_status("waiting for your answer…")
            if isinstance(confirmation, UnverifiedChange):  # CONTRACT 5: undone until you say yes
                screen = ConfirmScreen("I could not verify this change", confirmation.summary,
                                       confirmation.reasons, yes="Yes, do it anyway",
                                       no="No, leave it undone")
            else:
                screen = ConfirmScreen("Before I do this, please confirm", confirmation.summary,
                                       confirmation.reasons)
            self.push_screen(screen, done)

        def resume() -> None:
            if view is not None and before is not None:
                view.set_status(before)

        try:
            self.call_from_thread(ask)
        except RuntimeError:
            return False
        try:
            worker = get_current_worker()
        except Exception:  # noqa: BLE001 - called outside a Textual worker (tests, scripts)
            worker = None
        while not answered.wait(0.05):
            if (worker is not None and worker.is_cancelled) or self._exit or not self.is_running:
                return False
        try:
            self.call_from_thread(resume)
        except RuntimeError:
            pass
        return box["yes"]

    # ------------------------------------------------------------------ agenda
    def refresh_agenda(self) -> None:
        if self.agent is not None:
            self._load_agenda()

    @work(thread=True, exclusive=True, group="agenda")
    def _load_agenda(self) -> None:
        agent = self.agent
        if agent is None:
            return
        try:
            events = agent.agenda(self.agenda_days)
            now = agent.now()
            today: date = now.astimezone(zone(self.tz_name)).date()
        except Exception as exc:  # noqa: BLE001 - the agenda is a side panel; never crash on it
            try:
                self.call_from_thread(self.query_one(AgendaPanel).show_error,
                                      person_message(exc, "list the agenda"))
            except RuntimeError:
                pass
            return
        try:
            self.call_from_thread(self.query_one(AgendaPanel).show, events, today, set(self._highlight))
        except RuntimeError:
            pass

    # ------------------------------------------------------------------ actions
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """App keys do nothing while a dialog or the setup screen is up."""
        if action in self.MODAL_SENSITIVE and len(self.screen_stack) > 1:
            return False
        return True

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_toggle_agenda(self) -> None:
        panel = self.query_one(AgendaPanel)
        panel.display = not panel.display
        if panel.display:
            self.refresh_agenda()

    def last_checked_report(self) -> TurnReport | None:
        for report in reversed(self.reports):
            if report.attempts and any(a.verdict is not None for a in report.attempts):
                return report
        return self.reports[-1] if self.reports else None

    def action_findings(self) -> None:
        report = self.last_checked_report()
        if report is None:
            self.notify("No turn yet: the findings appear once a change has been checked.")
            return
        self.push_screen(FindingsScreen(findings_markdown(report, self.tz_name)))

    def action_retry(self) -> None:
        if self.last_failed is None:
            self.notify("Nothing to retry: the last request did not fail.")
            return
        message, self.last_failed = self.last_failed, None
        self.start_turn(message)

    # ------------------------------------------------------------------ conversation
    def action_new_conversation(self) -> None:
        """`/clear` and ctrl+n: a fresh conversation (the model forgets the chat so far; the
        calendar and its undo list are kept)."""
        if self.agent is None:
            self.notify("The assistant is not ready.", severity="warning")
            return
        if self.turn_running:
            self.notify("Wait for the current request to finish first.", severity="warning")
            return
        self.agent.history.start_new()
        self.reports.clear()
        self.last_failed = None
        conversation = self.query_one("#conversation", VerticalScroll)
        conversation.remove_children()
        conversation.mount(NoticeMessage(self._welcome(), classes="welcome"))
        self.notify("New conversation. Your calendar and its changes are kept (F4 lists them).")

    # ------------------------------------------------------------------ undo and redo
    def _changes(self) -> Changes | None:
        if self.agent is None:
            self.notify("The assistant is not ready.", severity="warning")
            return None
        if self.turn_running:
            self.notify("Wait for the current request to finish first.", severity="warning")
            return None
        return Changes(self.agent.services.journal)

    def action_undo(self) -> None:
        """Ask before taking back the newest change; say so plainly when there is none."""
        changes = self._changes()
        if changes is None:
            return
        turn_id = changes.last_undoable()
        if turn_id is None:
            self.notify("Nothing to undo.")
            return
        listed = next((c for c in changes.recent() if c.turn_id == turn_id), None)
        lines = listed.lines(self.tz_name) if listed is not None else []
        summary = "This takes back:\n" + "\n".join(f"• {line}" for line in lines) if lines else \
            "This takes back the most recent change."
        self._undo_target = turn_id
        self.push_screen(ConfirmScreen("Undo the last change?", summary, yes="Yes, undo"),
                         self._undo_answered)

    def _undo_answered(self, yes: bool | None) -> None:
        if yes and self._undo_target is not None:
            self._run_change("undo", self._undo_target)

    def action_redo(self) -> None:
        changes = self._changes()
        if changes is None:
            return
        turn_id = changes.last_redoable()
        if turn_id is None:
            self.notify("Nothing to redo.")
            return
        self._run_change("redo", turn_id)

    def action_changes(self) -> None:
        """The recent changes; choosing one undoes it (or redoes one the person undid)."""
        changes = self._changes()
        if changes is None:
            return
        listed = changes.recent()
        if not listed:
            self.notify("No changes yet.")
            return
        self.push_screen(ChangesScreen(listed, self.tz_name), self._change_chosen)

    def _change_chosen(self, choice: tuple[str, str] | None) -> None:
        if choice is not None:
            self._run_change(*choice)

    @work(thread=True, exclusive=True, group="undo")
    def _run_change(self, what: str, turn_id: str) -> None:
        agent = self.agent
        assert agent is not None
        changes = Changes(agent.services.journal)
        try:
            result: RollbackReport | RedoReport | None = \
                changes.undo(turn_id) if what == "undo" else changes.redo(turn_id)
        except Exception as exc:  # noqa: BLE001 - a failing calendar service is a notice
            self.call_from_thread(self.add_notice, f"Could not {what}: {person_message(exc, what)}", True)
            return
        self.call_from_thread(self._change_done, what, result)  # type: ignore[arg-type]  # as above

    async def _change_done(self, what: str, result: RollbackReport | RedoReport | None) -> None:
        if result is None:
            self.notify(f"Nothing to {what}.")
            return
        conversation = self.query_one("#conversation", VerticalScroll)
        await conversation.mount(UndoView(result, self.tz_name, redo=what == "redo", classes="undo"))
        self.scroll_down()
        self._highlight = {r.event_id for r in result.restored}
        self.notify(("Redone." if what == "redo" else "Undone.") + " ctrl+z / ctrl+y / F4 for more.")
        self.refresh_agenda()

    def add_notice(self, text: str, error: bool = False) -> None:
        text = mask_secrets(text)
        conversation = self.query_one("#conversation", VerticalScroll)
        conversation.mount(NoticeMessage(Text(text), classes="notice -error" if error else "notice"))
        self.scroll_down()
        if error:
            self.notify(text, severity="error")

    # ------------------------------------------------------------------ command palette
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """Every action of the app is also in the command palette (ctrl+p)."""
        yield from super().get_system_commands(screen)
        yield SystemCommand("Undo last change", "Roll back the last turn's changes (asks first)",
                            self.action_undo)
        yield SystemCommand("Redo", "Put back what the last undo took back", self.action_redo)
        yield SystemCommand("Recent changes", "Every recent change: undo or redo any of them",
                            self.action_changes)
        yield SystemCommand("New conversation", "Start fresh (the calendar is kept)",
                            self.action_new_conversation)
        yield SystemCommand("Retry", "Retry the last request after an error", self.action_retry)
        yield SystemCommand("Why this confidence", "The guard's findings and facts for the last turn",
                            self.action_findings)
        yield SystemCommand("Toggle agenda", "Show or hide the agenda panel", self.action_toggle_agenda)
        yield SystemCommand("Refresh agenda", "Reload the coming days from the calendar",
                            self.refresh_agenda)
        yield SystemCommand("Help", "Key bindings and slash commands", self.action_help)

    # ------------------------------------------------------------------ screenshots
    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """The palette's screenshot goes to ~/Downloads when it exists, else the home dir, else
        the current dir: Textual's default fails outright when there is no Downloads dir."""
        return super().deliver_screenshot(filename, path or str(screenshot_dir()), time_format)


def screenshot_dir() -> Path:
    """Where a screenshot is saved: the first existing, writable one of Downloads, home, cwd."""
    import os

    from platformdirs import user_downloads_dir

    for candidate in (Path(user_downloads_dir()), Path.home(), Path.cwd()):
        if candidate.is_dir() and os.access(candidate, os.W_OK):
            return candidate
    return Path.cwd()
