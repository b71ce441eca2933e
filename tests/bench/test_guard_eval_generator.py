"""The guard evaluation generator (bench/guard_eval): deterministic, big enough, well-formed, true.

These tests never run the guard: its scores are the runner's business, not a test's.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.guard_eval import generate as gen
from bench.guard_eval.scenarios import FAMILIES

MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
OCCURRENCE = re.compile(r"^(?P<series>.+)_(?P<stamp>\d{8}T\d{6}Z)$")


@pytest.fixture(scope="module")
def cases() -> list[dict[str, Any]]:
    return gen.generate()


def _parse(value: str, zone: str) -> datetime:
    """An input datetime as an aware instant: ``Z``, an offset, or naive local in ``zone``."""
    dt = datetime.fromisoformat(value)  # 3.11+ reads a trailing Z
    return dt if dt.tzinfo else dt.replace(tzinfo=ZoneInfo(zone))


def _writes(case: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for call in case["tool_calls"]:
        if call["name"] == "bulk_update_calendar_events":
            out += [{"name": "update_calendar_event", "input": u} for u in call["input"]["updates"]]
        elif call["name"] != "calculate_datetime":
            out.append(call)
    return out


def test_same_seed_same_cases_and_another_seed_differs() -> None:
    first = gen.generate(seed=7, count=300)
    assert first == gen.generate(seed=7, count=300)
    assert first != gen.generate(seed=8, count=300)


@pytest.mark.slow
def test_default_run_has_5000_cases_every_family_correct_and_wrong(cases: list[dict[str, Any]]) -> None:
    assert len(cases) >= 5000
    assert len({c["id"] for c in cases}) == len(cases)
    share = sum(c["expect"]["valid"] for c in cases) / len(cases)
    assert 0.5 <= share <= 0.6
    for family in FAMILIES:
        kinds = {c["expect"]["valid"] for c in cases if c["expect"]["family"] == family}
        assert kinds == {True, False}, family
    assert all(c["expect"]["mutation"] is None for c in cases if c["expect"]["valid"])
    assert all(c["expect"]["mutation"] for c in cases if not c["expect"]["valid"])


def test_every_case_has_the_section_5_shape_and_real_offsets(cases: list[dict[str, Any]]) -> None:
    for c in cases:
        assert set(c) >= {"id", "user_message", "now", "timezone", "home_address", "calendar", "tool_calls", "expect"}
        zone = ZoneInfo(c["timezone"])
        assert datetime.fromisoformat(c["now"]).tzinfo is None
        assert 5 <= len(c["calendar"]) <= 11
        for ev in c["calendar"]:
            if ev["all_day"]:
                assert date.fromisoformat(ev["start"]) < date.fromisoformat(ev["end"])
                continue
            for key in ("start", "end"):
                written = datetime.fromisoformat(ev[key])
                real = written.astimezone(ZoneInfo(ev["timezone"])).utcoffset()
                assert written.utcoffset() == real, (c["id"], ev[key])
        assert zone is not None
        assert all(set(call) >= {"name", "input"} for call in c["tool_calls"])


def test_correct_cases_write_real_offsets(cases: list[dict[str, Any]]) -> None:
    for c in (c for c in cases if c["expect"]["valid"]):
        for call in _writes(c):
            for key in ("start", "end"):
                value = call["input"].get(key)
                if value and ("+" in value[10:] or value[10:].count("-")):
                    written = datetime.fromisoformat(value)
                    zones = {c["timezone"], call["input"].get("timezone", c["timezone"])}
                    zones |= {e["timezone"] for e in c["calendar"]}
                    assert any(written.astimezone(ZoneInfo(z)).utcoffset() == written.utcoffset()
                               for z in zones | {"Asia/Tokyo", "Europe/London", "America/New_York",
                                                 "Australia/Sydney", "Europe/Berlin", "America/Los_Angeles",
                                                 "America/Chicago", "Asia/Kolkata", "Europe/Paris"}), (c["id"], value)


def _is_occurrence(event_id: str, calendar: list[dict[str, Any]]) -> bool:
    """``<series id>_<original start in UTC>`` of a weekly series, at its weekday and local time."""
    m = OCCURRENCE.match(event_id)
    series = next((e for e in calendar if m and e["id"] == m["series"] and e["recurrence"]), None)
    if m is None or series is None:
        return False
    zone = ZoneInfo(series["timezone"])
    orig = datetime.strptime(m["stamp"], "%Y%m%dT%H%M%SZ").replace(tzinfo=UTC).astimezone(zone)
    first = datetime.fromisoformat(series["start"]).astimezone(zone)
    byday = series["recurrence"][0].split("BYDAY=")[1]
    return (["MO", "TU", "WE", "TH", "FR", "SA", "SU"][orig.weekday()] == byday
            and orig.time() == first.time() and orig >= first)


def test_correct_ids_exist_or_are_real_occurrences(cases: list[dict[str, Any]]) -> None:
    seen_occurrence = False
    for c in (c for c in cases if c["expect"]["valid"]):
        ids = {e["id"] for e in c["calendar"]}
        for call in _writes(c):
            event_id = call["input"].get("event_id")
            if event_id is None:
                continue
            if event_id not in ids:
                assert _is_occurrence(event_id, c["calendar"]), (c["id"], event_id)
                seen_occurrence = True
    assert seen_occurrence


def test_wrong_occurrence_ids_are_really_other_occurrences(cases: list[dict[str, Any]]) -> None:
    wrong = [c for c in cases if c["expect"]["mutation"] in ("wrong_occurrence", "bad_occurrence_id")]
    assert wrong
    for c in wrong:
        event_id = _writes(c)[0]["input"]["event_id"]
        assert _is_occurrence(event_id, c["calendar"]) == (c["expect"]["mutation"] == "wrong_occurrence")


_DAYS, _MONTHS = "|".join(WEEKDAYS), "|".join(MONTHS)
EXPLICIT = re.compile(rf"\b({_DAYS}), ({_MONTHS}) (\d{{1,2}})\b")


def test_correct_creates_land_on_the_day_the_message_names(cases: list[dict[str, Any]]) -> None:
    """Recomputed here from the message alone: "Friday, October 31" and "tomorrow"."""
    checked = 0
    for c in cases:
        if not c["expect"]["valid"] or "time" in c["user_message"] or c["expect"]["family"] == "travel_zone":
            continue
        if c["expect"]["scenario"].startswith("unread_city"):  # "3pm melbourne": the day is Melbourne's
            continue
        creates = [x for x in _writes(c) if x["name"] == "create_calendar_event"]
        if len(creates) != 1:
            continue
        zone = c["timezone"]
        today = datetime.fromisoformat(c["now"]).date()
        if creates[0]["input"].get("all_day"):  # a span of days: every day named lies inside it
            first = date.fromisoformat(creates[0]["input"]["start"])
            end = date.fromisoformat(creates[0]["input"]["end"])
            for m in EXPLICIT.finditer(c["user_message"]):
                named = next(first + timedelta(days=k) for k in range(400)
                             if (first + timedelta(days=k)).day == int(m[3])
                             and MONTHS[(first + timedelta(days=k)).month - 1] == m[2])
                assert first <= named < end and WEEKDAYS[named.weekday()] == m[1], c["id"]
                checked += 1
            continue
        start = _parse(creates[0]["input"]["start"], creates[0]["input"].get("timezone", zone))
        day = start.astimezone(ZoneInfo(zone)).date()
        m = EXPLICIT.search(c["user_message"])
        if m:
            assert WEEKDAYS[day.weekday()] == m[1] and MONTHS[day.month - 1] == m[2] and day.day == int(m[3]), c["id"]
            checked += 1
        elif re.search(r"\btomorrow\b(?! afternoon)", c["user_message"], re.IGNORECASE) and "after tomorrow" not in \
                c["user_message"].lower():
            assert day == today + timedelta(days=1), c["id"]
            checked += 1
    assert checked >= 50


def test_ampm_swaps_only_where_the_phrase_fixes_am_or_pm(cases: list[dict[str, Any]]) -> None:
    swaps = [c for c in cases if c["expect"]["mutation"] == "ampm_swap"]
    assert swaps
    fixed = re.compile(r"\d\s*(am|pm|a\.m\.|p\.m\.)|\d{2}:\d{2}|noon|in the (morning|afternoon|evening)", re.IGNORECASE)
    for c in swaps:
        assert fixed.search(c["user_message"]), c["user_message"]


def test_cli_writes_cases_and_rejects_a_bad_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert gen.main(["--out", str(tmp_path), "--seed", "3", "--count", "40"]) == 0
    lines = (tmp_path / "cases.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == gen.generate(seed=3, count=40)
    assert gen.main(["--out", str(tmp_path), "--count", "0"]) == 2
    assert "--count" in capsys.readouterr().err


# ---------------------------------------------------------------- the newer families' truths
# Each truth is recomputed here from the message and the calendar alone (CONTRACT §4), not from the
# generator's own bookkeeping.

NEW_FAMILIES = ("current_state", "day_range", "unread_words", "chained", "free_time_words", "pinned",
                "created_values", "no_start", "duplicate_once", "ordinal_day")


def _family(cases: list[dict[str, Any]], family: str, valid: bool | None = None) -> list[dict[str, Any]]:
    return [c for c in cases if c["expect"]["family"] == family and (valid is None or c["expect"]["valid"] == valid)]


def _event(case: dict[str, Any], event_id: str) -> dict[str, Any]:
    return next(e for e in case["calendar"] if e["id"] == event_id)


def _local(value: str, call: dict[str, Any], case: dict[str, Any]) -> datetime:
    """A written datetime seen on the wall clock of the user's zone."""
    return _parse(value, call["input"].get("timezone", case["timezone"])).astimezone(ZoneInfo(case["timezone"]))


