"""A rollback of completed writes on the local calendar decides each restore on the rows its
own restore transaction reads under the writer lock (`LocalBackend.restore_many_deciding`): no
read of the events before it, and the same decisions as reading first (restored, kept as
someone else's change, nothing to undo). A restore that fails before deciding is reported as
reading first reports it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import PERSON_TZ, records_without_version
from lessons_support import bulk, lessons

from tools.backends.base import CalendarError, EventPatch
from tools.backends.local import LocalBackend
from tools.journal.journal import Journal
from tools.store.database import Store


def _two_files(tmp_path: Path, backend: LocalBackend | None = None) -> Journal:
    backend = backend or LocalBackend(tmp_path / "calendar.db", PERSON_TZ)
    return Journal(Store.sqlite(tmp_path / "journal.db"), backend)


def test_no_read_before_the_restores_and_the_same_decisions(tmp_path: Path,
                                                             monkeypatch: Any) -> None:
    journal = _two_files(tmp_path)
    backend = journal.backend
    assert isinstance(backend, LocalBackend)
    cal = backend.primary_calendar_id()
    made = lessons(backend, 4)
    before = records_without_version(backend)
    bulk(journal, "t-lock", made)
    # someone else edits one event; another is already back as it was (nothing to undo)
    backend.patch_event(cal, made[1].id, EventPatch({"location": "Gym"}))
    backend.patch_event(cal, made[2].id, EventPatch({"title": "Lesson 2", "description": None}))

    def no_read_first(*_: Any, **__: Any) -> Any:
        raise AssertionError("the events were read before the restore transaction")

    monkeypatch.setattr(backend, "snapshots", no_read_first)
    report = journal.rollback("t-lock")

    assert sorted(report.restored_ids) == sorted([made[0].id, made[3].id])
    assert [c.event_id for c in report.conflicts] == [made[1].id]
    now = records_without_version(backend)
    for event in (made[0], made[2], made[3]):
        assert now[(cal, event.id)] == before[(cal, event.id)]
    kept = backend.get_event(cal, made[1].id)
    assert kept is not None and kept.location == "Gym" and kept.title == "Moved"
    states = {e.event_id: e.state for e in journal.entries("t-lock", states=(
        "rolled_back", "conflict", "done", "pending"))}
    assert states == {made[0].id: "rolled_back", made[1].id: "conflict",
                      made[2].id: "rolled_back", made[3].id: "rolled_back"}
    assert journal.turn("t-lock").state == "rolled_back"  # type: ignore[union-attr]
    backend.close()
    journal.store.close()


class _DownFirst(LocalBackend):
    """Its restores fail as a service answering 503 would, before reading anything."""

    down = True

    def restore_many(self, items: Any) -> Any:
        if self.down:
            raise CalendarError("the calendar service is unavailable (503)")
        return super().restore_many(items)


def test_a_restore_failing_before_deciding_is_reported_as_reading_first_does(
        tmp_path: Path) -> None:
    backend = _DownFirst(tmp_path / "calendar.db", PERSON_TZ)
    journal = _two_files(tmp_path, backend)
    cal = backend.primary_calendar_id()
    made = lessons(backend, 3)
    before = records_without_version(backend)
    bulk(journal, "t-down", made)
    # the newest write's event already back as it was (it is undone first): "nothing to undo"
    # is decided even with the service down
    backend.patch_event(cal, made[2].id, EventPatch({"title": "Lesson 2", "description": None}))

    report = journal.rollback("t-down")
    assert report.restored == [] and not report.complete
    assert report.down_failures == 1 and len(report.failures) == 1
    assert report.waiting == 1  # the oldest, untried behind the failure
    assert journal.turn("t-down").state == "unfinished"  # type: ignore[union-attr]
    noop = journal.entries("t-down", states=("rolled_back",))
    assert [e.event_id for e in noop] == [made[2].id]

    backend.down = False
    again = journal.rollback("t-down")
    assert again.complete and len(again.restored) == 2
    assert records_without_version(backend) == before
    backend.close()
    journal.store.close()


def test_an_unfinished_write_is_still_decided_on_a_read_first(tmp_path: Path,
                                                               monkeypatch: Any) -> None:
    """A `pending` entry may need the event read through the backend to decide (its intent):
    such a rollback reads first, as before."""
    journal = _two_files(tmp_path)
    backend = journal.backend
    cal = backend.primary_calendar_id()
    [event] = lessons(backend, 1)  # type: ignore[arg-type]
    entry = journal.begin("t-pend", 1, "update_calendar_event", cal, event.id)
    backend.patch_event(cal, event.id, EventPatch({"title": "Half"}))
    reads: list[Any] = []
    real = backend.snapshots

    def counted(*args: Any, **kw: Any) -> Any:
        reads.append(args)
        return real(*args, **kw)

    monkeypatch.setattr(backend, "snapshots", counted)
    report = journal.rollback("t-pend")
    assert reads and entry
    assert [c.event_id for c in report.conflicts] == [event.id]  # not ours to undo: kept
    backend.close()
    journal.store.close()
