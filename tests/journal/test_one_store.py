"""A calendar and its journal in one store (`DATABASE_URL`: PostgreSQL, or one SQLite file): a
bulk update's entries commit with its write, and a rollback's marks (and its turn's new state)
commit with its restores, in one transaction each. A failure in the middle leaves neither: the
calendar and the journal never disagree about what was undone."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ, make_context, records_without_version

from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry
from tools.store.database import Store

LA = ZoneInfo(PERSON_TZ)


@pytest.fixture(params=["sqlite-one-file", pytest.param("postgresql", marks=pytest.mark.slow)])
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Journal]:
    if request.param == "postgresql":
        from pg_support import fresh_store

        store = fresh_store()
    else:
        store = Store.sqlite(tmp_path / "one.db")
    backend = LocalBackend(store, PERSON_TZ)
    try:
        yield Journal(store, backend)
    finally:
        store.close()


def _lessons(journal: Journal) -> list[Event]:
    backend = journal.backend
    cal = backend.primary_calendar_id()
    made = []
    for n in range(3):
        start = datetime(2026, 12, 1 + n, 17, tzinfo=LA)
        made.append(backend.create_event(cal, Event(
            id=backend.new_event_id(), title=f"Lesson {n}", start=start,
            end=start + timedelta(hours=1), timezone=PERSON_TZ, calendar_id=cal)))
    return made


def _bulk(journal: Journal, turn_id: str, made: list[Event]) -> None:
    backend = journal.backend
    result = ToolRegistry(make_context(backend, journal, turn_id)).run(ToolCall(
        "b", "bulk_update_calendar_events",
        {"updates": [{"event_id": e.id, "title": "Moved", "description": "room 4"} for e in made]}))
    assert not result.is_error, result.text


def test_a_rollback_marks_its_entries_in_the_restores_own_transaction(shared: Journal,
                                                                      monkeypatch: Any) -> None:
    backend = shared.backend
    made = _lessons(shared)
    before = records_without_version(backend)
    _bulk(shared, "t-one", made)
    changed = records_without_version(backend)
    assert changed != before

    real = Journal._mark

    def marked_then_failed(self: Journal, marks: Any, turn: Any = None, conn: Any = None) -> None:
        real(self, marks, turn, conn)
        if conn is not None:  # inside the restores' transaction, after the marks
            raise RuntimeError("the store failed before the commit")

    monkeypatch.setattr(Journal, "_mark", marked_then_failed)
    with pytest.raises(RuntimeError):
        shared.rollback("t-one")
    # neither the restores nor the marks were committed
    assert records_without_version(backend) == changed
    assert [e.state for e in shared.entries("t-one")] == ["done"] * 3
    turn = shared.turn("t-one")
    assert turn is not None and turn.state == "open"

    monkeypatch.setattr(Journal, "_mark", real)
    report = shared.rollback("t-one")
    assert report.clean and len(report.restored) == 3, report.summary()
    assert records_without_version(backend) == before
    assert shared.entries("t-one") == []  # all rolled_back
    turn = shared.turn("t-one")
    assert turn is not None and turn.state == "rolled_back"
