"""A long-running daily or weekly series is expanded from near the window asked, not from its
first start years back (tools.calendar.occurrences._leap), and the occurrences are the same."""
from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.calendar import occurrences as occ
from tools.calendar.events import Event

ZONES = ["America/Los_Angeles", "Europe/London", "Australia/Sydney", "UTC"]
RULES = ["RRULE:FREQ=WEEKLY", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
         "RRULE:FREQ=DAILY", "RRULE:FREQ=DAILY;INTERVAL=3", "RRULE:FREQ=WEEKLY;UNTIL=20290101T000000Z",
         "RRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU;WKST=SU", "RRULE:FREQ=DAILY;COUNT=900",
         "RRULE:FREQ=MONTHLY;BYMONTHDAY=31"]


def _series(rule: str, zone: str, first: datetime, minutes: int) -> Event:
    start = first.replace(tzinfo=ZoneInfo(zone))
    return Event(id="evlong", title="Lesson", start=start, end=start + timedelta(minutes=minutes),
                 timezone=zone, recurrence=(rule,))


@pytest.mark.slow  # a property test
@settings(max_examples=150)
@given(rule=st.sampled_from(RULES), zone=st.sampled_from(ZONES),
       first_day=st.integers(0, 700), hour=st.integers(0, 23), minutes=st.sampled_from([30, 90, 600]),
       later=st.integers(0, 2200), span=st.integers(1, 40))
def test_a_window_years_after_the_first_start_gets_the_same_occurrences(
        rule: str, zone: str, first_day: int, hour: int, minutes: int, later: int, span: int) -> None:
    series = _series(rule, zone, datetime(2022, 1, 1, hour, 30) + timedelta(days=first_day), minutes)
    start = datetime(2022, 1, 1, tzinfo=ZoneInfo("UTC")) + timedelta(days=first_day + later, hours=7)
    end = start + timedelta(days=span)
    leaped = occ.occurrences(series, start, end)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(occ, "LEAP_AFTER", timedelta(days=10**6))  # from the first start, as before
        m.setattr(occ, "_EXPANSIONS", type(occ._EXPANSIONS)())
        walked = occ.occurrences(series, start, end)
    assert leaped == walked


def test_a_weekly_series_begun_three_years_ago_is_expanded_from_near_the_window() -> None:
    series = _series("RRULE:FREQ=WEEKLY;BYDAY=TU", "America/Los_Angeles", datetime(2023, 9, 5, 17), 60)
    window = datetime(2026, 11, 24, tzinfo=ZoneInfo("America/Los_Angeles"))
    first = occ._leap(series, series.start, window)  # type: ignore[arg-type]
    assert first.weekday() == 1 and first.hour == 17  # still a Tuesday at 5 PM, wall clock
    assert timedelta(0) < window - first <= timedelta(days=91 * 2)


def test_a_count_or_monthly_rule_is_always_expanded_from_its_first_start() -> None:
    window = datetime(2026, 11, 24, tzinfo=ZoneInfo("UTC"))
    for rule in ("RRULE:FREQ=DAILY;COUNT=2000", "RRULE:FREQ=MONTHLY;BYMONTHDAY=31"):
        series = _series(rule, "UTC", datetime(2023, 1, 31, 9), 60)
        assert occ._leap(series, series.start, window) == series.start  # type: ignore[arg-type]
