"""Unit tests for reflection.dates.resolver, written from the date policy of CONTRACT.md section 4."""
from __future__ import annotations

import dataclasses
import json
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reflection.dates.lexicon import WEEKDAY_NAMES, greetings
from reflection.dates.resolver import (
    Candidate,
    Expression,
    Resolution,
    parse_now,
    resolve,
    zone,
)

LA = "America/Los_Angeles"
WED = datetime(2025, 10, 22, 9, 15)          # Wednesday
SAT = datetime(2025, 10, 25, 9, 0)           # Saturday
FRI = datetime(2025, 10, 24, 9, 0)           # Friday
MON = datetime(2025, 10, 20, 8, 0)           # Monday


def exprs(text, now=WED, tz=LA):
    return resolve(text, now, tz).expressions


def one(text, now=WED, tz=LA) -> Expression:
    es = exprs(text, now, tz)
    assert len(es) == 1, [e.span for e in es]
    return es[0]


def starts(e: Expression) -> list[str]:
    return [c.to_json()["start"] for c in e.candidates]


def norm_starts(text, now, tz):
    """Candidate starts over all expressions, as contract-check compares them."""
    out = set()
    for e in resolve(text, now, tz).to_json()["expressions"]:
        for c in e["candidates"]:
            s = c["start"]
            out.add(s[:10] if len(s) <= 10 else s[:16])
    return out


# ------------------------------------------------------------------ contract sample (literal copy)

SAMPLE = [
    {"id": "exr1", "text": "swim lesson on Thursday", "now": "2025-10-20T08:00:00", "tz": "America/Los_Angeles",
     "expect": {"candidates": ["2025-10-23"], "ambiguous": False}},
    {"id": "exr2", "text": "next Sunday", "now": "2025-10-20T08:00:00", "tz": "America/Los_Angeles",
     "expect": {"candidates": ["2025-10-26", "2025-11-02"], "ambiguous": True}},
    {"id": "exr3", "text": "in two weeks", "now": "2025-10-20T08:00:00", "tz": "America/Los_Angeles",
     "expect": {"candidates": ["2025-11-03"], "ambiguous": False}},
    {"id": "exr4", "text": "Saturday at 10:30am", "now": "2025-10-20T08:00:00", "tz": "Europe/Berlin",
     "expect": {"candidates": ["2025-10-25T10:30"], "ambiguous": False}},
]


@pytest.mark.parametrize("case", SAMPLE, ids=[c["id"] for c in SAMPLE])
def test_contract_sample(case):
    now = parse_now(case["now"], case["tz"])
    assert norm_starts(case["text"], now, case["tz"]) == set(case["expect"]["candidates"])
    res = resolve(case["text"], now, case["tz"])
    assert any(e.ambiguous for e in res.expressions) == case["expect"]["ambiguous"]


def test_contract_section4_example_json_shape():
    res = resolve("dinner next Friday at 7pm", WED, LA)
    j = res.to_json()
    assert j["text"] == "dinner next Friday at 7pm"
    assert j["now"] == "2025-10-22T09:15:00-07:00"
    assert j["timezone"] == LA
    assert len(j["expressions"]) == 1
    e = j["expressions"][0]
    assert e["span"] == "next Friday at 7pm"
    assert e["kind"] == "datetime"
    assert e["ambiguous"] is True
    assert [(c["start"], c["end"], c["reading"]) for c in e["candidates"]] == [
        ("2025-10-24T19:00:00-07:00", None, "the coming Friday at 7 PM"),
        ("2025-10-31T19:00:00-07:00", None, "Friday of next week at 7 PM")]
    json.dumps(j)  # serialisable


@pytest.mark.parametrize("text", ["cancel book club", "call the plumber about the sink", "Maya's piano lesson"])
def test_unresolvable_text_gives_no_expressions(text):
    j = resolve(text, WED, LA).to_json()
    assert j["expressions"] == []
    assert j["text"] == text


def test_the_same_words_with_a_date_give_an_expression():
    # the control for the test above: the check is not vacuous
    assert len(resolve("cancel book club tomorrow", WED, LA).to_json()["expressions"]) == 1


# ------------------------------------------------------------------ weekdays

def test_next_friday_on_wednesday_is_ambiguous():
    e = one("next Friday")
    assert starts(e) == ["2025-10-24", "2025-10-31"]
    assert e.ambiguous and e.relative and e.weekday_named == 4
    assert e.kind == "date"


def test_next_monday_on_saturday_is_single():
    e = one("next Monday", now=SAT)
    assert starts(e) == ["2025-10-27"]
    assert not e.ambiguous


def test_bare_friday_on_wednesday():
    assert starts(one("on Friday")) == ["2025-10-24"]
    assert starts(one("this Friday")) == ["2025-10-24"]


def test_friday_said_on_friday_is_today_or_a_week_later():
    e = one("Friday", now=FRI)
    assert starts(e) == ["2025-10-24", "2025-10-31"]


def test_friday_after_next_is_next_set_shifted():
    assert starts(one("Friday after next")) == ["2025-10-31", "2025-11-07"]
    assert starts(one("Monday after next", now=SAT)) == ["2025-11-03"]


