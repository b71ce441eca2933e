"""GoogleBackend against the fake Google Calendar server, with the network cut off."""
from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from google_support import block_network, google_backend_for

from fixtures.fake_google import FakeGoogleCalendar
from tools.backends.base import (
    CalendarBackend,
    CalendarError,
    EventNotFound,
    EventPatch,
    VersionConflict,
    strip_volatile,
)
from tools.backends.google.backend import GoogleBackend
from tools.backends.google.events import id_problem
from tools.calendar.events import Event, EventFieldError
from tools.calendar.occurrences import instance_id, series_of
from tools.journal.journal import Journal
from tools.store.database import Store

pytestmark = pytest.mark.slow  # the Google backend on its fake server, like the `google` backend parameter

TZ_NAME = "America/Los_Angeles"
TZ = ZoneInfo(TZ_NAME)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch)


@pytest.fixture
def server() -> Iterator[FakeGoogleCalendar]:
    with FakeGoogleCalendar(time_zone=TZ_NAME) as fake:
        yield fake


@pytest.fixture
def sleeps() -> list[float]:
    return []


@pytest.fixture
def backend(server: FakeGoogleCalendar, tmp_path: Path, sleeps: list[float]) -> Iterator[GoogleBackend]:
    b = google_backend_for(server, tmp_path, sleep=sleeps.append)
    yield b
    b.close()


def dinner(backend: GoogleBackend, **changes: object) -> Event:
    event = Event(id=backend.new_event_id(), title="Family dinner",
                  start=datetime(2025, 10, 23, 18, 0, tzinfo=TZ),
                  end=datetime(2025, 10, 23, 19, 30, tzinfo=TZ), timezone=TZ_NAME,
                  location="123 Maple St", description="bring pie", attendees=("sam@example.com",))
    return event.with_changes(**changes) if changes else event


def journal_for(backend: GoogleBackend) -> Journal:
    return Journal(Store.sqlite(":memory:"), backend)


# ---------------------------------------------------------------------------- creates
def test_create_writes_id_turn_timezone_and_no_notifications(backend: GoogleBackend,
                                                            server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend), turn_id="turn-1")
    stored = server.event("primary", created.id)
    assert stored is not None
    assert stored["extendedProperties"]["private"]["ca_turn"] == "turn-1"
    assert stored["start"] == {"dateTime": "2025-10-23T18:00:00-07:00", "timeZone": TZ_NAME}
    assert stored["end"]["timeZone"] == TZ_NAME
    assert created.version == stored["etag"]
    assert [r.send_updates for r in server.requests_to("POST", "/events")] == ["none"]


def test_lost_response_on_create_does_not_duplicate(backend: GoogleBackend,
                                                    server: FakeGoogleCalendar) -> None:
    event = dinner(backend)
    server.drop_after_write(method="POST", path_contains="/events")
    created = backend.create_event("primary", event, turn_id="turn-1")
    assert created.id == event.id and created.title == "Family dinner"
    assert [e["id"] for e in server.stored_events()] == [event.id]
    inserts = server.requests_to("POST", "/events")
    assert [r.status for r in inserts] == [200, 409]  # the retry met our own event


def test_create_of_a_taken_id_by_another_turn_fails(backend: GoogleBackend) -> None:
    event = dinner(backend)
    backend.create_event("primary", event, turn_id="turn-1")
    with pytest.raises(CalendarError, match="already exists"):
        backend.create_event("primary", event, turn_id="turn-2")


def test_create_rejects_a_non_google_id_before_calling(backend: GoogleBackend,
                                                       server: FakeGoogleCalendar) -> None:
    with pytest.raises(EventFieldError, match="not a Google event id"):
        backend.create_event("primary", dinner(backend, id="ev_1"))
    assert not server.requests_to("POST", "/events")


