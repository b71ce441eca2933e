"""The agenda beside the chat: today and the coming days, loaded from the session."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, timedelta
from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from assistant.session.chat import ChatSession
from assistant.tui.formatting import calendar_tag, event_day, short_time
from assistant.tui.ui_thread import call_ui
from tools.backends.errors import person_message
from tools.calendar.events import Event
from tools.calendar.wording import day_label


class AgendaPanel(VerticalScroll):
    """Today and the coming days from the calendar; reloaded after every change, with the events
    the last change touched marked."""

    def __init__(self, tz_name: str, days: int = 7, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tz_name = tz_name
        self.days = days
        self.border_title = "Agenda"
        self.events: list[Event] = []
        self.highlight: set[str] = set()
        self.calendar_names: Mapping[str, str] = {}  # several calendars: whose each event is

    def reload(self, session: ChatSession, highlight: set[str] | None = None) -> None:
        """Load the days again; `highlight`, when given, replaces the marked events (a reload
        for its own sake keeps the last change's marks)."""
        if highlight is not None:
            self.highlight = set(highlight)
        self._load(session, set(self.highlight))

    @work(thread=True, exclusive=True, group="agenda")
    def _load(self, session: ChatSession, highlight: set[str]) -> None:
        """A worker thread: a calendar service may be slow, and the chat must not wait for it.
        The agenda is a side panel: what fails is said in the panel, never a crash."""
        try:
            events = session.agenda(self.days)
            today = session.today()
            self.calendar_names = session.calendar_names
        except Exception as exc:  # noqa: BLE001 - the agenda is a side panel; never crash on it
            call_ui(self.app, self.show_error, person_message(exc, "list the agenda"))
            return
        call_ui(self.app, self.show, events, today, highlight)

    def compose(self) -> ComposeResult:
        yield Static("loading…", classes="agenda-body")

    def show(self, events: Iterable[Event], today: date, highlight: set[str] | None = None) -> None:
        """Render events grouped by day; ids in `highlight` (the last turn's changes) get a dot."""
        self.events = list(events)
        self.border_subtitle = self.tz_name
        highlight = highlight or set()
        by_day: dict[date, list[Event]] = {}
        for event in self.events:
            by_day.setdefault(event_day(event, self.tz_name), []).append(event)
        text = Text()
        for offset in range(self.days):
            day = today + timedelta(days=offset)
            label = {0: "Today", 1: "Tomorrow"}.get(offset)
            if text:
                text.append("\n\n")
            text.append(f"{label} · " if label else "", style="bold cyan")
            text.append(day_label(day), style="bold")
            items = sorted(by_day.get(day, []), key=lambda e: (not e.all_day, e.start_instant))
            if not items:
                text.append("\n  —", style="dim")
            for event in items:
                mark = "● " if event.id in highlight else "  "
                text.append("\n" + mark, style="bold yellow")
                text.append(f"{short_time(event, self.tz_name):>8}  ", style="dim")
                name = self.calendar_names.get(event.calendar_id or "")
                if name:  # before the title: only the title wraps, never the dot from its name
                    text.append_text(calendar_tag(name)).append("  ")
                text.append(event.title)
        self.query_one(".agenda-body", Static).update(text)

    def show_error(self, message: str) -> None:
        self.query_one(".agenda-body", Static).update(Text(f"Could not load the agenda:\n{message}",
                                                           style="italic"))
