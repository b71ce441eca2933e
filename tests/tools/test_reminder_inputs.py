"""The tools refuse reminders and end zones they cannot write, naming the field, and write
nothing (issue 26): a reminder is 0 to 40320 whole minutes before the start, at most five; an end
zone is a known IANA zone. A zone equal to the start's is the same as none."""
from __future__ import annotations

from typing import Any

import pytest
from conftest import make_context

from tools.backends.local import LocalBackend
from tools.context import ToolCall
from tools.registry import ToolRegistry

START = {"title": "Dentist", "start": "2025-10-24T09:00:00"}


@pytest.mark.parametrize(("field", "value"), [
    ("reminders", [-5]), ("reminders", [40321]), ("reminders", [1, 2, 3, 4, 5, 6]),
    ("reminders", [True]), ("reminders", ["30"]), ("reminders", 30), ("end_timezone", "Mars/Olympus"),
])
def test_a_reminder_or_end_zone_that_cannot_be_written_is_refused_and_nothing_is_written(
        local: LocalBackend, field: str, value: Any) -> None:
    reg = ToolRegistry(make_context(local, None))
    result = reg.run(ToolCall("c1", "create_calendar_event", {**START, field: value}))
    assert result.is_error and field in result.text
    assert local.all_records() == {}
    made = reg.run(ToolCall("c2", "create_calendar_event", START))
    before = local.all_records()
    result = reg.run(ToolCall("c3", "update_calendar_event", {"event_id": made.data["id"], field: value}))
    assert result.is_error and field in result.text
    assert local.all_records() == before


def test_an_end_zone_that_is_the_start_zone_is_no_end_zone(local: LocalBackend) -> None:
    reg = ToolRegistry(make_context(local, None))
    made = reg.run(ToolCall("c1", "create_calendar_event", {
        **START, "timezone": "Europe/London", "end_timezone": "Europe/London"}))
    assert not made.is_error and "end_timezone" not in made.data
    same = reg.run(ToolCall("c2", "create_calendar_event", {**START, "reminders": [30, 30, 5]}))
    assert same.data["reminders"] == [5, 30]  # each once, in order
