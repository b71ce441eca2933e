"""A calendar and its journal in one store (`DATABASE_URL`: PostgreSQL, or one SQLite file): a
bulk update's entries commit with its write, and a rollback's marks (and its turn's new state)
commit with its restores, in one transaction each. A failure in the middle leaves neither: the
calendar and the journal never disagree about what was undone."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import PERSON_TZ, records_without_version
from lessons_support import STORES, bulk, lessons, store_for

from tools.backends.local import LocalBackend
from tools.journal.journal import Journal


@pytest.fixture(params=STORES)
def shared(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Journal]:
    with store_for(request.param, tmp_path) as store:
        yield Journal(store, LocalBackend(store, PERSON_TZ))


def test_a_rollback_marks_its_entries_in_the_restores_own_transaction(shared: Journal,
                                                                      monkeypatch: Any) -> None:
    backend = shared.backend
    made = lessons(shared.backend)
    before = records_without_version(backend)
    bulk(shared, "t-one", made)
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
