"""The reflection call's parsing, filters, voting and modes (CONTRACT section 5)."""
from __future__ import annotations

import json
from typing import Any

import pytest

from reflection.case import case_from_json
from reflection.findings import Finding, as_confidence, median_confidence
from reflection.guard import Guard, is_high_stakes
from reflection.reflect import (
    REFLECTION_SCHEMA,
    ReflectionUnavailable,
    build_prompt,
    false_weekday_claim,
    majority,
    parse_reflection,
)
from reflection.symbolic import check_symbolic

CAL = [
    {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
     "end": "2025-10-21T17:45:00-07:00", "timezone": "America/Los_Angeles"},
    {"id": "ev_book1", "title": "Book club", "start": "2025-10-23T19:00:00-07:00",
     "end": "2025-10-23T21:00:00-07:00", "timezone": "America/Los_Angeles"},
    {"id": "ev_piano", "title": "Piano lesson", "start": "2025-10-21T15:00:00-07:00",
     "end": "2025-10-21T15:30:00-07:00", "timezone": "America/Los_Angeles",
     "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=TU"]},
]


def case(message: str, calls: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"id": "t", "user_message": message, "now": "2025-10-20T08:00:00",
            "timezone": "America/Los_Angeles", "home_address": "77 Cedar Ln", "calendar": CAL,
            "tool_calls": calls, **extra}


MOVE_OK = [{"name": "calculate_datetime", "input": {"expression": "Thursday"}},
           {"name": "update_calendar_event", "input": {"event_id": "ev_swim1", "start": "2025-10-23T17:00:00"}}]


def judge(data: dict[str, Any], mode: str = "symbolic", reflect: Any = None):  # type: ignore[no-untyped-def]
    parsed = case_from_json(data)
    guard = Guard(mode=mode, reflect=reflect)
    return guard.judge(parsed, replayed=parsed.llm_reflection) if parsed.has_llm_reflection else guard.judge(parsed)


@pytest.mark.parametrize("text", [
    '{"valid": true, "errors": [], "confidence": "high"}',
    'Sure! Here it is:\n```json\n{"valid": true, "errors": [], "confidence": "high"}\n```\nHope that helps.',
    'My review: {"valid": true, "errors": [], "confidence": "high"} -- done',
])
def test_parse_survives_fences_and_prose(text: str) -> None:
    assert parse_reflection(text)["confidence"] == "high"


@pytest.mark.parametrize("text", [None, "", "looks fine", "{not json", "[1, 2, 3]", '{"unrelated": 1}'])
def test_unreadable_answers_are_unavailable(text: str | None) -> None:
    with pytest.raises(ReflectionUnavailable):
        parse_reflection(text)


def test_false_weekday_claim_is_detected() -> None:
    assert false_weekday_claim("2025-10-21 is a Wednesday, not tomorrow", 2025)
    assert not false_weekday_claim("2025-10-21 is a Tuesday", 2025)
    assert false_weekday_claim("Thursday, October 24 is wrong", 2025)


def test_date_finding_contradicting_a_fact_is_dropped() -> None:
    answer = json.dumps({"valid": False, "confidence": "low", "errors": [
        {"type": "date", "severity": "error", "issue": "2025-10-23 is a Wednesday, not Thursday",
         "correction": "use 2025-10-24"}]})
    run = judge(case("Move swim lesson to Thursday", MOVE_OK, llm_reflection=answer))
    assert run.verdict.valid and run.verdict.llm_used
    assert run.dropped and run.dropped[0][1] == "contradicts a computed fact"


def test_process_complaint_on_correct_dates_becomes_a_warning() -> None:
    answer = json.dumps({"valid": False, "confidence": "medium", "errors": [
        {"type": "other", "severity": "error", "issue": "The assistant did not call calculate_datetime first",
         "correction": "call it"}]})
    calls = [MOVE_OK[1]]
    run = judge(case("Move swim lesson to Thursday", calls, llm_reflection=answer))
    assert run.verdict.valid
    assert [(f.type, f.severity, f.source) for f in run.verdict.findings if f.source == "llm"] == \
        [("other", "warning", "llm")]


def test_event_id_finding_is_dropped_only_when_id_exists_and_matches() -> None:
    answer = json.dumps({"valid": False, "confidence": "low", "errors": [
        {"type": "event_id", "severity": "error", "issue": "ev_swim1 may be the wrong event", "correction": "check"}]})
    assert judge(case("Move swim lesson to Thursday", MOVE_OK, llm_reflection=answer)).verdict.valid
    wrong = [{"name": "update_calendar_event", "input": {"event_id": "ev_book1", "start": "2025-10-23T17:00:00"}}]
    run = judge(case("Move swim lesson to Thursday", wrong, llm_reflection=answer.replace("ev_swim1", "ev_book1")))
    assert not run.verdict.valid
    assert "llm" in {f.source for f in run.verdict.errors}


def test_other_findings_are_kept_as_given_and_lower_confidence() -> None:
    answer = json.dumps({"valid": False, "confidence": "low", "errors": [
        {"type": "other", "severity": "error", "issue": "the title was changed to 'Swim'", "correction": "keep it"}]})
    run = judge(case("Move swim lesson to Thursday", MOVE_OK, llm_reflection=answer))
    assert not run.verdict.valid and run.verdict.confidence == "low"


def test_stated_confidence_can_only_lower() -> None:
    answer = '{"valid": true, "errors": [], "confidence": "medium"}'
    assert judge(case("Move swim lesson to Thursday", MOVE_OK, llm_reflection=answer)).verdict.confidence == "medium"


