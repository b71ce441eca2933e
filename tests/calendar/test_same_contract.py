"""`Event.surely_same_contract` says two events have the same contract only when they do: the
fields it looks at are every field `to_contract` reads, and values that are equal but read
differently there (the same instant in another zone, a microsecond apart) are not taken as the
same. A journal entry's intent is written from it (`whole_entry`): the text is the intent's own
whenever the contracts differ."""
from __future__ import annotations

import json
from dataclasses import fields
from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

from tools.backends.base import Snapshot
from tools.calendar.events import CONTRACT_FIELDS, Event
from tools.journal.entries import Intent, whole_entry

LA = ZoneInfo("America/Los_Angeles")
FLIGHT = Event(id="e1", title="Flight", start=datetime(2025, 10, 24, 9, tzinfo=LA),
               end=datetime(2025, 10, 24, 17, tzinfo=LA), timezone="America/Los_Angeles",
               location="SFO", description="gate 4", attendees=("a@example.com",),
               recurrence=None, calendar_id="family", version="3", reminders=(10,),
               end_timezone="America/New_York", recurring_event_id="s1")
OTHER_VALUES = {"id": "e2", "title": "Train", "start": datetime(2025, 10, 24, 10, tzinfo=LA),
                "end": datetime(2025, 10, 24, 18, tzinfo=LA), "all_day": True,
                "timezone": "Europe/Paris", "location": "Gare", "description": "seat 5",
                "attendees": ("b@example.com",), "recurrence": ("RRULE:FREQ=WEEKLY",),
                "calendar_id": "work", "version": "4", "recurring_event_id": "s2",
                "original_start": date(2025, 10, 1), "status": "tentative", "reminders": (20,),
                "end_timezone": "Asia/Tokyo"}


def test_the_fields_are_the_ones_the_contract_reads() -> None:
    assert set(OTHER_VALUES) == {f.name for f in fields(Event)}
    for name, value in OTHER_VALUES.items():
        changed = FLIGHT.with_changes(**{name: value})
        assert (changed.to_contract() != FLIGHT.to_contract()) == (name in CONTRACT_FIELDS), name
        assert not FLIGHT.surely_same_contract(changed) or name not in CONTRACT_FIELDS, name


def test_same_only_when_the_contracts_are() -> None:
    copy = FLIGHT.with_changes(version="9", calendar_id="other", title="".join(["Fli", "ght"]))
    assert FLIGHT.surely_same_contract(copy) and copy.to_contract() == FLIGHT.to_contract()
    in_utc = FLIGHT.with_changes(start=FLIGHT.start.astimezone(UTC))  # type: ignore[union-attr]
    assert in_utc == FLIGHT and in_utc.to_contract() != FLIGHT.to_contract()
    assert not FLIGHT.surely_same_contract(in_utc)
    later = FLIGHT.with_changes(end=FLIGHT.end + timedelta(microseconds=1))  # type: ignore[operator]
    assert not FLIGHT.surely_same_contract(later)  # not known: the contracts are compared


def test_an_entrys_intent_is_the_intents_own_event_when_the_contracts_differ() -> None:
    pre = Snapshot("family", "e1", {"title": "Flight"}, "3")
    post = Snapshot("family", "e1", {"title": "Flight"}, "4")
    for meant in (FLIGHT.with_changes(version="4"),  # the same contract: the after's text
                  FLIGHT.with_changes(start=FLIGHT.start.astimezone(UTC)),  # type: ignore[union-attr]
                  FLIGHT.with_changes(title="Flight out")):
        row = whole_entry("t", 1, "bulk_update_calendar_events", "family", "e1", pre, FLIGHT,
                          Intent.update(meant), "3", post, FLIGHT)
        assert row["intent"] == json.dumps({"kind": "update", "event": meant.to_contract()})
        assert row["post_event"] == json.dumps(FLIGHT.to_contract())
