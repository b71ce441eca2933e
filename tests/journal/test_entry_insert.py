"""Entries inserted together get their ids in their rows' order, on SQLite in two statements
(`tools.journal.entry_insert`): the first row alone, its id read back, the rest with the ids
that follow it in one executemany, not one INSERT per row. The ids are the ones SQLite would
have chosen (the largest plus one, after a gap or a deleted last row too), and each belongs to
the row it was returned for."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PERSON_TZ, make_context
from lessons_support import STORES, lessons, store_for
from sqlalchemy import event as sa_event
from sqlalchemy import text

from tools.backends.base import Snapshot
from tools.backends.local import LocalBackend
from tools.context import ToolCall
from tools.journal.entries import new_entry
from tools.journal.entry_insert import insert_entries
from tools.journal.journal import Journal
from tools.registry import ToolRegistry
from tools.store.database import Store


@pytest.fixture(params=STORES)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Store]:
    with store_for(request.param, tmp_path) as made:
        yield made


def _rows(names: list[str]) -> list[dict[str, Any]]:
    return [new_entry("t-ins", 1, "update_calendar_event", "primary", name,
                      Snapshot("primary", name, None, None), None, None, None) for name in names]


def _inserted(store: Store, names: list[str]) -> tuple[list[int], list[str]]:
    """The ids `insert_entries` returns, and the INSERT statements it ran."""
    seen: list[str] = []

    def record(conn: Any, cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("INSERT INTO journal_entries"):
            seen.append(statement)

    sa_event.listen(store.engine, "before_cursor_execute", record)
    try:
        with store.engine.begin() as conn:
            ids = insert_entries(conn, _rows(names))
    finally:
        sa_event.remove(store.engine, "before_cursor_execute", record)
    return ids, seen


def _event_ids(store: Store, ids: list[int]) -> list[str]:
    with store.engine.connect() as conn:
        found = dict(conn.execute(text("SELECT id, event_id FROM journal_entries")).all())
    return [found[i] for i in ids]


def test_each_id_is_its_rows_and_they_follow_the_largest(store: Store) -> None:
    Journal(store, LocalBackend(store, PERSON_TZ))  # the tables
    first, _ = _inserted(store, ["a", "b", "c"])
    assert _event_ids(store, first) == ["a", "b", "c"]
    with store.engine.begin() as conn:  # a gap below, and the last row gone
        conn.execute(text("DELETE FROM journal_entries WHERE id IN (:a, :c)"),
                     {"a": first[0], "c": first[2]})
    names = [f"e{n}" for n in range(12)]
    ids, statements = _inserted(store, names)
    assert _event_ids(store, ids) == names
    assert ids == sorted(ids) and len(set(ids)) == 12 and ids[0] > first[1]
    if not store.is_postgresql:
        assert ids == list(range(first[1] + 1, first[1] + 13))  # SQLite's own choice
        assert len(statements) == 2  # not one per row
    else:  # one executemany of a one-row INSERT, not one INSERT of every row's values (a text
        # of 12 x 14 parameters psycopg would parse anew on every call)
        assert len(statements) == 1 and statements[0].count("%(turn_id") == 1, statements
    assert _inserted(store, [])[0] == []
    one, _ = _inserted(store, ["z"])
    assert _event_ids(store, one) == ["z"] and one[0] == ids[-1] + 1


def test_a_bulk_updates_entries_are_its_items_in_order(store: Store, tmp_path: Path) -> None:
    backend = LocalBackend(store, PERSON_TZ)
    journal = Journal(store if store.is_postgresql else Store.sqlite(tmp_path / "j.db"), backend)
    made = lessons(backend, 8)
    order = [made[i].id for i in (5, 1, 7, 0, 3)]
    result = ToolRegistry(make_context(backend, journal, "t-bulk")).run(ToolCall(
        "b", "bulk_update_calendar_events",
        {"updates": [{"event_id": i, "title": "Moved"} for i in order]}))
    assert not result.is_error, result.text
    entries = journal.entries("t-bulk")
    assert [e.event_id for e in entries] == order
    assert [e.id for e in entries] == sorted(e.id for e in entries)
    assert journal.rollback("t-bulk").clean
    assert [e.title for e in backend.get_events(backend.primary_calendar_id(), order)] == \
        [f"Lesson {i}" for i in (5, 1, 7, 0, 3)]
