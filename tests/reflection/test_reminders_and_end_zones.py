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
    ("add a 30 min reminder to the vet appt too", [30]),
    ("set a 1-day alert on the dentist", [1440]),
    ("remind me 30-min before", [30]),
])
def test_every_reminder_in_a_list_is_read(message: str, minutes: list[int]) -> None:
    assert asked_minutes(message) == minutes


@pytest.mark.parametrize("message", ["remind me an hour before the school concert, actually make it 2 hrs",
                                     "remind me 30 min before swim. no wait, 45 mins",
                                     "alert me a day before the vet, sorry i mean 2 days"])
def test_a_reminder_amount_said_again_after_a_correction_leaves_the_reading_open(message: str) -> None:
    """The correction may replace the first amount (the written 120 was proven wrong against the
    60 taken back: a false alarm)."""
    assert asked_minutes(message) is None


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


def _verdict(message: str, tz: str, calls: list[dict[str, Any]], calendar: list[dict[str, Any]],
             now: str = NOW) -> Any:
    case = {"id": "t", "user_message": message, "now": now, "timezone": tz, "home_address": "1 Elm St",
            "calendar": calendar, "tool_calls": calls}
    return Guard(mode="symbolic").judge(case_from_json(case))


def test_an_occurrence_id_with_scope_series_is_the_whole_series() -> None:
    bins = {"id": "ev_bins", "title": "Recycling out", "start": "2026-09-04", "end": "2026-09-05",
            "all_day": True, "timezone": "Europe/London", "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=FR"]}
    call = {"name": "delete_calendar_event", "input": {"event_id": "ev_bins_20261225", "scope": "series"}}
    verdict = _verdict("skip recycling this week, no collection on christmas day", "Europe/London",
                       [call], [bins], now="2026-12-21T09:00:00").verdict
    assert [f.type for f in verdict.findings if f.severity == "error"] == ["event_id"]


def test_no_reminder_with_the_calendar_default_left_is_unsure_not_verified() -> None:
    judged = _verdict("put haircut on 12/10 at 10am, no reminder thx", CHICAGO,
                      [create(title="Haircut", start="2026-12-10T10:00:00", timezone=CHICAGO)], [])
    assert judged.verdict.valid and judged.verdict.llm_needed
    assert not [f for f in judged.verdict.findings if f.severity == "error"]


@pytest.mark.parametrize("zone, wrong", [("America/Los_Angeles", True), ("Europe/London", False)])
def test_a_series_on_another_places_clock_is_judged_on_every_occurrence(zone: str, wrong: bool) -> None:
    """10 AM in Los Angeles is 6 PM in London in December, 5 PM on the March Sundays between the
    two countries' clock changes."""
    start = "2026-12-06T10:00:00-08:00" if zone != "Europe/London" else "2026-12-06T18:00:00+00:00"
    judged = _verdict("every sunday from dec 6 put in a call with grandma, 6pm london time",
                      "America/Los_Angeles",
                      [create(title="Call with Grandma", start=start, timezone=zone,
                              recurrence=["RRULE:FREQ=WEEKLY;BYDAY=SU"])], [], now="2026-12-01T12:00:00")
    errors = [f for f in judged.verdict.findings if f.severity == "error"]
    assert [f.type for f in errors] == (["timezone"] if wrong else [])
    if wrong:
        assert errors[0].proof["drifts_on"] == "2027-03-14"


def test_a_time_said_of_a_place_may_be_on_the_events_own_clock() -> None:
    """A person in Los Angeles: 'leaves heathrow 11:20am' written 11:20 on London's clock (the
    event's zone) is a reading the words allow; it is left for judgement, never proven wrong."""
    judged = _verdict("flight home: leaves heathrow 11:20am on oct 29, gets into LAX 2:35pm same day",
                      "America/Los_Angeles",
                      [create(title="Flight home", start="2026-10-29T11:20:00+00:00",
                              end="2026-10-29T14:35:00-07:00", timezone="Europe/London",
                              end_timezone="America/Los_Angeles")], [], now="2026-10-20T09:00:00")
    assert not [f for f in judged.verdict.findings if f.severity == "error"], judged.verdict.findings
    assert judged.verdict.llm_needed


def test_a_time_on_no_ones_clock_is_still_proven_wrong() -> None:
    """The same flight written at 4:20 AM London time matches neither clock."""
    judged = _verdict("flight home: leaves heathrow 11:20am on oct 29, gets into LAX 2:35pm same day",
                      "America/Los_Angeles",
                      [create(title="Flight home", start="2026-10-29T04:20:00+00:00",
                              end="2026-10-29T14:35:00-07:00", timezone="Europe/London",
                              end_timezone="America/Los_Angeles")], [], now="2026-10-20T09:00:00")
    assert [f.type for f in judged.verdict.findings if f.severity == "error"] in (["date"], ["time"])


