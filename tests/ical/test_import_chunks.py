"""An import written and journaled in chunks (issue 25) is still one change, undone exactly.

- Import then undo leaves every backend exactly as it was: the created events removed, the one
  the file updated (its UID was already there) put back, a series' left-out and moved
  occurrences with it; the import spans several chunks.
- An import stopped mid-way (an error, or the process interrupted before, inside or after a
  chunk's write) leaves the calendar as it was after the rollback or the next start's
  recovery: nothing half-imported stays.
- Into CalDAV the requests grow with the file, not with the file times the calendar: one
  listing for the plan and one PUT per event, no UID search of the collection per event (the
  search is what made the import quadratic), and none in its undo either.
"""
from __future__ import annotations

import textwrap
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ, listed, on_backends, records_without_version
from kill_support import killed_when_ready
from test_recovery import dead_owner

from tools.backends.base import CalendarBackend, CalendarError
from tools.calendar.events import Event
from tools.ical.files import read_ics
from tools.ical_import import ImportFailed, apply_import, backend_id, plan_import
from tools.journal import journal as journal_module
from tools.journal.journal import Journal
from tools.store.database import Store

LA = ZoneInfo(PERSON_TZ)
SERIES_UID = "series-1@example.com"
KEPT_UID = "already-there@example.com"


