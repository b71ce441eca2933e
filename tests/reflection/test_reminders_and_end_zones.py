"""Two readings the guard must get whole before it may prove anything (the first law): every
reminder a message asks for ("the day before and an hour before"), and an end that is in its
own zone (a flight that lands in London is judged on London's clock)."""
from __future__ import annotations

from typing import Any

import pytest

from reflection.case import case_from_json
from reflection.guard import Guard
from reflection.reading.reminders import asked_minutes

CHICAGO = "America/Chicago"
NOW = "2026-11-30T10:00:00"


def judge(message: str, *calls: dict[str, Any], calendar: list[dict[str, Any]] | None = None) -> Any:
    case = {"id": "t", "user_message": message, "now": NOW, "timezone": CHICAGO, "home_address": "1 Elm St",
            "calendar": calendar or [], "tool_calls": list(calls)}
    return Guard(mode="symbolic").judge(case_from_json(case)).verdict


def create(**fields: Any) -> dict[str, Any]:
    return {"name": "create_calendar_event", "input": fields}


@pytest.mark.parametrize("message, minutes", [
    ("remind me the day before and an hour before", [60, 1440]),
    ("two reminders, a day and an hour before", [60, 1440]),
    ("remind me a day and an hour before", [60, 1440]),
    ("reminders: 1 day before, 2 hours before", [120, 1440]),
    ("alert 15 mins ahead", [15]),
    ("remind me half an hour before", [30]),
])
def test_every_reminder_in_a_list_is_read(message: str, minutes: list[int]) -> None:
    assert asked_minutes(message) == minutes


def test_an_amount_before_outside_the_reminder_request_leaves_the_reading_open() -> None:
    """'the day before' here is where the event goes, not a second reminder: which is which is
    not certain, so no reminder may be proven wrong from the words."""
    assert asked_minutes("remind me an hour before. move it to the day before") is None


def test_two_reminders_asked_and_written_are_right_not_a_missing_one() -> None:
    verdict = judge("book the vet thursday 10am and remind me the day before and an hour before",
                    create(title="Vet", start="2026-12-03T10:00:00", end="2026-12-03T11:00:00",
                           reminders=[60, 1440]))
    assert not [f for f in verdict.findings if f.severity == "error"], verdict.findings


def test_one_of_two_reminders_left_out_is_still_proven() -> None:
    verdict = judge("book the vet thursday 10am and remind me the day before and an hour before",
                    create(title="Vet", start="2026-12-03T10:00:00", end="2026-12-03T11:00:00",
                           reminders=[1440]))
    assert [f.type for f in verdict.findings if f.severity == "error"] == ["reminder"]


def test_a_reminder_amount_is_not_read_as_a_shift_of_the_event() -> None:
    dentist = {"id": "ev_d", "title": "Dentist", "start": "2026-12-01T10:00:00-06:00",
               "end": "2026-12-01T11:00:00-06:00", "timezone": CHICAGO}
    verdict = judge("push the dentist back 30 min, and remind me the day before and an hour before",
                    {"name": "update_calendar_event", "input": {
                        "event_id": "ev_d", "start": "2026-12-01T10:30:00", "end": "2026-12-01T11:30:00",
                        "reminders": [60, 1440]}}, calendar=[dentist])
    assert not [f for f in verdict.findings if f.severity == "error"], verdict.findings


def test_a_flight_that_lands_in_london_ends_on_londons_clock() -> None:
    """22:40 in London is 16:40 in Chicago: the flight does not overlap a 6 PM dinner there."""
    dinner = {"id": "ev_din", "title": "Dinner with Sam", "start": "2026-12-03T18:00:00-06:00",
              "end": "2026-12-03T19:00:00-06:00", "timezone": CHICAGO}
    verdict = judge("add my flight on december 3, leaves chicago at 9am and lands in london at "
                    "10:40pm london time",
                    create(title="Flight to London", start="2026-12-03T09:00:00", end="2026-12-03T22:40:00",
                           timezone=CHICAGO, end_timezone="Europe/London"), calendar=[dinner])
    assert not [f for f in verdict.findings if f.type == "conflict"], verdict.findings
