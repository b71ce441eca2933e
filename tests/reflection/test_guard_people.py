"""The guard on requests as people type them: the hand-written corpus
(fixtures/corpus/guard_cases_people.jsonl, written from CONTRACT.md before the checker changed),
the certainty rule, and the parts of the request reading each check relies on."""
from __future__ import annotations

import json
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from assistant.cli import main
from reflection.case import case_from_json
from reflection.dates.resolver import resolve
from reflection.guard import Guard
from reflection.reading.event_refs import find_event_refs
from reflection.reading.event_relative import find_day_relatives, find_shifts_and_lengths
from reflection.reading.request import read_request
from tools.calendar.events import event_from_contract


def _people() -> list[dict[str, Any]]:
    text = resources.files("fixtures").joinpath("corpus/guard_cases_people.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines() if line.strip()]


PEOPLE = _people()


def _judge(case: dict[str, Any]) -> Any:
    parsed = case_from_json(case)
    return Guard(mode="symbolic").judge(parsed).verdict


@pytest.mark.parametrize("case", PEOPLE, ids=[c["id"] for c in PEOPLE])
def test_people_case(case: dict[str, Any]) -> None:
    """A right change is never called wrong; a wrong one is never judged fully verified; an error
    the code raises names the problem the label names."""
    verdict = _judge(case)
    expect = case["expect"]
    if expect["valid"]:
        assert verdict.valid, [f.issue for f in verdict.errors]
        return
    assert not verdict.valid or verdict.llm_needed, "silent miss: a wrong change judged verified"
    if not verdict.valid:
        assert {f.type for f in verdict.errors} & set(expect["error_types"]), \
            [f.issue for f in verdict.errors]


def test_people_corpus_is_large_and_balanced() -> None:
    valid = sum(1 for c in PEOPLE if c["expect"]["valid"])
    assert len(PEOPLE) >= 150 and 0.4 < valid / len(PEOPLE) < 0.7
    assert len({c["expect"]["family"] for c in PEOPLE}) >= 12


CAL = [
    {"id": "ev_vet", "title": "Vet - Biscuit", "start": "2026-03-05T10:30:00-06:00",
     "end": "2026-03-05T11:00:00-06:00", "timezone": "America/Chicago"},
    {"id": "ev_dent_leo", "title": "Dentist - Leo", "start": "2026-03-06T15:00:00-06:00",
     "end": "2026-03-06T15:45:00-06:00", "timezone": "America/Chicago"},
    {"id": "ev_dent_priya", "title": "Dentist - Priya", "start": "2026-03-06T16:00:00-06:00",
     "end": "2026-03-06T16:45:00-06:00", "timezone": "America/Chicago"},
    {"id": "ev_piano", "title": "Piano lesson", "description": "Maya - weekly lesson",
     "start": "2026-03-04T16:00:00-06:00", "end": "2026-03-04T16:45:00-06:00",
     "timezone": "America/Chicago", "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=WE"]},
    {"id": "ev_soccer", "title": "Soccer practice", "start": "2026-03-05T17:00:00-06:00",
     "end": "2026-03-05T18:30:00-06:00", "timezone": "America/Chicago"},
]
NOW = "2026-03-02T09:00:00"  # a Monday


def case(message: str, calls: list[dict[str, Any]]) -> dict[str, Any]:
    return {"id": "t", "user_message": message, "now": NOW, "timezone": "America/Chicago",
            "home_address": "14 Elm Ct, Evanston, IL", "calendar": CAL, "tool_calls": calls}


def update(event_id: str, **fields: Any) -> dict[str, Any]:
    return {"name": "update_calendar_event", "input": {"event_id": event_id, **fields}}


def create(**fields: Any) -> dict[str, Any]:
    return {"name": "create_calendar_event", "input": fields}


