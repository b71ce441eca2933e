"""The conversation: what was said before, each request and its turn, notices, undos."""
from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Markdown

from assistant.session.spoken import zone_words
from assistant.tui.widgets.messages import NoticeMessage, UserMessage
from assistant.tui.widgets.turn import TurnView
from assistant.tui.widgets.undo import UndoView
from tools.journal.changes import RedoReport
from tools.journal.journal import RollbackReport
from tools.masking import mask_secrets


def welcome(tz_name: str) -> Text:
    """The first line of every conversation: what to do, and how to read the answers."""
    text = Text()
    text.append("Hi! Tell me what to add, move or cancel. ", style="bold")
    text.append(f"Times are shown in {zone_words(tz_name)}. Every change is checked against "
                "what you said before you see it, and the badge under it says how sure I am. "
                "F1 for help.")
    return text


class Conversation(VerticalScroll):
    """The scrolling transcript. It starts with the welcome and follows the newest line: every
    addition scrolls it into view, as a chat does, until the person scrolls up to read."""

    def __init__(self, welcome: Text, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.welcome = welcome
        self._reply: Widget | None = None
        """The last reply while it may still outgrow the window (`show_reply`)."""
        self._placed: tuple[Widget, float] | None = None
        """A long reply shown from its start, and where the view was then: a resize (the agenda
        folding at 80x24) keeps its start in view until the person scrolls."""

    def compose(self) -> ComposeResult:
        yield NoticeMessage(self.welcome, classes="welcome")

    def on_mount(self) -> None:
        # a reply's text is laid out after the turn ends, a refresh or more later on a busy
        # machine: each growth of the transcript looks again at where the last reply starts
        self.watch(self, "virtual_size", self._grown, init=False)

    def show_past(self, history: list[tuple[str, str]]) -> None:
        """The resumed conversation, dimmed as past (replies are Markdown, as they were shown)."""
        for role, text in history:
            if role == "user":
                self.mount(UserMessage(text, classes="past"))
            else:
                self.mount(Markdown(text, classes="past-reply"))

    def show_recovered(self, reports: list[RollbackReport]) -> None:
        """What start-up recovery undid (or could not) before this window opened, in words: a
        notice in the conversation and a notification, one per unfinished request."""
        for report in reports:
            text = report.notice()
            self.add_notice(text, error=not report.complete)
            if report.complete:
                self.notify(text, title="Unfinished request undone", timeout=10)

    def add_notice(self, text: str, error: bool = False) -> None:
        """A line from the app itself; an error is also a notification, so it is not missed.
        Secrets are masked: an exception's text may carry a key or a password."""
        text = mask_secrets(text)
        self.mount(NoticeMessage(Text(text), classes="notice -error" if error else "notice"))
        self.follow()
        if error:
            self.notify(text, severity="error")

    def add_request(self, message: str, tz_name: str, *, animate: bool) -> TurnView:
        """The person's message and the view its turn fills in as it runs."""
        view = TurnView(message, tz_name, animate=animate, classes="turn")
        self._reply = self._placed = None
        self.mount(UserMessage(message, classes="user"))
        self.mount(view)
        self.follow()
        return view

    async def add_undo(self, result: RollbackReport | RedoReport, tz_name: str, *, redo: bool) -> None:
        await self.mount(UndoView(result, tz_name, redo=redo, classes="undo"))
        self.follow()

    def show_reply(self, view: Widget) -> None:
        """After a turn: a reply taller than the window is shown from its first line, the rest a
        scroll below (at 80x24 following the end showed only the end of a long answer, its
        start cut off above); a reply that fits is followed to the end as before. Its height is
        known only once it is laid out, which may be after the next refresh: until it proves
        taller than the window, it is followed, and looked at again as the transcript grows."""
        self._reply = view
        self.app.call_after_refresh(self._show_reply, view)

    def _grown(self) -> None:
        if self._reply is not None:
            self.app.call_after_refresh(self._show_reply, self._reply)

    def _show_reply(self, view: Widget) -> None:
        if view is not self._reply:
            return  # a newer message took over (or the person moved on)
        if view.outer_size.height <= self.scrollable_content_region.height:
            self.follow()
            return
        self._reply = None  # placed: the person's own scrolling is left alone from here
        self.anchor(False)  # stay at the reply's start; the next message follows the end again
        self.scroll_to_widget(view, top=True, animate=False, immediate=True)
        # and again after a `follow` still waiting for its refresh, which would scroll to the end
        self.app.call_after_refresh(self._to_start, view)

    def _to_start(self, view: Widget) -> None:
        self.scroll_to_widget(view, top=True, animate=False, immediate=True)
        self._placed = (view, self.scroll_y)

    def on_resize(self) -> None:
        placed = self._placed
        if placed is not None and placed[0].is_attached:
            self.app.call_after_refresh(self._to_start, placed[0])

    def read_on(self) -> None:
        """The person scrolls: from here where they look is theirs, not the last reply's start."""
        self._placed = None

    def on_mouse_scroll_down(self) -> None:
        self.read_on()

    def on_mouse_scroll_up(self) -> None:
        self.read_on()

    def restart(self) -> None:
        """A new conversation: only the welcome again."""
        self._reply = self._placed = None
        self.remove_children()
        self.mount(NoticeMessage(self.welcome, classes="welcome"))

    def follow(self) -> None:
        """Keep the newest message in view (after the next refresh, once it has a size), and
        stay there while the window is resized or the reply grows (Textual's anchor, released
        when the person scrolls up to read)."""
        self.anchor()
        self.app.call_after_refresh(self.scroll_end, animate=False)