def test_send_updates_is_explicit(backend: GoogleBackend, server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend), send_updates=True)
    backend.patch_event("primary", created.id, EventPatch({"title": "x"}))
    backend.delete_event("primary", created.id, send_updates=True)
    sent = [r.send_updates for r in server.requests if r.method in ("POST", "PATCH", "DELETE")]
    assert sent == ["all", "none", "all"]


# ---------------------------------------------------------------------------- patches, conflicts
def test_patch_sends_only_changed_fields_with_if_match(backend: GoogleBackend,
                                                      server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend))
    moved = backend.patch_event("primary", created.id,
                                EventPatch({"start": "2025-10-24T19:00:00"}), if_match=created.version)
    assert moved.start == datetime(2025, 10, 24, 19, 0, tzinfo=TZ)
    assert moved.end == datetime(2025, 10, 24, 20, 30, tzinfo=TZ)  # duration kept
    assert moved.version != created.version
    patch = server.requests_to("PATCH")[-1]
    assert set(patch.body) == {"start", "end"}
    assert patch.headers["if-match"] == created.version


def test_concurrent_edit_gives_412_and_version_conflict(backend: GoogleBackend,
                                                        server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend))
    server.edit_event("primary", created.id, summary="Dinner at Grandma's")
    with pytest.raises(VersionConflict) as info:
        backend.patch_event("primary", created.id, EventPatch({"title": "Dinner"}),
                            if_match=created.version)
    assert info.value.expected == created.version
    assert [r.status for r in server.requests_to("PATCH")] == [412]
    assert backend.get_event("primary", created.id).title == "Dinner at Grandma's"  # type: ignore[union-attr]


def test_lost_response_on_conditional_patch_is_read_back_not_a_conflict(
        backend: GoogleBackend, server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend))
    server.drop_after_write(method="PATCH")
    patched = backend.patch_event("primary", created.id, EventPatch({"title": "Supper"}),
                                  if_match=created.version)
    assert patched.title == "Supper"
    assert len(server.requests_to("PATCH")) == 1  # applied once, never re-sent


def test_rollback_after_concurrent_edit_reports_conflict_and_keeps_their_change(
        backend: GoogleBackend, server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend))
    journal = journal_for(backend)
    entry = journal.begin("turn-1", 1, "update_calendar_event", "primary", created.id)
    ours = backend.patch_event("primary", created.id, EventPatch({"title": "Wrong title"}),
                               if_match=created.version)
    journal.complete(entry, ours)
    server.edit_event("primary", created.id, location="Grandma's house")
    report = journal.rollback("turn-1")
    assert not report.restored and len(report.conflicts) == 1
    assert created.id in report.conflicts[0].message
    now = backend.get_event("primary", created.id)
    assert now is not None and now.location == "Grandma's house" and now.title == "Wrong title"


def test_restore_with_a_stale_expected_version_is_a_conflict(backend: GoogleBackend,
                                                             server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend))
    pre = backend.snapshot("primary", created.id)
    backend.patch_event("primary", created.id, EventPatch({"title": "x"}))
    with pytest.raises(VersionConflict):
        backend.restore(pre, expected_version=created.version)


def test_patch_rollback_restores_every_field(backend: GoogleBackend) -> None:
    created = backend.create_event("primary", dinner(backend))
    journal = journal_for(backend)
    pre = backend.snapshot("primary", created.id)
    entry = journal.begin("turn-1", 1, "update_calendar_event", "primary", created.id)
    after = backend.patch_event("primary", created.id, EventPatch(
        {"title": "Brunch", "all_day": True, "start": "2025-10-25", "location": None,
         "attendees": []}), if_match=created.version)
    assert after.all_day and after.end == date(2025, 10, 26)
    journal.complete(entry, after)
    report = journal.rollback("turn-1")
    assert report.clean and report.restored_ids == [created.id]
    back = backend.snapshot("primary", created.id)
    assert CalendarBackend.same_content(pre, back)
    assert backend.get_event("primary", created.id) == created.with_changes(version=back.version)