def _wall_shift(start: datetime, zone: str, delta: timedelta) -> datetime:
    """``start`` moved by ``delta`` on the wall clock of ``zone`` (days keep their time across DST)."""
    tz = ZoneInfo(zone)
    wall = start.astimezone(tz).replace(tzinfo=None) + delta
    return wall.replace(tzinfo=tz).astimezone(UTC).astimezone(tz)


def test_new_families_have_300_cases_each_right_and_wrong(cases: list[dict[str, Any]]) -> None:
    assert set(NEW_FAMILIES) <= set(FAMILIES)
    for family in NEW_FAMILIES:
        mine = _family(cases, family)
        assert len(mine) >= 300, (family, len(mine))
        assert len(_family(cases, family, True)) >= 100 and len(_family(cases, family, False)) >= 100, family
        assert any("?" in c["user_message"] for c in mine), family
        assert any(re.search(r"[.?!] [A-Z]", c["user_message"]) for c in mine), family  # several sentences


AMOUNT = {"30 min": 30, "half an hour": 30, "15 minutes": 15, "45 minutes": 45, "an hour": 60, "1 hour": 60,
          "two hours": 120, "90 minutes": 90}


def _state_change(message: str) -> timedelta:
    """The change asked after a current-state statement, read from the message's second part."""
    change = message.lower().split("?", 1)[-1] if "?" in message[:-1] else message.lower().split(". ", 1)[-1]
    if "next week" in change or "a week" in change:
        return timedelta(days=7)
    if "day before" in change or "a day earlier" in change:
        return timedelta(days=-1)
    if "day" in change:
        return timedelta(days=1)
    minutes = next(v for k, v in AMOUNT.items() if k in change)
    return timedelta(minutes=minutes if ("later" in change or "back" in change) else -minutes)