def test_last_friday_mirror_image():
    # Wednesday Oct 22: the first Friday before today is Oct 17, last week -> single
    e = one("last Friday")
    assert starts(e) == ["2025-10-17"]
    assert "past" in e.candidates[0].flags
    # Saturday Oct 25: Oct 24 is in the current week -> {Oct 24, Oct 17}
    assert starts(one("last Friday", now=SAT)) == ["2025-10-24", "2025-10-17"]


def test_weekday_of_next_week():
    assert starts(one("Tuesday of next week")) == ["2025-10-28"]
    assert starts(one("next week Wednesday")) == ["2025-10-29"]


def test_from_thursday_to_friday_is_two_expressions_in_order():
    es = exprs("move swim from Thursday to Friday")
    assert [e.span for e in es] == ["Thursday", "Friday"]
    assert [starts(e) for e in es] == [["2025-10-23"], ["2025-10-24"]]


# ------------------------------------------------------------------ relative days and arithmetic

@pytest.mark.parametrize("text,want", [
    ("today", "2025-10-22"), ("tomorrow", "2025-10-23"), ("the day after tomorrow", "2025-10-24"),
    ("yesterday", "2025-10-21"), ("in 3 days", "2025-10-25"), ("in two weeks", "2025-11-05"),
    ("a week from tomorrow", "2025-10-30"), ("end of the month", "2025-10-31"),
    ("the 3rd", "2025-11-03"), ("Monday the 3rd", "2025-11-03"), ("in 2 months", "2025-12-22"),
])
def test_relative_days(text, want):
    e = one(text)
    assert starts(e) == [want]
    assert e.relative is True


@pytest.mark.parametrize("text,want", [("3 days after November 12th", "2025-11-15"),
                                       ("2 weeks before Christmas", "2025-12-11"),
                                       ("2 weeks from January 15", "2026-01-29")])
def test_offsets_from_an_explicit_date(text, want):
    assert starts(one(text)) == [want]


def test_in_90_minutes_is_a_datetime():
    e = one("in 90 minutes")
    assert e.kind == "datetime"
    assert starts(e) == ["2025-10-22T10:45:00-07:00"]


def test_in_24_hours_is_elapsed_time_across_dst():
    # fall back on 2025-11-02 in Los Angeles: 24 elapsed hours from 09:00 on Nov 1 is 08:00 on Nov 2
    now = datetime(2025, 11, 1, 9, 0)
    assert starts(one("in 24 hours", now=now)) == ["2025-11-02T08:00:00-08:00"]
    assert starts(one("tomorrow at 9am", now=now)) == ["2025-11-02T09:00:00-08:00"]


def test_monday_the_3rd_without_match_within_400_days_is_contradiction():
    # a Monday the 31st: search finds one within 400 days, so use an impossible pair: Feb 30 style
    e = one("Monday the 31st", now=datetime(2025, 10, 22, 9))
    assert e.candidates and all(c.start.weekday() == 0 and c.start.day == 31 for c in e.candidates)


def test_the_31st_skips_short_months():
    assert starts(one("the 31st", now=datetime(2025, 11, 5, 9))) == ["2025-12-31"]


# ------------------------------------------------------------------ explicit dates

@pytest.mark.parametrize("text,want", [
    ("November 5", "2025-11-05"), ("Nov 5th", "2025-11-05"), ("5 November", "2025-11-05"),
    ("11/5", "2025-11-05"), ("Friday, October 31", "2025-10-31"), ("04th Jan 2019", "2019-01-04"),
    ("2019-01-04", "2019-01-04"), ("Jan 4, 2019", "2019-01-04"), ("October 1", "2026-10-01"),
    ("the 6th of April", "2026-04-06"), ("23.04.2022", "2022-04-23"), ("Dec. 31, 1994", "1994-12-31"),
    ("October 22", "2025-10-22"),
])
def test_explicit_dates(text, want):
    e = one(text)
    assert starts(e) == [want]
    assert e.relative is False


def test_feb_30_is_contradiction_without_candidates():
    e = one("Feb 30")
    assert e.candidates == ()
    assert "February 30 does not exist" in e.contradiction


def test_april_31_is_contradiction():
    e = one("dinner on April 31")
    assert e.candidates == () and "April 31" in e.contradiction


def test_friday_oct_30_2025_weekday_contradiction():
    e = one("Friday Oct 30 2025")
    assert e.candidates == ()
    assert e.contradiction == "Friday, October 30 2025: October 30 is a Thursday"
    assert e.weekday_named == 4


def test_friday_oct_30_year_inferred_contradiction():
    e = one("Friday, October 30")   # the policy picks 2025: a Thursday
    assert e.candidates == () and "Thursday" in e.contradiction


def test_feb_29_in_non_leap_year_with_year():
    assert one("2/29/2027").candidates == ()
    assert starts(one("Feb 29")) == ["2028-02-29"]


def test_explicit_date_with_weekday_that_matches():
    e = one("Friday, October 31 at 6pm")
    assert starts(e) == ["2025-10-31T18:00:00-07:00"]
    assert e.relative is False and e.weekday_named == 4


# ------------------------------------------------------------------ times