# ---------------------------------------------------------------------------- deletes
def test_delete_then_rollback_restores_same_id_same_fields(backend: GoogleBackend,
                                                           server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend), turn_id="seed")
    pre = backend.snapshot("primary", created.id)
    journal = journal_for(backend)
    entry = journal.begin("turn-1", 1, "delete_calendar_event", "primary", created.id)
    backend.delete_event("primary", created.id, if_match=created.version)
    journal.complete(entry, None)
    gone = backend.snapshot("primary", created.id)
    assert gone.record is None and gone.version is not None  # cancelled, still has an etag
    assert backend.get_event("primary", created.id) is None
    report = journal.rollback("turn-1")
    assert report.clean and report.restored_ids == [created.id]
    stored = server.event("primary", created.id)
    assert stored is not None and stored["status"] == "confirmed"
    assert strip_volatile(stored) == strip_volatile(pre.record)
    update = server.requests_to("PUT")[-1]
    assert update.headers["if-match"] == gone.version and update.send_updates == "none"


def test_delete_twice_is_event_not_found(backend: GoogleBackend) -> None:
    created = backend.create_event("primary", dinner(backend))
    backend.delete_event("primary", created.id)
    with pytest.raises(EventNotFound):
        backend.delete_event("primary", created.id)


def test_lost_response_on_delete_is_read_back(backend: GoogleBackend,
                                              server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend))
    server.drop_after_write(method="DELETE")
    backend.delete_event("primary", created.id, if_match=created.version)
    assert backend.get_event("primary", created.id) is None
    assert len(server.requests_to("DELETE")) == 1


def test_create_rollback_cancels_the_event(backend: GoogleBackend) -> None:
    journal = journal_for(backend)
    event = dinner(backend)
    entry = journal.begin("turn-1", 1, "create_calendar_event", "primary", event.id)
    assert backend.snapshot("primary", event.id).version is None  # never existed
    created = backend.create_event("primary", event, turn_id="turn-1")
    journal.complete(entry, created)
    report = journal.rollback("turn-1")
    assert report.clean and report.restored_ids == [event.id]
    assert backend.get_event("primary", event.id) is None


# ---------------------------------------------------------------------------- retries
@pytest.mark.parametrize("status,reason", [(403, "rateLimitExceeded"), (403, "userRateLimitExceeded"),
                                           (429, None), (500, None), (503, None)])
def test_transient_errors_are_retried_with_backoff(backend: GoogleBackend, server: FakeGoogleCalendar,
                                                   sleeps: list[float], status: int,
                                                   reason: str | None) -> None:
    server.inject(status, reason=reason, method="POST", path_contains="/events", times=2)
    created = backend.create_event("primary", dinner(backend), turn_id="t")
    assert backend.get_event("primary", created.id) is not None
    assert [r.status for r in server.requests_to("POST", "/events")] == [status, status, 200]
    assert len(sleeps) == 2 and sleeps[1] >= sleeps[0]
    assert len(server.stored_events()) == 1


def test_backoff_grows_and_gives_up(backend: GoogleBackend, server: FakeGoogleCalendar,
                                    sleeps: list[float]) -> None:
    server.inject(503, method="GET", times=10)
    with pytest.raises(CalendarError):
        backend.list_events("primary", datetime(2025, 10, 1, tzinfo=TZ), datetime(2025, 11, 1, tzinfo=TZ))
    assert len(sleeps) == backend.max_attempts - 1
    assert sleeps == sorted(sleeps) and sleeps[-1] >= 4 * backend.base_delay


def test_forbidden_that_is_not_a_rate_limit_is_not_retried(backend: GoogleBackend,
                                                           server: FakeGoogleCalendar,
                                                           sleeps: list[float]) -> None:
    server.inject(403, reason="forbidden", method="POST")
    with pytest.raises(CalendarError):
        backend.create_event("primary", dinner(backend))
    assert sleeps == []


