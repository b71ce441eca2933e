"""Free-time arithmetic (tools/calendar/free_time.py): merging busy time, daily hours per local day across
daylight-saving changes, and properties every answer must have: no slot overlaps busy time, every
slot is long enough and inside the range and the day's hours, and no free stretch is missed."""
from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tools.calendar.events import Event
from tools.calendar.free_time import (
    DailyHours,
    FreeBusy,
    Interval,
    busy_interval,
    busy_intervals,
    free_slots,
    merge,
    windows,
)

LA = ZoneInfo("America/Los_Angeles")
BASE = datetime(2026, 3, 6, 0, 0, tzinfo=UTC)  # spans the spring-forward of 2026-03-08 in LA


def at(minutes: int) -> datetime:
    return BASE + timedelta(minutes=minutes)


def local(day: date, hh: int, mm: int = 0, tz: ZoneInfo = LA) -> datetime:
    return datetime.combine(day, time(hh, mm), tzinfo=tz).astimezone(UTC)


# --------------------------------------------------------------------------- examples
def test_merge_joins_touching_and_overlapping_intervals_and_drops_empty_ones() -> None:
    merged = merge([(at(60), at(120)), (at(0), at(60)), (at(100), at(150)), (at(200), at(200)),
                    (at(300), at(310))])
    assert merged == [(at(0), at(150)), (at(300), at(310))]


def test_merge_compares_instants_not_wall_clock_readings() -> None:
    """01:30 PDT and 01:10 PST (fall back) share a tzinfo: wall-clock order would put the later
    instant first."""
    first = datetime(2025, 11, 2, 1, 30, tzinfo=LA)             # PDT, 08:30 UTC
    second = datetime(2025, 11, 2, 1, 10, fold=1, tzinfo=LA)    # PST, 09:10 UTC
    ten = timedelta(minutes=10)
    first_end = (first.astimezone(UTC) + ten).astimezone(LA)    # 01:40 PDT
    second_end = (second.astimezone(UTC) + ten).astimezone(LA)  # 01:20 PST
    assert merge([(second, second_end), (first, first_end)]) == [
        (datetime(2025, 11, 2, 8, 30, tzinfo=UTC), datetime(2025, 11, 2, 8, 40, tzinfo=UTC)),
        (datetime(2025, 11, 2, 9, 10, tzinfo=UTC), datetime(2025, 11, 2, 9, 20, tzinfo=UTC))]


def test_a_free_stretch_is_returned_whole_and_short_gaps_are_left_out() -> None:
    busy = [(at(60), at(90)), (at(100), at(180))]
    slots = free_slots(at(0), at(240), busy, timedelta(minutes=30), LA)
    assert slots == [(at(0), at(60)), (at(180), at(240))]  # the 10-minute gap is too short


def test_daily_hours_follow_the_local_day_across_spring_forward() -> None:
    """09:00-17:00 on Saturday (PST, UTC-8) and on Sunday 2026-03-08 (PDT, UTC-7)."""
    hours = DailyHours.parse("09:00-17:00")
    got = windows(local(date(2026, 3, 7), 0), local(date(2026, 3, 9), 0), LA, hours)
    assert got == [(datetime(2026, 3, 7, 17, tzinfo=UTC), datetime(2026, 3, 8, 1, tzinfo=UTC)),
                   (datetime(2026, 3, 8, 16, tzinfo=UTC), datetime(2026, 3, 9, 0, tzinfo=UTC))]


def test_a_whole_day_window_is_23_hours_on_the_spring_forward_day() -> None:
    hours = DailyHours.parse("00:00-24:00")
    (only,) = windows(local(date(2026, 3, 8), 0), local(date(2026, 3, 9), 0), LA, hours)
    assert only[1] - only[0] == timedelta(hours=23)


def test_an_hour_skipped_by_spring_forward_is_read_shifted_by_the_gap() -> None:
    """02:30 does not exist on 2026-03-08 in LA: the window starts at 03:30 PDT (CONTRACT §4)."""
    start, _ = DailyHours.parse("02:30-05:00").on(date(2026, 3, 8), LA)
    assert start == datetime(2026, 3, 8, 3, 30, tzinfo=LA).astimezone(UTC)


def test_hours_past_midnight_run_into_the_next_day() -> None:
    hours = DailyHours.parse("22:00-02:00")
    assert hours.on(date(2025, 10, 24), LA) == (local(date(2025, 10, 24), 22),
                                                local(date(2025, 10, 25), 2))
    # a range starting at midnight still gets the tail of the previous evening's window
    got = windows(local(date(2025, 10, 25), 0), local(date(2025, 10, 25), 12), LA, hours)
    assert got == [(local(date(2025, 10, 25), 0), local(date(2025, 10, 25), 2))]


