"""A list of ids goes as one value, on PostgreSQL an array (`= ANY(:ids)`), on SQLite a JSON
array (`IN (SELECT value FROM json_each(:ids))`): reading a bulk update's rows and marking a
rollback's entries is one fixed statement whatever the number of ids, which SQLAlchemy does not
render anew, psycopg keeps converted and the server keeps prepared (an IN list of fifty bound
values is a new statement each time, and psycopg caches none of more than fifty parameters).
The rows read and the entries marked are the same as with an IN list."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PERSON_TZ, make_context
from lessons_support import STORES, lessons, store_for
from sqlalchemy import event as sa_event

from tools.backends.local import LocalBackend
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry
from tools.store.database import Store


def _statements(backend: LocalBackend, work: Any) -> list[str]:
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        seen.append(statement)

    sa_event.listen(backend.engine, "before_cursor_execute", record)
    try:
        work()
    finally:
        sa_event.remove(backend.engine, "before_cursor_execute", record)
    return seen


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with store_for(request.param, tmp_path) as made:
        yield made


def test_ids_go_as_one_value_whatever_their_number(store: Store) -> None:
    marker = "ANY" if store.is_postgresql else "json_each"
    backend = LocalBackend(store, PERSON_TZ)
    journal = Journal(store, backend)
    cal = backend.primary_calendar_id()
    made = lessons(backend, 12)
    ids = [e.id for e in made]

    reads = {n: _statements(backend, lambda n=n: backend.get_events(cal, ids[:n] + ["nope"]))
             for n in (2, 12)}
    assert reads[2][0] == reads[12][0] and marker in reads[2][0]
    assert [e.title if e else None for e in backend.get_events(cal, ids[:3] + ["nope"])] == \
        ["Lesson 0", "Lesson 1", "Lesson 2", None]

    def bulk_and_undo(turn_id: str, n: int) -> None:
        result = ToolRegistry(make_context(backend, journal, turn_id)).run(ToolCall(
            "b", "bulk_update_calendar_events",
            {"updates": [{"event_id": i, "title": "Moved"} for i in ids[:n]]}))
        assert not result.is_error, result.text
        report = journal.rollback(turn_id)
        assert report.clean and len(report.restored) == n

    small = _statements(backend, lambda: bulk_and_undo("t-small", 3))
    large = _statements(backend, lambda: bulk_and_undo("t-large", 12))
    marks = [s for s in small + large if s.startswith("UPDATE journal_entries")]
    assert len(marks) == 2 and marks[0] == marks[1] and marker in marks[0]
    assert {e.event_id for e in journal.entries("t-large", states=("rolled_back",))} == set(ids)
    assert [e.title for e in backend.get_events(cal, ids)] == [f"Lesson {n}" for n in range(12)]
