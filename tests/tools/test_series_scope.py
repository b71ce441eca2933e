"""`scope` on updates and deletes of a recurring event (CONTRACT section 3), on every backend:
"from January on, piano is on Thursdays at 4" splits the series at that occurrence, carries
the later occurrences changed or cancelled on their own, and undoes exactly."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ, make_context, records_without_version

from tools.backends.base import CalendarBackend, CalendarError, EventPatch
from tools.calendar.events import Event, as_date
from tools.calendar.occurrences import instance_id
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry

LA = ZoneInfo(PERSON_TZ)
FIRST = datetime(2026, 9, 1, 17, 0, tzinfo=LA)  # a Tuesday


def _piano(backend: CalendarBackend, rule: str = "RRULE:FREQ=WEEKLY;BYDAY=TU") -> Event:
    cal = backend.primary_calendar_id()
    return backend.create_event(cal, Event(
        id=backend.new_event_id(), title="Piano", start=FIRST, end=FIRST + timedelta(hours=1),
        timezone=PERSON_TZ, location="Music school", recurrence=(rule,), calendar_id=cal))


def _occ(series: Event, day: date, hour: int = 17) -> str:
    return instance_id(series.id, datetime(day.year, day.month, day.day, hour, tzinfo=LA))


def _run(backend: CalendarBackend, journal: Journal, name: str, args: dict[str, Any],
         turn: str = "turn-1") -> Any:
    result = ToolRegistry(make_context(backend, journal, turn)).run(ToolCall("c1", name, args))
    assert not result.is_error, result.text
    return result


def _listing(backend: CalendarBackend, start: date, days: int) -> list[tuple[str, str, str]]:
    """(title, local start, location) of the window's events, by start."""
    begin = datetime(start.year, start.month, start.day, tzinfo=LA)
    events = backend.list_events(backend.primary_calendar_id(), begin, begin + timedelta(days=days))
    return [(e.title, e.start_instant.astimezone(LA).strftime("%a %m-%d %H:%M"), e.location or "")
            for e in sorted(events, key=lambda e: e.start_instant)]


def test_from_january_on_piano_is_on_thursdays_at_4(backend: CalendarBackend, journal: Journal) -> None:
    piano = _piano(backend)
    cal = backend.primary_calendar_id()
    # on their own, before the split: December 1st an hour later; after it: January 19th an
    # hour later and February 2nd cancelled
    backend.patch_event(cal, _occ(piano, date(2026, 12, 1)),
                        EventPatch({"start": "2026-12-01T18:00:00-08:00", "end": "2026-12-01T19:00:00-08:00"}))
    backend.patch_event(cal, _occ(piano, date(2027, 1, 19)),
                        EventPatch({"start": "2027-01-19T18:00:00-08:00", "end": "2027-01-19T19:00:00-08:00"}))
    backend.delete_event(cal, _occ(piano, date(2027, 2, 2)))
    before = records_without_version(backend)

    _run(backend, journal, "update_calendar_event",
         {"event_id": _occ(piano, date(2027, 1, 5)), "start": "2027-01-07T16:00:00",
          "end": "2027-01-07T17:00:00", "scope": "following"})

    assert _listing(backend, date(2026, 11, 29), 14) == [
        ("Piano", "Tue 12-01 18:00", "Music school"), ("Piano", "Tue 12-08 17:00", "Music school")]
    assert _listing(backend, date(2026, 12, 27), 42) == [
        ("Piano", "Tue 12-29 17:00", "Music school"),
        ("Piano", "Thu 01-07 16:00", "Music school"), ("Piano", "Thu 01-14 16:00", "Music school"),
        ("Piano", "Thu 01-21 17:00", "Music school"),  # the hour-later one, carried
        ("Piano", "Thu 01-28 16:00", "Music school")]  # February 4th: cancelled, as it was
    assert _listing(backend, date(2027, 2, 7), 8) == [("Piano", "Thu 02-11 16:00", "Music school")]

    undone = journal.rollback("turn-1")
    assert undone.clean, undone.summary()
    assert records_without_version(backend) == before