def test_a_reminder_said_by_its_amount_is_proven_when_none_is_written() -> None:
    vet = {"id": "ev_v", "title": "Vet", "start": "2026-12-03T11:00:00-06:00",
           "end": "2026-12-03T12:00:00-06:00", "timezone": CHICAGO, "reminders": [1440]}
    verdict = judge("add a 30 min reminder to the vet appt too",
                    {"name": "update_calendar_event", "input": {"event_id": "ev_v", "reminders": []}}, calendar=[vet])
    assert [f.type for f in verdict.findings if f.severity == "error"] == ["reminder"]


@pytest.mark.parametrize("start, end, wrong", [("2026-12-05T14:00:00", "2026-12-05T15:00:00", False),
                                               ("2026-12-05T12:00:00", "2026-12-05T13:00:00", True)])
def test_la_time_is_the_los_angeles_clock(start: str, end: str, wrong: bool) -> None:
    # said in Chicago on Monday 2026-11-30: Saturday noon in Los Angeles is 14:00 here
    verdict = judge("add a call with grandpa this saturday at 12pm LA time",
                    create(title="Call with Grandpa", start=start, end=end))
    assert [f.type for f in verdict.findings if f.severity == "error"] == (["timezone"] if wrong else [])


def test_a_word_after_a_time_that_begins_like_a_city_is_not_one() -> None:
    # "lands" begins like "la": it is no city after "11:10am", so nothing is left unread
    verdict = judge("flight to denver thursday 11:10am, lands 12:35pm denver time",
                    create(title="Flight to Denver", start="2026-12-03T11:10:00", end="2026-12-03T12:35:00",
                           end_timezone="America/Denver", timezone=CHICAGO))
    assert verdict.valid and not verdict.llm_needed


@pytest.mark.parametrize("end", ["2026-12-05T17:50:00+09:00", "2026-12-05T17:50:00+08:00"])
def test_the_time_a_flight_lands_after_its_start_is_its_end_not_its_start(end: str) -> None:
    # the start is 9:05 here; "lands 5:50pm tokyo time" is where it ends: no error on the start,
    # and an end off Tokyo's clock is never verified
    verdict = judge("our flight to tokyo is friday 9:05am, lands 5:50pm tokyo time, add it",
                    create(title="Flight to Tokyo", start="2026-12-04T09:05:00", end=end,
                           end_timezone="Asia/Tokyo"))
    assert not [f for f in verdict.findings if f.severity == "error"] and verdict.llm_needed


@pytest.mark.parametrize("end, errors", [("2026-12-05T07:05:00+00:00", []), ("2026-12-05T07:05:00+01:00", ["time"])])
def test_a_new_events_end_said_on_a_citys_clock_is_held_to_it(end: str, errors: list[str]) -> None:
    # London keeps GMT in December: 07:05 there is +00:00; +01:00 lands at 06:05 London time,
    # which no reading of "lands 7:05am london time" is
    verdict = judge("flight to london friday 6:30pm, lands 7:05am london time saturday",
                    create(title="Flight to London", start="2026-12-04T18:30:00", end=end,
                           end_timezone="Europe/London"))
    assert [f.type for f in verdict.findings if f.severity == "error"] == errors
    if not errors:
        assert verdict.valid and not verdict.llm_needed


def test_a_landing_time_with_no_zone_said_may_be_the_destinations_clock() -> None:
    # "lands 2:05pm sat" at Heathrow is 06:05 in Los Angeles: never proven wrong on the home clock
    case = {"id": "t", "user_message": "flight SFO to heathrow fri 11 dec, leaves 7:40pm lands 2:05pm sat",
            "now": "2026-12-01T12:00:00", "timezone": "America/Los_Angeles", "home_address": "1 Elm St",
            "calendar": [], "tool_calls": [create(title="Flight to London", start="2026-12-11T19:40:00",
                                                  end="2026-12-12T14:05:00+00:00",
                                                  timezone="America/Los_Angeles", end_timezone="Europe/London")]}
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    assert verdict.valid and verdict.llm_needed, verdict.findings


@pytest.mark.parametrize("end, errors", [("2026-11-01T07:40:00+04:00", []), ("2026-11-01T08:40:00+04:00", ["time"])])
def test_an_end_on_a_citys_clock_is_read_on_the_day_it_is_reached_not_with_todays_offset(end: str,
                                                                                        errors: list[str]) -> None:
    """Said on 20 October in London (BST); the flight leaves on the 31st, after the UK's clocks
    went back: 07:40 in Dubai is 03:40 in London then, not 04:40."""
    message = "flight to dubai sat 31 oct, from heathrow, departs 21:05, lands 07:40 dubai time"
    case = {"id": "t", "user_message": message,
            "now": "2026-10-20T21:00:00", "timezone": "Europe/London", "home_address": "1 High St", "calendar": [],
            "tool_calls": [create(title="Flight to Dubai", start="2026-10-31T21:05:00+00:00", end=end,
                                  timezone="Europe/London", end_timezone="Asia/Dubai")]}
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    assert [f.type for f in verdict.errors] == errors, verdict.findings
