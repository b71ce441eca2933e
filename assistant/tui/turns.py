"""The person's requests, one at a time: each turn in a worker thread, its progress on screen.

Threading model. `ChatSession.send` blocks (model calls, tools, the guard), so each turn runs in
a Textual *thread* worker. The session reports progress through a `TurnObserver` from that
thread; `TurnBridge` forwards every call to the UI thread with `App.call_from_thread`, which
waits for the UI to apply it, so deltas and status changes arrive in order. A destructive tool
call asks the person through `TurnRunner.confirm` (`assistant.tui.confirmations`), which blocks
the worker until they answer.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App

from assistant.report import TurnReport
from assistant.session.chat import ChatSession
from assistant.tui.confirmations import ask_from_worker
from assistant.tui.ui_thread import call_ui
from assistant.tui.widgets.conversation import Conversation
from assistant.tui.widgets.turn import TurnView
from tools.backends.errors import person_message
from tools.context import Confirmation

TurnOver = Callable[[str, TurnReport | None], None]
"""Told on the UI thread once a turn is over: the request, and its report (None: it raised)."""


def touched_calendar(report: TurnReport) -> bool:
    """Whether the turn may have changed the calendar (then the agenda is reloaded)."""
    return bool(report.cards or report.rolled_back or report.error is None and report.attempts and any(
        a.calls for a in report.attempts))


class TurnBridge:
    """The `TurnObserver` of one turn: forwards the worker thread's calls to the UI thread."""

    def __init__(self, app: App[Any], view: TurnView, conversation: Conversation) -> None:
        self.app = app
        self.view = view
        self.conversation = conversation

    def on_status(self, text: str) -> None:
        call_ui(self.app, self.view.set_status, text)

    def on_text_delta(self, text: str) -> None:
        call_ui(self.app, self.view.add_delta, text)
        call_ui(self.app, self.conversation.follow)

    def on_draft_discarded(self) -> None:
        call_ui(self.app, self.view.discard_draft)


class TurnRunner:
    """Sends each request to the session in a worker thread, one at a time: a request typed while
    one runs waits its turn. It remembers what a retry would send again and the reports the
    findings panel explains; a new conversation forgets both."""

    def __init__(self, app: App[Any], conversation: Conversation, *, animate: bool,
                 turn_over: TurnOver) -> None:
        self.app = app
        self.conversation = conversation
        self.animate = animate
        self.turn_over = turn_over
        self.session: ChatSession | None = None  # set once the window has started the assistant
        self.running = False
        self.pending: deque[str] = deque()
        self.reports: list[TurnReport] = []
        self.last_failed: str | None = None
        self.active: TurnView | None = None

    def idle_session(self) -> ChatSession | None:
        """The session when it is there and no turn runs (an undo or a new conversation must not
        race a turn that is still writing); otherwise why not, as a notification, and None."""
        if self.session is None:
            self.app.notify("The assistant is not ready.", severity="warning")
            return None
        if self.running:
            self.app.notify("Wait for the current request to finish first.", severity="warning")
            return None
        return self.session

    def send(self, message: str) -> None:
        session = self.session
        if session is None:
            self.app.notify("The assistant is not ready (see the setup notice).", severity="warning")
            return
        if self.running:
            self.pending.append(message)
            self.app.notify("Still working on the last request; yours is next.")
            return
        view = self.conversation.add_request(message, session.timezone, animate=self.animate)
        self.running = True
        self.active = view
        self.app.run_worker(partial(self._run, session, message, view), thread=True, group="turn")

    def _run(self, session: ChatSession, message: str, view: TurnView) -> None:
        """Runs in the worker thread: `send` blocks for the model, the tools and the guard."""
        try:
            report = session.send(message, TurnBridge(self.app, view, self.conversation))
        except Exception as exc:  # noqa: BLE001 - shown as a readable notice, the turn can be retried
            call_ui(self.app, self._failed, message, view, person_message(exc, "finish the request"))
            return
        call_ui(self.app, self._done, message, view, report)

    async def _done(self, message: str, view: TurnView, report: TurnReport) -> None:
        await view.finish(report)
        self.conversation.show_reply(view)
        self.reports.append(report)
        if report.error:
            self.last_failed = message
            self.app.notify(report.error, title="Not done", severity="error", timeout=8)
        else:
            self.last_failed = None
        self._over(message, report)

    async def _failed(self, message: str, view: TurnView, problem: str) -> None:
        await view.fail(problem)
        self.conversation.follow()
        self.last_failed = message
        self.app.notify(problem, title="Not done", severity="error", timeout=8)
        self._over(message, None)

    def _over(self, message: str, report: TurnReport | None) -> None:
        self.running = False
        self.active = None
        self.turn_over(message, report)
        if self.pending:
            self.send(self.pending.popleft())

    def confirm(self, confirmation: Confirmation) -> bool:
        """The session's confirm callback: called from the worker thread, blocks for the answer."""
        return ask_from_worker(self.app, confirmation, self.active)

    def retry(self) -> None:
        if self.last_failed is None:
            self.app.notify("Nothing to retry: the last request did not fail.")
            return
        message, self.last_failed = self.last_failed, None
        self.send(message)

    def findings_report(self) -> TurnReport | None:
        """The report the findings panel explains: the newest that was checked, else the newest."""
        for report in reversed(self.reports):
            if report.attempts and any(a.verdict is not None for a in report.attempts):
                return report
        return self.reports[-1] if self.reports else None

    def new_conversation(self) -> None:
        """`/clear` and ctrl+n: a fresh conversation (the model forgets the chat so far; the
        calendar and its undo list are kept)."""
        session = self.idle_session()
        if session is None:
            return
        session.start_new_conversation()
        self.reports.clear()
        self.last_failed = None
        self.conversation.restart()
        self.app.notify("New conversation. Your calendar and its changes are kept (F4 lists them).")