def test_bare_hour_is_am_or_pm():
    e = one("at 3")
    assert e.time_of_day_only and e.kind == "time"
    assert sorted(starts(e)) == ["2025-10-22T15:00:00-07:00", "2025-10-23T03:00:00-07:00"]


def test_time_of_day_only_today_if_ahead_else_tomorrow():
    assert starts(one("at 4pm")) == ["2025-10-22T16:00:00-07:00"]
    assert starts(one("at 8am")) == ["2025-10-23T08:00:00-07:00"]


@pytest.mark.parametrize("text,want", [
    ("tonight at 8", "2025-10-22T20:00:00-07:00"),
    ("Friday morning at 9", "2025-10-24T09:00:00-07:00"),
    ("Friday evening at 7", "2025-10-24T19:00:00-07:00"),
    ("tomorrow at 3:30 pm", "2025-10-23T15:30:00-07:00"),
    ("tomorrow at 15:00", "2025-10-23T15:00:00-07:00"),
    ("tomorrow at noon", "2025-10-23T12:00:00-07:00"),
    ("tomorrow at midnight", "2025-10-23T00:00:00-07:00"),
    ("tomorrow at 7 in the evening", "2025-10-23T19:00:00-07:00"),
    ("tomorrow at half past 3 pm", "2025-10-23T15:30:00-07:00"),
    ("tomorrow at 08:30", "2025-10-23T08:30:00-07:00"),
])
def test_exact_and_narrowed_times(text, want):
    assert starts(one(text)) == [want]


def test_next_friday_at_bare_3_is_four_combinations():
    e = one("push the swim lesson to next Friday at 3")
    assert sorted(starts(e)) == ["2025-10-24T03:00:00-07:00", "2025-10-24T15:00:00-07:00",
                                 "2025-10-31T03:00:00-07:00", "2025-10-31T15:00:00-07:00"]


def test_time_before_date():
    assert starts(one("at 7pm on Friday")) == ["2025-10-24T19:00:00-07:00"]


# ------------------------------------------------------------------ ranges

def test_friday_afternoon_is_a_range():
    e = one("Friday afternoon")
    assert e.kind == "range"
    c = e.candidates[0]
    assert c.to_json()["start"] == "2025-10-24T12:00:00-07:00"
    assert c.to_json()["end"] == "2025-10-24T17:00:00-07:00"


def test_tonight_range():
    e = one("tonight")
    assert e.kind == "range"
    assert (e.candidates[0].start.hour, e.candidates[0].end.hour, e.candidates[0].end.minute) == (17, 23, 59)


def test_this_weekend_and_next_weekend():
    assert [(c.start, c.end) for c in one("this weekend").candidates] == [(date(2025, 10, 25), date(2025, 10, 26))]
    nw = one("next weekend")
    assert [c.start for c in nw.candidates] == [date(2025, 10, 25), date(2025, 11, 1)]
    assert [c.start for c in one("next weekend", now=SAT).candidates] == [date(2025, 11, 1)]


def test_this_week_next_week_monday_to_sunday():
    assert [(c.start, c.end) for c in one("this week").candidates] == [(date(2025, 10, 20), date(2025, 10, 26))]
    assert [(c.start, c.end) for c in one("next week").candidates] == [(date(2025, 10, 27), date(2025, 11, 2))]


def test_time_ranges():
    for text in ("from 3 to 5pm", "3-5pm", "between 3 and 5pm"):
        e = one(text)
        assert e.kind == "range", text
        c = e.candidates[0].to_json()
        assert (c["start"], c["end"]) == ("2025-10-22T15:00:00-07:00", "2025-10-22T17:00:00-07:00"), text


def test_time_range_end_earlier_is_next_day():
    c = one("Friday from 10pm to 1am").candidates[0].to_json()
    assert (c["start"], c["end"]) == ("2025-10-24T22:00:00-07:00", "2025-10-25T01:00:00-07:00")


def test_move_from_time_to_time_is_two_expressions():
    es = exprs("move dinner from 7 to 8pm")
    assert len(es) == 2
    assert starts(es[1]) == ["2025-10-22T20:00:00-07:00"]


def test_through_and_until_include_the_day():
    e = one("through Monday, November 3")
    assert e.kind == "range" and e.candidates[0].end == date(2025, 11, 3)
    e = one("until Nov 3")
    assert (e.candidates[0].start, e.candidates[0].end) == (date(2025, 10, 22), date(2025, 11, 3))
    e = one("Monday through Friday", now=SAT)
    assert (e.candidates[0].start, e.candidates[0].end) == (date(2025, 10, 27), date(2025, 10, 31))


# ------------------------------------------------------------------ zones

def test_3pm_eastern_from_los_angeles():
    e = one("call at 3pm Eastern")
    assert e.explicit_zone == "America/New_York"
    assert starts(e) == ["2025-10-22T15:00:00-04:00"]


@pytest.mark.parametrize("text,zone_name,offset", [
    ("tomorrow 9am London time", "Europe/London", "+01:00"),
    ("tomorrow 10am PT", "America/Los_Angeles", "-07:00"),
    ("tomorrow noon UTC", "UTC", "+00:00"),
    ("tomorrow 3pm CET", "Europe/Berlin", "+02:00"),
])
def test_explicit_zones(text, zone_name, offset):
    e = one(text)
    assert e.explicit_zone == zone_name
    assert starts(e)[0].endswith(offset)


