"""A running turn's yes or no: asked from the turn's worker thread, answered in a dialog.

A destructive tool call, or an unverified destructive change (CONTRACT 5), waits for the person
before it happens. The turn runs in a worker thread, so the question is put on the UI thread and
the worker blocks on a `threading.Event` until the person answers. The window closing or the
worker being cancelled means no: a change is never granted because nobody was there to refuse it.
"""
from __future__ import annotations

import threading
from typing import Any

from textual.app import App
from textual.worker import Worker, get_current_worker

from assistant.session.attempt import UnverifiedChange
from assistant.tui.screens.confirm import ConfirmScreen
from assistant.tui.widgets.turn import TurnView
from tools.context import Confirmation

WAITING = "waiting for your answer…"


def confirm_screen(confirmation: Confirmation) -> ConfirmScreen:
    """The dialog for one question; an unverified change says so, and that no leaves it undone."""
    if isinstance(confirmation, UnverifiedChange):  # CONTRACT 5: undone until you say yes
        return ConfirmScreen("I could not verify this change", confirmation.summary,
                             confirmation.reasons, yes="Yes, do it anyway", no="No, leave it undone")
    return ConfirmScreen("Before I do this, please confirm", confirmation.summary, confirmation.reasons)


def ask_from_worker(app: App[Any], confirmation: Confirmation, view: TurnView | None) -> bool:
    """Put `confirmation` to the person and block this worker thread until they answer. The
    turn's working state says it is waiting meanwhile, and goes back to what it was after."""
    if threading.get_ident() == app._thread_id:
        raise RuntimeError("ask_from_worker must be called from a worker thread")
    answered = threading.Event()
    answer = {"yes": False}

    def done(result: bool | None) -> None:
        answer["yes"] = bool(result)
        answered.set()

    before = view.working.label if view is not None and view.working is not None else None

    def ask() -> None:
        if view is not None:
            view.set_status(WAITING)
        app.push_screen(confirm_screen(confirmation), done)

    def resume() -> None:
        if view is not None and before is not None:
            view.set_status(before)

    try:
        app.call_from_thread(ask)
    except RuntimeError:  # the app is closing
        return False
    worker = _current_worker()
    while not answered.wait(0.05):
        if (worker is not None and worker.is_cancelled) or app._exit or not app.is_running:
            return False
    try:
        app.call_from_thread(resume)
    except RuntimeError:
        pass
    return answer["yes"]


def _current_worker() -> Worker[Any] | None:
    try:
        return get_current_worker()
    except Exception:  # noqa: BLE001 - called outside a Textual worker (tests, scripts)
        return None
