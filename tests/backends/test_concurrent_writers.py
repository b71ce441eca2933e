"""Several processes on one store (CONTRACT section 9), on SQLite and on PostgreSQL.

Each writer here is a thread with a LocalBackend of its own (its own engine, so its own
connections), which is what two processes sharing a store look like to the database: two
writers read-modify-writing the same events never lose an update, a conditional write based on
a stale version is refused, and a rollback racing an outside edit keeps the edit and reports it.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ, on_backends

from tools.backends.base import EventPatch, PatchItem, VersionConflict
from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.journal.entries import Intent
from tools.journal.journal import Journal
from tools.store.database import Store

LA = ZoneInfo(PERSON_TZ)
ROUNDS = 25


@pytest.fixture(params=on_backends(["local", "local-pg"]))
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], LocalBackend]:
    """Opens the same store again, as another process would: a new engine (so new
    connections) each time, on one SQLite file or one PostgreSQL schema."""
    if request.param == "local":
        url = f"sqlite:///{tmp_path / 'calendar.db'}"
    else:
        from pg_support import fresh_store_url

        url = fresh_store_url()
    return lambda: LocalBackend(Store.from_url(url), PERSON_TZ, close_store=True)


def _seed(backend: LocalBackend, count: int) -> list[str]:
    ids = []
    for n in range(count):
        made = backend.create_event("primary", Event(
            id="", title=f"Practice {n}", start=datetime(2025, 3, 3, 9 + n, tzinfo=LA),
            end=datetime(2025, 3, 3, 10 + n, tzinfo=LA), timezone=PERSON_TZ, description=""))
        ids.append(made.id)
    return ids


def _run(workers: list[Callable[[], None]]) -> None:
    errors: list[BaseException] = []

    def guarded(work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
    threads = [threading.Thread(target=guarded, args=(work,)) for work in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    assert not errors, errors


def test_two_writers_on_the_same_events_lose_no_update(
        open_store: Callable[[], LocalBackend]) -> None:
    """Each writer appends its mark to every event's description ROUNDS times, reading the
    current text and writing it back only if the version is still the one it read (retrying
    on a conflict): every mark of both writers is there at the end."""
    ids = _seed(open_store(), 3)

    def writer(mark: str) -> Callable[[], None]:
        def work() -> None:
            backend = open_store()
            for n in range(ROUNDS):
                while True:
                    current = backend.get_events("primary", ids)
                    items = [PatchItem(e.id, EventPatch(
                        {"description": f"{e.description or ''}{mark}{n};"}), e.version)
                        for e in current if e is not None]
                    try:
                        backend.patch_events("primary", items)
                        break
                    except VersionConflict:
                        continue  # someone wrote in between: read again
        return work

    _run([writer("a"), writer("b")])
    final = open_store().get_events("primary", ids)
    for event in final:
        assert event is not None
        marks = (event.description or "").rstrip(";").split(";")
        assert sorted(marks) == sorted([f"a{n}" for n in range(ROUNDS)]
                                       + [f"b{n}" for n in range(ROUNDS)])
        assert event.version == str(1 + 2 * ROUNDS)


def test_a_write_based_on_a_stale_version_is_refused(open_store: Callable[[], LocalBackend]) -> None:
    first, second = open_store(), open_store()
    (event_id,) = _seed(first, 1)
    seen = second.get_event("primary", event_id)
    assert seen is not None
    first.patch_event("primary", event_id, EventPatch({"title": "Moved by the first"}))
    with pytest.raises(VersionConflict):
        second.patch_event("primary", event_id, EventPatch({"title": "Stale"}),
                           if_match=seen.version)
    assert second.get_event("primary", event_id).title == "Moved by the first"  # type: ignore[union-attr]


def test_a_rollback_racing_an_outside_edit_keeps_the_edit_and_reports_it(
        open_store: Callable[[], LocalBackend]) -> None:
    """A turn changes two events; another process edits one of them while the turn's rollback
    runs. Whichever lands first, the outside edit is never overwritten: either it landed before
    the rollback read it (conflict reported, edit kept) or after the rollback restored the
    event (then it simply stands on the restored event)."""
    mine = open_store()
    ids = _seed(mine, 2)
    journal = Journal(mine.store, mine)
    entries = journal.begin_many("turn-r", 1, "bulk_update_calendar_events", "primary", [
        (e, Intent.update(None), e.version)
        for e in mine.get_events("primary", ids) if e is not None])
    written = mine.patch_events("primary", [PatchItem(i, EventPatch({"title": "Turned"}))
                                            for i in ids])
    journal.complete_many("primary", entries, written)
    outside = open_store()
    go = threading.Barrier(2)
    reports = []

    def edit() -> None:
        go.wait()
        outside.patch_event("primary", ids[0], EventPatch({"location": "Edited elsewhere"}))

    def roll_back() -> None:
        go.wait()
        reports.append(Journal(open_store().store, mine).rollback("turn-r"))

    _run([edit, roll_back])
    (report,) = reports
    raced = outside.get_event("primary", ids[0])
    other = outside.get_event("primary", ids[1])
    assert raced is not None and other is not None
    assert raced.location == "Edited elsewhere"  # never clobbered
    assert other.title == "Practice 1"  # the untouched one is restored
    if [c.event_id for c in report.conflicts] == [ids[0]]:
        assert raced.title == "Turned"  # the edit came first: the rollback left it all alone
    else:
        assert report.clean and raced.title == "Practice 0"  # restored, then edited


def test_a_rollback_after_an_outside_edit_reports_the_conflict_and_keeps_both(
        open_store: Callable[[], LocalBackend]) -> None:
    mine = open_store()
    ids = _seed(mine, 2)
    journal = Journal(mine.store, mine)
    entries = journal.begin_many("turn-o", 1, "bulk_update_calendar_events", "primary", [
        (e, Intent.update(None), e.version)
        for e in mine.get_events("primary", ids) if e is not None])
    written = mine.patch_events("primary", [PatchItem(i, EventPatch({"title": "Turned"}))
                                            for i in ids])
    journal.complete_many("primary", entries, written)
    open_store().patch_event("primary", ids[0], EventPatch({"location": "Edited elsewhere"}))
    report = Journal(open_store().store, mine).rollback("turn-o")
    assert [c.event_id for c in report.conflicts] == [ids[0]]
    assert report.restored_ids == [ids[1]]
    kept = open_store().get_events("primary", ids)
    assert kept[0] is not None and kept[0].location == "Edited elsewhere" and kept[0].title == "Turned"
    assert kept[1] is not None and kept[1].title == "Practice 1"