def test_unknown_zone_is_reported_not_replaced():
    e = one("tomorrow at 3pm Martian time")
    assert e.candidates == ()
    assert "Martian time" in e.contradiction
    assert "Martian time" in e.leftover


# ------------------------------------------------------------------ DST

def test_nonexistent_local_time_shifted_forward():
    e = one("March 8 2026 at 2:30am", now=datetime(2026, 3, 1, 9))
    c = e.candidates[0]
    assert c.to_json()["start"] == "2026-03-08T03:30:00-07:00"
    assert "nonexistent_local_time" in c.flags


def test_repeated_local_time_first_occurrence():
    e = one("November 2 2025 at 1:30am")
    c = e.candidates[0]
    assert c.to_json()["start"] == "2025-11-02T01:30:00-07:00"
    assert c.start.fold == 0
    assert "repeated_local_time" in c.flags


# ------------------------------------------------------------------ recurrences and durations

@pytest.mark.parametrize("text,rule,first", [
    ("every Tuesday", "RRULE:FREQ=WEEKLY;BYDAY=TU", "2025-10-28"),
    ("every other Tuesday", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2025-10-28"),
    ("every weekday", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2025-10-22"),
    ("every month on the 3rd", "RRULE:FREQ=MONTHLY;BYMONTHDAY=3", "2025-11-03"),
    ("daily", "RRULE:FREQ=DAILY", "2025-10-22"),
    ("weekly on Mondays", "RRULE:FREQ=WEEKLY;BYDAY=MO", "2025-10-27"),
])
def test_recurrences(text, rule, first):
    e = one(text)
    assert e.recurrence == rule
    assert starts(e) == [first]


def test_recurrence_with_time():
    e = one("every Tuesday at 4pm")
    assert e.recurrence == "RRULE:FREQ=WEEKLY;BYDAY=TU"
    assert starts(e) == ["2025-10-28T16:00:00-07:00"]


@pytest.mark.parametrize("text,minutes", [("for 2 hours", 120), ("for 45 minutes", 45), ("90 minutes", 90),
                                          ("for an hour and a half", 90)])
def test_durations(text, minutes):
    e = one(text)
    assert e.kind == "duration"
    assert e.duration == timedelta(minutes=minutes)


def test_in_90_minutes_is_not_a_duration():
    assert one("in 90 minutes").kind == "datetime"


# ------------------------------------------------------------------ sentences, spans, leftovers

def test_spans_and_offsets():
    text = "add dentist on Nov 5th at 3:30 pm"
    e = one(text)
    assert e.span == "Nov 5th at 3:30 pm"
    assert text[e.start_index:e.end_index] == e.span
    assert starts(e) == ["2025-11-05T15:30:00-08:00"]


def test_leftover_words_inside_phrase_are_reported():
    e = one("next Friday hockey at 6pm")
    assert e.leftover == ("hockey",)
    assert starts(e) == ["2025-10-24T18:00:00-07:00", "2025-10-31T18:00:00-07:00"]


def test_no_false_positives_in_plain_text():
    for text in ("we sat at the table", "I may go", "version 2.5 is out", "we have 3 kids",
                 "good morning", "lunch with Sam", "Christmas party planning"):
        assert exprs(text) == (), text


def test_date_and_time_in_separate_phrases_of_a_move():
    es = exprs("move the dentist to 4pm")
    assert len(es) == 1 and es[0].time_of_day_only


# ------------------------------------------------------------------ API details

def test_naive_and_aware_now_agree():
    aware = datetime(2025, 10, 22, 16, 15, tzinfo=ZoneInfo("UTC"))
    a = resolve("tomorrow at 5pm", aware, LA)
    b = resolve("tomorrow at 5pm", WED, LA)
    assert a.now == b.now and a.now.utcoffset() == timedelta(hours=-7)
    assert a.to_json() == b.to_json()


def test_unknown_zone_raises_value_error_naming_it():
    with pytest.raises(ValueError, match="Mars/Olympus"):
        resolve("tomorrow", WED, "Mars/Olympus")
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Olympus'"):
        zone("Mars/Olympus")


def test_parse_now():
    n = parse_now("2025-10-22T09:15:00", LA)
    assert n.tzinfo is not None and n.hour == 9 and n.utcoffset() == timedelta(hours=-7)
    n = parse_now("2025-10-22T16:15:00Z", LA)
    assert n.hour == 9
    with pytest.raises(ValueError, match="not-a-date"):
        parse_now("not-a-date", LA)


def test_dataclasses_are_frozen_and_ambiguous_property():
    c = Candidate(start=date(2025, 1, 1), end=None, reading="x")
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.start = date(2025, 1, 2)  # type: ignore[misc]
    e = Expression(span="x", start_index=0, end_index=1, kind="date", candidates=(c, c), relative=True)
    assert e.ambiguous
    assert isinstance(resolve("tomorrow", WED, LA), Resolution)


def test_date_only_and_datetime_formats():
    j = resolve("tomorrow and Friday at 7pm", WED, LA).to_json()
    assert j["expressions"][0]["candidates"][0]["start"] == "2025-10-23"
    assert j["expressions"][1]["candidates"][0]["start"] == "2025-10-24T19:00:00-07:00"


def test_other_zone_person():
    e = one("Saturday at 10:30am", now=MON, tz="Europe/Berlin")
    assert starts(e) == ["2025-10-25T10:30:00+02:00"]


# ------------------------------------------------------------------ properties

_days = st.dates(min_value=date(2020, 1, 1), max_value=date(2035, 12, 31))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(today=_days, wd=st.integers(0, 6))
def test_property_next_weekday_policy(today, wd):
    now = datetime.combine(today, datetime.min.time()).replace(hour=10)
    got = [c.start for c in one(f"next {WEEKDAY_NAMES[wd]}", now=now).candidates]
    d = today + timedelta(days=(wd - today.weekday() - 1) % 7 + 1)      # first such day after today
    same_week = (d - timedelta(days=d.weekday())) == (today - timedelta(days=today.weekday()))
    assert got == ([d, d + timedelta(7)] if same_week else [d])


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(today=_days, wd=st.integers(0, 6))
def test_property_bare_weekday_policy(today, wd):
    now = datetime.combine(today, datetime.min.time()).replace(hour=10)
    got = [c.start for c in one(f"on {WEEKDAY_NAMES[wd]}", now=now).candidates]
    d = today + timedelta(days=(wd - today.weekday()) % 7)
    assert got == ([d, d + timedelta(7)] if d == today else [d])


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(list("abcdefghijklmnopqrstuvwxyz0123456789 :/.-,'") +
                                     ["at ", "next ", "Friday ", "pm ", "tomorrow ", "Nov ", "the 3rd ",
                                      "every ", "in 3 days ", "from ", " to ", "Eastern ", "noon ", "Feb 30 ",
                                      "2:30 ", "morning ", "until ", "for 2 hours "]),
                     max_size=25).map("".join))
