"""Symbolic checks the corpus leaves out: recurrence rules, Google id rules, impossible dates,
all-day ends, durations, and the facts handed to the reflection model."""
from __future__ import annotations

from typing import Any

from reflection.case import case_from_json
from reflection.symbolic import check_symbolic

TZ = "America/Los_Angeles"
CAL = [{"id": "abcde12345", "title": "Piano lesson", "start": "2025-10-21T15:00:00-07:00",
        "end": "2025-10-21T15:30:00-07:00", "timezone": TZ, "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=TU"]},
       {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
        "end": "2025-10-21T17:45:00-07:00", "timezone": TZ}]


def check(message: str, calls: list[dict[str, Any]], backend: str = "local"):  # type: ignore[no-untyped-def]
    return check_symbolic(case_from_json({
        "user_message": message, "now": "2025-10-20T08:00:00", "timezone": TZ,
        "home_address": "77 Cedar Ln", "calendar": CAL, "tool_calls": calls, "backend": backend}))


def create(**inp: Any) -> dict[str, Any]:
    return {"name": "create_calendar_event", "input": {"title": "X", **inp}}


def error_types(result: Any) -> list[str]:
    return sorted(f.type for f in result.findings if f.is_error)


def test_every_other_tuesday_needs_interval_two() -> None:
    wrong = check("add chess club every other Tuesday at 4pm",
                  [create(start="2025-10-21T16:00:00", recurrence="RRULE:FREQ=WEEKLY;BYDAY=TU")])
    assert error_types(wrong) == ["date"] and "Tue Oct 28" in wrong.findings[0].issue
    right = check("add chess club every other Tuesday at 4pm",
                  [create(start="2025-10-21T16:00:00", recurrence="RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU")])
    assert error_types(right) == []


def test_google_id_rules() -> None:
    bad = check("cancel piano lesson",
                [{"name": "delete_calendar_event", "input": {"event_id": "ABCDE12345"}}], "google")
    assert error_types(bad) == ["event_id"] and "a-v" in bad.findings[0].issue
    # "on Tuesday" said on Monday 2025-10-20 is the 21st (CONTRACT 4): its occurrence, by its Google id
    instance = check("cancel piano lesson on Tuesday",
                     [{"name": "delete_calendar_event", "input": {"event_id": "abcde12345_20251021T220000Z"}}],
                     "google")
    assert error_types(instance) == []
    not_an_occurrence = check("cancel piano lesson",
                              [{"name": "delete_calendar_event",
                                "input": {"event_id": "abcde12345_20251029T220000Z"}}], "google")
    assert error_types(not_an_occurrence) == ["event_id"]


def test_impossible_date_is_an_error_when_something_was_written() -> None:
    result = check("add dentist on February 30 at 3pm", [create(start="2026-03-02T15:00:00")])
    assert error_types(result) == ["date"] and "impossible" in result.findings[0].issue


def test_all_day_end_must_be_exclusive_and_through_includes_the_day() -> None:
    same = check("add school holiday on November 5", [create(start="2025-11-05", end="2025-11-05", all_day=True)])
    assert error_types(same) == ["date"]
    through = check("add grandma's visit from November 3 through November 5",
                    [create(start="2025-11-03", end="2025-11-05", all_day=True)])
    assert "date" in error_types(through)
    ok = check("add grandma's visit from November 3 through November 5",
               [create(start="2025-11-03", end="2025-11-06", all_day=True)])
    assert error_types(ok) == []


def test_duration_phrase_sets_the_end() -> None:
    wrong = check("add a run on November 5 at 7am for 45 minutes",
                  [create(start="2025-11-05T07:00:00", end="2025-11-05T08:00:00")])
    assert error_types(wrong) == ["time"]
    right = check("add a run on November 5 at 7am for 45 minutes",
                  [create(start="2025-11-05T07:00:00", end="2025-11-05T07:45:00")])
    assert error_types(right) == []


def test_a_correct_time_written_in_utc_passes() -> None:
    result = check("add dentist on November 5 at 3pm", [create(start="2025-11-05T23:00:00Z")])
    assert error_types(result) == []


def test_am_pm_swap_is_named() -> None:
    result = check("add dinner on November 5 at 7pm", [create(start="2025-11-05T07:00:00")])
    assert error_types(result) == ["time"] and "AM and PM" in result.findings[0].issue


def test_facts_give_weekdays_and_readings() -> None:
    result = check("move swim lesson to next Friday",
                   [{"name": "update_calendar_event",
                     "input": {"event_id": "ev_swim1", "start": "2025-10-31T17:00:00"}}])
    statements = " | ".join(f.statement for f in result.facts)
    assert "2025-10-31T17:00:00 is a Friday" in statements
    assert "'next Friday' means" in statements
    assert "ev_swim1 is 'Swim lesson'" in statements


def test_a_time_without_a_date_is_corrected_on_the_events_own_day() -> None:
    """'move the swim lesson to 6pm' written as 06:00: the correction must name the lesson's own
    day (Tuesday), not today, or the retry would move it to the wrong date."""
    result = check("move the swim lesson to 6pm",
                   [{"name": "update_calendar_event",
                     "input": {"event_id": "ev_swim1", "start": "2025-10-21T06:00:00"}}])
    finding = next(f for f in result.findings if f.is_error)
    assert finding.type == "time"
    assert finding.correction == "use Tuesday 2025-10-21 18:00"
    assert "Monday" not in finding.issue


def test_an_explicit_zone_is_described_with_its_own_clock() -> None:
    result = check("add a call on November 5 at 3pm Eastern", [create(start="2025-11-05T15:00:00")])
    finding = next(f for f in result.findings if f.is_error)
    assert finding.type == "timezone"
    assert finding.correction == "use Wednesday 2025-11-05 12:00 (15:00 America/New_York)"
