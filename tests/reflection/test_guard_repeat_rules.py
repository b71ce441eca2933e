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


@pytest.mark.parametrize("rule, errors", [("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SA;COUNT=6", []),
                                          ("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SA;UNTIL=20270123", []),
                                          ("RRULE:FREQ=WEEKLY;BYDAY=SA;COUNT=6", ["date"])])
def test_a_rule_that_ends_sooner_on_the_same_days_is_for_judgement_not_proven(rule: str, errors: list[str]) -> None:
    """"6 classes total" is an end the rule reading does not hold: the same every-other-Saturday
    days ending after six are left for judgement; weekly Saturdays are still proven wrong."""
    case = _case("english class every other saturday 10am starting december 5, 6 classes total",
                 "2026-12-05T10:00:00", rule)
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    assert [f.type for f in verdict.errors] == errors, verdict.findings
    assert verdict.llm_needed


@pytest.mark.parametrize("rule, errors", [("RRULE:FREQ=WEEKLY;BYDAY=SU;UNTIL=20270123T235959Z", ["date"]),
                                          ("RRULE:FREQ=WEEKLY;BYDAY=SA;UNTIL=20270123T235959Z", [])])
def test_a_rule_with_an_until_in_utc_is_read(rule: str, errors: list[str]) -> None:
    """Google writes UNTIL in UTC ("...Z"): such a rule is compared like any other."""
    case = _case("swim every saturday at 9am from december 5", "2026-12-05T09:00:00", rule)
    assert [e.split(":")[0] for e in _errors(case)] == errors


def test_a_rule_that_cannot_be_read_is_never_verified() -> None:
    case = _case("swim every saturday at 9am from december 5", "2026-12-05T09:00:00", "RRULE:FREQ=SOMETIMES")
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    assert verdict.llm_needed and "the repeat rule written could not be read" in verdict.doubts, verdict


def test_a_rule_is_expanded_on_its_own_clock_and_seen_on_the_one_spoken_of() -> None:
    """Monday 19:00 in Chicago is Tuesday morning in Kolkata; on Chicago's clock it is Monday."""
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from reflection.checks.rules import days_seen_in
    start = datetime(2026, 1, 12, 19, 0, tzinfo=ZoneInfo("America/Chicago"))
    rule = "RRULE:FREQ=WEEKLY;BYDAY=MO"
    assert {d.weekday() for d in days_seen_in(rule, start, ZoneInfo("America/Chicago")) or []} == {0}
    assert {d.weekday() for d in days_seen_in(rule, start, ZoneInfo("Asia/Kolkata")) or []} == {1}


def test_a_weekly_class_on_a_far_citys_clock_is_judged_on_that_clock() -> None:
    """Said in Kolkata: "mondays 7pm chicago time, weekly" written as Chicago Mondays is right."""
    case = {"id": "r", "user_message": "kids online maths class is mondays 7pm chicago time, weekly, starting "
            "next monday. add it pls, 1 hr", "now": "2026-01-07T21:30:00", "timezone": "Asia/Kolkata",
            "home_address": "1 MG Road", "calendar": [],
            "tool_calls": [{"name": "create_calendar_event", "input": {
                "title": "Online maths", "start": "2026-01-12T19:00:00-06:00", "end": "2026-01-12T20:00:00-06:00",
                "timezone": "America/Chicago", "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=MO"]}}]}
    assert _errors(case) == []


@pytest.mark.parametrize("rule", ["RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "RRULE:FREQ=YEARLY"])
def test_a_day_of_the_month_said_beside_another_month_leaves_a_yearly_rule_for_judgement(rule: str) -> None:
    """"ellies bday is feb 29 lol. put it in every year, on normal years we do the 28th": "the 28th"
    is February's here, not the next 28th; neither rule is proven wrong."""
    case = {"id": "r", "user_message": "ellies bday is feb 29 lol. put it in every year, on normal years we do "
            "the 28th", "now": "2027-01-15T21:00:00", "timezone": "America/Chicago", "home_address": "1 Elm St",
            "calendar": [], "tool_calls": [{"name": "create_calendar_event", "input": {
                "title": "Ellie's birthday", "start": "2027-02-28", "end": "2027-03-01", "all_day": True,
                "recurrence": [rule]}}]}
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    assert not verdict.errors and verdict.llm_needed, verdict.findings


@pytest.mark.parametrize("rule, errors", [("RRULE:FREQ=MONTHLY;BYMONTHDAY=-1", False),
                                          ("RRULE:FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1", False),
                                          ("RRULE:FREQ=MONTHLY;BYMONTHDAY=30", True),
                                          ("RRULE:FREQ=MONTHLY", True)],
                         ids=["last-day", "last-of-set", "the-30th", "start-day"])
def test_the_last_day_of_every_month_holds_each_month_s_last_day(rule: str, errors: bool) -> None:
    """Started on November 30, a rule on the 30th or on its start's day misses December 31 and
    February: only a rule on each month's last day is what was said."""
    case = _case("put rent on the last day of every month at 9am", "2026-11-30T09:00:00", rule)
    assert any(e.startswith("date") for e in _errors(case)) is errors


def test_weekdays_listed_without_commas_are_each_a_day_of_the_repeat() -> None:
    case = _case("gym every mon wed fri at 6am", "2026-11-27T06:00:00", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR")
    assert _errors(case) == []
    wrong = _case("gym every mon wed fri at 6am", "2026-11-27T06:00:00", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR")
    assert any(e.startswith("date") for e in _errors(wrong))


@pytest.mark.parametrize("start, wrong", [("2026-11-20T17:00:00", True), ("2026-11-27T17:00:00", False)],
                         ids=["fourth-friday", "last-friday"])
def test_a_series_started_on_a_day_its_said_rule_never_gives_is_wrong(start: str, wrong: bool) -> None:
    """RFC 5545 counts the first start as an occurrence whatever the rule: begun on the fourth
    Friday, "last friday of every month" gets a gathering on a day it never meant."""
    case = _case("work drinks last friday of every month 5-7pm, add it", start, "RRULE:FREQ=MONTHLY;BYDAY=-1FR")
    assert any(e.startswith("date") for e in _errors(case)) is wrong


@pytest.mark.parametrize("start, wrong", [("2026-11-29T06:00:00", True), ("2026-11-29T18:00:00", False)],
                         ids=["6am", "6pm"])
def test_weekdays_said_beside_a_repeat_are_its_days_not_words_left_unread(start: str, wrong: bool) -> None:
    """"every 2 weeks, sundays 6pm": the Sundays are the repeat's days, so the clock beside them
    is read, and 6am for 6pm is proven."""
    case = _case("family video call w nana every 2 weeks, sundays 6pm, starting this sunday", start,
                 "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=SU")
    assert any(e.startswith("time") for e in _errors(case)) is wrong