def test_property_never_crashes_and_spans_are_exact(text):
    res = resolve(text, WED, LA)
    for e in res.expressions:
        assert text[e.start_index:e.end_index] == e.span
        assert e.kind in ("date", "datetime", "time", "range", "duration")
        if e.contradiction:
            assert e.candidates == ()
    json.dumps(res.to_json())


# ------------------------------------------------------------------ bare clock times (CONTRACT 4, Times)

@pytest.mark.parametrize("text,want", [
    ("add school pickup at 3:15 on Monday", ["2025-10-27T03:15:00-07:00", "2025-10-27T15:15:00-07:00"]),
    ("pick up at 3:15 after school on Friday", ["2025-10-24T03:15:00-07:00", "2025-10-24T15:15:00-07:00"]),
    ("Friday at 11:59", ["2025-10-24T11:59:00-07:00", "2025-10-24T23:59:00-07:00"]),
])
def test_bare_clock_time_is_am_or_pm(text, want):
    e = one(text)
    assert sorted(starts(e)) == want
    assert e.ambiguous


def test_bare_clock_time_alone_is_today_while_ahead_else_tomorrow():
    e = one("at 4:30")
    assert e.time_of_day_only
    assert sorted(starts(e)) == ["2025-10-22T16:30:00-07:00", "2025-10-23T04:30:00-07:00"]


@pytest.mark.parametrize("text,want", [
    ("tomorrow 7:30 in the morning", "2025-10-23T07:30:00-07:00"),
    ("tonight at 8:30", "2025-10-22T20:30:00-07:00"),
    ("Friday afternoon at 3:15", "2025-10-24T15:15:00-07:00"),
    ("tomorrow at 08:30", "2025-10-23T08:30:00-07:00"),          # 24-hour notation: exact
    ("tomorrow at 12:30", "2025-10-23T12:30:00-07:00"),
])
def test_clock_time_narrowed_by_part_of_day_or_notation(text, want):
    assert starts(one(text)) == [want]


# ------------------------------------------------------------------ clock words

@pytest.mark.parametrize("text,want", [
    ("tomorrow at half past 3", ["2025-10-23T03:30:00-07:00", "2025-10-23T15:30:00-07:00"]),
    ("Friday quarter to 5", ["2025-10-24T04:45:00-07:00", "2025-10-24T16:45:00-07:00"]),
    ("Friday at quarter past 7 in the evening", ["2025-10-24T19:15:00-07:00"]),
    ("tomorrow at noon", ["2025-10-23T12:00:00-07:00"]),
    ("Friday at midnight", ["2025-10-24T00:00:00-07:00"]),
])
def test_clock_words(text, want):
    assert sorted(starts(one(text))) == want


# ------------------------------------------------------------------ ordinal weekdays of a month

