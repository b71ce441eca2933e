"""The chat's building blocks: messages, a turn (reply, working state, cards, outcome), the agenda.

Every method here runs on the UI thread; the worker thread reaches them only through
`App.call_from_thread` (see `assistant.tui.app.TurnBridge`), because Textual widgets are not
thread-safe.
"""
from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static
from textual.widgets.markdown import MarkdownStream

from assistant.report import TurnReport
from assistant.tui.formatting import (
    CardText,
    Outcome,
    card_text,
    describe_outcome,
    event_day,
    short_time,
    undo_lines,
)
from tools.calendar.events import Event, EventCard
from tools.calendar.wording import day_label
from tools.journal.changes import RedoReport
from tools.journal.journal import RollbackReport

SPINNER = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"
OUTCOME_ICONS = {"verified": "✔", "noted": "✔", "corrected": "↺", "unverified": "?", "held": "⏸",
                 "doublecheck": "⚠", "error": "✖"}
CARDS_SHOWN = 10
"""Cards an undo shows at most; its words count the rest (an undone import of thousands)."""
CONFIDENCE_WORDS = {"high": "sure", "medium": "fairly sure", "low": "not sure"}


class UserMessage(Static):
    """What the person typed, right-aligned like a chat bubble."""

    def __init__(self, text: str, **kwargs: Any) -> None:
        super().__init__(Text(text), **kwargs)


class NoticeMessage(Static):
    """A line from the app itself (welcome, undo results, errors), not from the model."""


