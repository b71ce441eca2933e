"""The bring-your-own-model evaluation (bench/live, issue 28 item 10), for plumbing only: run
against the scripted fake Anthropic server, its report must hold exactly the numbers the scripted
answers produce. What a real model scores is the runner's business, not a test's.

Two cases say "Move swim lesson to Thursday" (Monday 2025-10-20): `swim` expects Thursday the
23rd, `swim-friday` deliberately expects Friday the 24th, so the scripted wrong first attempt
(Friday, caught by the guard and rolled back) is a false rollback there, and the right answer a
failure. Each scripted model answer reports 1,000 input and 10 output tokens.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from assistant.scripted.fake_anthropic import FakeAnthropicServer
from bench.live.cases import load_cases
from bench.live.checks import end_state_problems

pytestmark = pytest.mark.slow  # the installed command in a subprocess against the fake Anthropic server

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / "bench" / "live" / "run.py"
TZ = "America/Los_Angeles"
CALENDAR = [
    {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
     "end": "2025-10-21T17:45:00-07:00", "timezone": TZ, "location": "Westside Pool"},
    {"id": "ev_book1", "title": "Book club", "start": "2025-10-23T19:00:00-07:00",
     "end": "2025-10-23T21:00:00-07:00", "timezone": TZ, "location": "Library"},
]
USAGE = {"input_tokens": 1000, "output_tokens": 10}


def answer(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"content": list(blocks), "usage": USAGE}


def move_swim(day: int) -> dict[str, Any]:
    return {"type": "tool_use", "name": "update_calendar_event",
            "input": {"event_id": "ev_swim1", "start": f"2025-10-{day}T17:00:00",
                      "end": f"2025-10-{day}T17:45:00"}}


def said(words: str) -> dict[str, Any]:
    return {"type": "text", "text": words}


RIGHT = [answer({"type": "tool_use", "name": "calculate_datetime", "input": {"expression": "Thursday"}}),
         answer(move_swim(23)), answer(said("Moved the swim lesson to Thursday, October 23."))]
"""A right turn: three model answers, one attempt."""
WRONG_THEN_RIGHT = [answer(move_swim(24)), answer(said("Moved it to Thursday, October 24.")), *RIGHT]
"""Friday written for Thursday: caught, rolled back, then the right turn: five answers."""


def cases_file(folder: Path) -> Path:
    lines = [{"id": "swim", "request": "Move swim lesson to Thursday", "calendar": CALENDAR,
              "expect": [{"event": {"title": "swim"}, "start": "2025-10-23T17:00",
                          "end": "2025-10-23T17:45"}]},
             {"id": "swim-friday", "request": "Move swim lesson to Thursday", "calendar": CALENDAR,
              "expect": [{"event": {"title": "swim"}, "start": "2025-10-24T17:00"}]}]
    path = folder / "cases.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_the_report_counts_what_the_scripted_answers_produce(tmp_path: Path) -> None:
    # runs in order: swim (right, then wrong-then-right), swim-friday (wrong-then-right, then right)
    script = [*RIGHT, *WRONG_THEN_RIGHT, *WRONG_THEN_RIGHT, *RIGHT]
    out = tmp_path / "report.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ANTHROPIC_", "CALENDAR_ASSISTANT_"))}
    with FakeAnthropicServer(script) as server:
        done = subprocess.run([sys.executable, str(RUNNER), "--k", "2", "--base-url", server.base_url,
                               "--model", "bench-main", "--reflection-mode", "symbolic",
                               "--max-retries", "0", "--requests", str(cases_file(tmp_path)),
                               "--json", str(out)],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        assert not server.remaining()  # every scripted answer was used, in order
    report = json.loads(out.read_text(encoding="utf-8"))
    swim, friday = report["per_request"]
    assert (swim["successes"], swim["pass_k"], swim["rollbacks"], swim["false_rollbacks"]) == (2, True, 1, 0)
    assert (friday["successes"], friday["pass_k"], friday["rollbacks"], friday["false_rollbacks"]) == \
        (0, False, 1, 1)
    assert swim["tokens_per_turn"] == (3 * 1010 + 5 * 1010) / 2
    assert (report["runs"], report["success_rate"], report["pass_k"]) == (4, 0.5, 0.5)
    assert (report["rollbacks"], report["false_rollbacks"]) == (2, 1)
    assert report["tokens_per_turn"] == 4040.0
    assert (report["input_tokens_per_turn"], report["output_tokens_per_turn"]) == (4000.0, 40.0)
    assert "pass^2 50.0% of 2 requests" in done.stdout and "rollbacks 2 (false 1)" in done.stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.jsonl", "report.json"]  # no leftovers


def test_without_a_key_or_a_server_it_says_so(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    done = subprocess.run([sys.executable, str(RUNNER), "--k", "1"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "ANTHROPIC_API_KEY" in done.stderr


def test_the_bundled_requests_are_about_twenty_and_none_is_met_by_doing_nothing() -> None:
    cases = load_cases()
    assert 18 <= len(cases) <= 25 and len({c.id for c in cases}) == len(cases)
    for case in cases:
        seeded = case.events("primary")
        problems = end_state_problems(case.expect, seeded, seeded, case.timezone)
        if case.expect:  # a change was asked: the untouched calendar must fail it
            assert problems, case.id
        else:  # a question: nothing may change
            assert not problems, case.id