def test_current_state_right_writes_are_anchored_at_the_event_not_the_stated_words(
        cases: list[dict[str, Any]]) -> None:
    checked = 0
    for c in _family(cases, "current_state", True):
        (call,) = _writes(c)
        ev = _event(c, call["input"]["event_id"])
        start = datetime.fromisoformat(ev["start"])
        expected = _wall_shift(start, ev["timezone"], _state_change(c["user_message"]))
        written = _local(call["input"]["start"], call, c)
        assert written == expected, (c["id"], c["user_message"], written, expected)
        assert written != start
        end = _local(call["input"]["end"], call, c)
        assert end - written == datetime.fromisoformat(ev["end"]) - start  # the length is kept
        checked += 1
    assert checked >= 100
    for c in _family(cases, "current_state", False):
        if c["expect"]["mutation"] in ("stated_time", "stated_twin"):
            (call,) = _writes(c)
            ev = _event(c, call["input"]["event_id"])
            stated = datetime.fromisoformat(ev["start"])
            change = _state_change(c["user_message"])
            written = _local(call["input"]["start"], call, c)
            if c["expect"]["mutation"] == "stated_time":
                assert written == stated, c["id"]
            else:  # the other half of the day, with the change applied or not
                twin = _wall_shift(stated, ev["timezone"], timedelta(hours=-12 if stated.hour >= 12 else 12))
                assert written in (twin, _wall_shift(twin, ev["timezone"], change)), c["id"]
            assert written != _wall_shift(stated, ev["timezone"], change), c["id"]


