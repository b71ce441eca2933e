"""Undo, redo and the recent-changes list, however the person asks (a key, a slash command, the
command palette).

Each reads the session's change log on the UI thread (a quick read), does the undo or the redo
in a worker thread (a calendar service may be slow) and shows what it did in the conversation.
Nothing is done while a turn runs: its writes are not settled yet.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from textual.app import App

from assistant.session.chat import ChatSession
from assistant.tui.screens.changes import ChangesScreen
from assistant.tui.screens.confirm import ConfirmScreen
from assistant.tui.turns import TurnRunner
from assistant.tui.ui_thread import call_ui
from assistant.tui.widgets.conversation import Conversation
from tools.backends.errors import person_message
from tools.journal.changes import RedoReport
from tools.journal.journal import RollbackReport


class UndoRedo:
    """The person's undo and redo. `changed` is told the ids of the events an undo or a redo
    put back, so the agenda can mark them."""

    def __init__(self, app: App[Any], turns: TurnRunner, conversation: Conversation,
                 changed: Callable[[set[str]], None]) -> None:
        self.app = app
        self.turns = turns
        self.conversation = conversation
        self.changed = changed

    def undo(self, *, demo_step: bool = False) -> None:
        """Ask before taking back the newest change; say so plainly when there is none.

        `demo_step`: the demo's scripted `/undo` step, whose dialog opens with "Yes, undo" focused
        and says so, so Enter after Enter plays the step the banner promises (the real chat's
        question keeps "No" focused)."""
        session = self.turns.idle_session()
        if session is None:
            return
        turn_id = session.changes.last_undoable()
        if turn_id is None:
            self.app.notify("Nothing to undo.")
            return
        listed = next((c for c in session.changes.recent() if c.turn_id == turn_id), None)
        lines = listed.lines(session.timezone) if listed is not None else []
        summary = "This takes back:\n" + "\n".join(f"• {line}" for line in lines) if lines else \
            "This takes back the most recent change."

        def answered(yes: bool | None) -> None:
            if yes:
                self._run(session, "undo", turn_id)

        if demo_step:
            summary += "\n\nDemo step: Enter undoes it (n or Esc keeps it)."
        self.app.push_screen(ConfirmScreen("Undo the last change?", summary, yes="Yes, undo",
                                           yes_focused=demo_step), answered)

    def redo(self) -> None:
        session = self.turns.idle_session()
        if session is None:
            return
        turn_id = session.changes.last_redoable()
        if turn_id is None:
            self.app.notify("Nothing to redo.")
            return
        self._run(session, "redo", turn_id)

    def choose(self) -> None:
        """The recent changes; choosing one undoes it (or redoes one the person undid)."""
        session = self.turns.idle_session()
        if session is None:
            return
        listed = session.changes.recent()
        if not listed:
            self.app.notify("No changes yet.")
            return

        def chosen(choice: tuple[str, str] | None) -> None:
            if choice is not None:
                self._run(session, *choice)

        self.app.push_screen(ChangesScreen(listed, session.timezone, session.calendar_names), chosen)

    def _run(self, session: ChatSession, what: str, turn_id: str) -> None:
        self.app.run_worker(partial(self._change, session, what, turn_id), thread=True, exclusive=True,
                            group="undo")

    def _change(self, session: ChatSession, what: str, turn_id: str) -> None:
        """Runs in a worker thread: the calendar service may take its time."""
        try:
            result: RollbackReport | RedoReport | None = \
                session.changes.undo(turn_id) if what == "undo" else session.changes.redo(turn_id)
        except Exception as exc:  # noqa: BLE001 - a failing calendar service is a notice
            call_ui(self.app, self.conversation.add_notice, f"Could not {what}: {person_message(exc, what)}", True)
            return
        call_ui(self.app, self._done, session.timezone, what, result)

    async def _done(self, tz_name: str, what: str, result: RollbackReport | RedoReport | None) -> None:
        if result is None:
            self.app.notify(f"Nothing to {what}.")
            return
        await self.conversation.add_undo(result, tz_name, redo=what == "redo")
        self.changed({r.event_id for r in result.restored})
        self.app.notify(("Redone." if what == "redo" else "Undone.") + " ctrl+z / ctrl+y / F4 for more.")
