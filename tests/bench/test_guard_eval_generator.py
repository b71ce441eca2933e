"""The guard evaluation generator (bench/guard_eval): deterministic, big enough, well-formed, true.

These tests never run the guard: its scores are the runner's business, not a test's.
"""

from __future__ import annotations

import json
import re
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
        creates = [x for x in _writes(c) if x["name"] == "create_calendar_event"]
        if len(creates) != 1:
            continue
        zone = c["timezone"]
        start = _parse(creates[0]["input"]["start"], creates[0]["input"].get("timezone", zone))
        day = start.astimezone(ZoneInfo(zone)).date()
        today = datetime.fromisoformat(c["now"]).date()
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
