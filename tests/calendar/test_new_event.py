"""`new_event` (the readers' quick way to make an Event) makes the very event `Event(...)`
makes: every field, the defaults for the ones not named, equal and alike in every attribute."""
from __future__ import annotations

from dataclasses import fields
from datetime import date, datetime
from zoneinfo import ZoneInfo

from tools.calendar.events import Event, event_from_contract, new_event

LA = ZoneInfo("America/Los_Angeles")


def _same(a: Event, b: Event) -> None:
    assert a == b and hash(a) == hash(b) and type(a) is type(b)
    assert vars(a) == vars(b)
    for f in fields(Event):  # the same values, of the same types (a date is not a datetime)
        assert type(getattr(a, f.name)) is type(getattr(b, f.name)), f.name


def test_the_same_event_as_the_constructor() -> None:
    few = {"id": "e1", "title": "Swim", "start": date(2025, 10, 24), "end": date(2025, 10, 25)}
    _same(new_event(**few), Event(**few))  # type: ignore[arg-type]
    every = {"id": "e2", "title": "Flight", "start": datetime(2025, 10, 24, 9, tzinfo=LA),
             "end": datetime(2025, 10, 24, 17, tzinfo=LA), "all_day": False,
             "timezone": "America/Los_Angeles", "location": "SFO", "description": "gate 4",
             "attendees": ("a@example.com",), "recurrence": ("RRULE:FREQ=WEEKLY",),
             "calendar_id": "family", "version": "3", "recurring_event_id": None,
             "original_start": None, "status": "tentative", "reminders": (10,),
             "end_timezone": "America/New_York"}
    _same(new_event(**every), Event(**every))  # type: ignore[arg-type]


def test_read_from_the_contract_as_before() -> None:
    data = {"id": "e3", "title": "Piano", "start": "2025-10-24T15:00:00-07:00",
            "end": "2025-10-24T16:00:00-07:00", "timezone": "America/Los_Angeles",
            "attendees": ["kim@example.com", 7], "recurrence": "FREQ=WEEKLY", "reminders": [30]}
    event = event_from_contract(data, "UTC", "family")
    _same(event, Event(id="e3", title="Piano", start=datetime(2025, 10, 24, 15, tzinfo=LA),
                       end=datetime(2025, 10, 24, 16, tzinfo=LA), timezone="America/Los_Angeles",
                       attendees=("kim@example.com", "7"), recurrence=("RRULE:FREQ=WEEKLY",),
                       calendar_id="family", reminders=(30,)))
    assert event_from_contract({**data, "attendees": None}, "UTC").attendees == ()