class WorkingIndicator(Static):
    """The working state of a running turn: "checking the change…", "correcting…".

    It animates a spinner unless `animate` is off (tests and snapshots need a still frame).
    """

    def __init__(self, text: str = "thinking…", *, animate: bool = True, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self._label = text
        self._frame = 0
        self._motion = animate

    def on_mount(self) -> None:
        self._paint()
        if self._motion:
            self.set_interval(0.1, self._tick)

    def _tick(self) -> None:
        self._frame = (self._frame + 1) % len(SPINNER)
        self._paint()

    def _paint(self) -> None:
        glyph = SPINNER[self._frame] if self._motion else "…"
        self.update(Text.assemble((glyph + " ", "bold"), (self._label, "italic")))

    @property
    def label(self) -> str:
        return self._label

    def set_label(self, text: str) -> None:
        self._label = text
        self._paint()


class EventCardView(Static):
    """One event the turn created, changed or removed; the weekday is always spelled out."""

    def __init__(self, card: EventCard, tz_name: str, **kwargs: Any) -> None:
        self.card_text: CardText = card_text(card, tz_name)
        super().__init__(self._render_text(), **kwargs)
        self.add_class(f"-{card.action}")
        self.border_title = self.card_text.heading

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


class OutcomeBadge(Static):
    """How sure the assistant is about a turn, and why; coloured by confidence."""

    def __init__(self, outcome: Outcome, **kwargs: Any) -> None:
        self.outcome = outcome
        super().__init__(self._render_text(), **kwargs)
        self.add_class(f"-{outcome.kind}")
        if outcome.confidence:
            self.border_title = f"confidence: {outcome.confidence}"
            self.border_subtitle = "ctrl+f: why"

    def _render_text(self) -> Text:
        o = self.outcome
        text = Text()
        text.append(f"{OUTCOME_ICONS.get(o.kind, '•')} {o.title}", style="bold")
        if o.confidence:
            text.append(f"  ({CONFIDENCE_WORDS.get(o.confidence, o.confidence)})", style="italic")
        for line in o.lines:
            text.append("\n" + line)
        return text

    @property
    def plain(self) -> str:
        return "\n".join([self.outcome.title, *self.outcome.lines])


class TurnView(Vertical):
    """One turn of the assistant: streamed Markdown reply, working state, cards, outcome.

    The reply streams token by token while the agent sends deltas; the agent sends none for an
    attempt that wrote to the calendar, and this view shows that text only from the finished
    report, i.e. after the guard's verdict (a rolled-back attempt's text is never shown).
    """

    def __init__(self, message: str, tz_name: str, *, animate: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.message = message
        self.tz_name = tz_name
        self.show_motion = animate  # not `self.animate`: that is Textual's own method
        self.report: TurnReport | None = None
        self.draft = ""
        self._stream: MarkdownStream | None = None

    def compose(self) -> ComposeResult:
        yield Markdown("", classes="reply")
        yield WorkingIndicator("thinking…", animate=self.show_motion, classes="working")
        yield Vertical(classes="cards")

    @property
    def reply(self) -> Markdown:
        return self.query_one(".reply", Markdown)

    @property
    def working(self) -> WorkingIndicator | None:
        found = self.query(".working")
        return found.first(WorkingIndicator) if found else None

    @property
    def busy(self) -> bool:
        return self.report is None

    def set_status(self, text: str) -> None:
        """A working state from the agent; hidden again once the turn is over."""
        indicator = self.working
        if indicator is not None:
            indicator.set_label(text)

    async def add_delta(self, text: str) -> None:
        """Stream reply text (only ever sent for attempts that changed nothing)."""
        self.draft += text
        if self._stream is None:
            self._stream = Markdown.get_stream(self.reply)
        await self._stream.write(text)

    async def discard_draft(self) -> None:
        """The streamed text was a preamble to tool calls or belongs to a redone attempt."""
        await self._stop_stream()
        if self.draft:
            self.draft = ""
            await self.reply.update("")

    async def _stop_stream(self) -> None:
        if self._stream is not None:
            stream, self._stream = self._stream, None
            await stream.stop()

    async def finish(self, report: TurnReport) -> None:
        """Show the judged reply, the cards of the attempt that stands, and the outcome."""
        await self._stop_stream()
        self.report = report
        await self._remove_working()
        text = report.reply or ("" if report.error else "(no reply)")
        if report.error:
            text = ""  # the outcome badge carries the readable notice
        if text != self.draft:
            await self.reply.update(text)
        self.reply.display = bool(text)
        cards = self.query_one(".cards", Vertical)
        views = [EventCardView(card, self.tz_name, classes="card") for card in report.cards]
        if views:
            await cards.mount_all(views)
        outcome = describe_outcome(report, self.tz_name)
        if outcome is not None:
            await self.mount(OutcomeBadge(outcome, classes="outcome"))

    async def fail(self, message: str) -> None:
        """The turn raised instead of returning a report (a bug or a backend failure)."""
        await self._stop_stream()
        await self._remove_working()
        self.reply.display = bool(self.draft)
        await self.mount(OutcomeBadge(Outcome("error", None, "Something went wrong",
                                              [message, "Press ctrl+r (or type /retry) to try again."]),
                                      classes="outcome"))

    async def _remove_working(self) -> None:
        indicator = self.working
        if indicator is not None:
            await indicator.remove()


class UndoView(Vertical):
    """What an undo (or a redo) did, in words and as cards."""

    def __init__(self, rollback: RollbackReport | RedoReport, tz_name: str, *, redo: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rollback = rollback
        self.tz_name = tz_name
        self.redo = redo

    @property
    def plain(self) -> str:
        head = "Redone." if self.redo else "Undone."
        return "\n".join([head, *undo_lines(self.rollback, self.tz_name)])

    def compose(self) -> ComposeResult:
        lines = undo_lines(self.rollback, self.tz_name)
        head = "↷ Redone" if self.redo else "↶ Undone"
        head += "." if self.rollback.clean else ", except where it could not be."
        yield Static(Text.assemble((head, "bold"), *[("\n" + line) for line in lines]),
                     classes="undo-summary")
        for item in self.rollback.restored[:CARDS_SHOWN]:  # a big undo is counted in the words
            if item.restored is not None and item.wrong is not None:
                card = EventCard("updated", item.restored, item.wrong)
            elif item.restored is not None:
                card = EventCard("created", item.restored)
            elif item.wrong is not None:
                card = EventCard("deleted", None, item.wrong)
            else:
                continue
            yield EventCardView(card, self.tz_name, classes="card")


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