def test_bare_clock_time_written_as_pm_is_kept() -> None:
    """The bug that started it: "3:15" is 03:15 or 15:15, so 15:15 is right."""
    verdict = _judge(case("Add school pickup at 3:15 on Monday",
                          [create(title="School pickup", start="2026-03-09T15:15:00", end="2026-03-09T15:45:00")]))
    assert verdict.valid and not verdict.llm_needed


def test_bare_clock_time_read_as_small_hours_is_left_to_the_model() -> None:
    verdict = _judge(case("Add school pickup at 3:15 on Monday",
                          [create(title="School pickup", start="2026-03-09T03:15:00", end="2026-03-09T03:45:00")]))
    assert verdict.valid and verdict.llm_needed


def test_a_wrong_clock_time_names_every_reading_in_its_correction() -> None:
    verdict = _judge(case("Add school pickup at 3:15 on Monday",
                          [create(title="School pickup", start="2026-03-09T16:15:00", end="2026-03-09T16:45:00")]))
    assert [f.type for f in verdict.errors] == ["time"]
    assert "03:15" in verdict.errors[0].correction and "15:15" in verdict.errors[0].correction


def test_shift_is_anchored_at_the_event_not_now() -> None:
    right = _judge(case("push the vet back 30 min", [update("ev_vet", start="2026-03-05T11:00:00",
                                                            end="2026-03-05T11:30:00")]))
    from_now = _judge(case("push the vet back 30 min", [update("ev_vet", start="2026-03-02T09:30:00",
                                                               end="2026-03-02T10:00:00")]))
    assert right.valid and not right.llm_needed
    assert not from_now.valid


def test_a_shift_that_changes_the_length_is_wrong() -> None:
    verdict = _judge(case("push the vet back 30 min", [update("ev_vet", start="2026-03-05T11:00:00",
                                                              end="2026-03-05T12:00:00")]))
    assert [f.type for f in verdict.errors] == ["time"]


def test_nickname_and_possessive_name_the_event() -> None:
    ok = _judge(case("move leo's dentist to 4:30pm", [update("ev_dent_leo", start="2026-03-06T16:30:00",
                                                             end="2026-03-06T17:15:00")]))
    wrong = _judge(case("move leo's dentist to 4:30pm", [update("ev_dent_priya", start="2026-03-06T16:30:00",
                                                                end="2026-03-06T17:15:00")]))
    assert ok.valid and not ok.llm_needed
    assert [f.type for f in wrong.errors] == ["event_id"]


def test_a_near_tie_is_never_an_error() -> None:
    """"the dentist" fits two events: either one is for the model to judge, not an error."""
    for event_id in ("ev_dent_leo", "ev_dent_priya"):
        verdict = _judge(case("move the dentist to 5pm", [update(event_id, start="2026-03-06T17:00:00",
                                                                  end="2026-03-06T17:45:00")]))
        assert verdict.valid and verdict.llm_needed


def test_an_event_nobody_named_is_an_error() -> None:
    verdict = _judge(case("cancel the vet", [{"name": "delete_calendar_event", "input": {"event_id": "ev_soccer"}}]))
    assert [f.type for f in verdict.errors] == ["event_id"]


def test_series_changed_when_one_occurrence_was_asked() -> None:
    verdict = _judge(case("just this week's piano lesson to thursday same time",
                          [update("ev_piano", start="2026-03-05T16:00:00", end="2026-03-05T16:45:00")]))
    assert [f.type for f in verdict.errors] == ["event_id"]
    one = _judge(case("just this week's piano lesson to thursday same time",
                      [update("ev_piano_20260304T220000Z", start="2026-03-05T16:00:00",
                              end="2026-03-05T16:45:00")]))
    assert one.valid


def test_home_depot_is_not_home() -> None:
    verdict = _judge(case("home depot run saturday 10am",
                          [create(title="Home Depot run", start="2026-03-07T10:00:00", end="2026-03-07T11:00:00",
                                  location="14 Elm Ct, Evanston, IL")]))
    assert [f.type for f in verdict.errors] == ["location"]
    home = _judge(case("dinner at our place saturday 7pm",
                       [create(title="Dinner", start="2026-03-07T19:00:00", end="2026-03-07T21:00:00",
                               location="14 Elm Ct, Evanston, IL")]))
    assert home.valid