@pytest.mark.parametrize("text", ["9-17", "09:00", "25:00-26:00", "09:60-10:00", "09:00-24:30", ""])
def test_bad_daily_hours_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        DailyHours.parse(text)


def _event(**changes: object) -> Event:
    base = Event(id="e1", title="Dentist", start=datetime(2025, 10, 24, 9, tzinfo=LA),
                 end=datetime(2025, 10, 24, 10, tzinfo=LA), timezone="America/Los_Angeles")
    return base.with_changes(**changes)


def test_all_day_and_cancelled_events_block_no_time() -> None:
    assert busy_interval(_event(all_day=True, start=date(2025, 10, 24), end=date(2025, 10, 25))) is None
    assert busy_interval(_event(status="cancelled")) is None
    assert busy_interval(_event()) == (datetime(2025, 10, 24, 16, tzinfo=UTC),
                                       datetime(2025, 10, 24, 17, tzinfo=UTC))


def test_each_event_is_read_in_its_own_zone() -> None:
    """A 9:00 New York call is 6:00 in Los Angeles: it blocks 13:00-14:00 UTC, not 16:00."""
    ny = ZoneInfo("America/New_York")
    call = _event(start=datetime(2025, 10, 24, 9, tzinfo=ny), end=datetime(2025, 10, 24, 10, tzinfo=ny),
                  timezone="America/New_York")
    assert busy_intervals([call, _event(id="e2")]) == (
        (datetime(2025, 10, 24, 13, tzinfo=UTC), datetime(2025, 10, 24, 14, tzinfo=UTC)),
        (datetime(2025, 10, 24, 16, tzinfo=UTC), datetime(2025, 10, 24, 17, tzinfo=UTC)))


def test_free_busy_merges_every_readable_calendar_and_ignores_none() -> None:
    answer = FreeBusy({"a": ((at(0), at(30)),), "b": ((at(30), at(60)),)}, {"c": "notFound"})
    assert answer.all_busy() == [(at(0), at(60))]


# --------------------------------------------------------------------------- properties
ZONES = [ZoneInfo("America/Los_Angeles"), ZoneInfo("Europe/London"), ZoneInfo("Australia/Lord_Howe"),
         ZoneInfo("UTC")]
intervals = st.lists(st.tuples(st.integers(0, 6 * 1440), st.integers(1, 600)), max_size=25).map(
    lambda pairs: [(at(s), at(s + n)) for s, n in pairs])
clock = st.tuples(st.integers(0, 23), st.sampled_from([0, 15, 30, 45]))


@pytest.mark.slow
@given(busy=intervals, lo=st.integers(0, 3 * 1440), span=st.integers(1, 3 * 1440),
       duration=st.integers(1, 300), tz=st.sampled_from(ZONES),
       hours=st.none() | st.tuples(clock, clock))
def test_slots_never_overlap_busy_time_and_stay_inside_range_and_hours(
        busy: list[Interval], lo: int, span: int, duration: int, tz: ZoneInfo,
        hours: tuple[tuple[int, int], tuple[int, int]] | None) -> None:
    daily = DailyHours(time(*hours[0]), time(*hours[1])) if hours else None
    start, end = at(lo), at(lo + span)
    slots = free_slots(start, end, busy, timedelta(minutes=duration), tz, daily)
    allowed = [(start, end)] if daily is None else [
        daily.on(start.astimezone(tz).date() + timedelta(days=d), tz) for d in range(-1, 5)]
    for s, e in slots:
        assert e - s >= timedelta(minutes=duration)
        assert start <= s < e <= end
        assert all(e <= b_start or s >= b_end for b_start, b_end in busy)
        # inside the hours: every minute of the slot lies in some day's window
        minute = s
        while minute < e:
            assert any(w_start <= minute < w_end for w_start, w_end in allowed), (minute, daily)
            minute += timedelta(minutes=15)
    assert slots == sorted(slots)


@pytest.mark.slow
@given(busy=intervals, lo=st.integers(0, 2 * 1440), span=st.integers(1, 2 * 1440),
       duration=st.integers(1, 240))
def test_every_free_stretch_long_enough_is_found_minute_by_minute(
        busy: list[Interval], lo: int, span: int, duration: int) -> None:
    """An oracle on whole minutes: the maximal runs of free minutes of at least `duration`."""
    taken = {m for s, e in busy for m in range(int((s - BASE).total_seconds() // 60),
                                               int((e - BASE).total_seconds() // 60))}
    runs: list[Interval] = []
    run_start: int | None = None
    for minute in range(lo, lo + span + 1):
        free = minute < lo + span and minute not in taken
        if free and run_start is None:
            run_start = minute
        elif not free and run_start is not None:
            if minute - run_start >= duration:
                runs.append((at(run_start), at(minute)))
            run_start = None
    assert free_slots(at(lo), at(lo + span), busy, timedelta(minutes=duration), LA) == runs