@pytest.mark.parametrize("text,now,want", [
    ("the first Monday of December", WED, "2025-12-01"),
    ("the second Tuesday of November", WED, "2025-11-11"),
    ("the first Monday of October", WED, "2026-10-05"),        # October's has passed: next year's
    ("the third Thursday of October", datetime(2025, 10, 1, 9), "2025-10-16"),
    ("the last Friday of the month", WED, "2025-10-31"),
    ("the last Friday of the month", datetime(2025, 11, 29, 9), "2025-12-26"),   # Nov 28 has passed
    ("the first Monday of next month", WED, "2025-11-03"),
])
def test_ordinal_weekday_of_a_month(text, now, want):
    e = one(text, now=now)
    assert starts(e) == [want]
    assert not e.ambiguous


def test_fifth_weekday_that_a_month_lacks_is_a_contradiction():
    e = one("the fifth Monday of February", now=WED)   # February 2026 has four Mondays
    assert e.candidates == () and "February 2026" in e.contradiction


def test_ordinal_weekday_with_time():
    assert starts(one("the second Tuesday of November at 6pm")) == ["2025-11-11T18:00:00-08:00"]


# ------------------------------------------------------------------ "Tuesday week"

def test_tuesday_week_is_the_tuesday_reading_plus_seven_days():
    e = one("Tuesday week")                       # said Wednesday Oct 22: Tuesday is Oct 28
    assert starts(e) == ["2025-11-04"]
    assert e.weekday_named == 1 and e.relative


def test_weekday_week_said_on_that_weekday_keeps_both_readings():
    tue = datetime(2025, 10, 21, 9)
    assert starts(one("Tuesday week", now=tue)) == ["2025-10-28", "2025-11-04"]


def test_weekend_is_not_a_weekday_week():
    assert [e.span for e in exprs("Friday weekend plans")] == ["Friday"]


# ------------------------------------------------------------------ city times

def test_time_in_a_city_zone():
    e = one("the call is 3pm Tokyo time on Thursday")
    assert e.explicit_zone == "Asia/Tokyo" and e.city == "Tokyo"
    assert starts(e) == ["2025-10-23T15:00:00+09:00"]


def test_her_time_uses_the_city_the_message_names():
    e = exprs("call mom in London at 9 her time tomorrow")[0]
    assert e.explicit_zone == "Europe/London" and e.city == "London"
    assert sorted(starts(e)) == ["2025-10-23T09:00:00+01:00", "2025-10-23T21:00:00+01:00"]


def test_her_time_without_a_city_is_not_a_zone():
    e = one("call mom at 9pm her time tomorrow")
    assert e.explicit_zone is None
    assert starts(e) == ["2025-10-23T21:00:00-07:00"]


def test_explicit_zone_is_in_json_and_city_is_not():
    j = resolve("3pm Sydney time tomorrow", WED, LA).to_json()["expressions"][0]
    assert j["explicit_zone"] == "Australia/Sydney" and "city" not in j


# ------------------------------------------------------------------ bounds

@pytest.mark.parametrize("text,now,tz", [
    ("in 99999999 days", WED, LA),
    ("in 99999999999 minutes", WED, LA),
    ("tomorrow", datetime(9999, 12, 31, 23, 59), "UTC"),
    ("tomorrow at 3pm", datetime(9999, 12, 31, 23, 59), LA),
    ("3 days after December 31 9999", WED, LA),
    ("every Monday", datetime(9999, 12, 31, 23, 59), "UTC"),
    ("yesterday", datetime(1, 1, 1, 0, 0), "UTC"),
])
def test_arithmetic_out_of_range_is_a_contradiction_not_an_exception(text, now, tz):
    e = one(text, now=now, tz=tz)
    assert e.candidates == ()
    assert e.contradiction == "out of range"
    json.dumps(resolve(text, now, tz).to_json())


