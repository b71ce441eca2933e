"""What only the local SQLite backend does: several calendars in one file, soft deletes, the stored
records the journal and the benchmarks compare."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from conftest import listed, make_context, records_without_version

from tools.backends.base import CalendarError, EventPatch, PatchItem, RestoreItem, Snapshot
from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry
from tools.store.database import Store

LA = ZoneInfo("America/Los_Angeles")


def ev(backend: LocalBackend, cal: str, title: str, hour: int, **kw) -> Event:
    start = datetime(2025, 9, 1, hour, tzinfo=LA)
    return backend.create_event(cal, Event(id=backend.new_event_id(), title=title, start=start,
                                           end=start + timedelta(hours=1),
                                           timezone="America/Los_Angeles", calendar_id=cal, **kw))


def test_primary_calendar_exists_and_is_primary(local: LocalBackend):
    cals = local.calendars()
    assert [(c.id, c.primary) for c in cals] == [("primary", True)]
    assert local.primary_calendar_id() == "primary"


def test_several_calendars_keep_their_events_apart(local: LocalBackend):
    local.add_calendar("work", "Work", "America/New_York")
    assert sorted(c.id for c in local.calendars()) == ["primary", "work"]
    home_ev = ev(local, "primary", "Soccer", 9)
    work_ev = ev(local, "work", "Standup", 9)
    day = (datetime(2025, 9, 1, tzinfo=LA), datetime(2025, 9, 2, tzinfo=LA))
    assert [e.id for e in local.list_events("primary", *day)] == [home_ev.id]
    assert [e.id for e in local.list_events("work", *day)] == [work_ev.id]
    assert local.get_event("primary", work_ev.id) is None
    assert local.get_event("work", work_ev.id).calendar_id == "work"
    local.delete_event("work", work_ev.id)
    assert local.get_event("primary", home_ev.id) is not None


def test_the_same_id_may_exist_in_two_calendars(local: LocalBackend):
    local.add_calendar("work", "Work")
    start = datetime(2025, 9, 1, 9, tzinfo=LA)
    for cal in ("primary", "work"):
        local.create_event(cal, Event(id="evshared", title=cal, start=start, end=start + timedelta(hours=1),
                                      timezone="America/Los_Angeles"))
    local.patch_event("work", "evshared", EventPatch({"title": "work changed"}))
    assert local.get_event("primary", "evshared").title == "primary"
    assert local.get_event("work", "evshared").title == "work changed"


def test_create_in_an_unknown_calendar_fails(local: LocalBackend):
    with pytest.raises(CalendarError, match="does not exist"):
        ev(local, "nope", "x", 9)
    assert local.all_records() == {}


def test_create_with_a_taken_id_by_another_turn_fails(local: LocalBackend):
    start = datetime(2025, 9, 1, 9, tzinfo=LA)
    event = Event(id="evtaken", title="a", start=start, end=start + timedelta(hours=1), timezone="UTC")
    local.create_event("primary", event, turn_id="t1")
    with pytest.raises(CalendarError, match="already exists"):
        local.create_event("primary", event.with_changes(title="b"), turn_id="t2")
    assert local.get_event("primary", "evtaken").title == "a"


def test_delete_is_soft_and_restore_of_a_create_removes_the_row(local: LocalBackend):
    made = ev(local, "primary", "Dentist", 9)
    local.delete_event("primary", made.id)
    assert local.all_records()[("primary", made.id)]["status"] == "cancelled"
    assert local.snapshot("primary", "evnotthere").record is None
    created = ev(local, "primary", "Temp", 10)
    local.restore(Snapshot("primary", created.id, None, None), expected_version=None)
    assert ("primary", created.id) not in local.all_records()


def test_records_hold_every_field(local: LocalBackend):
    made = local.create_event("primary", Event(
        id="evfull", title="Trip", start=date(2025, 7, 1), end=date(2025, 7, 4), all_day=True,
        timezone="Europe/Paris", location="Paris", description="bring passports",
        attendees=("a@example.com",), recurrence=("RRULE:FREQ=YEARLY;COUNT=2",),
        reminders=(1440, 60)), turn_id="t9")
    rec = records_without_version(local)[("primary", made.id)]
    assert rec == {"title": "Trip", "start": "2025-07-01", "end": "2025-07-04", "all_day": True,
                   "timezone": "Europe/Paris", "location": "Paris", "description": "bring passports",
                   "attendees": '["a@example.com"]', "recurrence": '["RRULE:FREQ=YEARLY;COUNT=2"]',
                   "recurring_event_id": None, "original_start": None, "status": "confirmed",
                   "turn_id": "t9", "reminders": "[60, 1440]", "end_timezone": None}


def test_moved_occurrence_is_its_own_row_keyed_by_the_instance_id(local: LocalBackend):
    start = datetime(2025, 9, 1, 9, tzinfo=LA)
    series = local.create_event("primary", Event(id="evser", title="Run", start=start, end=start + timedelta(hours=1),
                                                 timezone="America/Los_Angeles",
                                                 recurrence=("RRULE:FREQ=DAILY;COUNT=5",)))
    occ_id = "evser_20250903T160000Z"
    local.patch_event("primary", occ_id, EventPatch({"start": "2025-09-03T11:00:00-07:00"}))
    rec = local.all_records()[("primary", occ_id)]
    assert rec["recurring_event_id"] == series.id
    assert rec["original_start"] == "2025-09-03T09:00:00-07:00"
    assert rec["start"] == "2025-09-03T11:00:00-07:00"
    # a moved occurrence that leaves the window's day is listed where it went, once
    days = [e.start.day for e in local.list_events("primary", datetime(2025, 9, 1, tzinfo=LA),
                                                   datetime(2025, 9, 10, tzinfo=LA))]
    assert days == [1, 2, 3, 4, 5]


def test_journal_on_a_second_calendar_rolls_back_there(local: LocalBackend, tmp_path):
    local.add_calendar("work", "Work")
    kept = ev(local, "work", "Standup", 9)
    before = records_without_version(local)
    journal = Journal(Store.sqlite(tmp_path / "journal.db"), local)
    reg = ToolRegistry(make_context(local, journal, "turn-w"))
    r1 = reg.run(ToolCall("1", "create_calendar_event", {"title": "Review", "calendar_id": "work",
                                                          "start": "2025-09-01T11:00:00-07:00"}))
    r2 = reg.run(ToolCall("2", "update_calendar_event", {"event_id": kept.id, "calendar_id": "work",
                                                          "title": "Standup (long)"}))
    assert not r1.is_error and not r2.is_error
    assert local.get_event("work", r1.data["id"]) is not None
    assert listed(local, "primary") == []
    assert journal.rollback("turn-w").clean
    assert records_without_version(local) == before


def test_unknown_calendar_id_in_a_tool_is_an_error_and_writes_nothing(local: LocalBackend, tmp_path):
    journal = Journal(Store.sqlite(tmp_path / "journal.db"), local)
    reg = ToolRegistry(make_context(local, journal))
    result = reg.run(ToolCall("1", "create_calendar_event", {"title": "x", "calendar_id": "nope",
                                                             "start": "2025-09-01T11:00:00-07:00"}))
    assert result.is_error and "nope" in result.text
    assert local.all_records() == {}


def test_an_occurrence_at_a_time_skipped_by_dst_can_be_found_and_deleted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A weekly 02:30 series in Los Angeles: on 2025-03-09 02:30 does not exist. The occurrence
    listed for that day must be found again by its id, so it can be changed or cancelled."""
    from datetime import datetime as dt
    from zoneinfo import ZoneInfo

    from tools.backends.local import LocalBackend
    from tools.calendar.events import Event

    tz = ZoneInfo("America/Los_Angeles")
    backend = LocalBackend(tmp_path / "dst.db", "America/Los_Angeles")
    backend.create_event("primary", Event(id="night", title="Night feed", start=dt(2025, 3, 2, 2, 30, tzinfo=tz),
                                          end=dt(2025, 3, 2, 2, 45, tzinfo=tz), timezone="America/Los_Angeles",
                                          recurrence=("RRULE:FREQ=WEEKLY;COUNT=3",)))
    listed = backend.list_events("primary", dt(2025, 3, 8, tzinfo=tz), dt(2025, 3, 10, tzinfo=tz))
    assert len(listed) == 1
    assert backend.get_event("primary", listed[0].id) is not None
    backend.delete_event("primary", listed[0].id)
    assert backend.list_events("primary", dt(2025, 3, 8, tzinfo=tz), dt(2025, 3, 10, tzinfo=tz)) == []
    assert len(backend.list_events("primary", dt(2025, 3, 1, tzinfo=tz), dt(2025, 3, 20, tzinfo=tz))) == 2


