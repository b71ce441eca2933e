"""The agenda beside the chat: today and the coming days."""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from assistant.tui.formatting import event_day, short_time
from tools.calendar.events import Event
from tools.calendar.wording import day_label


class AgendaPanel(VerticalScroll):
    """Today and the coming days from the backend; refreshed after every change."""

    def __init__(self, tz_name: str, days: int = 7, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tz_name = tz_name
        self.days = days
        self.border_title = "Agenda"
        self.events: list[Event] = []

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
                text.append(event.title)
        self.query_one(".agenda-body", Static).update(text)

    def show_error(self, message: str) -> None:
        self.query_one(".agenda-body", Static).update(Text(f"Could not load the agenda:\n{message}",
                                                           style="italic"))
