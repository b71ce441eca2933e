"""An attempt as the guard sees it: one recipe for every door (the chat's agent, the MCP server).

The guard judges what an attempt's calls wrote against the calendar as it was before the attempt,
so the case is built from the calendar around `now`, the events the calls named, and the
journal's pre-images of what the attempt wrote (put back in place of what is there now). Both the
chat and the MCP server build it here, so a guarded call is judged the same way whichever client
made it.
"""
from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from assistant.services import Services
from reflection.case import GuardCall, GuardCase
from tools.backends.base import CalendarBackend
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.entries import Entry, EntryState
from tools.specs import SpecRegistry

_BEFORE = timedelta(days=7)
_AFTER = timedelta(days=62)


def judged_calls(calls: Sequence[ToolCall], catalog: SpecRegistry) -> list[ToolCall]:
    """The calls the guard judges: a guarded call that returned an error changed nothing
    (refused, invalid, not confirmed), so it is left out; read-only calls stay (the checks
    use them). Empty when no write succeeded: then there is nothing to verify, no verdict."""
    if not any(catalog.is_write(c.name) and c.result is not None and not c.result.is_error
               for c in calls):
        return []
    return [c for c in calls
            if not (catalog.is_guarded(c.name) and (c.result is None or c.result.is_error))]


def pre_images(services: Services, turn_id: str, attempt: int) -> dict[str, Event | None]:
    """What each event written in the attempt was before its first write (None: it was new)."""
    out: dict[str, Event | None] = {}
    states: tuple[EntryState, ...] = ("pending", "done", "rolled_back", "conflict")
    for row in services.journal.entries(turn_id, attempt, states=states):
        if row.event_id not in out:
            out[row.event_id] = Entry.read(row).pre_event
    return out


class NamedCall(Protocol):
    """What `named_event_ids` reads of a call: a live `ToolCall` or a case's `GuardCall`."""

    @property
    def name(self) -> str: ...

    @property
    def input(self) -> dict[str, Any]: ...


def named_event_ids(calls: Sequence[NamedCall], catalog: SpecRegistry) -> set[str]:
    """The event ids the calls name (each item of a bulk update included)."""
    wanted: set[str] = set()
    for call in calls:
        spec = catalog.get(call.name)
        for item in spec.items(call.input) if spec is not None else []:
            if item.get("event_id"):
                wanted.add(str(item["event_id"]))
    return wanted


def calendar_around(backend: CalendarBackend, calendar_id: str, now: datetime,
                    named: set[str]) -> dict[str, Event]:
    """The calendar the guard reads, as it is now: the window around `now` (a week back, two
    months ahead), the events the calls name and the series of every occurrence listed. Apart
    from `build_guard_case` so a benchmark times exactly what an attempt reads."""
    events: dict[str, Event] = {e.id: e for e in backend.list_events(calendar_id, now - _BEFORE,
                                                                     now + _AFTER)}
    wanted = set(named)
    for event in list(events.values()):
        if event.recurring_event_id:
            wanted.add(event.recurring_event_id)
    missing = sorted(wanted - set(events))  # one read for them all, not one per series
    for event_id, found in zip(missing, backend.get_events(calendar_id, missing), strict=True):
        if found is not None:
            events[event_id] = found
    return events


def build_guard_case(services: Services, turn_id: str, attempt: int, calls: Sequence[ToolCall],
                     message: str, now: datetime,
                     judged: Sequence[ToolCall] | None = None) -> GuardCase:
    """The attempt's case: the calendar as it was before the attempt, and the calls that count
    (`judged`; all of `calls` when not given), judged against the person's own `message`."""
    judged = calls if judged is None else judged
    backend, cal_id = services.backend, services.calendar_id
    events = calendar_around(backend, cal_id, now, named_event_ids(calls, services.catalog))
    made: set[str] = set()
    for event_id, before in pre_images(services, turn_id, attempt).items():
        if before is None:
            made.add(event_id)
        else:
            events[event_id] = before
    # what the attempt created was not there before it, occurrences of a new series included
    # (a split's new series would otherwise be "another event" its own change overlaps)
    events = {k: e for k, e in events.items()
              if k not in made and (e.recurring_event_id or "") not in made}
    settings = services.settings
    return GuardCase(user_message=message, now=now, timezone=settings.timezone,
                     home_address=settings.home_address, calendar=list(events.values()),
                     tool_calls=[GuardCall(c.name, c.input, c.result.data if c.result else None)
                                 for c in judged],
                     backend=backend.name, places=dict(settings.places), catalog=services.catalog)