def test_a_finished_series_is_passed_over_yet_listed_in_its_own_window(local: LocalBackend):
    """Issue 25: a listing skips a series that ended before its window without expanding it
    again; the same series is still listed, occurrence by occurrence, where it has them."""
    cal = local.primary_calendar_id()
    la = ZoneInfo("America/Los_Angeles")
    first = datetime(2025, 1, 6, 17, 0, tzinfo=la)
    local.create_event(cal, Event(id="weekly", title="Swim", start=first,
                                  end=first + timedelta(hours=1), timezone="America/Los_Angeles",
                                  recurrence=("RRULE:FREQ=WEEKLY;COUNT=3",)))
    january = (datetime(2025, 1, 1, tzinfo=la), datetime(2025, 2, 1, tzinfo=la))
    assert len(local.list_events(cal, *january)) == 3
    assert local._series_ends  # the series is known to have ended
    assert local.list_events(cal, datetime(2025, 3, 1, tzinfo=la), datetime(2025, 4, 1, tzinfo=la)) == []
    last_only = local.list_events(cal, datetime(2025, 1, 20, 17, 30, tzinfo=la), datetime(2025, 3, 1, tzinfo=la))
    assert [e.id for e in last_only] == ["weekly_20250121T010000Z"]
    assert len(local.list_events(cal, *january)) == 3


