"""Reminders and an end in its own zone (issue 26 items 3 and 4), on every backend and store:
written through the tools, read back by `get_event` and listings, kept by an update that does
not name them, cleared by `[]`, and put back exactly by undo. Each test runs on the local
SQLite backend in the quick run and on PostgreSQL, the fake Google server and Radicale in the
full one (conftest.STORE_BACKENDS)."""
from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from conftest import listed, make_context, records_without_version

from tools.backends.base import CalendarBackend
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry

CHICAGO = ZoneInfo("America/Chicago")
LONDON = ZoneInfo("Europe/London")
FLIGHT = {"title": "Flight to London", "start": "2025-10-23T09:00:00", "end": "2025-10-23T22:40:00",
          "timezone": "America/Chicago", "end_timezone": "Europe/London", "reminders": [1440, 60]}


def _run(registry: ToolRegistry, name: str, args: dict[str, Any]) -> Any:
    result = registry.run(ToolCall(f"c-{name}", name, args))
    assert not result.is_error, result.text
    return result


def _get(backend: CalendarBackend, event_id: str) -> Event:
    got = backend.get_event(backend.primary_calendar_id(), event_id)
    assert got is not None
    return got


def test_a_flight_with_reminders_is_written_and_read_back_in_both_zones(backend, journal: Journal):
    reg = ToolRegistry(make_context(backend, journal, "turn-f"))
    made = _run(reg, "create_calendar_event", FLIGHT).data
    got = _get(backend, made["id"])
    assert got.reminders == (60, 1440)
    assert got.end_timezone == "Europe/London"
    contract = got.to_contract()
    assert (contract["start"], contract["end"]) == ("2025-10-23T09:00:00-05:00", "2025-10-23T22:40:00+01:00")
    assert contract["reminders"] == [60, 1440] and contract["end_timezone"] == "Europe/London"
    assert got.duration.total_seconds() == 7 * 3600 + 40 * 60  # 9:00 Chicago is 15:00 London
    assert [e for e in listed(backend) if e["id"] == made["id"]] == [contract]


def test_an_event_written_without_them_has_the_calendars_default_and_one_zone(backend, journal: Journal):
    reg = ToolRegistry(make_context(backend, journal, "turn-d"))
    made = _run(reg, "create_calendar_event", {"title": "Dentist", "start": "2025-10-24T09:00:00"}).data
    got = _get(backend, made["id"])
    assert (got.reminders, got.end_timezone) == (None, None)
    assert "reminders" not in got.to_contract() and "end_timezone" not in got.to_contract()


def test_an_update_keeps_reminders_it_does_not_name_and_an_empty_list_clears_them(backend, journal: Journal):
    reg = ToolRegistry(make_context(backend, journal, "turn-u"))
    event_id = _run(reg, "create_calendar_event", {**FLIGHT, "reminders": [30]}).data["id"]
    _run(reg, "update_calendar_event", {"event_id": event_id, "title": "Flight BA 296"})
    assert _get(backend, event_id).reminders == (30,)
    _run(reg, "update_calendar_event", {"event_id": event_id, "start": "2025-10-23T10:00:00-05:00"})
    moved = _get(backend, event_id)
    assert moved.reminders == (30,) and moved.end_timezone == "Europe/London"
    assert moved.to_contract()["end"] == "2025-10-23T23:40:00+01:00"  # same length, still London time
    _run(reg, "update_calendar_event", {"event_id": event_id, "reminders": [10, 2880]})
    assert _get(backend, event_id).reminders == (10, 2880)
    _run(reg, "update_calendar_event", {"event_id": event_id, "reminders": []})
    cleared = _get(backend, event_id)
    assert cleared.reminders == () and cleared.to_contract()["reminders"] == []


def test_an_end_zone_can_be_set_and_removed_by_an_update(backend, journal: Journal):
    reg = ToolRegistry(make_context(backend, journal, "turn-z"))
    event_id = _run(reg, "create_calendar_event", {
        "title": "Call with Grandma", "start": "2025-10-24T09:00:00", "end": "2025-10-24T10:00:00",
        "timezone": "America/Chicago"}).data["id"]
    _run(reg, "update_calendar_event", {"event_id": event_id, "end_timezone": "Europe/London",
                                        "end": "2025-10-24T16:30:00"})
    got = _get(backend, event_id)
    assert got.end_timezone == "Europe/London" and got.to_contract()["end"] == "2025-10-24T16:30:00+01:00"
    _run(reg, "update_calendar_event", {"event_id": event_id, "end_timezone": "America/Chicago"})
    back = _get(backend, event_id)
    assert back.end_timezone is None  # ends in its own zone again, at the same instant
    assert back.to_contract()["end"] == "2025-10-24T10:30:00-05:00"