def test_a_count_rule_split_keeps_the_same_number_of_lessons(backend: CalendarBackend,
                                                            journal: Journal) -> None:
    piano = _piano(backend, "RRULE:FREQ=WEEKLY;COUNT=10")  # Sep 1 .. Nov 3
    _run(backend, journal, "update_calendar_event",
         {"event_id": _occ(piano, date(2026, 10, 6)), "start": "2026-10-06T16:00:00", "scope": "following"})
    seen = _listing(backend, date(2026, 8, 30), 90)
    assert len(seen) == 10
    assert seen.count(("Piano", "Tue 10-06 16:00", "Music school")) == 1
    assert ("Piano", "Tue 09-29 17:00", "Music school") in seen
    assert ("Piano", "Tue 11-03 16:00", "Music school") in seen


def test_cancel_swim_from_next_week_on_keeps_the_past(backend: CalendarBackend, journal: Journal) -> None:
    piano = _piano(backend)
    before = records_without_version(backend)
    _run(backend, journal, "delete_calendar_event",
         {"event_id": _occ(piano, date(2026, 12, 8)), "scope": "following"})
    assert _listing(backend, date(2026, 11, 22), 28) == [
        ("Piano", "Tue 11-24 17:00", "Music school"), ("Piano", "Tue 12-01 17:00", "Music school")]
    undone = journal.rollback("turn-1")
    assert undone.clean, undone.summary()
    assert records_without_version(backend) == before


def test_all_of_them_through_one_occurrence_moves_the_whole_series_and_its_day(
        backend: CalendarBackend, journal: Journal) -> None:
    piano = _piano(backend)
    _run(backend, journal, "update_calendar_event",
         {"event_id": _occ(piano, date(2026, 12, 8)), "start": "2026-12-10T16:00:00", "scope": "series"})
    assert _listing(backend, date(2026, 8, 30), 14) == [
        ("Piano", "Thu 09-03 16:00", "Music school"), ("Piano", "Thu 09-10 16:00", "Music school")]


def test_a_series_moved_to_another_weekday_does_not_stay_on_the_old_one(
        backend: CalendarBackend, journal: Journal) -> None:
    """The drift: BYDAY=TU kept while the start moves to a Thursday would go on on Tuesdays."""
    piano = _piano(backend)
    _run(backend, journal, "update_calendar_event",
         {"event_id": piano.id, "start": "2026-09-03T17:00:00"})
    assert _listing(backend, date(2026, 9, 6), 14) == [
        ("Piano", "Thu 09-10 17:00", "Music school"), ("Piano", "Thu 09-17 17:00", "Music school")]


def test_scope_occurrence_on_a_series_id_is_refused_and_writes_nothing(
        backend: CalendarBackend, journal: Journal) -> None:
    piano = _piano(backend)
    before = records_without_version(backend)
    result = ToolRegistry(make_context(backend, journal)).run(ToolCall(
        "c1", "update_calendar_event", {"event_id": piano.id, "title": "Piano!", "scope": "occurrence"}))
    assert result.is_error and "scope" in result.text
    assert records_without_version(backend) == before