def ics(count: int, *, kept_title: str = "Kept (from the file)") -> str:
    """`count` single events, one weekly series with a left-out and a moved occurrence, and
    the event `KEPT_UID` (already in the calendar when `seed` ran: updated, not duplicated)."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//import chunks//EN"]
    for n in range(count):
        start = datetime(2025, 11, 3, 8, tzinfo=LA) + timedelta(days=n % 40, hours=n % 9)
        lines += ["BEGIN:VEVENT", f"UID:single-{n}@example.com", f"SUMMARY:Imported {n}",
                  f"DTSTART;TZID={PERSON_TZ}:{start:%Y%m%dT%H%M%S}",
                  f"DTEND;TZID={PERSON_TZ}:{start + timedelta(hours=1):%Y%m%dT%H%M%S}",
                  "END:VEVENT"]
    lines += ["BEGIN:VEVENT", f"UID:{SERIES_UID}", "SUMMARY:Choir",
              f"DTSTART;TZID={PERSON_TZ}:20251104T190000", f"DTEND;TZID={PERSON_TZ}:20251104T200000",
              "RRULE:FREQ=WEEKLY;COUNT=6", f"EXDATE;TZID={PERSON_TZ}:20251111T190000", "END:VEVENT",
              "BEGIN:VEVENT", f"UID:{SERIES_UID}", "SUMMARY:Choir (moved)",
              f"RECURRENCE-ID;TZID={PERSON_TZ}:20251118T190000",
              f"DTSTART;TZID={PERSON_TZ}:20251119T190000", f"DTEND;TZID={PERSON_TZ}:20251119T200000",
              "END:VEVENT",
              "BEGIN:VEVENT", f"UID:{KEPT_UID}", f"SUMMARY:{kept_title}",
              f"DTSTART;TZID={PERSON_TZ}:20251105T120000", f"DTEND;TZID={PERSON_TZ}:20251105T130000",
              "END:VEVENT", "END:VCALENDAR", ""]
    return "\r\n".join(lines)


def seed(backend: CalendarBackend) -> None:
    """The event the file updates, there before the import."""
    cal = backend.primary_calendar_id()
    start = datetime(2025, 11, 5, 9, tzinfo=LA)
    backend.create_event(cal, Event(id=backend_id(backend, KEPT_UID), title="Kept", start=start,
                                    end=start + timedelta(hours=1), timezone=PERSON_TZ))


def import_text(backend: CalendarBackend, journal: Journal, text: str, *, chunk: int) -> str:
    cal = backend.primary_calendar_id()
    steps = plan_import(backend, cal, read_ics("file.ics", PERSON_TZ, text=text), PERSON_TZ)
    return apply_import(journal, cal, steps, chunk=chunk)


def titles(backend: CalendarBackend) -> Counter[str]:
    return Counter(e["title"] for e in listed(backend))


# ----------------------------------------------------------------------------- exact undo
def test_an_import_in_chunks_then_undo_is_exact(backend: CalendarBackend, journal: Journal):
    seed(backend)
    before_records, before_listed = records_without_version(backend), listed(backend)
    turn = import_text(backend, journal, ics(7), chunk=3)  # 8 creates: chunks of 3, 3, 2
    got = titles(backend)
    assert got["Kept (from the file)"] == 1 and got["Kept"] == 0  # updated, not duplicated
    assert all(got[f"Imported {n}"] == 1 for n in range(7))
    assert got["Choir"] == 4 and got["Choir (moved)"] == 1  # six, one left out, one moved
    assert journal.last_committed_turn() == turn  # one change
    report = journal.undo_last()
    assert report is not None and report.turn_id == turn and report.clean, report
    assert records_without_version(backend) == before_records
    assert listed(backend) == before_listed
    assert journal.undo_last() is None  # nothing of the import is left to undo


def test_importing_the_same_file_again_changes_nothing(local: CalendarBackend, tmp_path: Path):
    journal = Journal(Store.sqlite(tmp_path / "j.db"), local)
    import_text(local, journal, ics(5), chunk=2)
    cal = local.primary_calendar_id()
    assert plan_import(local, cal, read_ics("f.ics", PERSON_TZ, text=ics(5)), PERSON_TZ) == []


# ----------------------------------------------------------------------------- stopped mid-way
class Stop(KeyboardInterrupt):
    """The process interrupted (not an error: nothing in the import catches it)."""


@pytest.fixture
def stop_in_chunk(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Any]]:
    """Interrupt the second chunk of creates at a chosen point of its record:
    `before`: its entries committed pending, nothing of it written;
    `written`: its events written, their entries still pending (the post-images never came);
    `after`: written and completed, interrupted before the next chunk."""
    where: dict[str, Any] = {"at": None, "chunks": 0}
    record = journal_module._CreateRecord
    real_before, real_after = record.before, record.after

    def before(self: Any, pres: Any, within: Any) -> bool:
        where["chunks"] += 1
        joined = real_before(self, pres, within)
        if where["chunks"] == 2 and where["at"] == "before":
            raise Stop
        return joined

    def after(self: Any, posts: Any, written: Any, within: Any) -> None:
        if where["chunks"] == 2 and where["at"] == "written":
            raise Stop
        real_after(self, posts, written, within)
        if where["chunks"] == 2 and where["at"] == "after":
            raise Stop

    monkeypatch.setattr(record, "before", before)
    monkeypatch.setattr(record, "after", after)
    yield where


@pytest.mark.parametrize("at", ["before", "written", "after"])
@pytest.mark.parametrize("backend", on_backends(["local", "local-pg", "caldav"]), indirect=True)
def test_an_import_interrupted_in_a_chunk_is_recovered_to_nothing(
        backend: CalendarBackend, journal: Journal, stop_in_chunk: dict[str, Any], at: str):
    seed(backend)
    before_records = records_without_version(backend)
    stop_in_chunk["at"] = at
    dying = Journal(journal.store, backend, owner=dead_owner())  # the process that is interrupted
    with pytest.raises(Stop):
        import_text(backend, dying, ics(7), chunk=3)
    assert titles(backend)["Imported 0"] == 1  # the first chunk had landed
    [report] = journal.recover()  # the next start
    assert report.complete and not report.conflicts, report.summary()
    assert records_without_version(backend) == before_records
    assert journal.open_turns() == []


@pytest.mark.parametrize("backend", on_backends(["local", "caldav"]), indirect=True)
def test_a_chunk_that_fails_rolls_back_the_chunks_before_it(
        backend: CalendarBackend, journal: Journal):
    seed(backend)
    before_records = records_without_version(backend)
    cal = backend.primary_calendar_id()
    text = ics(7)
    steps = plan_import(backend, cal, read_ics("f.ics", PERSON_TZ, text=text), PERSON_TZ)
    taken = [s for s in steps if s.kind == "create"][4]  # in the second chunk of three
    backend.create_event(cal, taken.event.with_changes(title="Made meanwhile"))
    meanwhile = records_without_version(backend)
    with pytest.raises(ImportFailed, match="nothing was imported") as failed:
        apply_import(journal, cal, steps, chunk=3)
    assert failed.value.report.complete
    assert records_without_version(backend) == meanwhile  # theirs kept, ours all gone
    assert {k: v for k, v in meanwhile.items() if k[1] != taken.event_id} == before_records
    assert journal.open_turns() == [] and journal.last_committed_turn() is None


def test_a_create_of_a_taken_id_writes_nothing_of_its_chunk(local: CalendarBackend,
                                                             tmp_path: Path):
    journal = Journal(Store.sqlite(tmp_path / "j.db"), local)
    cal = local.primary_calendar_id()
    start = datetime(2025, 11, 5, 9, tzinfo=LA)
    events = [Event(id=f"ev{n}", title=f"E{n}", start=start, end=start + timedelta(hours=1),
                    timezone=PERSON_TZ) for n in range(3)]
    local.create_event(cal, events[2])
    before = records_without_version(local)
    with pytest.raises(CalendarError, match="already exists"):
        journal.create_events("t", 1, "import_calendar_file", cal, events)
    assert records_without_version(local) == before
    assert journal.entries("t") == []  # pending entries abandoned as refused


# ----------------------------------------------------------------------------- CalDAV requests
FOREIGN_UID = "other-client-1@example.com"
FOREIGN = "\r\n".join([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other Client//EN", "BEGIN:VEVENT",
    f"UID:{FOREIGN_UID}", "DTSTAMP:20251001T000000Z",
    f"DTSTART;TZID={PERSON_TZ}:20251020T170000", f"DTEND;TZID={PERSON_TZ}:20251020T180000",
    "RRULE:FREQ=WEEKLY;COUNT=4", "SUMMARY:Swim lesson", "X-OTHER-CLIENT-COLOUR:teal",
    "END:VEVENT", "END:VCALENDAR", ""])


def put_raw(backend: Any, name: str, text: str) -> str:
    """Store a resource the way another client would: under a name of its own."""
    url = backend.primary_calendar_id().rstrip("/") + "/" + name
    response = backend.client.request(url, "PUT", text, {"Content-Type": "text/calendar"})
    assert response.status in (201, 204), response.status
    return url


class Counted:
    """Every HTTP request a CalDAV backend's client sends, by method."""

    def __init__(self, backend: Any) -> None:
        self.methods: Counter[str] = Counter()
        client = backend.client
        real = client.request

        def request(url: str, method: str = "GET", *args: Any, **kw: Any) -> Any:
            self.methods[method.upper()] += 1
            return real(url, method, *args, **kw)

        client.request = request

    def take(self) -> Counter[str]:
        seen, self.methods = self.methods, Counter()
        return seen


