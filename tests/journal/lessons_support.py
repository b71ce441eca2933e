"""What the journal's store tests share: a calendar of weekly lessons on a local backend, a
bulk update of them through the registry, and a store on one SQLite file or (slow) a fresh
PostgreSQL database, so each test file states only what it checks."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ, make_context

from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry
from tools.store.database import Store

LA = ZoneInfo(PERSON_TZ)
STORES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.slow)]
"""The fixture params of `store_for`: one SQLite file, and PostgreSQL as a slow test."""


def lessons(backend: LocalBackend, n: int = 3) -> list[Event]:
    """`n` one-hour lessons on the primary calendar, on consecutive days from December 1st."""
    cal = backend.primary_calendar_id()
    made = []
    for i in range(n):
        start = datetime(2026, 12, 1 + i, 17, tzinfo=LA)
        made.append(backend.create_event(cal, Event(
            id=backend.new_event_id(), title=f"Lesson {i}", start=start,
            end=start + timedelta(hours=1), timezone=PERSON_TZ, calendar_id=cal)))
    return made


def bulk(journal: Journal, turn_id: str, made: list[Event]) -> None:
    """One journaled bulk update of `made` (title and description), which must succeed."""
    result = ToolRegistry(make_context(journal.backend, journal, turn_id)).run(ToolCall(
        "b", "bulk_update_calendar_events",
        {"updates": [{"event_id": e.id, "title": "Moved", "description": "room 4"} for e in made]}))
    assert not result.is_error, result.text


@contextmanager
def store_for(kind: str, tmp_path: Path) -> Iterator[Store]:
    """A store of `kind` (a `STORES` param), closed afterwards."""
    if kind == "postgresql":
        from pg_support import fresh_store

        made = fresh_store()
    else:
        made = Store.sqlite(tmp_path / "one.db")
    try:
        yield made
    finally:
        made.close()
