"""MCP calls as guarded attempts without a reflection model (CONTRACT 5 and 7): a change code
could not verify is never "Done; the change stands" as if checked. One that is not destructive
stands and says it is not verified, why, and how to undo it; an unverified delete is rolled back
and answered as needing the person's yes, and the same call repeated with `confirmed: true` runs.
A guard rollback that cannot finish leaves the call's turn for the next start.

The official SDK's client against our server in process; said on Thursday 2025-10-23 09:00 in Los
Angeles, with no reflection model configured (`configured=lambda: None`).
"""
from __future__ import annotations

from datetime import datetime
from typing import Any

import mcp_support
import pytest
from mcp import Client
from mcp_support import NOW, TZ, text_of
from test_guarded_attempt import FlakyRestores

from assistant.mcp.server import build_server
from assistant.services import build_services
from assistant.settings import Settings
from tools.backends.local import LocalBackend
from tools.calendar.events import zone
from tools.journal.journal import Journal
from tools.store.database import Store

anyio_backend = mcp_support.anyio_backend
settings = mcp_support.settings  # the fixture: a fresh home holding CALENDAR, HOME its address

HOME = "77 Cedar Ln"
CALENDAR = [
    {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-24T17:00:00-07:00",
     "end": "2025-10-24T17:45:00-07:00", "timezone": TZ},
    {"id": "ev_book1", "title": "Book club", "start": "2025-10-24T19:00:00-07:00",
     "end": "2025-10-24T21:00:00-07:00", "timezone": TZ},
]
UNSURE_CREATE = {"title": "Dentist", "start": "2025-10-24T18:00:00", "end": "2025-10-24T19:00:00",
                 "request": "add dentist after the swim lesson"}
UNSURE_DELETE = {"event_id": "ev_book1", "request": "cancel the thing on friday"}


def server_for(settings: Settings, **kw: Any) -> Any:
    return build_server(settings, now=lambda: NOW, configured=lambda: None, **kw)


def titles(settings: Settings) -> list[str]:
    backend = LocalBackend(settings.calendar_db, TZ)
    found = backend.list_events("primary", datetime(2025, 10, 1, tzinfo=zone(TZ)),
                                datetime(2025, 12, 1, tzinfo=zone(TZ)))
    return sorted(e.title for e in found)


@pytest.mark.anyio
async def test_an_unverified_create_stands_and_says_it_is_not_verified(settings: Settings) -> None:
    async with Client(server_for(settings)) as client:
        result = await client.call_tool("create_calendar_event", UNSURE_CREATE)
    said = text_of(result)
    assert not result.is_error, said
    assert "Dentist" in titles(settings)
    assert said.startswith("Written, but NOT verified")
    assert "Done; the change stands" not in said and "its time is said relative to another event" in said
    assert "undo_last_change" in said  # how to take it back
    data = result.structured_content or {}
    assert data["verified"] is False and data["doubts"] == ["its time is said relative to another event"]


@pytest.mark.anyio
async def test_a_verified_create_still_says_done(settings: Settings) -> None:
    async with Client(server_for(settings)) as client:
        result = await client.call_tool("create_calendar_event", {
            "title": "Dentist", "start": "2025-10-31T15:00:00", "end": "2025-10-31T16:00:00",
            "request": "add dentist on Friday October 31 at 3pm"})
    assert text_of(result).startswith("Done; the change stands.")
    assert (result.structured_content or {})["verified"] is True


@pytest.mark.anyio
async def test_an_unverified_delete_needs_confirmation_then_runs_confirmed(settings: Settings) -> None:
    async with Client(server_for(settings)) as client:
        held = await client.call_tool("delete_calendar_event", UNSURE_DELETE)
        assert held.is_error
        said = text_of(held)
        assert said.startswith("Not written: the calendar guard could not verify this change")
        assert "it removes an event" in said and '"confirmed": true' in said
        assert (held.structured_content or {})["needs_confirmation"] is True
        assert "Book club" in titles(settings)  # rolled back
        confirmed = await client.call_tool("delete_calendar_event", {**UNSURE_DELETE, "confirmed": True})
    assert not confirmed.is_error, text_of(confirmed)
    assert "Book club" not in titles(settings)
    assert text_of(confirmed).startswith("Written, but NOT verified")


@pytest.mark.anyio
async def test_a_guard_rollback_that_fails_leaves_the_call_for_the_next_start(settings: Settings) -> None:
    down = FlakyRestores(settings.calendar_db, TZ)
    down.down = True
    services = build_services(settings, backend=down)
    async with Client(server_for(settings, services=services)) as client:
        result = await client.call_tool("create_calendar_event", {
            "title": "Dentist", "start": "2025-10-30", "all_day": True,
            "request": "add dentist next Friday"})
    assert result.is_error and "Not everything could be put back" in text_of(result)
    assert "Dentist" in titles(settings)  # not undone yet
    journal = Journal(Store.sqlite(settings.state_db), down)
    assert [t.state for t in journal.recoverable_turns()] == ["unfinished"]
    build_services(settings)  # the next start, the calendar service back
    assert "Dentist" not in titles(settings)