def test_undo_puts_the_previous_reminders_and_end_zone_back_exactly(backend, journal: Journal):
    cal = backend.primary_calendar_id()
    seeded = backend.create_event(cal, Event(
        id=backend.new_event_id(), title="Flight", timezone="America/Chicago",
        start=datetime(2025, 10, 23, 9, tzinfo=CHICAGO), end=datetime(2025, 10, 23, 22, 40, tzinfo=LONDON),
        end_timezone="Europe/London", reminders=(30, 1440)))
    plain = backend.create_event(cal, Event(
        id=backend.new_event_id(), title="Swim", timezone="America/Chicago",
        start=datetime(2025, 10, 24, 7, tzinfo=CHICAGO), end=datetime(2025, 10, 24, 8, tzinfo=CHICAGO)))
    before_records, before_list = records_without_version(backend), listed(backend)
    reg = ToolRegistry(make_context(backend, journal, "turn-r"))
    _run(reg, "update_calendar_event", {"event_id": seeded.id, "reminders": []})
    _run(reg, "update_calendar_event", {"event_id": seeded.id, "reminders": [5, 10],
                                        "end_timezone": "Europe/Paris"})
    _run(reg, "bulk_update_calendar_events", {"updates": [
        {"event_id": plain.id, "reminders": [15]},
        {"event_id": seeded.id, "reminders": [60]}]})
    assert _get(backend, seeded.id).reminders == (60,) and _get(backend, plain.id).reminders == (15,)
    report = journal.rollback("turn-r")
    assert report.clean, report.summary()
    assert records_without_version(backend) == before_records
    assert listed(backend) == before_list
    assert _get(backend, seeded.id).reminders == (30, 1440)
    assert _get(backend, seeded.id).end_timezone == "Europe/London"
    assert _get(backend, plain.id).reminders is None


def test_occurrences_carry_their_series_reminders_and_one_can_differ_and_be_undone(backend, journal: Journal):
    reg = ToolRegistry(make_context(backend, journal, "turn-o"))
    series_id = _run(reg, "create_calendar_event", {
        "title": "Piano", "start": "2025-10-20T16:00:00", "end": "2025-10-20T17:00:00",
        "timezone": "America/Chicago", "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=3"],
        "reminders": [15]}).data["id"]
    occurrences = [e for e in listed(backend) if e.get("recurring_event_id") == series_id]
    assert [e["reminders"] for e in occurrences] == [[15]] * 3
    before_records, before_list = records_without_version(backend), listed(backend)
    later = ToolRegistry(make_context(backend, journal, "turn-o2"))
    _run(later, "update_calendar_event", {"event_id": occurrences[1]["id"], "reminders": [60]})
    now = {e["id"]: e.get("reminders") for e in listed(backend) if e.get("recurring_event_id") == series_id}
    assert list(now.values()) == [[15], [60], [15]]
    report = journal.rollback("turn-o2")
    assert report.clean, report.summary()
    assert records_without_version(backend) == before_records
    assert listed(backend) == before_list


def test_reminders_changed_from_one_lesson_on_split_the_series_and_undo_puts_it_back(backend, journal: Journal):
    """"From now on remind me an hour before piano": the lessons before keep their reminder, the
    new series from the lesson named carries the new one, and undo restores the one series."""
    reg = ToolRegistry(make_context(backend, journal, "turn-s"))
    series_id = _run(reg, "create_calendar_event", {
        "title": "Piano", "start": "2025-10-20T16:00:00", "end": "2025-10-20T17:00:00",
        "timezone": "America/Chicago", "recurrence": ["RRULE:FREQ=WEEKLY;COUNT=4"],
        "reminders": [15]}).data["id"]
    before_records, before_list = records_without_version(backend), listed(backend)
    lessons = [e for e in before_list if e.get("recurring_event_id") == series_id]
    later = ToolRegistry(make_context(backend, journal, "turn-s2"))
    _run(later, "update_calendar_event", {"event_id": lessons[2]["id"], "reminders": [60],
                                          "scope": "following"})
    after = [(e["start"], e.get("reminders")) for e in listed(backend) if e["title"] == "Piano"]
    assert after == [(lessons[0]["start"], [15]), (lessons[1]["start"], [15]),
                     (lessons[2]["start"], [60]), (lessons[3]["start"], [60])]
    report = journal.rollback("turn-s2")
    assert report.clean, report.summary()
    assert records_without_version(backend) == before_records
    assert listed(backend) == before_list
