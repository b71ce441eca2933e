"""One event a turn created, changed or removed, as a card."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import Static

from assistant.tui.formatting import CardText, calendar_colour, card_text
from tools.calendar.events import EventCard


class EventCardView(Static):
    """One event the turn created, changed or removed; the weekday is always spelled out."""

    def __init__(self, card: EventCard, tz_name: str, **kwargs: Any) -> None:
        self.card_text: CardText = card_text(card, tz_name)
        super().__init__(self._render_text(), **kwargs)
        self.add_class(f"-{card.action}")
        self.border_title = self.card_text.heading
        if card.calendar:  # whose calendar, in its colour: short enough for 80x24
            self.border_subtitle = Text(card.calendar, style=f"bold {calendar_colour(card.calendar)}")

    def _render_text(self) -> Text:
        ct = self.card_text
        text = Text()
        title_style = "bold strike" if ct.action == "deleted" else "bold"
        text.append(ct.title, style=title_style)
        for line in ct.lines:
            text.append("\n")
            if "  →  " in line:
                was, now = line.split("  →  ", 1)
                text.append(was, style="dim strike")
                text.append("\n→ ", style="bold")
                text.append(now, style="bold")
            else:
                text.append(line, style="dim strike" if ct.action == "deleted" else "")
        return text

    @property
    def plain(self) -> str:
        return "\n".join([self.card_text.heading, self.card_text.title, *self.card_text.lines])