def test_expired_access_token_is_refreshed_and_saved(backend: GoogleBackend,
                                                     server: FakeGoogleCalendar, tmp_path: Path) -> None:
    before = json.loads((tmp_path / "google-token.json").read_text())["token"]
    server.expire_access_tokens()
    assert backend.calendars()[0].primary
    after = json.loads((tmp_path / "google-token.json").read_text())["token"]
    assert after != before
    assert server.requests_to("POST", "/token")


# ---------------------------------------------------------------------------- recurrence, all-day
def test_recurring_instances_this_occurrence_and_whole_series(backend: GoogleBackend,
                                                              server: FakeGoogleCalendar) -> None:
    series = backend.create_event("primary", dinner(backend, title="Soccer", recurrence=(
        "RRULE:FREQ=WEEKLY;COUNT=4",)))
    window = (datetime(2025, 10, 20, tzinfo=TZ), datetime(2025, 11, 20, tzinfo=TZ))
    listed = backend.list_events("primary", *window)
    assert [e.id for e in listed] == [instance_id(series.id, datetime(2025, 10, 23, 18, tzinfo=TZ) +
                                                  timedelta(weeks=w)) for w in range(4)]
    assert listed[1].id == f"{series.id}_20251031T010000Z"
    assert all(e.recurring_event_id == series.id and e.original_start for e in listed)
    # this occurrence
    journal = journal_for(backend)
    pre = backend.snapshot("primary", listed[1].id)
    entry = journal.begin("turn-1", 1, "update_calendar_event", "primary", listed[1].id)
    moved = backend.patch_event("primary", listed[1].id, EventPatch({"start": "2025-10-30T17:00:00"}),
                                if_match=listed[1].version)
    journal.complete(entry, moved)
    titles = {e.id: (e.start.hour, e.title) for e in backend.list_events("primary", *window)}
    assert titles[listed[1].id] == (17, "Soccer") and titles[listed[2].id] == (18, "Soccer")
    assert server.event("primary", listed[1].id)["originalStartTime"]["dateTime"].startswith("2025-10-30T18")  # type: ignore[index]
    # the whole series
    backend.patch_event("primary", series_of(listed[2].id) or "", EventPatch({"title": "Football"}))
    assert [e.title for e in backend.list_events("primary", *window)] == ["Football", "Soccer",
                                                                          "Football", "Football"]
    # undo the occurrence change
    report = journal.rollback("turn-1")
    assert report.clean
    assert CalendarBackend.same_content(pre, backend.snapshot("primary", listed[1].id))


def test_delete_one_occurrence_and_undo(backend: GoogleBackend) -> None:
    series = backend.create_event("primary", dinner(backend, recurrence=("RRULE:FREQ=DAILY;COUNT=3",)))
    window = (datetime(2025, 10, 23, tzinfo=TZ), datetime(2025, 10, 27, tzinfo=TZ))
    middle = backend.list_events("primary", *window)[1]
    journal = journal_for(backend)
    entry = journal.begin("t", 1, "delete_calendar_event", "primary", middle.id)
    backend.delete_event("primary", middle.id, if_match=middle.version)
    journal.complete(entry)
    assert len(backend.list_events("primary", *window)) == 2
    assert journal.rollback("t").clean
    assert [e.id for e in backend.list_events("primary", *window)][1] == middle.id
    assert series.id == middle.recurring_event_id


def test_all_day_event_uses_dates_with_exclusive_end(backend: GoogleBackend,
                                                     server: FakeGoogleCalendar) -> None:
    trip = Event(id=backend.new_event_id(), title="Camping", start=date(2025, 11, 1),
                 end=date(2025, 11, 4), all_day=True, timezone=TZ_NAME)
    created = backend.create_event("primary", trip)
    stored = server.event("primary", created.id)
    assert stored["start"] == {"date": "2025-11-01"} and stored["end"] == {"date": "2025-11-04"}  # type: ignore[index]
    got = backend.list_events("primary", datetime(2025, 11, 3, 12, tzinfo=TZ), datetime(2025, 11, 3, 13, tzinfo=TZ))
    assert [e.id for e in got] == [created.id] and got[0].all_day and got[0].timezone == TZ_NAME