def test_text_at_the_cap_resolves():
    from reflection.dates.resolver import MAX_TEXT_CHARS
    text = ("lunch tomorrow at noon. " * (MAX_TEXT_CHARS // 24 + 1))[:MAX_TEXT_CHARS]
    res = resolve(text, WED, LA)
    assert len(text) == MAX_TEXT_CHARS
    assert len(res.expressions) >= MAX_TEXT_CHARS // 24 - 1


def test_text_over_the_cap_is_refused():
    from reflection.dates.resolver import MAX_TEXT_CHARS
    with pytest.raises(ValueError, match=f"text is longer than {MAX_TEXT_CHARS} characters"):
        resolve("x" * (MAX_TEXT_CHARS + 1), WED, LA)


_EDGE_PHRASES = ["tomorrow", "yesterday", "in 3 days", "in 99999999 days", "2 weeks ago", "next Friday at 3",
                 "every Monday at 4pm", "the last Friday of the month", "Tuesday week", "Christmas next year",
                 "end of next year", "at 4:30", "tonight at 8", "in 90 minutes", "3 days after December 31",
                 "the first Monday of January", "next weekend", "until Nov 3", "9am Tokyo time tomorrow"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(now=st.one_of(st.datetimes(min_value=datetime(9999, 12, 20), max_value=datetime(9999, 12, 31, 23, 59)),
                     st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(1, 1, 10))),
       tz=st.sampled_from(["UTC", LA, "Asia/Tokyo", "Pacific/Kiritimati"]),
       phrase=st.sampled_from(_EDGE_PHRASES))
def test_property_calendar_edges_never_raise(now, tz, phrase):
    res = resolve(phrase, now, tz)
    for e in res.expressions:
        if e.contradiction:
            assert e.candidates == ()
    json.dumps(res.to_json())


@pytest.mark.parametrize("text", ["sat mar 7 3pm", "sat march 7", "sun may 24", "wed oct 14 at 3"])
def test_a_short_weekday_before_a_month_and_day_is_read_with_them(text: str) -> None:
    """"sat" alone may be a verb ("we sat down"); before "mar 7" it is the day's weekday."""
    [expression] = exprs(text)
    assert expression.span == text


def test_a_short_weekday_used_as_a_verb_is_not_read() -> None:
    [expression] = exprs("we sat down march 7")
    assert expression.span == "march 7"


@pytest.mark.parametrize("text", ["good morning! quick one: move swim", "hi, good evening - can you add dinner",
                                  "gd night, cancel piano", "ok so good afternoon"])
def test_a_greeting_is_no_part_of_the_day(text):
    assert exprs(text) == ()


def test_good_before_a_part_of_the_day_is_a_greeting_only_where_a_greeting_stands():
    assert greetings("good morning! quick one") == [(0, 12)]
    assert greetings("can you move it, good night") == [(17, 27)]
    assert greetings("is saturday good morning or evening?") == []
    assert greetings("the good morning slot works") == []


def test_a_greeting_does_not_set_the_part_of_the_day_of_a_time_after_it():
    e = one("good evening, friday at 7 for dinner")
    assert e.span == "friday at 7" and e.part_of_day is None


@pytest.mark.parametrize("text, rule", [
    ("book club first monday of each month 7:30pm", "RRULE:FREQ=MONTHLY;BYDAY=1MO"),
    ("monthly on the last friday at 6pm", "RRULE:FREQ=MONTHLY;BYDAY=-1FR"),
    ("every month on the 2nd tuesday", "RRULE:FREQ=MONTHLY;BYDAY=2TU"),
])
def test_one_weekday_of_each_month_is_a_monthly_rule_on_that_weekday(text, rule):
    assert one(text).recurrence == rule


@pytest.mark.parametrize("text, rule", [
    ("gym every mon wed fri", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"),
    ("gym every mon/wed/fri", "RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR"),
    ("school run every mon-fri", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("school run every monday to friday", "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("dad's shifts every fri-mon", "RRULE:FREQ=WEEKLY;BYDAY=MO,FR,SA,SU"),
    ("every tuesday and thursday", "RRULE:FREQ=WEEKLY;BYDAY=TU,TH"),
])
def test_the_weekdays_of_a_repeat_may_be_listed_without_commas_or_run_from_one_to_another(text, rule):
    assert one(text).recurrence == rule


@pytest.mark.parametrize("text", ["rent on the last day of every month", "rent every month on the last day",
                                  "rent monthly on the last day", "the last day of each month"])
def test_the_last_day_of_every_month_is_a_rule_on_each_month_s_last_day(text):
    e = one(text)
    assert e.recurrence == "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"
    assert starts(e) == ["2025-10-31"]


def test_the_last_friday_of_the_month_is_one_day_not_a_rule():
    e = one("bake sale the last friday of the month")
    assert e.recurrence is None and starts(e) == ["2025-10-31"]


@pytest.mark.parametrize("text, want", [
    ("tonight at 12", ["2025-10-22T23:59:00-07:00", "2025-10-23T00:00:00-07:00"]),
    ("midnight tonight", ["2025-10-22T23:59:00-07:00", "2025-10-23T00:00:00-07:00"]),
    ("tonight at 12:30", ["2025-10-23T00:30:00-07:00"]),
    ("tonight at 12pm", ["2025-10-22T12:00:00-07:00"]),
])
def test_twelve_or_midnight_tonight_is_the_midnight_that_ends_the_night(text: str, want: list[str]) -> None:
    """Never noon, nor the midnight the day began with (already past); 23:59 is how many people
    write the night's last moment."""
    assert sorted(starts(one(text))) == want


@pytest.mark.parametrize("text, want", [
    ("concert 18:30 wed", ["2025-10-22T18:30:00-07:00", "2025-10-29T18:30:00-07:00"]),
    ("dinner 6:30pm sat", ["2025-10-25T18:30:00-07:00"])])
def test_a_weak_day_abbreviation_right_after_a_clock_time_is_that_times_day(text: str, want: list[str]) -> None:
    """"wed" and "sat" alone are also words; after a clock time they are its day, as before one
    (said on a Wednesday, "wed" is today or a week later)."""
    assert sorted(starts(one(text))) == want


def test_a_weak_day_abbreviation_after_a_bare_number_is_still_a_word() -> None:
    assert [e.span for e in exprs("we have 2 sat in the back row")] == []


@pytest.mark.parametrize("text, span", [("move it to the afternoon", "the afternoon"),
                                        ("move it to the evening, thanks", "the evening"),
                                        ("move it to the  afternoon", "the  afternoon"),
                                        ("dinner at  night", "at  night"),
                                        ("give it to the morning crew", None)])
def test_to_the_afternoon_is_a_part_of_the_day_and_the_morning_crew_is_not(text: str, span: str | None) -> None:
    spans = [e.span for e in exprs(text)]
    assert spans == ([span] if span else []), spans


@pytest.mark.parametrize("text, spans", [("friday may fifteenth at six thirty in the evening",
                                          ["friday may fifteenth at six thirty in the evening"]),
                                         ("we may fifteen of them", []),
                                         ("the second one", []), ("the 3rd option", []),
                                         ("move it to the second", ["the second"])])
def test_may_with_an_ordinal_word_is_the_month_and_the_second_one_is_a_choice(text: str, spans: list[str]) -> None:
    assert [e.span for e in exprs(text)] == spans


@pytest.mark.parametrize("text, spans", [("move only the first two lessons to 5pm", ["5pm"]),
                                         ("the last two sessions of the first aid course", []),
                                         ("the first wednesday after the break", ["wednesday"]),
                                         ("can we do the first instead", ["the first"]),
                                         ("book it for the first at 3", ["the first at 3"]),
                                         ("the first of march", ["the first of march"])])
def test_an_ordinal_word_before_a_counted_thing_is_no_day_of_the_month(text: str, spans: list[str]) -> None:
    assert [e.span for e in exprs(text)] == spans


def test_a_date_beside_one_that_only_reads_day_first_may_be_day_first_too() -> None:
    span = exprs("they're staying with us 30/6 to 3/7")
    assert [[str(c.start) for c in e.candidates] for e in span] == [["2026-06-30"], ["2026-03-07", "2026-07-03"]]
    alone = exprs("they're staying with us from 3/7")
    assert [[str(c.start) for c in e.candidates] for e in alone] == [["2026-03-07"]]


@pytest.mark.parametrize("text, day", [("book the hard rubbish pickup for the last day of the month", "2025-10-31"),
                                       ("the last day of next month", "2025-11-30"),
                                       ("end of the month", "2025-10-31")])
def test_the_last_day_of_the_month_is_the_end_of_the_month(text: str, day: str) -> None:
    """CONTRACT 4: "end of the month" is its last day; "the last day of the month" says so."""
    [expr] = exprs(text)
    assert [str(c.start) for c in expr.candidates] == [day]


def test_an_amount_from_now_with_a_comma_may_end_before_the_comma() -> None:
    """"put feed in 2 hours, 20 min": the 20 min may be how long the feed lasts."""
    [expr] = [e for e in exprs("put feed in 2 hours, 20 min") if e.candidates]
    now = WED.replace(tzinfo=zone(LA))
    assert expr.ambiguous and [c.start - now for c in expr.candidates] == [timedelta(hours=2),
                                                                          timedelta(hours=2, minutes=20)]
    [whole] = [e for e in exprs("put feed in 2 hours and 20 min") if e.candidates]
    assert [c.start - now for c in whole.candidates] == [timedelta(hours=2, minutes=20)]


@pytest.mark.parametrize("text, spans", [("dinner at ah ma's place at 7pm", ["7pm"]),
                                         ("feed in 2h", ["in 2h"]), ("back in an hour", ["in an hour"])])
def test_a_word_and_a_unit_letter_run_together_are_no_amount(text: str, spans: list[str]) -> None:
    """"ah ma's" (grandma's) is not "a h", an hour; "2h" still is two hours."""
    assert [e.span for e in exprs(text)] == spans


@pytest.mark.parametrize("text, spans", [("netball's switched to the later slot from now on, 5 to 6", []),
                                         ("move it to 6", ["6"]),
                                         ("move my 5 to 6 meeting", []),
                                         # "the 3:30" names an event by its time: "to 4" is where it goes
                                         ("move the 3:30 to 4", ["3:30", "4"]),
                                         ("can u push the 9 to 10 pls", ["10"]),
                                         # "make it 7": the new time ("make it 2 people" is not one)
                                         ("the 6pm book club, make it 7", ["6pm", "7"]),
                                         ("nah make it 5", ["5"]), ("make it 2 people", [])])
def test_a_number_to_a_number_is_no_time_to_move_to(text: str, spans: list[str]) -> None:
    assert [e.span for e in exprs(text)] == spans


@pytest.mark.parametrize("text, ranges", [("the 3 day cup starts friday 24 july thru sunday",
                                           [("2026-07-24", "2026-07-26")]),
                                          ("no practice over easter break 3-12 april", [("2026-04-03", "2026-04-12")]),
                                          ("half term 26th to 30th october", [("2025-10-26", "2025-10-30")])])
def test_spans_of_days_read_whole(text: str, ranges: list[tuple[str, str]]) -> None:
    found = [(str(c.start), str(c.end)) for e in exprs(text) if e.kind == "range" for c in e.candidates]
    assert found == ranges


@pytest.mark.parametrize("text, spans", [("family pizza night at 6pm", ["6pm"]),
                                         ("friday night at 8", ["friday night at 8"]),
                                         ("service the boiler every october, first saturday, 9am", ["saturday, 9am"]),
                                         ("dinner at the usual place friday, 6.30 as normal", ["friday, 6.30"])])
def test_names_and_counted_weekdays_are_no_dates_of_their_own(text: str, spans: list[str]) -> None:
    assert [e.span for e in exprs(text)] == spans
