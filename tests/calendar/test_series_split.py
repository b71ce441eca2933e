"""The rules of a split series (tools.calendar.series_split), apart from any backend."""
from __future__ import annotations

from datetime import date, datetime, timedelta

import pytest

from tools.calendar.events import Event, EventFieldError, zone
from tools.calendar.series_split import follow_weekday, following_rule, kept_rule, moved_rule

LA = zone("America/Los_Angeles")


def _series(rule: str, start: datetime | date = datetime(2026, 9, 1, 17, tzinfo=LA)) -> Event:
    end = start + (timedelta(hours=1) if isinstance(start, datetime) else timedelta(days=1))
    return Event(id="evp", title="Piano", start=start, end=end, all_day=not isinstance(start, datetime),
                 timezone="America/Los_Angeles", recurrence=(rule,))


def test_the_old_part_ends_with_its_last_occurrence_before_the_split_in_utc() -> None:
    split = datetime(2027, 1, 5, 17, tzinfo=LA)
    assert kept_rule(_series("RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=40"), split) == \
        ("RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20261230T010000Z",)  # December 29, 5 PM in LA


def test_an_all_day_series_ends_on_a_date() -> None:
    assert kept_rule(_series("RRULE:FREQ=WEEKLY", date(2026, 9, 7)), date(2026, 9, 21)) == \
        ("RRULE:FREQ=WEEKLY;UNTIL=20260914",)


def test_the_new_part_keeps_only_the_lessons_left_and_its_day_follows_the_start() -> None:
    series = _series("RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=10")
    # split at the 6th lesson, moved two days later: 5 lessons left, on Thursdays
    assert following_rule(series, datetime(2026, 10, 6, 17, tzinfo=LA), timedelta(days=2)) == \
        ("RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=5",)


def test_a_later_time_moves_the_until_with_it() -> None:
    series = _series("RRULE:FREQ=WEEKLY;UNTIL=20270601T000000Z")
    assert following_rule(series, datetime(2027, 1, 5, 17, tzinfo=LA), timedelta(hours=2)) == \
        ("RRULE:FREQ=WEEKLY;UNTIL=20270601T020000Z",)


def test_every_weekday_the_rule_names_moves_with_the_start() -> None:
    assert follow_weekday("MO,WE,FR", -1) == "SU,TU,TH"
    assert moved_rule(("RRULE:FREQ=WEEKLY;BYDAY=TU",), date(2026, 9, 1), date(2026, 9, 3)) == \
        ("RRULE:FREQ=WEEKLY;BYDAY=TH",)
    assert moved_rule(("RRULE:FREQ=WEEKLY;BYDAY=TU",), date(2026, 9, 1), date(2026, 9, 8)) is None


@pytest.mark.parametrize("rule", ["RRULE:FREQ=MONTHLY;BYDAY=2TU", "RRULE:FREQ=MONTHLY;BYMONTHDAY=1"])
def test_a_day_that_cannot_follow_the_start_is_refused(rule: str) -> None:
    with pytest.raises(EventFieldError):
        moved_rule((rule,), date(2026, 9, 1), date(2026, 9, 3))


def test_the_until_takes_the_form_of_the_new_series_start() -> None:
    """A timed series turned all-day from one occurrence on ends on a date; an all-day one turned
    timed ends at the end of its last day, in UTC (RFC 5545 pairs UNTIL with DTSTART's type)."""
    from tools.calendar.series_split import until_as

    assert until_as(("RRULE:FREQ=WEEKLY;UNTIL=20270602T045959Z",), True, LA) == \
        ("RRULE:FREQ=WEEKLY;UNTIL=20270601",)  # 9:59 PM on June 1 in Los Angeles
    assert until_as(("RRULE:FREQ=WEEKLY;UNTIL=20270601",), False, LA) == \
        ("RRULE:FREQ=WEEKLY;UNTIL=20270602T065959Z",)
    assert until_as(("RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE:20270105"), True, LA) == \
        ("RRULE:FREQ=WEEKLY;COUNT=3", "EXDATE:20270105")