def test_an_unknown_stated_confidence_is_ignored() -> None:
    answer = '{"valid": true, "errors": [], "confidence": "certain"}'
    run = judge(case("Move swim lesson to Thursday", MOVE_OK, llm_reflection=answer))
    assert run.verdict.llm_used and run.verdict.llm_confidence is None and run.verdict.confidence == "high"


def test_voted_confidence_is_the_middle_one() -> None:
    assert median_confidence(["high", "low", "medium"]) == "medium"
    assert median_confidence(["low", "high"]) == "high"
    assert as_confidence("medium") == "medium" and as_confidence("HIGH") is None and as_confidence(2) is None


def test_the_reflection_schema_offers_exactly_the_vocabularies() -> None:
    item = REFLECTION_SCHEMA["properties"]["errors"]["items"]["properties"]
    assert REFLECTION_SCHEMA["properties"]["confidence"]["enum"] == ["high", "medium", "low"]
    assert item["severity"]["enum"] == ["error", "warning"]


@pytest.mark.parametrize("mode", ["", "never", "Auto"])
def test_an_unknown_guard_mode_is_refused(mode: str) -> None:
    with pytest.raises(ValueError, match="unknown guard mode"):
        Guard(mode=mode)  # type: ignore[arg-type]


def test_garbage_keeps_symbolic_verdict_with_reflection_unavailable() -> None:
    run = judge(case("Move swim lesson to Thursday", MOVE_OK, llm_reflection="garbage"))
    assert run.verdict.valid and run.verdict.confidence == "medium"
    assert [f.type for f in run.verdict.findings] == ["reflection_unavailable"]


def test_auto_mode_skips_the_model_when_everything_is_verified() -> None:
    calls: list[str] = []
    run = judge(case("Move swim lesson to Thursday", MOVE_OK), mode="auto",
                reflect=lambda *a: calls.append("x") or '{"valid": true, "errors": [], "confidence": "high"}')
    assert calls == [] and not run.verdict.llm_needed and run.verdict.confidence == "high"


def test_auto_mode_asks_the_model_when_judgement_is_needed() -> None:
    prompts: list[str] = []
    calls = [{"name": "update_calendar_event", "input": {"event_id": "ev_swim1", "title": "Swimming"}}]

    def reflect(system: str, prompt: str, schema: dict[str, Any]) -> str:
        prompts.append(prompt)
        return '{"valid": true, "errors": [], "confidence": "high"}'

    run = judge(case("rename swim lesson to Swimming", calls), mode="auto", reflect=reflect)
    assert len(prompts) == 1 and run.verdict.llm_used
    assert "VERIFIED FACTS" in prompts[0] and "rename swim lesson" in prompts[0]


def test_symbolic_mode_never_calls() -> None:
    run = judge(case("rename swim lesson to Swimming",
                     [{"name": "update_calendar_event", "input": {"event_id": "ev_swim1", "title": "S"}}]),
                mode="symbolic", reflect=lambda *a: pytest.fail("called"))
    assert run.verdict.llm_needed and not run.verdict.llm_used


def test_failed_live_call_is_reflection_unavailable() -> None:
    def down(*_: Any) -> str:
        raise ConnectionError("down")
    run = judge(case("rename swim lesson to Swimming",
                     [{"name": "update_calendar_event", "input": {"event_id": "ev_swim1", "title": "S"}}]),
                mode="always", reflect=down)
    assert [f.type for f in run.verdict.findings] == ["reflection_unavailable"]


def err(type_: str, call: int | None = 0) -> Finding:
    return Finding(type_, "error", f"{type_} wrong", "", "llm", call)


def test_majority_keeps_an_error_only_when_most_runs_report_it() -> None:
    runs = [[err("date"), err("location")], [err("date")], [err("event_id")]]
    kept = majority(runs)
    assert [(f.type, f.call_index) for f in kept] == [("date", 0)]
    assert majority([[err("date")], [], []]) == []
    assert majority([[err("date", 0)], [err("date", 1)], [err("date", 0)]])[0].call_index == 0


def test_voting_applies_to_high_stakes_turns_only() -> None:
    answers = iter(['{"valid": false, "errors": [{"type": "other", "severity": "error", "issue": "x", '
                    '"correction": ""}], "confidence": "low"}',
                    '{"valid": true, "errors": [], "confidence": "high"}',
                    '{"valid": true, "errors": [], "confidence": "high"}'])
    series = [{"name": "delete_calendar_event", "input": {"event_id": "ev_piano"}}]
    data = case("cancel piano lesson", series)
    assert is_high_stakes(case_from_json(data))
    run = Guard(mode="always", reflect=lambda *a: next(answers), votes=3).judge(case_from_json(data))
    assert len(run.prompts) == 3 and run.verdict.valid
    single = Guard(mode="always", reflect=lambda *a: '{"valid": true, "errors": [], "confidence": "high"}', votes=3)
    assert len(single.judge(case_from_json(case("Move swim lesson to Thursday", MOVE_OK))).prompts) == 1


def test_prompt_carries_facts_request_calls_and_delimited_calendar() -> None:
    parsed = case_from_json(case("Move swim lesson to Thursday", MOVE_OK))
    prompt = build_prompt(parsed, check_symbolic(parsed))
    assert "Move swim lesson to Thursday" in prompt
    assert "2025-10-23T17:00:00 is a Thursday" in prompt
    assert "<calendar_data" in prompt and "Home address: 77 Cedar Ln" in prompt