# ---------------------------------------------------------------------------- ids, snapshots, env
def test_id_rules() -> None:
    assert id_problem("abcdefghijklmnopqrstuv0123") is None
    assert id_problem("abcde_20251023") is None
    assert id_problem("abcde_20251023T180000Z") is None
    assert id_problem("ev_1") and id_problem("ABCDE") and id_problem("abcd") and id_problem("abcdw")
    assert id_problem("abcde_2025") and id_problem("")


def test_snapshot_of_unknown_and_bad_ids(backend: GoogleBackend) -> None:
    assert backend.snapshot("primary", backend.new_event_id()).version is None
    assert backend.snapshot("primary", "ev_1").record is None
    assert backend.get_event("primary", "ev_1") is None
    with pytest.raises(EventNotFound):
        backend.patch_event("primary", backend.new_event_id(), EventPatch({"title": "x"}))


# ---------------------------------------------------------------------------- writes that went through
def test_5xx_after_an_applied_create_is_not_a_duplicate(backend: GoogleBackend,
                                                       server: FakeGoogleCalendar) -> None:
    server.inject(503, method="POST", path_contains="/events", after_write=True)
    created = backend.create_event("primary", dinner(backend), turn_id="turn-9")
    assert [r.status for r in server.requests_to("POST", "/events")] == [503, 409]
    assert [e["id"] for e in server.stored_events()] == [created.id]


def test_5xx_after_an_applied_conditional_patch_is_not_a_conflict(backend: GoogleBackend,
                                                                 server: FakeGoogleCalendar) -> None:
    created = backend.create_event("primary", dinner(backend))
    server.inject(500, method="PATCH", after_write=True)
    patched = backend.patch_event("primary", created.id, EventPatch({"title": "Supper"}),
                                  if_match=created.version)
    assert patched.title == "Supper"
    assert [r.status for r in server.requests_to("PATCH")] == [500, 412]  # 412 read back: ours


def test_listing_follows_page_tokens(server: FakeGoogleCalendar, tmp_path: Path) -> None:
    backend = google_backend_for(server, tmp_path, page_size=2)
    for day in range(5):
        backend.create_event("primary", dinner(backend).with_changes(
            start=datetime(2025, 10, 20 + day, 18, tzinfo=TZ), end=datetime(2025, 10, 20 + day, 19, tzinfo=TZ)))
    listed = backend.list_events("primary", datetime(2025, 10, 1, tzinfo=TZ), datetime(2025, 11, 1, tzinfo=TZ))
    assert [e.start.day for e in listed] == [20, 21, 22, 23, 24]
    assert any("pageToken" in r.query for r in server.requests_to("GET", "/events"))
    assert backend.list_events("primary", datetime(2025, 10, 1, tzinfo=TZ),
                               datetime(2025, 11, 1, tzinfo=TZ), query="maple")[0].location == "123 Maple St"
    backend.close()


def test_instances_of_a_series(backend: GoogleBackend) -> None:
    series = backend.create_event("primary", dinner(backend, recurrence=("RRULE:FREQ=WEEKLY;COUNT=3",)))
    got = backend.instances("primary", series.id)
    assert [e.recurring_event_id for e in got] == [series.id] * 3
    assert backend.get_event("primary", got[2].id) == got[2]
    assert backend.get_event("primary", series.id).is_recurring_series  # type: ignore[union-attr]


def test_network_is_cut_off_and_building_needs_none() -> None:
    import socket
    with pytest.raises(OSError):
        socket.create_connection(("www.googleapis.com", 443), timeout=1)
    with pytest.raises(OSError):
        socket.create_connection(("142.250.0.1", 443), timeout=1)
    backend = GoogleBackend(None)  # static discovery: no network to build
    assert backend.api_endpoint == "https://www.googleapis.com/calendar/v3/"
    with pytest.raises(CalendarError, match="Google Calendar cannot be reached"):
        backend.max_attempts = 1
        backend.calendars()
    backend.close()


