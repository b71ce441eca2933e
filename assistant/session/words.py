"""What a guarded attempt came to, said to a person: held for a yes, not verified, not finished
undoing, or nothing written.

Why a module of its own: the chat's card, `ask`'s text and `replay`'s reply must say the same
thing about the same outcome, and none of them may claim more than happened (a "Done" over a
change that was never written, a "Verified" over one nobody could check). Every sentence names
events by title and time (`tools.journal.changes` wording), never ids, tool names or JSON.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from tools.context import ToolCall
from tools.journal.changes import EventChange, counted, rollback_words
from tools.journal.journal import RollbackReport
from tools.specs import SpecRegistry

SHOWN = 5
"""Events listed one by one in a question or a notice; more are counted."""

UNDO_HINTS = {"chat": "press ctrl+z (or type /undo) to take it back",
              "cli": "run `calendar-assistant undo` to take it back"}
"""How each door tells a person to take a change back."""

YES_HINTS = {"chat": "Ask again if you want it done anyway; you will be asked to confirm.",
             "cli": "To do it anyway, run the same request again with --yes."}
"""How each door tells a person to say yes to a held change."""

RETRY_HINTS = {"chat": "Press ctrl+r (or type /retry) to try again.",
               "cli": "Run the same command again to try again."}
"""How each door tells a person to try a failed turn again: the chat's keys mean nothing in a
shell."""


def plain(text: str) -> str:
    """A doubt or reason as a person reads it: about "the change", not "the call"."""
    text = re.sub(r"\bthe call uses\b", "the change used", text)
    return re.sub(r"\b(the|this|that) call\b", r"\1 change", text)


def doubt_words(doubts: Iterable[str]) -> list[str]:
    """Why a change could not be verified, once each."""
    return list(dict.fromkeys(plain(d) for d in doubts if d))


def _joined(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def undone_changes(undone: RollbackReport, tz_name: str) -> list[str]:
    """What an attempt had done before it was undone (`Removed 'Book club' on ...`), one line
    per event, or counted when there are many: the person is asked about these."""
    changes = [EventChange(item.restored, item.wrong) for item in undone.restored]
    lines = [c.words(tz_name) for c in changes]
    if len(lines) > SHOWN:
        return counted([c.action for c in changes])
    return lines


def hold_summary(undone: RollbackReport, tz_name: str) -> str:
    """The question's body: what the change does (it is undone while the person decides)."""
    lines = undone_changes(undone, tz_name) or ["the change"]
    return ("I could not verify this change against what you asked, so I undid it. It would:\n"
            + "\n".join(f"• {_future(line)}" for line in lines))


_FUTURE = {"Removed": "remove", "Added": "add", "Moved": "move", "Changed": "change"}


def _future(line: str) -> str:
    """`Removed 'X' ...` as what the change would do: `remove 'X' ...`."""
    head, _, rest = line.partition(" ")
    return f"{_FUTURE[head]} {rest}" if head in _FUTURE else line


def hold_reasons(reasons: Sequence[str], doubts: Sequence[str]) -> list[str]:
    """The bullets under the question: why it needs a yes, and why it is not verified."""
    return [f"It needs your yes: {r}" for r in reasons] + \
        [f"Not verified: {d}" for d in doubt_words(doubts)]


def held_reply(reasons: Sequence[str], doubts: Sequence[str], undone: RollbackReport,
               tz_name: str, door: str = "chat") -> str:
    """The reply of a turn whose change was held and not confirmed: nothing was changed, what it
    would have done, and why it needs the person's yes."""
    why = doubt_words(doubts)
    lines = ["I did not make this change: I could not verify it against what you asked"
             + (f" ({'; '.join(why)})" if why else "") + f", and {_joined(list(reasons))}, "
             "which needs your yes. Nothing was changed."]
    shown = undone_changes(undone, tz_name)
    if shown:
        lines.append("What it would do: " + "; ".join(_future(s) for s in shown) + ".")
    lines.append(YES_HINTS.get(door, YES_HINTS["chat"]))
    return "\n\n".join(lines)


def not_verified_lines(doubts: Sequence[str], door: str = "chat") -> list[str]:
    """Under a change that stands but that nobody could check: why, and how to take it back."""
    why = doubt_words(doubts)
    lines = [f"Not checked: {d}." for d in why] or \
        ["Not checked: the checks computed in code could not confirm every part of it, and no "
         "second opinion was available."]
    hint = UNDO_HINTS.get(door, UNDO_HINTS["chat"])
    lines.append(f"Please look at it; if it is not what you meant, {hint}.")
    return lines


def unfinished_reply(undone: RollbackReport, tz_name: str, *, held: bool = False) -> str:
    """A change whose undo could not finish (it was wrong, or `held` unverified for a yes): what
    is not back yet and when it will be; the assistant did not try again meanwhile."""
    left = [line for line in rollback_words(undone, tz_name) if line]
    why = "I could not verify this change" if held else "I got this change wrong"
    return (f"{why} and started to undo it, but the calendar did not let me finish: "
            + "; ".join(left) + ". What is left will be undone the next time the assistant "
            "starts. I did not try again, so nothing else was changed.")


_FAILURE_WORDS = (("did not confirm", "you did not confirm it"),
                  ("changed by someone else", "someone else changed the event meanwhile"),
                  ("not found", "the event was not found"))


def _failure(call: ToolCall) -> str:
    text = call.result.text if call.result is not None else ""
    for needle, said in _FAILURE_WORDS:
        if needle in text:
            return said
    return "the calendar refused it"


def failed_writes(calls: Sequence[ToolCall], catalog: SpecRegistry) -> list[ToolCall]:
    """The writes that were tried (as `catalog` says), when every one of them failed (else
    empty)."""
    writes = [c for c in calls if catalog.is_write(c.name)]
    if not writes or any(c.result is not None and not c.result.is_error for c in writes):
        return []
    return writes


def nothing_written_notice(calls: Sequence[ToolCall], catalog: SpecRegistry) -> str | None:
    """When every write of an attempt failed: that nothing was written, and why, whatever the
    model's reply claims. None when something was written or nothing was tried."""
    writes = failed_writes(calls, catalog)
    if not writes:
        return None
    why = _joined(list(dict.fromkeys(_failure(c) for c in writes)))
    what = "the change I tried" if len(writes) == 1 else f"none of the {len(writes)} changes I tried"
    verb = "did not go through" if len(writes) == 1 else "went through"
    return f"Nothing was changed in your calendar: {what} {verb} ({why})."
