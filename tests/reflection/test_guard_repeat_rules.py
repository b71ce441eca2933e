"""Repeat rules are expanded from the series' own first start (its DTSTART), never from today:
a weekly rule with no BYDAY repeats on its first start's weekday, a monthly one on its day of the
month (issue 24 item 4). Said on a Thursday, a series written for every other weekday must hold."""
from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import pytest

from reflection.case import case_from_json
from reflection.guard import Guard

NOW = "2026-11-26T08:00:00"  # a Thursday
TODAY = date(2026, 11, 26)
WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def _case(message: str, start: str, rule: str) -> dict[str, Any]:
    return {"id": "r", "user_message": message, "now": NOW, "timezone": "America/Los_Angeles",
            "home_address": "1 Elm St", "calendar": [],
            "tool_calls": [{"name": "create_calendar_event", "input": {
                "title": "Swim", "start": start, "timezone": "America/Los_Angeles", "recurrence": [rule]}}]}


def _errors(case: dict[str, Any]) -> list[str]:
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    return [f"{f.type}: {f.issue}" for f in verdict.errors]


def _next(weekday: int) -> date:
    return TODAY + timedelta(days=(weekday - TODAY.weekday()) % 7 or 7)


@pytest.mark.parametrize("weekday", range(7), ids=WEEKDAYS)
def test_a_weekly_rule_without_byday_repeats_on_its_first_start_weekday(weekday: int) -> None:
    day = _next(weekday)
    case = _case(f"swim every {WEEKDAYS[weekday]} at 9am starting {day:%B} {day.day}",
                 f"{day.isoformat()}T09:00:00", "RRULE:FREQ=WEEKLY")
    assert _errors(case) == []


@pytest.mark.parametrize("weekday", range(7), ids=WEEKDAYS)
def test_a_weekly_rule_on_another_weekday_than_asked_is_still_an_error(weekday: int) -> None:
    asked = (weekday + 2) % 7
    day = _next(weekday)
    case = _case(f"swim every {WEEKDAYS[asked]} at 9am", f"{day.isoformat()}T09:00:00", "RRULE:FREQ=WEEKLY")
    assert any(e.startswith("date") for e in _errors(case))


@pytest.mark.parametrize("day", [date(2026, 12, 31), date(2027, 1, 30), date(2027, 2, 28)],
                         ids=str)
def test_a_monthly_rule_without_bymonthday_repeats_on_its_first_start_day(day: date) -> None:
    case = _case(f"book club every month starting {day:%B} {day.day} at 7pm",
                 f"{day.isoformat()}T19:00:00", "RRULE:FREQ=MONTHLY")
    assert _errors(case) == []