def _updates_sent(local: LocalBackend) -> list[str]:
    """The UPDATE statements the local store runs from here on, as SQL text."""
    from sqlalchemy import event as sa_event

    seen: list[str] = []

    def record(conn, cursor, statement, parameters, context, executemany):  # type: ignore[no-untyped-def]
        if statement.lstrip().upper().startswith("UPDATE EVENTS"):
            seen.append(statement)

    sa_event.listen(local.engine, "before_cursor_execute", record)
    return seen


def test_a_title_change_and_its_restore_write_only_the_columns_that_changed(local: LocalBackend):
    """Naming an unchanged column in an UPDATE rewrites every index on it (four times the pages
    of a bulk title change): the write and its restore name the changed columns and the
    version, and the row still comes back exactly."""
    cal = local.primary_calendar_id()
    made = ev(local, cal, "Swim", 17, location="Pool")
    before = local.snapshot(cal, made.id)
    seen = _updates_sent(local)
    local.patch_events(cal, [PatchItem(made.id, EventPatch({"title": "Swim lesson"}))])
    assert len(seen) == 1
    assert "title" in seen[0] and "version" in seen[0]
    assert "start_utc" not in seen[0] and "location" not in seen[0]
    after = local.snapshot(cal, made.id)
    local.restore_many([RestoreItem(before, expected_version=after.version)])
    assert len(seen) == 2 and "title" in seen[1] and "start_utc" not in seen[1]
    restored = local.snapshot(cal, made.id)
    assert {k: v for k, v in (restored.record or {}).items() if k != "version"} == \
        {k: v for k, v in (before.record or {}).items() if k != "version"}


@pytest.mark.parametrize("patch", [{"title": "Swim lesson"},
                                   {"description": "lane 4", "location": None},
                                   {"title": "Swim gala", "start": "2025-09-01T18:30:00-07:00"},
                                   {"attendees": ["sam@example.com"]}])
def test_a_patch_returns_the_event_as_stored(local: LocalBackend, patch: dict) -> None:
    """What a (bulk) patch returns is the event read back from the row it wrote, version
    included, whether only plain texts changed (the event read is reused) or not."""
    cal = local.primary_calendar_id()
    made = [ev(local, cal, "Swim", 17, location="Pool"), ev(local, cal, "Piano", 9)]
    for event in made:
        local.get_event(cal, event.id)  # read once, as the checks of a bulk update read it
    read = local.get_events(cal, [e.id for e in made])
    written = local.patch_events(cal, [PatchItem(e.id, EventPatch(patch), e.version, e)
                                       for e in read if e is not None])
    assert written == local.get_events(cal, [e.id for e in made])
    assert [e.version for e in written] == [str(int(e.version) + 1) for e in made]
