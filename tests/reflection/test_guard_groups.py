"""A delete of a group bounded by a day or a part of a day (`reflection.checks.groups`): an event
wholly outside every reading of the span is proven not asked for; events inside, or near a part
of the day's edge, never are. The cases are made up here, after heldout17's "cancel everything
on friday" and "clear my afternoon on friday"."""
from __future__ import annotations

from typing import Any

import pytest

from reflection.case import case_from_json
from reflection.findings import Verdict
from reflection.guard import Guard

LONDON = "Europe/London"
NOW = "2026-10-07T12:00:00"  # a Wednesday


def ev(event_id: str, title: str, start: str, end: str) -> dict[str, Any]:
    return {"id": event_id, "title": title, "start": start, "end": end, "timezone": LONDON}


CALENDAR = [ev("ev_hair", "Haircut", "2026-10-09T09:30:00+01:00", "2026-10-09T10:15:00+01:00"),
            ev("ev_lunch", "Lunch with Sam", "2026-10-09T12:30:00+01:00", "2026-10-09T13:30:00+01:00"),
            ev("ev_pickup", "School pickup", "2026-10-09T17:15:00+01:00", "2026-10-09T17:45:00+01:00"),
            ev("ev_class", "Evening class", "2026-10-09T17:30:00+01:00", "2026-10-09T19:00:00+01:00"),
            ev("ev_party", "Late party", "2026-10-09T23:00:00+01:00", "2026-10-10T01:00:00+01:00"),
            ev("ev_ball", "Football - George", "2026-10-10T09:00:00+01:00", "2026-10-10T10:30:00+01:00")]


def judge(message: str, *deleted: str) -> Verdict:
    case = {"id": "g", "user_message": message, "now": NOW, "timezone": LONDON, "home_address": "1 High St",
            "calendar": CALENDAR,
            "tool_calls": [{"name": "delete_calendar_event", "input": {"event_id": i}} for i in deleted]}
    return Guard(mode="symbolic").judge(case_from_json(case)).verdict


def outside(verdict: Verdict) -> list[str]:
    return [f.issue.split("deletes '")[1].split("'")[0] for f in verdict.errors if f.type == "event_id"]


def test_an_event_on_another_day_deleted_for_everything_on_friday_is_proven() -> None:
    verdict = judge("cancel everything on friday, we're off to cornwall", "ev_hair", "ev_lunch", "ev_ball")
    assert outside(verdict) == ["Football - George"], verdict.findings


def test_the_days_own_events_deleted_are_not_proven_even_one_running_past_midnight() -> None:
    verdict = judge("cancel everything on friday, we're off to cornwall", "ev_hair", "ev_lunch", "ev_party")
    assert not outside(verdict), verdict.findings


@pytest.mark.parametrize("deleted, proven", [("ev_class", ["Evening class"]), ("ev_pickup", []),
                                             ("ev_lunch", [])])
def test_clear_my_afternoon_proves_only_an_event_past_its_loose_edge(deleted: str, proven: list[str]) -> None:
    """The afternoon is 12:00-17:00 (CONTRACT 4); an event starting within half an hour of its end
    may be meant, one at 17:30 is not."""
    assert outside(judge("clear my afternoon on friday, office offsite", deleted)) == proven


def test_a_group_with_no_day_said_proves_nothing() -> None:
    assert not outside(judge("cancel everything, we're off to cornwall", "ev_ball"))