def test_a_split_that_fails_part_way_is_undone(backend: CalendarBackend, journal: Journal,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure after the new series was written (trimming the old one) leaves the calendar
    as it was: the call's earlier writes are undone before the error is returned."""
    piano = _piano(backend)
    before = records_without_version(backend)
    real = type(backend).patch_event

    def failing(self: CalendarBackend, calendar_id: str, event_id: str, patch: EventPatch,
                **kw: Any) -> Event:
        if event_id == piano.id:
            raise CalendarError("the server refused the change")
        return real(self, calendar_id, event_id, patch, **kw)

    monkeypatch.setattr(type(backend), "patch_event", failing)
    result = ToolRegistry(make_context(backend, journal)).run(ToolCall(
        "c1", "update_calendar_event", {"event_id": _occ(piano, date(2027, 1, 5)),
                                        "start": "2027-01-07T16:00:00", "scope": "following"}))
    assert result.is_error and "undone" in result.text
    assert records_without_version(backend) == before


def test_an_all_day_series_split_ends_on_a_date_and_both_parts_are_listed(
        backend: CalendarBackend, journal: Journal) -> None:
    """An all-day series ends with a date UNTIL (RFC 5545), which every part of the project
    must expand: dateutil refuses it next to an aware first start unless it is read as the end
    of that day."""
    cal = backend.primary_calendar_id()
    camp = backend.create_event(cal, Event(
        id=backend.new_event_id(), title="Camp", start=date(2026, 9, 7), end=date(2026, 9, 8),
        all_day=True, timezone=PERSON_TZ, recurrence=("RRULE:FREQ=WEEKLY;COUNT=6",), calendar_id=cal))
    _run(backend, journal, "update_calendar_event",
         {"event_id": f"{camp.id}_20260921", "start": "2026-09-23", "scope": "following"})
    begin = datetime(2026, 9, 1, tzinfo=LA)
    days = sorted(as_date(e.start) for e in backend.list_events(cal, begin, begin + timedelta(days=60)))
    assert days == [date(2026, 9, 7), date(2026, 9, 14), date(2026, 9, 23), date(2026, 9, 30),
                    date(2026, 10, 7), date(2026, 10, 14)]


def test_an_occurrence_with_a_reminder_of_its_own_keeps_it_after_the_split(
        backend: CalendarBackend, journal: Journal) -> None:
    piano = _piano(backend)
    cal = backend.primary_calendar_id()
    backend.patch_event(cal, _occ(piano, date(2027, 1, 19)), EventPatch({"reminders": [1440]}))
    _run(backend, journal, "update_calendar_event",
         {"event_id": _occ(piano, date(2027, 1, 5)), "start": "2027-01-07T16:00:00", "scope": "following"})
    begin = datetime(2027, 1, 20, tzinfo=LA)
    [carried] = backend.list_events(cal, begin, begin + timedelta(days=2))
    assert carried.start_instant.astimezone(LA).strftime("%a %H:%M") == "Thu 16:00"
    assert carried.reminders == (1440,)


def test_a_timed_series_made_all_day_from_one_occurrence_on_is_written_and_listed(
        backend: CalendarBackend, journal: Journal) -> None:
    piano = _piano(backend, "RRULE:FREQ=WEEKLY;UNTIL=20270302T020000Z")  # 6 PM March 1: last Feb 23
    _run(backend, journal, "update_calendar_event",
         {"event_id": _occ(piano, date(2027, 1, 5)), "all_day": True, "start": "2027-01-05",
          "scope": "following"})
    cal = backend.primary_calendar_id()
    begin = datetime(2027, 2, 20, tzinfo=LA)
    days = sorted(as_date(e.start) for e in backend.list_events(cal, begin, begin + timedelta(days=14)))
    assert days == [date(2027, 2, 23)]  # the same last day, now all day


def test_an_all_day_series_that_ends_on_a_date_made_timed_keeps_its_last_day(
        backend: CalendarBackend, journal: Journal) -> None:
    """The whole series from all day to 9 AM: its date UNTIL becomes the end of that day in UTC
    (RFC 5545 pairs a timed start with a UTC UNTIL; servers and dateutil refuse the other)."""
    cal = backend.primary_calendar_id()
    camp = backend.create_event(cal, Event(
        id=backend.new_event_id(), title="Camp", start=date(2026, 9, 7), end=date(2026, 9, 8),
        all_day=True, timezone=PERSON_TZ, recurrence=("RRULE:FREQ=WEEKLY;UNTIL=20260921",), calendar_id=cal))
    _run(backend, journal, "update_calendar_event",
         {"event_id": camp.id, "all_day": False, "start": "2026-09-07T09:00:00", "end": "2026-09-07T10:00:00"})
    begin = datetime(2026, 9, 1, tzinfo=LA)
    starts = sorted(e.start_instant.astimezone(LA).strftime("%m-%d %H:%M")
                    for e in backend.list_events(cal, begin, begin + timedelta(days=60)))
    assert starts == ["09-07 09:00", "09-14 09:00", "09-21 09:00"]


def test_a_whole_series_moved_later_keeps_its_last_occurrence(backend: CalendarBackend, journal: Journal) -> None:
    """"Piano is half an hour later from now on" for a series that ends with an UNTIL at its
    last lesson: the UNTIL moves with the start, so the last lesson is not cut off (and a rule
    whose start comes after its UNTIL, which servers refuse, is never written)."""
    piano = _piano(backend, "RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20260916T000000Z")  # the Sep 15 lesson itself
    _run(backend, journal, "update_calendar_event",
         {"event_id": piano.id, "start": "2026-09-01T17:30:00", "end": "2026-09-01T18:30:00"})
    assert _listing(backend, date(2026, 8, 31), 30) == [
        ("Piano", f"Tue 09-{day:02d} 17:30", "Music school") for day in (1, 8, 15)]