def caldav_import_requests(tmp_path: Path, count: int) -> tuple[Counter[str], ...]:
    """The requests of planning, writing and undoing an import of `count` events (and a series,
    and one event another client stored under a name of its own) into a fresh CalDAV calendar,
    each checked to have done its work."""
    from caldav_support import caldav_backend

    backend = caldav_backend(tmp_path / str(count), time_zone=PERSON_TZ)
    try:
        put_raw(backend, "made-elsewhere.ics", FOREIGN)  # an event another client named
        cal = backend.primary_calendar_id()
        journal = Journal(Store.sqlite(tmp_path / f"j{count}.db"), backend)
        before = records_without_version(backend)
        text = ics(count).replace("END:VCALENDAR", "BEGIN:VEVENT\r\nUID:" + FOREIGN_UID +
                                  "\r\nSUMMARY:Swim (from the file)\r\nDTSTART;TZID=America/"
                                  "Los_Angeles:20251020T170000\r\nDTEND;TZID=America/"
                                  "Los_Angeles:20251020T180000\r\nRRULE:FREQ=WEEKLY;COUNT=4"
                                  "\r\nEND:VEVENT\r\nEND:VCALENDAR")
        counted = Counted(backend)
        steps = plan_import(backend, cal, read_ics("f.ics", PERSON_TZ, text=text), PERSON_TZ)
        assert sum(1 for s in steps if s.kind == "create") == count + 2  # + the series, KEPT_UID
        assert [s.kind for s in steps if s.event_id == FOREIGN_UID] == ["update"]
        planned = counted.take()
        apply_import(journal, cal, steps, chunk=7)
        written = counted.take()
        assert titles(backend)["Swim (from the file)"] == 4  # updated where the other client put it
        counted.take()  # that listing was the test's own
        report = journal.undo_last()
        assert report is not None and report.clean, report
        undone = counted.take()
        assert records_without_version(backend) == before
        journal.store.close()
        return planned, written, undone
    finally:
        backend.close()


