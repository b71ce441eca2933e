"""Places the message gives that the home address is not (fixtures/heldout9, deferred before
these were read): a street address ("at 22 oak road"), "same place" (where the event is now),
and a business typed in lower case whose name starts with "home" ("home sweet home bakery")."""
from __future__ import annotations

from typing import Any

import pytest

from reflection.case import case_from_json
from reflection.findings import Verdict
from reflection.guard import Guard

LONDON = "Europe/London"
HOME = "14 Mill Lane, Bristol BS3 4HQ"


def judge(message: str, *calls: dict[str, Any], calendar: list[dict[str, Any]] | None = None,
          home: str = HOME) -> Verdict:
    case = {"id": "t", "user_message": message, "now": "2027-01-04T09:00:00", "timezone": LONDON,
            "home_address": home, "backend": "local", "calendar": calendar or [], "tool_calls": list(calls)}
    return Guard(mode="symbolic").judge(case_from_json(case)).verdict


def create(location: str) -> dict[str, Any]:
    return {"name": "create_calendar_event", "input": {
        "title": "Oscar's party", "start": "2027-01-09T14:00:00+00:00", "end": "2027-01-09T16:00:00+00:00",
        "location": location}}


PARTY = "alfie's invited to oscar's party at 22 oak road saturday 2-4, pls add"


def location_errors(verdict: Verdict) -> list[str]:
    return [f.issue for f in verdict.errors if f.type == "location"]


def test_the_home_address_written_for_a_street_address_said_is_proven_wrong() -> None:
    errors = location_errors(judge(PARTY, create(HOME)))
    assert len(errors) == 1 and "22 oak road" in errors[0], errors


def test_the_street_address_said_written_is_right() -> None:
    assert not location_errors(judge(PARTY, create("22 Oak Road, Bristol")))


def test_a_street_address_that_is_the_home_is_not_another_place() -> None:
    assert not location_errors(judge(PARTY, create("22 Oak Rd, Bristol BS3 1AA"), home="22 Oak Rd, Bristol BS3 1AA"))


PLAYDATE = {"id": "ev_play", "title": "Playdate w/ the Garcias", "start": "2027-01-05T10:00:00+00:00",
            "end": "2027-01-05T11:30:00+00:00", "timezone": LONDON, "location": "19 Elm St, Bristol BS3 2AB"}


def moved(**extra: Any) -> dict[str, Any]:
    return {"name": "update_calendar_event", "input": {
        "event_id": "ev_play", "start": "2027-01-09T10:00:00+00:00", "end": "2027-01-09T11:30:00+00:00", **extra}}


def test_same_place_with_another_place_written_is_proven_wrong() -> None:
    errors = location_errors(judge("playdate w the garcias -> saturday 10am, same place",
                                   moved(location=HOME), calendar=[PLAYDATE]))
    assert len(errors) == 1 and "same place" in errors[0] and "19 Elm St" in errors[0], errors


def test_same_place_written_again_is_right() -> None:
    verdict = judge("playdate w the garcias -> saturday 10am, same place",
                    moved(location="19 Elm St, Bristol BS3 2AB"), calendar=[PLAYDATE])
    assert verdict.valid, verdict.findings


def test_the_same_place_said_more_fully_is_not_proven_another() -> None:
    verdict = judge("playdate w the garcias -> saturday 10am, same place but the back garden gate",
                    moved(location="19 Elm St (back garden gate), Bristol"), calendar=[PLAYDATE])
    assert not location_errors(verdict), verdict.findings


def test_same_place_as_another_event_is_not_where_this_one_is() -> None:
    verdict = judge("playdate w the garcias -> saturday 10am, same place as swimming",
                    moved(location="Jubilee Pool, Bristol"), calendar=[PLAYDATE])
    assert not location_errors(verdict), verdict.findings


def test_a_bakery_whose_name_starts_with_home_is_not_home() -> None:
    errors = location_errors(judge("put in the cake pickup at home sweet home bakery wednesday at noon",
                                   create(HOME)))
    assert len(errors) == 1 and "home sweet home bakery" in errors[0], errors


def test_work_from_home_coffee_is_not_a_business() -> None:
    verdict = judge("add a work from home coffee chat with sam saturday 2-4", create(HOME))
    assert not location_errors(verdict), verdict.findings


PUB = {**PLAYDATE, "location": "The Old Bell, 14 High St, Hurstpierpoint"}


@pytest.mark.parametrize("written, wrong", [("The Old Bell, 2 Church St, Hertford SG14 1AB", True),
                                            ("The Old Bell, 14 High Street, Hurstpierpoint BN6 9TY", False)])
def test_a_place_of_the_same_name_on_another_street_is_not_the_same_place(written: str, wrong: bool) -> None:
    verdict = judge("playdate w the garcias -> saturday 10am, same place", moved(location=written), calendar=[PUB])
    assert bool(location_errors(verdict)) is wrong, verdict.findings
