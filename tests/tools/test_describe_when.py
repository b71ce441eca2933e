"""`describe_when` (an event's line in a tool result) reads as it did when every part went
through `strftime`: the day's names remembered per date and the clock written from its digits
give the same text for all-day and timed events, on one day or across several, in any zone."""
from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tools.calendar.events import Event, as_date, local_start_of
from tools.handlers import describe_when

ZONES = ["America/Los_Angeles", "Europe/London", "Asia/Kolkata", "Pacific/Chatham", "UTC"]


def _as_before(event: Event) -> str:
    """The text as `describe_when` wrote it with `strftime` for every part."""
    tz = event.zone
    if event.all_day:
        first, last = as_date(event.start), as_date(event.end) - timedelta(days=1)
        if last <= first:
            return f"{first:%a %Y-%m-%d} all day"
        return f"{first:%a %Y-%m-%d} to {last:%a %Y-%m-%d} all day"
    start = local_start_of(event.start, tz).astimezone(tz)
    end = local_start_of(event.end, tz).astimezone(tz)
    same_day = start.date() == end.date()
    return f"{start:%a %Y-%m-%d %H:%M}-{end:%H:%M}" if same_day else \
        f"{start:%a %Y-%m-%d %H:%M} to {end:%a %Y-%m-%d %H:%M}"


@pytest.mark.slow  # a property test
@settings(max_examples=300, deadline=None)
@given(day=st.dates(date(1, 1, 2), date(9999, 12, 1)), minutes=st.integers(0, 24 * 60 - 1),
       length=st.integers(0, 5 * 24 * 60), zone_name=st.sampled_from(ZONES),
       shown_in=st.sampled_from(ZONES), all_day=st.booleans())
def test_the_same_text_as_strftime_wrote(day: date, minutes: int, length: int, zone_name: str,
                                         shown_in: str, all_day: bool) -> None:
    if all_day:
        event = Event(id="e", title="t", start=day, end=day + timedelta(days=length // 1440),
                      all_day=True, timezone=zone_name)
    else:
        start = datetime(day.year, day.month, day.day, tzinfo=ZoneInfo(zone_name)) + \
            timedelta(minutes=minutes)
        event = Event(id="e", title="t", start=start, end=start + timedelta(minutes=length),
                      timezone=shown_in)
    assert describe_when(event) == _as_before(event)


def test_a_few_by_hand() -> None:
    la = ZoneInfo("America/Los_Angeles")
    assert describe_when(Event(id="e", title="t", start=datetime(2025, 10, 24, 9, 5, tzinfo=la),
                               end=datetime(2025, 10, 24, 17, 0, tzinfo=la),
                               timezone="America/Los_Angeles")) == "Fri 2025-10-24 09:05-17:00"
    assert describe_when(Event(id="e", title="t", start=datetime(2025, 10, 24, 23, tzinfo=la),
                               end=datetime(2025, 10, 25, 0, 30, tzinfo=la),
                               timezone="America/Los_Angeles")) == \
        "Fri 2025-10-24 23:00 to Sat 2025-10-25 00:30"
    assert describe_when(Event(id="e", title="t", start=date(2025, 10, 24), end=date(2025, 10, 27),
                               all_day=True)) == "Fri 2025-10-24 to Sun 2025-10-26 all day"
