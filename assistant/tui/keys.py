"""Every way to reach the chat window's actions: a key, a slash command, the command palette.

Each names an action of `CalendarApp` (`undo` is `action_undo`), so the three ways to ask never
do different things; the help screen (`screens/help.py`) lists the keys and commands in words.
"""
from __future__ import annotations

from textual.binding import Binding, BindingType

BINDINGS: list[BindingType] = [
    Binding("f1", "help", "Help"),
    Binding("ctrl+z", "undo", "Undo"),
    Binding("ctrl+y", "redo", "Redo", show=False),
    Binding("f4", "changes", "Changes"),
    Binding("ctrl+r", "retry", "Retry", show=False),
    Binding("ctrl+f,f3", "findings", "Why?"),
    Binding("ctrl+g,f2", "toggle_agenda", "Agenda"),
    Binding("ctrl+n", "new_conversation", "New chat", show=False),
    Binding("pageup", "page_conversation(-1)", "Scroll up", show=False),
    Binding("pagedown", "page_conversation(1)", "Scroll down", show=False),
]
"""PageUp/PageDown scroll the conversation wherever the focus is: the input has no use for them,
and a person typing should not have to leave it to read back (issue 28 item 8)."""

MODAL_SENSITIVE = frozenset(binding.action for binding in BINDINGS if isinstance(binding, Binding))
"""The app's own keys, off while a dialog or the setup screen is up (a stray ctrl+z behind a
question must not start an undo)."""

SLASH_COMMANDS = {
    "undo": "undo", "redo": "redo", "changes": "changes", "retry": "retry", "why": "findings",
    "findings": "findings", "agenda": "toggle_agenda", "clear": "new_conversation",
    "new": "new_conversation", "help": "help", "quit": "quit", "exit": "quit",
}
"""For people who would rather type than remember keys: `/undo` is ctrl+z."""

UNKNOWN_COMMAND = ("Unknown command {!r}. Try /undo, /redo, /changes, /clear, /retry, /why, /agenda, "
                   "/help, /quit.")

PALETTE = [
    ("Undo last change", "Roll back the last turn's changes (asks first)", "undo"),
    ("Redo", "Put back what the last undo took back", "redo"),
    ("Recent changes", "Every recent change: undo or redo any of them", "changes"),
    ("New conversation", "Start fresh (the calendar is kept)", "new_conversation"),
    ("Retry", "Retry the last request after an error", "retry"),
    ("Why this confidence", "The guard's findings and facts for the last turn", "findings"),
    ("Toggle agenda", "Show or hide the agenda panel", "toggle_agenda"),
    ("Refresh agenda", "Reload the coming days from the calendar", "refresh_agenda"),
    ("Help", "Key bindings and slash commands", "help"),
]
"""The command palette's entries (ctrl+p): title, help line, action. Every action is there."""


def slash_action(text: str) -> str | None:
    """The action a slash command names (`/Undo` is `undo`), or None for one that is not known."""
    words = text[1:].split()
    return SLASH_COMMANDS.get(words[0].lower()) if words else None