def test_create_instead_of_move_leaves_the_old_event_behind() -> None:
    verdict = _judge(case("move soccer practice to friday 5pm",
                          [create(title="Soccer practice", start="2026-03-06T17:00:00", end="2026-03-06T18:30:00")]))
    assert [f.type for f in verdict.errors] == ["duplicate"]


def test_one_finding_per_problem() -> None:
    """A call on the wrong event is not also judged against the other event's phrases."""
    verdict = _judge(case("move leo's dentist to 4:30pm", [update("ev_dent_priya", start="2026-03-09T08:00:00",
                                                                  end="2026-03-09T08:45:00")]))
    assert len(verdict.errors) == 1


def test_event_refs_keep_scores_and_see_typos() -> None:
    calendar = [event_from_contract(e, "America/Chicago") for e in CAL]
    refs = find_event_refs("can you move the dentsit", calendar)
    assert {c.title for c in refs[0].candidates} == {"Dentist - Leo", "Dentist - Priya"}
    assert not refs[0].certain
    vet = find_event_refs("the biscuit thing", calendar)
    assert vet[0].certain and vet[0].candidates[0].title == "Vet - Biscuit"


def test_shift_words_give_amount_and_direction() -> None:
    shifts, lengths = find_shifts_and_lengths("push it back 30 min and make it 2 hours")
    assert [(s.amount.total_seconds(), sorted(s.directions)) for s in shifts] == [(1800, [1])]
    assert [x.amount.total_seconds() for x in lengths] == [7200]
    earlier, _ = find_shifts_and_lengths("move the vet an hour earlier")
    assert sorted(earlier[0].directions) == [-1]
    assert [r.days for r in find_day_relatives("same time next week")] == [(7,)]


def test_each_mention_has_its_own_verbs() -> None:
    calendar = [event_from_contract(e, "America/Chicago") for e in CAL]
    text = "cancel soccer practice and move the vet to friday"
    reading = read_request(text, resolve(text, datetime(2026, 3, 2, 9), "America/Chicago"), calendar)
    verbs = {m.ref.candidates[0].title: m.verbs for m in reading.mentions}
    assert "delete" in verbs["Soccer practice"] and "move" in verbs["Vet - Biscuit"]
    assert "delete" not in verbs["Vet - Biscuit"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path / "home"))
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CALENDAR_ASSISTANT_BACKEND"):
        monkeypatch.delenv(var, raising=False)
    yield tmp_path


def test_replay_keeps_the_school_pickup_at_quarter_past_three(home: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = resources.files("fixtures").joinpath("conversations/school_pickup.json")
    assert main(["replay", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    turn = report["turns"][0]
    assert turn["attempts"] == 1 and turn["rolled_back"] == []
    assert turn["confidence"] in ("high", "medium")
    pickup = next(e for e in report["calendar"] if e["title"] == "School pickup")
    assert pickup["start"] == "2026-11-23T15:15:00-06:00"


def test_a_model_error_on_a_call_code_already_proved_wrong_is_not_repeated() -> None:
    data = case("cancel the vet", [{"name": "delete_calendar_event", "input": {"event_id": "ev_soccer"}}])
    data["llm_reflection"] = json.dumps({"valid": False, "confidence": "low", "errors": [
        {"type": "other", "severity": "error", "issue": "soccer deleted instead of the vet",
         "correction": "delete the vet", "call_index": 0}]})
    parsed = case_from_json(data)
    run = Guard(mode="symbolic").judge(parsed, replayed=parsed.llm_reflection)
    assert [f.source for f in run.verdict.errors] == ["symbolic"]
    assert run.dropped and run.dropped[0][0].source == "llm"