@pytest.mark.slow
def test_a_caldav_import_grows_linearly_with_one_put_per_event_and_no_uid_search(
        tmp_path: Path):
    sizes = (4, 8, 12)
    runs = [caldav_import_requests(tmp_path, count) for count in sizes]
    for count, (planned, written, undone) in zip(sizes, runs, strict=True):
        # the plan: one listing of the collection's UIDs, a GET of the one event already there
        assert planned == Counter({"REPORT": 1, "GET": 1})
        assert written["REPORT"] == 0 and undone["REPORT"] == 0  # no UID search, ever
        assert written["PUT"] == count + 2 + 3  # a PUT per create; the EXDATE, the moved one, the update
        assert undone["DELETE"] == count + 2
    for phase in range(3):  # the same number of requests more for every 4 events more
        totals = [sum(run[phase].values()) for run in runs]
        assert totals[2] - totals[1] == totals[1] - totals[0], (phase, totals)


# ----------------------------------------------------------------------------- killed (SIGKILL)
KILLED_CHILD = textwrap.dedent("""
    import sys, time
    from assistant.services import build_services
    from assistant.settings import load_settings
    from tools.ical.files import read_ics
    from tools.ical_import import apply_import, plan_import
    from tools.journal import journal as journal_module

    path, at = sys.argv[1:3]
    record = journal_module._CreateRecord
    real_before, real_after = record.before, record.after
    chunks = []

    def ready():
        print("ready", flush=True)
        time.sleep(120)

    def before(self, pres, within):
        chunks.append(1)
        joined = real_before(self, pres, within)
        if len(chunks) == 2 and at == "before":
            ready()  # inside the chunk's write transaction, its entries committed pending
        return joined

    def after(self, posts, written, within):
        if len(chunks) == 2 and at == "written":
            ready()  # the chunk's rows committed, its entries still pending
        real_after(self, posts, written, within)

    record.before, record.after = before, after
    services = build_services(load_settings())
    cal = services.calendar_id
    steps = plan_import(services.backend, cal, read_ics(path, services.settings.timezone),
                        services.settings.timezone)
    apply_import(services.journal, cal, steps, chunk=3)
    print("finished", flush=True)
""")


@pytest.mark.slow
@pytest.mark.parametrize("at", ["before", "written"])
def test_an_import_killed_in_a_chunk_is_undone_at_the_next_start(home: Path, tmp_path: Path,
                                                                  at: str):
    """SIGKILL in the middle of the second chunk (no `finally`, no clean close of SQLite, the
    writer lock held in `before`): the next start finds the open import and puts the calendar
    back exactly; nothing of the file is left."""
    from assistant.services import build_services
    from assistant.settings import load_settings

    with build_services(load_settings()) as services:
        seed(services.backend)
        before = records_without_version(services.backend)
    path = tmp_path / "file.ics"
    path.write_text(ics(7))
    with killed_when_ready(KILLED_CHILD, [str(path), at], home, tmp_path):
        pass  # stopped where `at` says
    with build_services(load_settings()) as services:
        [report] = services.recovered
        assert report.complete and not report.conflicts, report.summary()
        assert records_without_version(services.backend) == before
        assert services.journal.open_turns() == []
