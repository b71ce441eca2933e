"""The backend-neutral behaviour suite: everything here uses only the CalendarBackend interface
(and the journal/registry built on it), so the same tests run against every backend in
conftest.BACKENDS (the local SQLite one now, the Google one on its fake server later)."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from conftest import listed, make_context

from tools.backends.base import (
    CalendarBackend,
    EventNotFound,
    EventPatch,
    RestoreItem,
    Snapshot,
    VersionConflict,
)
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry

LA = ZoneInfo("America/Los_Angeles")
NY = ZoneInfo("America/New_York")


def new(backend: CalendarBackend, title: str, start, end, **fields) -> Event:
    cal = backend.primary_calendar_id()
    tz = fields.pop("timezone", "America/Los_Angeles")
    event = Event(id=backend.new_event_id(), title=title, start=start, end=end, timezone=tz,
                  calendar_id=cal, **fields)
    return backend.create_event(cal, event)


def window(backend: CalendarBackend, start: datetime, end: datetime, query: str | None = None):
    return backend.list_events(backend.primary_calendar_id(), start, end, query)


def ids(events) -> list[str]:
    return [e.id for e in events]


# ------------------------------------------------------------------------- create / get
def test_create_then_get_returns_every_field(backend):
    made = new(backend, "Family dinner", datetime(2025, 10, 23, 18, 0, tzinfo=LA),
               datetime(2025, 10, 23, 19, 30, tzinfo=LA), location="123 Maple St",
               description="bring pie", attendees=("sam@example.com", "kim@example.com"))
    got = backend.get_event(backend.primary_calendar_id(), made.id)
    assert got is not None
    assert got.to_contract() == {
        "id": made.id, "title": "Family dinner",
        "start": "2025-10-23T18:00:00-07:00", "end": "2025-10-23T19:30:00-07:00",
        "all_day": False, "timezone": "America/Los_Angeles", "location": "123 Maple St",
        "description": "bring pie", "attendees": ["sam@example.com", "kim@example.com"],
        "recurrence": None,
    }
    assert got.version


def test_get_unknown_returns_none(backend):
    assert backend.get_event(backend.primary_calendar_id(), backend.new_event_id()) is None


def test_new_event_ids_are_unique_and_valid(backend):
    made = {backend.new_event_id() for _ in range(50)}
    assert len(made) == 50
    assert all(backend.id_problem(i) is None for i in made)


def test_create_retried_by_the_same_turn_is_not_a_duplicate(backend):
    cal = backend.primary_calendar_id()
    event = Event(id=backend.new_event_id(), title="Swim", timezone="America/Los_Angeles",
                  start=datetime(2025, 3, 1, 9, tzinfo=LA), end=datetime(2025, 3, 1, 10, tzinfo=LA))
    first = backend.create_event(cal, event, turn_id="t1")
    second = backend.create_event(cal, event, turn_id="t1")
    assert second.id == first.id
    assert ids(window(backend, datetime(2025, 3, 1, tzinfo=LA), datetime(2025, 3, 2, tzinfo=LA))) == [first.id]


# ------------------------------------------------------------------------- list a range
def test_list_returns_events_overlapping_the_range_in_start_order(backend):
    day = datetime(2025, 5, 6, tzinfo=LA)
    late = new(backend, "Late", day.replace(hour=20), day.replace(hour=21))
    early = new(backend, "Early", day.replace(hour=8), day.replace(hour=9))
    spans = new(backend, "Overnight", day - timedelta(hours=2), day + timedelta(hours=1))
    new(backend, "Ends at range start", day - timedelta(hours=1), day)
    new(backend, "Starts at range end", day + timedelta(days=1), day + timedelta(days=1, hours=1))
    got = window(backend, day, day + timedelta(days=1))
    assert ids(got) == [spans.id, early.id, late.id]


def test_list_compares_instants_across_zones(backend):
    # 09:00 in New York is 06:00 in Los Angeles: inside an LA 05:30-06:30 window.
    ny = new(backend, "Call", datetime(2025, 5, 6, 9, tzinfo=NY), datetime(2025, 5, 6, 9, 30, tzinfo=NY),
             timezone="America/New_York")
    got = window(backend, datetime(2025, 5, 6, 5, 30, tzinfo=LA), datetime(2025, 5, 6, 6, 30, tzinfo=LA))
    assert ids(got) == [ny.id]
    assert got[0].to_contract()["start"] == "2025-05-06T09:00:00-04:00"


def test_list_query_filters_on_title_place_description_and_attendees(backend):
    day = datetime(2025, 6, 2, tzinfo=LA)
    a = new(backend, "Piano lesson", day.replace(hour=9), day.replace(hour=10))
    b = new(backend, "Lunch", day.replace(hour=12), day.replace(hour=13), location="Piano Bar")
    new(backend, "Dentist", day.replace(hour=15), day.replace(hour=16))
    c = new(backend, "Call", day.replace(hour=17), day.replace(hour=18), attendees=("piano@example.com",))
    assert ids(window(backend, day, day + timedelta(days=1), "piano")) == [a.id, b.id, c.id]


# ------------------------------------------------------------------------- patch
def test_patch_changes_only_the_given_fields(backend):
    made = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, 30, tzinfo=LA),
               location="Home", description="d", attendees=("a@example.com",))
    before = made.to_contract()
    after = backend.patch_event(backend.primary_calendar_id(), made.id, EventPatch({"title": "Supper"}))
    assert after.to_contract() == {**before, "title": "Supper"}
    again = backend.get_event(backend.primary_calendar_id(), made.id)
    assert again.to_contract() == {**before, "title": "Supper"}
    assert again.version != made.version


def test_patch_new_start_keeps_the_length(backend):
    made = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, 30, tzinfo=LA))
    after = backend.patch_event(backend.primary_calendar_id(), made.id,
                                EventPatch({"start": "2025-10-24T19:00:00-07:00"}))
    assert (after.to_contract()["start"], after.to_contract()["end"]) == (
        "2025-10-24T19:00:00-07:00", "2025-10-24T20:30:00-07:00")


def test_patch_can_clear_location_and_attendees(backend):
    made = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, tzinfo=LA),
               location="Somewhere", attendees=("a@example.com",))
    after = backend.patch_event(backend.primary_calendar_id(), made.id,
                                EventPatch({"location": None, "attendees": []}))
    assert after.location is None and after.attendees == ()
    assert after.title == "Dinner"


def test_patch_unknown_event_raises_not_found(backend):
    with pytest.raises(EventNotFound):
        backend.patch_event(backend.primary_calendar_id(), backend.new_event_id(), EventPatch({"title": "x"}))


def test_stale_if_match_raises_version_conflict_and_keeps_the_other_change(backend):
    cal = backend.primary_calendar_id()
    made = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, tzinfo=LA))
    theirs = backend.patch_event(cal, made.id, EventPatch({"title": "Their title"}))
    with pytest.raises(VersionConflict):
        backend.patch_event(cal, made.id, EventPatch({"title": "Ours"}), if_match=made.version)
    with pytest.raises(VersionConflict):
        backend.delete_event(cal, made.id, if_match=made.version)
    current = backend.get_event(cal, made.id)
    assert current.title == "Their title" and current.version == theirs.version
    # the current version is accepted
    assert backend.patch_event(cal, made.id, EventPatch({"title": "Ours"}), if_match=theirs.version).title == "Ours"


# ------------------------------------------------------------------------- delete
def test_delete_removes_from_get_and_list(backend):
    cal = backend.primary_calendar_id()
    made = new(backend, "Dentist", datetime(2025, 4, 1, 9, tzinfo=LA), datetime(2025, 4, 1, 10, tzinfo=LA))
    keep = new(backend, "Gym", datetime(2025, 4, 1, 11, tzinfo=LA), datetime(2025, 4, 1, 12, tzinfo=LA))
    backend.delete_event(cal, made.id, if_match=made.version)
    assert backend.get_event(cal, made.id) is None
    assert ids(window(backend, datetime(2025, 4, 1, tzinfo=LA), datetime(2025, 4, 2, tzinfo=LA))) == [keep.id]
    with pytest.raises(EventNotFound):
        backend.delete_event(cal, made.id)
    with pytest.raises(EventNotFound):
        backend.patch_event(cal, made.id, EventPatch({"title": "zombie"}))


# ------------------------------------------------------------------------- snapshot / restore
def test_snapshot_restore_puts_the_event_back_under_a_version_check(backend):
    cal = backend.primary_calendar_id()
    made = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, tzinfo=LA),
               attendees=("a@example.com",))
    snap = backend.snapshot(cal, made.id)
    assert snap.exists and snap.version == made.version
    changed = backend.patch_event(cal, made.id, EventPatch({"title": "Changed", "attendees": []}))
    with pytest.raises(VersionConflict):
        backend.restore(snap, expected_version=made.version)  # stale: someone changed it
    assert backend.get_event(cal, made.id).title == "Changed"
    back = backend.restore(snap, expected_version=changed.version)
    assert CalendarBackend.same_content(snap, back)
    assert backend.get_event(cal, made.id).to_contract() == made.to_contract()


def test_restore_many_refuses_a_stale_item_and_restores_the_others(backend):
    """Each restore of a batch has its own version check: one stale item is refused (and its
    event left as someone else made it) without stopping the others, each read back."""
    cal = backend.primary_calendar_id()
    kept = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, tzinfo=LA))
    undone = new(backend, "Piano", datetime(2025, 10, 24, 15, tzinfo=LA), datetime(2025, 10, 24, 16, tzinfo=LA))
    snaps = backend.snapshots(cal, [kept.id, undone.id])
    backend.patch_event(cal, kept.id, EventPatch({"title": "Dinner, theirs"}))
    ours = backend.patch_event(cal, undone.id, EventPatch({"title": "Piano, ours"}))
    results = backend.restore_many([RestoreItem(snaps[0], kept.version),  # stale
                                    RestoreItem(snaps[1], ours.version)])
    assert isinstance(results[0], VersionConflict)
    assert isinstance(results[1], Snapshot) and CalendarBackend.same_content(results[1], snaps[1])
    assert backend.get_event(cal, kept.id).title == "Dinner, theirs"
    assert backend.get_event(cal, undone.id).to_contract() == undone.to_contract()


def test_restore_of_did_not_exist_removes_a_created_event(backend):
    cal = backend.primary_calendar_id()
    event_id = backend.new_event_id()
    snap = backend.snapshot(cal, event_id)
    assert not snap.exists
    made = backend.create_event(cal, Event(id=event_id, title="New", timezone="America/Los_Angeles",
                                           start=datetime(2025, 1, 2, 9, tzinfo=LA),
                                           end=datetime(2025, 1, 2, 10, tzinfo=LA)))
    backend.restore(snap, expected_version=backend.snapshot(cal, made.id).version)
    assert backend.get_event(cal, event_id) is None
    assert listed(backend) == []


def test_restore_brings_a_deleted_event_back(backend):
    cal = backend.primary_calendar_id()
    made = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, tzinfo=LA))
    snap = backend.snapshot(cal, made.id)
    backend.delete_event(cal, made.id)
    backend.restore(snap, expected_version=backend.snapshot(cal, made.id).version)
    assert backend.get_event(cal, made.id).to_contract() == made.to_contract()


# ------------------------------------------------------------------------- recurrence
def _weekly_ny(backend, count=4):
    return new(backend, "Choir", datetime(2025, 10, 20, 17, tzinfo=NY), datetime(2025, 10, 20, 18, 30, tzinfo=NY),
               timezone="America/New_York", recurrence=(f"RRULE:FREQ=WEEKLY;COUNT={count}",))


def test_recurring_series_expands_with_wall_time_kept_across_dst(backend):
    series = _weekly_ny(backend)
    got = window(backend, datetime(2025, 10, 1, tzinfo=NY), datetime(2025, 12, 1, tzinfo=NY))
    starts = [e.to_contract()["start"] for e in got]
    assert starts == ["2025-10-20T17:00:00-04:00", "2025-10-27T17:00:00-04:00",
                      "2025-11-03T17:00:00-05:00", "2025-11-10T17:00:00-05:00"]
    assert [e.to_contract()["end"][11:] for e in got] == ["18:30:00-04:00"] * 2 + ["18:30:00-05:00"] * 2
    assert all(e.recurring_event_id == series.id for e in got)
    # instance ids follow Google's <series>_<UTC stamp>
    assert ids(got) == [f"{series.id}_20251020T210000Z", f"{series.id}_20251027T210000Z",
                        f"{series.id}_20251103T220000Z", f"{series.id}_20251110T220000Z"]


def test_an_occurrence_can_be_read_by_its_id(backend):
    series = _weekly_ny(backend)
    cal = backend.primary_calendar_id()
    occ = backend.get_event(cal, f"{series.id}_20251103T220000Z")
    assert occ is not None and occ.to_contract()["start"] == "2025-11-03T17:00:00-05:00"
    assert occ.recurring_event_id == series.id
    assert backend.get_event(cal, f"{series.id}_20251104T220000Z") is None  # not an occurrence
    assert backend.get_event(cal, f"{series.id}_20251117T220000Z") is None  # after COUNT


def test_list_window_cuts_occurrences(backend):
    series = new(backend, "Standup", datetime(2025, 1, 6, 9, tzinfo=LA), datetime(2025, 1, 6, 9, 15, tzinfo=LA),
                 recurrence=("RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR",))
    got = window(backend, datetime(2025, 3, 3, tzinfo=LA), datetime(2025, 3, 10, tzinfo=LA))
    assert [e.start.day for e in got] == [3, 4, 5, 6, 7]
    # DST starts on 2025-03-09 in LA: the Monday after is still at 09:00 local.
    nxt = window(backend, datetime(2025, 3, 10, tzinfo=LA), datetime(2025, 3, 11, tzinfo=LA))
    assert [e.to_contract()["start"] for e in nxt] == ["2025-03-10T09:00:00-07:00"]
    assert nxt[0].recurring_event_id == series.id


def test_moving_one_occurrence_leaves_the_others(backend):
    series = _weekly_ny(backend)
    cal = backend.primary_calendar_id()
    occ_id = f"{series.id}_20251027T210000Z"
    october, december = datetime(2025, 10, 1, tzinfo=NY), datetime(2025, 12, 1, tzinfo=NY)
    before = {e.id: e.to_contract() for e in window(backend, october, december)}
    occ = backend.get_event(cal, occ_id)
    moved = backend.patch_event(cal, occ_id, EventPatch({"start": "2025-10-28T19:00:00-04:00"}),
                                if_match=occ.version or None)
    assert moved.id == occ_id and moved.to_contract()["end"] == "2025-10-28T20:30:00-04:00"
    after = {e.id: e.to_contract() for e in window(backend, october, december)}
    assert set(after) == set(before)
    for key, was in before.items():
        if key != occ_id:
            assert after[key] == was
    assert after[occ_id]["start"] == "2025-10-28T19:00:00-04:00"
    assert backend.get_event(cal, series.id).to_contract() == series.to_contract()


def test_cancelling_one_occurrence_leaves_the_others(backend):
    series = _weekly_ny(backend)
    cal = backend.primary_calendar_id()
    occ_id = f"{series.id}_20251103T220000Z"
    backend.delete_event(cal, occ_id)
    got = window(backend, datetime(2025, 10, 1, tzinfo=NY), datetime(2025, 12, 1, tzinfo=NY))
    assert ids(got) == [f"{series.id}_20251020T210000Z", f"{series.id}_20251027T210000Z",
                        f"{series.id}_20251110T220000Z"]
    assert backend.get_event(cal, occ_id) is None
    assert backend.get_event(cal, series.id).to_contract() == series.to_contract()


def test_deleting_a_series_removes_every_occurrence_and_exception(backend):
    series = _weekly_ny(backend)
    cal = backend.primary_calendar_id()
    backend.patch_event(cal, f"{series.id}_20251027T210000Z", EventPatch({"title": "Choir (moved)"}))
    backend.delete_event(cal, series.id)
    assert window(backend, datetime(2025, 10, 1, tzinfo=NY), datetime(2025, 12, 1, tzinfo=NY)) == []
    assert backend.get_event(cal, f"{series.id}_20251020T210000Z") is None
    assert backend.get_event(cal, f"{series.id}_20251027T210000Z") is None  # the moved one too


def test_all_day_recurring_occurrences(backend):
    series = new(backend, "Bins out", date(2025, 1, 1), date(2025, 1, 2), all_day=True,
                 recurrence=("RRULE:FREQ=MONTHLY;COUNT=3",))
    got = window(backend, datetime(2024, 12, 1, tzinfo=LA), datetime(2025, 6, 1, tzinfo=LA))
    assert [(e.to_contract()["start"], e.to_contract()["end"]) for e in got] == [
        ("2025-01-01", "2025-01-02"), ("2025-02-01", "2025-02-02"), ("2025-03-01", "2025-03-02")]
    assert all(e.all_day for e in got)
    assert ids(got)[1] == f"{series.id}_20250201"


# ------------------------------------------------------------------------- all-day
def test_all_day_end_is_exclusive(backend):
    made = new(backend, "Holiday", date(2025, 10, 25), date(2025, 10, 26), all_day=True)
    assert made.to_contract()["start"] == "2025-10-25" and made.to_contract()["end"] == "2025-10-26"
    d25 = window(backend, datetime(2025, 10, 25, tzinfo=LA), datetime(2025, 10, 26, tzinfo=LA))
    d26 = window(backend, datetime(2025, 10, 26, tzinfo=LA), datetime(2025, 10, 27, tzinfo=LA))
    d24 = window(backend, datetime(2025, 10, 24, tzinfo=LA), datetime(2025, 10, 25, tzinfo=LA))
    assert ids(d25) == [made.id] and d26 == [] and d24 == []


def test_multi_day_all_day_event_spans_each_day(backend):
    made = new(backend, "Trip", date(2025, 7, 1), date(2025, 7, 4), all_day=True)
    for day in (1, 2, 3):
        got = window(backend, datetime(2025, 7, day, 12, tzinfo=LA), datetime(2025, 7, day, 13, tzinfo=LA))
        assert ids(got) == [made.id]
    assert window(backend, datetime(2025, 7, 4, tzinfo=LA), datetime(2025, 7, 5, tzinfo=LA)) == []


# ------------------------------------------------------------------------- journal rollback
def _seed(backend):
    single = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, tzinfo=LA),
                 location="123 Maple St", attendees=("sam@example.com",))
    allday = new(backend, "Fair", date(2025, 10, 25), date(2025, 10, 27), all_day=True, description="tickets")
    series = _weekly_ny(backend)
    return single, allday, series


def _run(registry: ToolRegistry, name: str, args: dict):
    result = registry.run(ToolCall(f"c-{name}", name, args))
    assert not result.is_error, result.text
    return result


def test_rollback_of_a_turn_restores_the_calendar_exactly(backend, journal: Journal):
    single, allday, series = _seed(backend)
    before = listed(backend)
    reg = ToolRegistry(make_context(backend, journal, "turn-a"))
    created = _run(reg, "create_calendar_event", {"title": "Swim", "start": "2025-10-24T07:00:00-07:00"})
    _run(reg, "update_calendar_event", {"event_id": single.id, "title": "Dinner out", "location": "home",
                                        "attendees": []})
    _run(reg, "update_calendar_event", {"event_id": f"{series.id}_20251027T210000Z",
                                        "start": "2025-10-28T19:00:00-04:00"})
    _run(reg, "delete_calendar_event", {"event_id": f"{series.id}_20251103T220000Z"})
    _run(reg, "bulk_update_calendar_events", {"updates": [
        {"event_id": allday.id, "end": "2025-10-28"}, {"event_id": single.id, "description": "x"}]})
    assert listed(backend) != before
    report = journal.rollback("turn-a")
    assert report.clean, report.summary()
    assert listed(backend) == before
    assert backend.get_event(backend.primary_calendar_id(), created.data["id"]) is None
    assert "turn-a" not in journal.open_turns()


class DiesBeforeMarking(Journal):
    """The journal of a process that dies after its rollback restored the events, before it
    marked their entries."""

    def _mark(self, marks, turn=None, conn=None):  # the marks, and the turn closed with them
        raise SystemExit("killed before marking")  # (in the restores' transaction on one store)


def test_a_rollback_stopped_before_marking_its_entries_is_finished_by_the_next(backend, journal: Journal):
    """A process that dies after restoring and before marking the entries leaves them `done`:
    the next rollback finds those events already back as they were (nothing to undo, nobody's
    change to keep), restores the rest and reports no conflict."""
    single, allday, _ = _seed(backend)
    before = listed(backend)
    reg = ToolRegistry(make_context(backend, journal, "turn-m"))
    _run(reg, "bulk_update_calendar_events", {"updates": [
        {"event_id": single.id, "title": "Dinner out"}, {"event_id": allday.id, "title": "Trip"}]})

    with pytest.raises(SystemExit):
        DiesBeforeMarking(journal.store, backend).rollback("turn-m")
    assert len(journal.entries("turn-m", states=("done",))) == 2  # nothing was marked
    report = journal.rollback("turn-m")
    assert report.clean, report.summary()
    assert listed(backend) == before


def test_rollback_of_a_series_delete_brings_back_its_exceptions(backend, journal: Journal):
    _, _, series = _seed(backend)
    cal = backend.primary_calendar_id()
    backend.patch_event(cal, f"{series.id}_20251027T210000Z", EventPatch({"title": "Choir (moved)"}))
    before = listed(backend)
    reg = ToolRegistry(make_context(backend, journal, "turn-b"))
    _run(reg, "delete_calendar_event", {"event_id": series.id})
    assert all(e.get("recurring_event_id") != series.id for e in listed(backend))
    assert journal.rollback("turn-b").clean
    assert listed(backend) == before


def test_rollback_keeps_a_concurrent_edit_and_reports_it(backend, journal: Journal):
    single, allday, _ = _seed(backend)
    cal = backend.primary_calendar_id()
    before = {e["id"]: e for e in listed(backend)}
    reg = ToolRegistry(make_context(backend, journal, "turn-c"))
    _run(reg, "update_calendar_event", {"event_id": single.id, "title": "Ours"})
    _run(reg, "update_calendar_event", {"event_id": allday.id, "title": "Ours too"})
    theirs = backend.patch_event(cal, single.id, EventPatch({"location": "Their place"}))
    report = journal.rollback("turn-c")
    assert [c.event_id for c in report.conflicts] == [single.id]
    assert report.restored_ids == [allday.id]
    after = {e["id"]: e for e in listed(backend)}
    assert after[single.id] == theirs.to_contract()
    assert after[single.id]["title"] == "Ours" and after[single.id]["location"] == "Their place"
    assert {k: v for k, v in after.items() if k != single.id} == {
        k: v for k, v in before.items() if k != single.id}


def test_rollback_of_one_attempt_leaves_the_other(backend, journal: Journal):
    single, allday, _ = _seed(backend)
    ctx = make_context(backend, journal, "turn-d")
    reg = ToolRegistry(ctx)
    _run(reg, "update_calendar_event", {"event_id": single.id, "title": "Attempt one"})
    ctx.attempt = 2
    _run(reg, "update_calendar_event", {"event_id": allday.id, "title": "Attempt two"})
    report = journal.rollback("turn-d", attempt=2)
    assert report.restored_ids == [allday.id]
    cal = backend.primary_calendar_id()
    assert backend.get_event(cal, allday.id).title == "Fair"
    assert backend.get_event(cal, single.id).title == "Attempt one"


def test_rolling_back_twice_changes_nothing_more(backend, journal: Journal):
    single, _, _ = _seed(backend)
    before = listed(backend)
    reg = ToolRegistry(make_context(backend, journal, "turn-e"))
    _run(reg, "update_calendar_event", {"event_id": single.id, "title": "Changed"})
    assert journal.rollback("turn-e").restored_ids == [single.id]
    second = journal.rollback("turn-e")
    assert second.restored == [] and second.clean
    assert listed(backend) == before


def test_long_events_that_start_well_before_the_window_are_listed(backend):
    trip = new(backend, "Sabbatical", date(2025, 6, 1), date(2025, 8, 1), all_day=True)
    conf = new(backend, "Conference", datetime(2025, 6, 20, 9, tzinfo=LA), datetime(2025, 7, 3, 17, tzinfo=LA))
    week = new(backend, "Visit", datetime(2025, 6, 25, 9, tzinfo=LA), datetime(2025, 7, 2, 9, tzinfo=LA))
    new(backend, "Ended", date(2025, 5, 1), date(2025, 6, 30), all_day=True)
    got = window(backend, datetime(2025, 7, 1, 12, tzinfo=LA), datetime(2025, 7, 1, 13, tzinfo=LA))
    assert sorted(ids(got)) == sorted([trip.id, conf.id, week.id])


def test_listing_follows_an_edited_series(backend):
    cal = backend.primary_calendar_id()
    series = new(backend, "Yoga", datetime(2025, 2, 3, 8, tzinfo=LA), datetime(2025, 2, 3, 9, tzinfo=LA),
                 recurrence=("RRULE:FREQ=WEEKLY;COUNT=3",))
    span = (datetime(2025, 2, 1, tzinfo=LA), datetime(2025, 4, 1, tzinfo=LA))
    assert len(window(backend, *span)) == 3
    backend.patch_event(cal, series.id, EventPatch({"recurrence": ["RRULE:FREQ=WEEKLY;COUNT=5"]}))
    assert len(window(backend, *span)) == 5
    backend.patch_event(cal, series.id, EventPatch({"start": "2025-02-04T18:00:00-08:00"}))
    got = window(backend, *span)
    assert [e.to_contract()["start"] for e in got][:2] == ["2025-02-04T18:00:00-08:00", "2025-02-11T18:00:00-08:00"]
    assert len(got) == 5


# ------------------------------------------------------------------------- tool-level concurrency
class EditedBeforeEachWrite:
    """The backend as the handlers see it, with `edit` run before every write: someone else's
    change landing between the handler's read and its write. Everything else is the backend's."""

    def __init__(self, backend: CalendarBackend, edit) -> None:
        self._backend, self._edit = backend, edit

    def __getattr__(self, name: str):
        return getattr(self._backend, name)

    def patch_event(self, *args, **kwargs):
        self._edit()
        return self._backend.patch_event(*args, **kwargs)

    def patch_events(self, *args, **kwargs):
        self._edit()
        return self._backend.patch_events(*args, **kwargs)

    def patch_events_recorded(self, *args, **kwargs):  # a bulk update's journaled write
        self._edit()
        return self._backend.patch_events_recorded(*args, **kwargs)

    def delete_event(self, *args, **kwargs):
        self._edit()
        return self._backend.delete_event(*args, **kwargs)


@pytest.mark.parametrize("tool", ["update_calendar_event", "bulk_update_calendar_events",
                                  "delete_calendar_event"])
def test_an_event_edited_elsewhere_between_read_and_write_is_a_conflict(backend, journal: Journal, tool: str):
    """The handlers write with the version they read (`if_match`): an edit made elsewhere in
    between is a conflict error, and the other person's change stands."""
    made = new(backend, "Dinner", datetime(2025, 10, 23, 18, tzinfo=LA), datetime(2025, 10, 23, 19, tzinfo=LA))
    cal = backend.primary_calendar_id()
    theirs: list[Event] = []

    def edit_elsewhere() -> None:  # runs once, after the handler's read, before its write
        if not theirs:
            theirs.append(backend.patch_event(cal, made.id, EventPatch({"title": "Changed elsewhere"})))

    change = {"event_id": made.id, "title": "Ours"}
    args = {"updates": [change]} if tool.startswith("bulk") else \
        change if tool.startswith("update") else {"event_id": made.id}
    raced = EditedBeforeEachWrite(backend, edit_elsewhere)
    result = ToolRegistry(make_context(raced, journal)).run(ToolCall("c1", tool, args))
    assert theirs, "the write never happened"
    assert result.is_error and "changed by someone else" in result.text, result.text
    after = backend.get_event(cal, made.id)
    assert after is not None and after.title == "Changed elsewhere" and after.start == made.start
