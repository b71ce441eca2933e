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
    # the rows' read joins the array to them on PostgreSQL (`unnest`: `= ANY` of many ids is
    # planned as a scan of the whole table), the journal's marks compare with it (`ANY`)
    assert reads[2][0] == reads[12][0] and ("unnest(" if store.is_postgresql else marker) in reads[2][0]
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


@pytest.mark.slow  # a real PostgreSQL server
def test_many_ids_are_read_through_the_key_on_postgresql(tmp_path: Path) -> None:
    """A thousand series of a 20,000-event calendar (what a month listing reads at 100,000):
    the rows are found by key look-ups, not by a scan of the whole table (`= ANY` of that many
    ids is planned as one, three times the time; issue 25). The rows read are those asked."""
    from sqlalchemy import insert

    from tools.backends.local import _SELECT_ROWS_ANY, event_to_fields, events_table

    with store_for("postgresql", tmp_path) as store:
        backend = LocalBackend(store, PERSON_TZ)
        cal = backend.primary_calendar_id()
        base = lessons(backend, 1)[0]
        rows = [{"calendar_id": cal, "id": f"ev{n:05d}", "version": 1, "turn_id": None,
                 **event_to_fields(base.with_changes(id=f"ev{n:05d}", title=f"Lesson {n}"))}
                for n in range(20_000)]
        with backend.engine.begin() as conn:
            conn.execute(insert(events_table), rows)
            conn.exec_driver_sql("ANALYZE events")
        wanted = [f"ev{n:05d}" for n in range(0, 20_000, 20)]
        with backend.engine.connect() as conn:
            compiled = _SELECT_ROWS_ANY.compile(conn)
            plan = "\n".join(r[0] for r in conn.exec_driver_sql(
                "EXPLAIN " + str(compiled), {"b_ids": wanted, "b_cal": cal}))
        assert "Seq Scan on events" not in plan and "events_pkey" in plan, plan.splitlines()[0]
        read = backend.get_events(cal, wanted)
        assert [e.title if e else None for e in read] == [f"Lesson {n}" for n in range(0, 20_000, 20)]
        backend.close()
