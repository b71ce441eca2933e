"""Words the person took back in the same message are not read (`reflection.reading.corrections`)."""
from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from reflection.dates.resolver import Resolution, resolve
from reflection.reading.corrections import without_withdrawn

NOW = datetime(2026, 6, 8, 8, 0)  # a Monday


def _resolve(text: str) -> Resolution:
    return resolve(text, NOW, "Asia/Tokyo")


@pytest.mark.parametrize("message, kept, gone", [
    ("move swim to wed, no wait, thursday", "thursday", "wed"),
    ("cancel the 3pm, sorry i mean the 4pm", "4pm", "3pm"),
    ("move standup to 9:30 just this once, actually no, from now on", "from now on", "once"),
    ("dinner friday at 7, actually no, saturday at 7", "saturday at 7", "friday"),
    ("lunch on the 12th - i mean the 13th", "13th", "12th"),
])
def test_a_withdrawn_date_or_scope_is_blanked_and_its_replacement_kept(message: str, kept: str, gone: str) -> None:
    said = without_withdrawn(message, _resolve)
    assert len(said) == len(message) and kept in said and gone not in said
    assert said.index(kept) == message.rindex(kept)  # every index still points at its word


@pytest.mark.parametrize("message", ["no dinner friday, actually can you add lunch",
                                     "move it to friday, i mean it",
                                     "dinner at 7, make that 2 hours"])
def test_a_correction_that_replaces_no_date_or_scope_changes_nothing(message: str) -> None:
    assert without_withdrawn(message, _resolve) == message


def _case(message: str, *calls: dict[str, Any]) -> dict[str, Any]:
    tz = "Asia/Tokyo"
    return {"id": "t", "user_message": message, "now": "2026-06-08T08:00:00", "timezone": tz,
            "home_address": "1-2-3 Meguro", "tool_calls": list(calls), "calendar": [
                {"id": "ev_swim", "title": "Swim lesson", "start": "2026-06-09T16:00:00+09:00",
                 "end": "2026-06-09T17:00:00+09:00", "all_day": False, "timezone": tz, "location": None,
                 "description": None, "attendees": [], "recurrence": None},
                {"id": "ev_stand", "title": "Standup", "start": "2026-01-05T09:00:00+09:00",
                 "end": "2026-01-05T09:15:00+09:00", "all_day": False, "timezone": tz, "location": None,
                 "description": None, "attendees": [], "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"]}]}


def _judge(message: str, *calls: dict[str, Any]) -> Any:
    from reflection.case import case_from_json
    from reflection.guard import Guard

    return Guard(mode="symbolic").judge(case_from_json(_case(message, *calls))).verdict


def test_a_move_to_the_withdrawn_day_is_proven_wrong_and_to_the_replacement_right() -> None:
    message = "move swim to wed, no wait, thursday"
    wrong = _judge(message, {"name": "update_calendar_event", "input": {
        "event_id": "ev_swim", "start": "2026-06-10T16:00:00+09:00", "end": "2026-06-10T17:00:00+09:00"}})
    assert [e.type for e in wrong.errors] == ["date"]
    right = _judge(message, {"name": "update_calendar_event", "input": {
        "event_id": "ev_swim", "start": "2026-06-11T16:00:00+09:00", "end": "2026-06-11T17:00:00+09:00"}})
    assert right.valid and not right.errors


def test_one_occurrence_changed_for_a_withdrawn_just_this_once_is_a_scope_error() -> None:
    verdict = _judge("move standup to 9:30 just this once, actually no, from now on",
                     {"name": "update_calendar_event", "input": {
                         "event_id": "ev_stand_20260608T000000Z", "scope": "occurrence",
                         "start": "2026-06-08T09:30:00+09:00", "end": "2026-06-08T09:45:00+09:00"}})
    assert not verdict.valid and verdict.errors


@pytest.mark.parametrize("message", ["swim tuesday at 5, no wait make it 4", "swim tuesday at 5 - sorry i mean 4",
                                     "swim tuesday at 5... actually no, 4"])
def test_a_bare_clock_number_after_a_withdrawn_time_is_the_new_time(message: str) -> None:
    """"make it 4" is read where it stands as "at 4" (04:00 or 16:00); the withdrawn "5" goes,
    the day said with it stays."""
    said = without_withdrawn(message, _resolve)
    assert len(said) == len(message) and "5" not in said and "tuesday" in said
    spans = [(e.kind, [c.start.hour for c in e.candidates]) for e in _resolve(said).expressions
             if e.kind in ("time", "datetime")]
    assert spans == [("datetime", [4, 16])], spans


def test_the_withdrawn_time_written_is_proven_wrong_and_the_replacement_right() -> None:
    message = "put swim tuesday at 5, no wait, make it 4"

    def move(hour: int) -> dict[str, Any]:
        return {"name": "update_calendar_event", "input": {
            "event_id": "ev_swim", "start": f"2026-06-09T{hour}:00:00", "end": f"2026-06-09T{hour + 1}:00:00"}}
    assert [f.type for f in _judge(message, move(17)).errors] == ["time"]
    assert not _judge(message, move(16)).errors


SCRATCHED = "move swim to friday 3pm... actually scratch that, just cancel it, coach is sick"


def test_a_move_taken_back_for_a_delete_leaves_the_name_and_blanks_where_it_went() -> None:
    said = without_withdrawn(SCRATCHED, _resolve)
    assert len(said) == len(SCRATCHED) and "swim" in said and "cancel it" in said
    assert "move" not in said and "friday" not in said and "3pm" not in said


def test_the_withdrawn_move_made_is_never_verified_and_the_delete_is_right() -> None:
    moved = _judge(SCRATCHED, {"name": "update_calendar_event", "input": {
        "event_id": "ev_swim", "start": "2026-06-12T15:00:00", "end": "2026-06-12T16:00:00"}})
    assert moved.llm_needed or moved.errors, moved
    deleted = _judge(SCRATCHED, {"name": "delete_calendar_event", "input": {"event_id": "ev_swim"}})
    assert deleted.valid and not deleted.errors, deleted
