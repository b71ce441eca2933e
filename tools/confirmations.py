"""Why a call needs the person's yes (CONTRACT section 3), and the words it is asked in.

A call is destructive when no rollback can take it back (an email to attendees) or when it does
more than most requests mean (deleting several events, changing or deleting a whole recurring
series). Each tool's spec names its own reason function and summary function from here, so the
registry asks "is this destructive, and how do I say it?" without knowing any tool by name.

Summaries are read by a family member: titles, days and times in words, never ids, tool names or
RRULE text ("Delete 'Swim lesson' on Tuesday, October 21 at 5:00 PM").
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tools.calendar.events import Event, EventFieldError, as_date, local_start_of
from tools.calendar.occurrences import instance_parts, stamp_original
from tools.calendar.wording import day_label, event_phrase
from tools.context import ToolCall, ToolContext
from tools.handlers import (
    build_new_event,  # the one place an input becomes an event
    read_events,
)

Reasons = Callable[[ToolCall, ToolContext], list[str]]
Summary = Callable[[ToolCall, ToolContext], str]

_FIELD_WORDS = {"title": "title", "start": "time", "end": "time", "all_day": "time",
                "timezone": "time zone", "location": "place", "description": "note",
                "attendees": "guests", "recurrence": "repeat"}


def no_reasons(call: ToolCall, ctx: ToolContext) -> list[str]:
    """A call that reads, or writes something every rollback can undo."""
    return []


def _unique(reasons: list[str]) -> list[str]:
    return list(dict.fromkeys(reasons))


def _event(ctx: ToolContext, item: dict[str, Any]) -> Event | None:
    event_id = item.get("event_id")
    if not isinstance(event_id, str) or not event_id:
        return None
    return ctx.backend.get_event(item.get("calendar_id") or ctx.calendar_id, event_id)


def _notify(item: dict[str, Any]) -> list[str]:
    return ["sends email updates to the attendees"] if item.get("notify_attendees") else []


def _read(ctx: ToolContext, items: list[dict[str, Any]]) -> list[Event | None]:
    """The items' events, read at once (a bulk update's fifty in one query, not fifty)."""
    read = read_events(ctx, items)
    return [read.get((item.get("calendar_id") or ctx.calendar_id, item.get("event_id") or ""))
            for item in items]


def _series(ctx: ToolContext, item: dict[str, Any], verb: str,
            event: Event | None = None) -> list[str]:
    event = event or _event(ctx, item)
    if event is None or not event.is_recurring_series:
        return []
    return [f"{verb} every occurrence of the recurring '{event.title}'"]


def _scoped(ctx: ToolContext, item: dict[str, Any], verb: str) -> list[str]:
    """An occurrence id with scope `following` or `series` changes many occurrences too."""
    scope, event_id = item.get("scope"), item.get("event_id")
    parts = instance_parts(event_id) if isinstance(event_id, str) else None
    if parts is None or scope not in ("following", "series"):
        return []
    master = ctx.backend.get_event(item.get("calendar_id") or ctx.calendar_id, parts[0])
    if master is None or not master.is_recurring_series:
        return []
    original = stamp_original(parts[1])
    when = day_label(as_date(local_start_of(original, master.zone)))
    return [f"{verb} every occurrence of the recurring '{master.title}' from {when} on"
            if scope == "following" else f"{verb} every occurrence of the recurring '{master.title}'"]


def _updates(call: ToolCall) -> list[dict[str, Any]]:
    items = call.input.get("updates")
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []


def create_reasons(call: ToolCall, ctx: ToolContext) -> list[str]:
    return _notify(call.input)


def update_reasons(call: ToolCall, ctx: ToolContext) -> list[str]:
    return _unique(_notify(call.input) + _series(ctx, call.input, "changes")
                   + _scoped(ctx, call.input, "changes"))


def bulk_update_reasons(call: ToolCall, ctx: ToolContext) -> list[str]:
    items = _updates(call)
    return _unique([r for item, event in zip(items, _read(ctx, items), strict=True)
                    for r in _notify(item) + _series(ctx, item, "changes", event)])


def delete_reasons(call: ToolCall, ctx: ToolContext) -> list[str]:
    """A delete also needs a yes when it is not the first of the turn."""
    reasons = _notify(call.input) + _series(ctx, call.input, "deletes") \
        + _scoped(ctx, call.input, "deletes")
    if ctx.deleted_in_turn >= 1:
        reasons.append(f"deletes more than one event in this request "
                       f"({ctx.deleted_in_turn + 1} so far)")
    return _unique(reasons)


# --------------------------------------------------------------------------- summaries
def _emails(item: dict[str, Any]) -> str:
    return ", and email the guests" if item.get("notify_attendees") else ""


def _change_line(ctx: ToolContext, item: dict[str, Any], event: Event | None = None) -> str:
    event = event or _event(ctx, item)
    what = list(dict.fromkeys(w for k, w in _FIELD_WORDS.items() if k in item))
    said = event_phrase(event, ctx.timezone) if event is not None else "an event"
    fields = (": its " + (", ".join(what[:-1]) + " and " + what[-1] if len(what) > 1 else what[0])
              if what else "")
    return f"Change {said}{fields}{_emails(item)}"


def plain_summary(call: ToolCall, ctx: ToolContext) -> str:
    """For a tool whose spec gives no better words (it should, if it can ever need a yes)."""
    return "Go ahead with this step"


def create_summary(call: ToolCall, ctx: ToolContext) -> str:
    try:
        phrase = event_phrase(build_new_event(ctx, call.input, "new"), ctx.timezone)
    except EventFieldError:
        phrase = "an event"
    return f"Add {phrase}{_emails(call.input)}"


def update_summary(call: ToolCall, ctx: ToolContext) -> str:
    return _change_line(ctx, call.input)


def bulk_update_summary(call: ToolCall, ctx: ToolContext) -> str:
    items = _updates(call)
    lines = [_change_line(ctx, item, event) for item, event in zip(items, _read(ctx, items), strict=True)]
    return "\n".join([f"Change {len(items)} events:", *lines]) if len(items) > 1 else "\n".join(lines)


def delete_summary(call: ToolCall, ctx: ToolContext) -> str:
    event = _event(ctx, call.input)
    said = event_phrase(event, ctx.timezone) if event is not None else "an event"
    return f"Delete {said}{_emails(call.input)}"
