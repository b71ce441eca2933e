"""One turn of the assistant: the streamed reply, its working state, its cards and outcome."""
from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Markdown
from textual.widgets.markdown import MarkdownStream

from assistant.report import TurnReport
from assistant.tui.formatting import Outcome, describe_outcome
from assistant.tui.widgets.event_card import EventCardView
from assistant.tui.widgets.outcome import OutcomeBadge
from assistant.tui.widgets.working import WorkingIndicator


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