def test_upsert_by_stable_id_replaces_even_a_cancelled_event(backend: GoogleBackend,
                                                             server: FakeGoogleCalendar) -> None:
    from tools.backends.google.events import stable_event_id
    event_id = stable_event_id("ev_1")
    assert id_problem(event_id) is None and stable_event_id("ev_1") == event_id
    first = backend.upsert_event("primary", dinner(backend, id=event_id))
    backend.delete_event("primary", first.id)
    again = backend.upsert_event("primary", dinner(backend, id=event_id, title="Replayed"))
    assert again.title == "Replayed" and backend.get_event("primary", event_id) is not None
    assert len(server.stored_events()) == 1


# ---------------------------------------------------------------------------- reminders, end zone
def test_reminders_are_popup_overrides_and_absent_ones_the_calendars_default(
        backend: GoogleBackend, server: FakeGoogleCalendar) -> None:
    plain = backend.create_event("primary", dinner(backend))
    assert server.event("primary", plain.id)["reminders"] == {"useDefault": True}
    assert plain.reminders is None
    made = backend.create_event("primary", dinner(backend, reminders=(1440, 30)))
    assert server.event("primary", made.id)["reminders"] == {"useDefault": False, "overrides": [
        {"method": "popup", "minutes": 30}, {"method": "popup", "minutes": 1440}]}
    assert made.reminders == (30, 1440)
    cleared = backend.patch_event("primary", made.id, EventPatch({"reminders": []}))
    assert server.event("primary", made.id)["reminders"] == {"useDefault": False, "overrides": []}
    assert cleared.reminders == ()
    default = backend.patch_event("primary", made.id, EventPatch({"reminders": None}))
    assert server.event("primary", made.id)["reminders"] == {"useDefault": True}
    assert default.reminders is None


def test_an_email_reminder_set_elsewhere_keeps_its_method_when_others_change(
        backend: GoogleBackend, server: FakeGoogleCalendar) -> None:
    made = backend.create_event("primary", dinner(backend))
    server.edit_event("primary", made.id, reminders={"useDefault": False, "overrides": [
        {"method": "email", "minutes": 1440}]})
    assert backend.get_event("primary", made.id).reminders == (1440,)
    backend.patch_event("primary", made.id, EventPatch({"reminders": [10, 1440]}))
    assert server.event("primary", made.id)["reminders"]["overrides"] == [
        {"method": "popup", "minutes": 10}, {"method": "email", "minutes": 1440}]


def test_an_end_in_another_zone_is_end_time_zone(backend: GoogleBackend, server: FakeGoogleCalendar) -> None:
    chicago, london = ZoneInfo("America/Chicago"), ZoneInfo("Europe/London")
    made = backend.create_event("primary", Event(
        id=backend.new_event_id(), title="Flight", timezone="America/Chicago",
        start=datetime(2025, 10, 23, 9, tzinfo=chicago), end=datetime(2025, 10, 23, 22, 40, tzinfo=london),
        end_timezone="Europe/London"))
    stored = server.event("primary", made.id)
    assert stored["start"] == {"dateTime": "2025-10-23T09:00:00-05:00", "timeZone": "America/Chicago"}
    assert stored["end"] == {"dateTime": "2025-10-23T22:40:00+01:00", "timeZone": "Europe/London"}
    assert made.end_timezone == "Europe/London"
    back = backend.patch_event("primary", made.id, EventPatch({"end_timezone": None}))
    assert server.event("primary", made.id)["end"] == {"dateTime": "2025-10-23T16:40:00-05:00",
                                                       "timeZone": "America/Chicago"}
    assert back.end_timezone is None
