"""bench/guard_mutants.py: the mutants it makes are the right case moved, and a guard that holds
a time said proves them wrong (so none is reported as still verified)."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import guard_mutants as gm

CASE: dict[str, Any] = {
    "id": "m1", "user_message": "add the dentist friday at 3pm", "now": "2026-03-02T09:00:00",
    "timezone": "America/Los_Angeles", "home_address": "1 Elm St", "calendar": [],
    "tool_calls": [{"name": "create_calendar_event",
                    "input": {"title": "Dentist", "start": "2026-03-06T15:00:00", "end": "2026-03-06T16:00:00"},
                    "result": {"id": "ev1", "title": "Dentist", "start": "2026-03-06T15:00:00-08:00",
                               "end": "2026-03-06T16:00:00-08:00"}}],
    "expect": {"valid": True}}


@pytest.mark.parametrize("value, hours, moved", [("2026-03-06", 24, "2026-03-07"), ("2026-03-06", 1, None),
                                                 ("2026-03-06T15:00:00Z", 1, "2026-03-06T16:00:00Z"),
                                                 ("2026-03-06T15:00:00-08:00", 24, "2026-03-07T15:00:00-08:00")])
def test_a_value_is_moved_as_it_was_written(value: str, hours: int, moved: str | None) -> None:
    assert gm.shifted(value, gm.timedelta(hours=hours)) == moved


def test_each_mutant_moves_the_write_in_its_input_and_result_and_leaves_the_case_alone() -> None:
    made = dict(gm.mutants(CASE))
    assert sorted(made) == ["day+1@0", "day+7@0", "hour+1@0"]
    assert len(dict(gm.mutants(CASE, with_end=True))) == 4
    week = made["day+7@0"]["tool_calls"][0]
    assert week["input"]["start"] == "2026-03-13T15:00:00" and week["result"]["end"] == "2026-03-13T16:00:00-08:00"
    assert CASE["tool_calls"][0]["input"]["start"] == "2026-03-06T15:00:00"


def test_a_time_said_proves_every_moved_write_wrong(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "c.jsonl"
    corpus.write_text(json.dumps(CASE) + "\n", encoding="utf-8")
    assert gm.verified(CASE)
    assert gm.main([str(corpus)]) == 0
    out = capsys.readouterr()
    assert out.out == "" and "0 of 3 mutants still verified in full" in out.err
