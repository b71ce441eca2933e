"""What a chat window needs from the assistant, and nothing more: `ChatSession`.

Why a narrow interface: the window used to reach through the agent into its services, journal
and history, so every change to the agent's insides was a change to the TUI, and a test of the
window needed a real store to stand behind a fake agent. Now the window talks only to this; the
real one is `AgentSession` (the chat turn of `assistant.agent`), and a test's fake implements
these few members. The CLI and the MCP server keep using the agent and `Changes` directly.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date
from typing import TYPE_CHECKING, Protocol

from assistant.report import TurnObserver, TurnReport
from tools.calendar.events import Event
from tools.context import ConfirmCallback
from tools.journal.changes import Change, Changes, RedoReport
from tools.journal.journal import RollbackReport

if TYPE_CHECKING:  # the agent loads the model SDK; the window needs only its type here
    from assistant.agent import Agent


class ChangeLog(Protocol):
    """The recent changes with undo and redo (`tools.journal.changes.Changes` is one): the same
    log the CLI and the MCP server undo from, so a change made at one door is undone at another."""

    def recent(self) -> list[Change]:
        """The newest requests that changed the calendar, newest first (standing or undone)."""
        ...

    def last_undoable(self) -> str | None:
        """The request an undo would take back, or None: nothing to undo."""
        ...

    def last_redoable(self) -> str | None:
        """The request a redo would put back, or None: nothing to redo."""
        ...

    def undo(self, turn_id: str) -> RollbackReport | None:
        """Take back one request's changes; None when nothing of it is left to undo."""
        ...

    def redo(self, turn_id: str) -> RedoReport | None:
        """Put back what an undo took back; None when there is nothing to redo."""
        ...


class ChatSession(Protocol):
    """One person's conversation with the assistant, as a chat window uses it.

    `send` blocks (the model, the tools, the guard) and is called from a worker thread, as are
    `agenda`, `today` and the change log's undo and redo; the rest are quick reads."""

    @property
    def timezone(self) -> str:
        """The zone every time in the window is shown in."""
        ...

    @property
    def recovered(self) -> list[RollbackReport]:
        """What start-up recovery undid (or could not) before this session opened."""
        ...

    @property
    def notices(self) -> list[str]:
        """Other things start-up did on the person's calendar, in words (a calendar made)."""
        ...

    @property
    def changes(self) -> ChangeLog:
        """The recent changes, for undo, redo and the changes list."""
        ...

    @property
    def calendar_names(self) -> Mapping[str, str]:
        """Each calendar's short name by id when the person reads several ("Leo", "Family
        (mom)"), so the agenda and the changes list say whose event; empty with one calendar."""
        ...

    def send(self, message: str, observer: TurnObserver) -> TurnReport:
        """One turn: the person's message in, the judged outcome back; progress goes to
        `observer` while it runs."""
        ...

    def history(self) -> list[tuple[str, str]]:
        """The resumed conversation as (role, text) pairs, to show what was said before."""
        ...

    def start_new_conversation(self) -> None:
        """Forget the chat so far (the model starts fresh); the calendar and its changes stay."""
        ...

    def agenda(self, days: int) -> list[Event]:
        """The events from the start of today for `days` days."""
        ...

    def today(self) -> date:
        """Today in the person's zone: where the agenda starts."""
        ...


SessionFactory = Callable[[ConfirmCallback], ChatSession]
"""Builds the session once the window can ask questions: the callback is how a turn asks the
person yes or no before a destructive change (it blocks the turn's thread until answered)."""


class AgentSession:
    """`ChatSession` on the real chat turn: an `assistant.agent.Agent` and its journal's changes."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.changes = Changes(agent.services.journal)

    @property
    def timezone(self) -> str:
        return self.agent.settings.timezone

    @property
    def recovered(self) -> list[RollbackReport]:
        return self.agent.services.recovered

    @property
    def notices(self) -> list[str]:
        return self.agent.services.notices

    @property
    def calendar_names(self) -> Mapping[str, str]:
        choice = self.agent.services.calendars
        return {i: choice.name(i) for i in choice.ids} if len(choice.ids) > 1 else {}

    def send(self, message: str, observer: TurnObserver) -> TurnReport:
        return self.agent.run_turn(message, observer)

    def history(self) -> list[tuple[str, str]]:
        return self.agent.history_for_display()

    def start_new_conversation(self) -> None:
        self.agent.history.start_new()

    def agenda(self, days: int) -> list[Event]:
        return self.agent.agenda(days)

    def today(self) -> date:
        return self.agent.now().date()  # the agent's clock already reads in the person's zone