RANGE = re.compile(r"\b(\d{1,2})(?::(\d{2}))?(?:-| to )(\d{1,2})(?::(\d{2}))?\b")


def _range_readings(message: str) -> list[tuple[int, int]]:
    """(start, end) minutes after midnight of each reading of the range in ``message`` (CONTRACT §4)."""
    m = RANGE.search(message)
    assert m, message
    s = int(m[1]) * 60 + int(m[2] or 0)
    e = int(m[3]) * 60 + int(m[4] or 0)
    if e <= s:  # "11-1": the end in the other half, 11:00-13:00
        return [(s, e + 720)]
    return [(s, e), (s + 720, e + 720)]


def test_day_range_right_writes_are_inside_one_reading_of_the_range(cases: list[dict[str, Any]]) -> None:
    checked = 0
    for c in _family(cases, "day_range", True):
        (call,) = _writes(c)
        start = _local(call["input"]["start"], call, c)
        end = _local(call["input"]["end"], call, c)
        begin = start.hour * 60 + start.minute
        length = int((end - start).total_seconds() // 60)
        assert any(begin == s and length == e - s for s, e in _range_readings(c["user_message"])), (
            c["id"], c["user_message"], start, end)
        checked += 1
    assert checked >= 100
    for c in _family(cases, "day_range", False):
        mutation = c["expect"]["mutation"]
        writes = _writes(c)
        if mutation == "month_day":
            m = RANGE.search(c["user_message"])
            assert m
            start = writes[0]["input"]["start"][:10]
            assert start[5:] == f"{int(m[1]):02d}-{int(m[3]):02d}", c["id"]
        if mutation in ("wrong_length", "length_changed"):
            start = _local(writes[0]["input"]["start"], writes[0], c)
            end = _local(writes[0]["input"]["end"], writes[0], c)
            lengths = {e - s for s, e in _range_readings(c["user_message"])}
            assert int((end - start).total_seconds() // 60) not in lengths, c["id"]


MISSPELT = {"mondy": 0, "monady": 0, "mnoday": 0, "tuesdy": 1, "teusday": 1, "tusday": 1, "wensday": 2,
            "wednsday": 2, "wendsday": 2, "thrusday": 3, "thursdy": 3, "thurday": 3, "fridy": 4, "firday": 4,
            "friady": 4, "saterday": 5, "satruday": 5, "sautrday": 5, "sundy": 6, "snuday": 6, "suday": 6}


def _weekday_reading(today: date, weekday: int) -> set[date]:
    first = today + timedelta(days=(weekday - today.weekday()) % 7)
    return {first, first + timedelta(days=7)} if first == today else {first}


def test_unread_words_right_writes_take_the_natural_reading(cases: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for c in _family(cases, "unread_words", True):
        msg = c["user_message"].lower()
        today = datetime.fromisoformat(c["now"]).date()
        call = _writes(c)[0]
        day = _local(call["input"]["start"], call, c).date()
        words = re.findall(r"[a-z0-9]+", msg)
        typo = [w for w in words if w in MISSPELT]
        weeks = re.search(r"\b(a week|a fortnight|two weeks) from (\w+)", msg)
        if weeks:
            k = 7 if weeks[1] == "a week" else 14
            wd = [w.lower() for w in WEEKDAYS].index(weeks[2])
            assert day in {d + timedelta(days=k) for d in _weekday_reading(today, wd)}, c["id"]
            seen.add("weeks_from")
        elif typo:
            assert day.weekday() == MISSPELT[typo[0]] and 1 <= (day - today).days <= 6, c["id"]
            seen.add("misspelled")
        elif set(words) & {"2moro", "2morrow", "2morow", "tmrw"}:
            assert day == today + timedelta(days=1), c["id"]
            seen.add("tomorrow")
        elif set(words) & {"2nite", "2night"}:
            written = _local(call["input"]["start"], call, c)
            assert written.date() == today and written.hour >= 17, c["id"]
            seen.add("tonight")
        elif re.search(r"\b(his|her|their) time\b", msg):
            city = next(x for x in ("Tokyo", "London", "New York", "Sydney", "Berlin", "LA", "Chicago", "Mumbai",
                                    "Paris") if any(x in (e["location"] or "") + (e["description"] or "")
                                                    for e in c["calendar"]))
            assert city not in c["user_message"], c["id"]  # only the calendar names the city
            seen.add("his_time")
        else:
            assert "time" not in msg.split(" ")[-3:], c["id"]
            seen.add("city")
    assert seen == {"weeks_from", "misspelled", "tomorrow", "tonight", "his_time", "city"}


def test_chained_right_writes_start_the_second_event_at_the_first_ones_new_end(cases: list[dict[str, Any]]) -> None:
    checked = 0
    for c in _family(cases, "chained", True):
        first, second = _writes(c)
        ev = _event(c, first["input"]["event_id"])
        old_end = datetime.fromisoformat(ev["end"])
        new_end = _local(first["input"]["end"], first, c)
        assert new_end != old_end
        assert _local(second["input"]["start"], second, c) == new_end, c["id"]
        checked += 1
    assert checked >= 100
    for c in _family(cases, "chained", False):
        if c["expect"]["mutation"] == "old_end":
            first, second = _writes(c)
            old_end = datetime.fromisoformat(_event(c, first["input"]["event_id"])["end"])
            assert _local(second["input"]["start"], second, c) == old_end, c["id"]


def _timed_overlap(case: dict[str, Any], call: dict[str, Any]) -> bool:
    start = _local(call["input"]["start"], call, case)
    end = _local(call["input"]["end"], call, case)
    return any(not e["all_day"] and datetime.fromisoformat(e["start"]) < end
               and start < datetime.fromisoformat(e["end"]) for e in case["calendar"])


def test_free_time_words_right_creates_are_free_and_wrong_ones_overlap(cases: list[dict[str, Any]]) -> None:
    right = _family(cases, "free_time_words", True)
    assert right
    for c in right:
        (call,) = _writes(c)
        assert "end" in call["input"] and not _timed_overlap(c, call), c["id"]
        assert c["expect"]["expect_warning_types"] == [] and c["expect"]["error_types"] == []
        minutes = re.search(r"free (\d+) min|free (half hour)|open (hour)|free (45) minutes", c["user_message"])
        if minutes:
            start = _local(call["input"]["start"], call, c)
            length = (_local(call["input"]["end"], call, c) - start).total_seconds() / 60
            assert length == {"half hour": 30, "hour": 60}.get(next(g for g in minutes.groups() if g), None) or \
                length == int(next(g for g in minutes.groups() if g)), c["id"]
    conflicts = [c for c in _family(cases, "free_time_words", False)
                 if c["expect"]["mutation"] in ("overlaps_busy", "runs_into_busy")]
    assert conflicts
    for c in conflicts:
        assert _timed_overlap(c, _writes(c)[0]) and c["expect"]["error_types"] == ["conflict"], c["id"]


KEEPS_END = ("same end", "keep the end", "end time stays", "still end at the same time")
KEEPS_START = ("keep the start", "same start", "change the start", "longer", "shorter", "short by", "more at the end",
               "to the end of", "shorten")


def test_pinned_right_writes_keep_the_pinned_part(cases: list[dict[str, Any]]) -> None:
    checked = 0
    for c in _family(cases, "pinned", True):
        (call,) = _writes(c)
        ev = _event(c, call["input"]["event_id"])
        msg = c["user_message"].lower()
        if any(k in msg for k in KEEPS_END):
            assert "end" not in call["input"] or _local(call["input"]["end"], call, c) == \
                datetime.fromisoformat(ev["end"]), c["id"]
            assert _local(call["input"]["start"], call, c) != datetime.fromisoformat(ev["start"])
        else:
            assert any(k in msg for k in KEEPS_START), c["user_message"]
            assert "start" not in call["input"] or _local(call["input"]["start"], call, c) == \
                datetime.fromisoformat(ev["start"]), c["id"]
            assert _local(call["input"]["end"], call, c) != datetime.fromisoformat(ev["end"])
        checked += 1
    assert checked >= 100
    for c in _family(cases, "pinned", False):
        if c["expect"]["mutation"] == "pinned_moved":
            (call,) = _writes(c)
            ev = _event(c, call["input"]["event_id"])
            kept_end = _local(call["input"]["end"], call, c) == datetime.fromisoformat(ev["end"])
            kept_start = _local(call["input"]["start"], call, c) == datetime.fromisoformat(ev["start"])
            assert not (kept_end if any(k in c["user_message"].lower() for k in KEEPS_END) else kept_start), c["id"]


PEOPLE = ("Leo", "Maya", "Sam", "Dana", "Priya", "Alex", "Jordan", "Noah", "Zoe", "Ava")


def _named_day(phrase: str, today: date) -> date:
    """A unique day phrase: "tomorrow", "(this) Friday", "(Friday,) October 31"."""
    phrase = phrase.strip().removeprefix("this ")
    if phrase == "tomorrow":
        return today + timedelta(days=1)
    m = re.search(rf"({_MONTHS}) (\d{{1,2}})", phrase)
    if m:
        return next(today + timedelta(days=k) for k in range(1, 400)
                    if MONTHS[(today + timedelta(days=k)).month - 1] == m[1] and (today + timedelta(days=k)).day
                    == int(m[2]))
    wd = [w.lower() for w in WEEKDAYS].index(phrase.lower())
    return today + timedelta(days=(wd - today.weekday()) % 7 or 7)


SPAN = re.compile(rf"((?:(?:this )?(?:{_DAYS}|{_DAYS.lower()})(?:, (?:{_MONTHS}) \d{{1,2}})?)|(?:{_MONTHS}) \d{{1,2}}|"
                  rf"tomorrow) (and|through|until) ((?:this )?(?:(?:{_DAYS}|{_DAYS.lower()})(?:, (?:{_MONTHS}) "
                  rf"\d{{1,2}})?|(?:{_MONTHS}) \d{{1,2}}))")


def test_created_values_titles_name_the_person_and_spans_cover_the_days(cases: list[dict[str, Any]]) -> None:
    titled = spans = 0
    for c in _family(cases, "created_values"):
        writes = _writes(c)
        mutation = c["expect"]["mutation"]
        if c["expect"]["scenario"] == "created_title" and mutation in (None, "title_other_person"):
            named = {p for p in PEOPLE if re.search(rf"\b{p}\b", c["user_message"])}
            in_title = {p for p in PEOPLE if re.search(rf"\b{p}\b", writes[0]["input"]["title"])}
            assert len(named) == 1 and len(in_title) == 1, c["id"]
            assert (in_title == named) == c["expect"]["valid"], c["id"]
            assert c["expect"]["error_types"] == ([] if c["expect"]["valid"] else ["other"])
            titled += 1
        if c["expect"]["scenario"].startswith("created_span") and mutation in (None, "span_shorter", "span_longer"):
            (call,) = writes
            assert call["input"]["all_day"] is True
            today = datetime.fromisoformat(c["now"]).date()
            first = date.fromisoformat(call["input"]["start"])
            end = date.fromisoformat(call["input"]["end"])
            m = SPAN.search(c["user_message"])
            if m:
                a, b = _named_day(m[1], today), _named_day(m[3], today)
                last = b if m[2] != "and" else a + timedelta(days=1)
                assert first == a, c["id"]
                assert (end == last + timedelta(days=1)) == c["expect"]["valid"], c["id"]  # exclusive end
                spans += 1
            assert c["expect"]["error_types"] == ([] if c["expect"]["valid"] else ["date"])
    assert titled >= 50 and spans >= 50


def test_no_start_right_writes_have_no_start_and_occurrence_ids_are_checked(cases: list[dict[str, Any]]) -> None:
    deletes = 0
    for c in _family(cases, "no_start", True):
        (call,) = _writes(c)
        assert "start" not in call["input"], c["id"]
        if call["name"] == "delete_calendar_event":
            assert _is_occurrence(call["input"]["event_id"], c["calendar"]), c["id"]
            deletes += 1
        else:
            ev = next(e for e in c["calendar"] if call["input"]["event_id"].startswith(e["id"]))
            end = _local(call["input"]["end"], call, c)
            assert end.date() == datetime.fromisoformat(ev["start"]).astimezone(end.tzinfo).date() or \
                call["input"]["event_id"] != ev["id"], c["id"]
    assert deletes >= 30
    stamped = [c for c in cases if c["expect"]["mutation"] == "occurrence_stamp_local"]
    assert stamped
    for c in stamped:
        assert not _is_occurrence(_writes(c)[0]["input"]["event_id"], c["calendar"]), c["id"]


def test_duplicate_once_labels_one_error_type_and_bulk_forms(cases: list[dict[str, Any]]) -> None:
    for c in _family(cases, "duplicate_once"):
        exp = c["expect"]
        if exp["valid"]:
            assert exp["error_types"] == []
        elif exp["mutation"] in ("one_wrong_day", "copy_created", "created_twice"):
            assert exp["error_types"] == {"one_wrong_day": ["date"]}.get(exp["mutation"], ["duplicate"])
        if exp["scenario"].startswith("once_bulk"):
            assert exp["form"].startswith("bulk")
            assert any(call["name"] == "bulk_update_calendar_events" for call in c["tool_calls"])
        if exp["mutation"] == "copy_created":
            creates = [x for x in _writes(c) if x["name"] == "create_calendar_event"]
            updates = [x for x in _writes(c) if x["name"] == "update_calendar_event"]
            assert len(creates) == 1
            assert any(_local(u["input"]["start"], u, c) == _local(creates[0]["input"]["start"], creates[0], c)
                       for u in updates), c["id"]


ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4}


def _nth(year: int, month: int, weekday: int, n: int) -> date:
    if n == -1:
        last = date(year + (month == 12), month % 12 + 1, 1) - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _ordinal_day(message: str, today: date) -> date:
    """CONTRACT §4: the n-th weekday of a month (today or later), the last weekday of the month (this
    month's when today or later), weekday the n-th and the n-th (the first date on or after today)."""
    low = message.lower()
    days = [w.lower() for w in WEEKDAYS]
    m = re.search(r"the (first|second|third|fourth) (\w+day) of (\w+)", low)
    if m:
        month = [x.lower() for x in MONTHS].index(m[3]) + 1
        d = _nth(today.year, month, days.index(m[2]), ORDINALS[m[1]])
        return d if d >= today else _nth(today.year + 1, month, days.index(m[2]), ORDINALS[m[1]])
    m = re.search(r"the last (\w+day) of the month", low)
    if m:
        d = _nth(today.year, today.month, days.index(m[1]), -1)
        if d >= today:
            return d
        return _nth(today.year + (today.month == 12), today.month % 12 + 1, days.index(m[1]), -1)
    m = re.search(r"(?:(\w+day) )?the (\d{1,2})(?:st|nd|rd|th)", low)
    assert m, message
    wd = days.index(m[1]) if m[1] else None
    return next(today + timedelta(days=k) for k in range(400) if (today + timedelta(days=k)).day == int(m[2])
                and (wd is None or (today + timedelta(days=k)).weekday() == wd))


def test_ordinal_day_right_writes_land_on_the_ordinal_day(cases: list[dict[str, Any]]) -> None:
    checked = 0
    for c in _family(cases, "ordinal_day"):
        call = _writes(c)[0]
        if "start" not in call["input"] or call["name"] != c["tool_calls"][-1]["name"]:
            continue
        mutation = c["expect"]["mutation"]
        if not (c["expect"]["valid"] or mutation.startswith("ordinal_") or mutation in ("day_off", "wrong_weekday")):
            continue  # a time mutation may cross midnight; it is not about the day
        today = datetime.fromisoformat(c["now"]).date()
        day = _local(call["input"]["start"], call, c).date()
        assert (day == _ordinal_day(c["user_message"], today)) == c["expect"]["valid"], (c["id"], c["user_message"])
        checked += 1
    assert checked >= 200


def test_default_run_is_the_same_in_another_process(tmp_path: Path) -> None:
    """No set or hash order leaks into the cases: two processes with different hash seeds agree."""
    outs = []
    for hash_seed in ("1", "2"):
        out = tmp_path / hash_seed
        subprocess.run([sys.executable, str(Path(gen.__file__)), "--out", str(out), "--count", "600"], check=True,
                       env={**os.environ, "PYTHONHASHSEED": hash_seed}, capture_output=True)
        outs.append((out / "cases.jsonl").read_text(encoding="utf-8"))
    assert outs[0] == outs[1]
