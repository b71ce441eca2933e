"""Words that say which event is meant, read whole (fixtures/heldout9, run once before these
were fixed): a day said after the event's name when the message then says which day it goes to
("the dentist on the 14th to the 21st") tells two events of one name apart; "w/" inside a name
("facetime w/ grandpa") is "with", not a list of two events."""
from __future__ import annotations

from typing import Any

from reflection.case import case_from_json
from reflection.findings import Verdict
from reflection.guard import Guard

BERLIN = "Europe/Berlin"


def judge(message: str, now: str, calendar: list[dict[str, Any]], *calls: dict[str, Any]) -> Verdict:
    case = {"id": "t", "user_message": message, "now": now, "timezone": BERLIN, "home_address": "Hauptstr. 1",
            "backend": "local",
            "calendar": calendar, "tool_calls": list(calls)}
    return Guard(mode="symbolic").judge(case_from_json(case)).verdict


def event(event_id: str, title: str, start: str, end: str) -> dict[str, Any]:
    return {"id": event_id, "title": title, "start": start, "end": end, "timezone": BERLIN}


def update(event_id: str, start: str, end: str) -> dict[str, Any]:
    return {"name": "update_calendar_event", "input": {"event_id": event_id, "start": start, "end": end}}


DENTISTS = [event("ev_dj", "Dentist - Jana", "2027-01-14T08:30:00+01:00", "2027-01-14T09:00:00+01:00"),
            event("ev_de", "Dentist - Emil", "2027-01-28T14:00:00+01:00", "2027-01-28T14:30:00+01:00")]
MOVE = "move the dentist on the 14th to the 21st"
NOW = "2027-01-06T10:00:00"


def test_the_other_dentist_moved_is_proven_the_wrong_event() -> None:
    verdict = judge(MOVE, NOW, DENTISTS, update("ev_de", "2027-01-21T14:00:00+01:00", "2027-01-21T14:30:00+01:00"))
    assert [f.type for f in verdict.errors] == ["event_id"], verdict.findings
    assert "Dentist - Jana" in verdict.errors[0].issue and "the 14th" in verdict.errors[0].issue


def test_the_dentist_on_the_14th_moved_to_the_21st_is_right() -> None:
    verdict = judge(MOVE, NOW, DENTISTS, update("ev_dj", "2027-01-21T08:30:00+01:00", "2027-01-21T09:00:00+01:00"))
    assert verdict.valid, verdict.findings


def test_no_dentist_on_that_day_proves_nothing_about_which_one() -> None:
    """Then the words mean something the day does not settle: no event is ruled out by it."""
    only_emil = [DENTISTS[1], event("ev_dm", "Dentist - Mia", "2027-01-20T10:00:00+01:00",
                                    "2027-01-20T10:30:00+01:00")]
    verdict = judge(MOVE, NOW, only_emil, update("ev_de", "2027-01-21T14:00:00+01:00", "2027-01-21T14:30:00+01:00"))
    assert not [f for f in verdict.errors if f.type == "event_id"], verdict.findings


FACETIME = [event("ev_ft", "FaceTime w/ Grandpa Ray", "2027-01-09T17:00:00+01:00", "2027-01-09T17:30:00+01:00"),
            event("ev_pta", "PTA meeting", "2027-01-06T18:30:00+01:00", "2027-01-06T20:00:00+01:00")]


def test_an_hour_earlier_that_moves_only_the_start_of_one_named_event_is_proven() -> None:
    """One event named in two pieces of its title is one event: the shift keeps its length."""
    verdict = judge("make the facetime w/ grandpa an hour earlier pls", "2027-01-04T09:00:00", FACETIME,
                    {"name": "update_calendar_event", "input": {"event_id": "ev_ft",
                                                                "start": "2027-01-09T16:00:00+01:00"},
                     "result": {**FACETIME[0], "start": "2027-01-09T16:00:00+01:00"}})  # the end stayed
    assert [f.type for f in verdict.errors] == ["time"], verdict.findings


def test_an_hour_earlier_moving_start_and_end_is_right() -> None:
    verdict = judge("make the facetime w/ grandpa an hour earlier pls", "2027-01-04T09:00:00", FACETIME,
                    update("ev_ft", "2027-01-09T16:00:00+01:00", "2027-01-09T16:30:00+01:00"))
    assert verdict.valid and not verdict.llm_needed, verdict.findings
