"""The contract's commands through `assistant.cli.main`: resolve, check, replay, stats, and bad
input (exit 2, one line, no traceback)."""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

from assistant.cli import main


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path / "home"))
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CALENDAR_ASSISTANT_BACKEND"):
        monkeypatch.delenv(var, raising=False)
    yield tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_resolve_single_phrase(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "resolve", "dinner next Friday at 7pm", "--now", "2025-10-22T09:15:00",
                       "--tz", "America/Los_Angeles")
    data = json.loads(out)
    assert code == 0
    starts = [c["start"] for c in data["expressions"][0]["candidates"]]
    assert starts == ["2025-10-24T19:00:00-07:00", "2025-10-31T19:00:00-07:00"]
    assert data["expressions"][0]["ambiguous"] is True


def test_resolve_batch_keeps_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "in.jsonl"
    batch.write_text("\n".join(json.dumps(x) for x in [
        {"text": "next Sunday", "now": "2025-10-20T08:00:00", "tz": "America/Los_Angeles", "id": 1},
        {"text": "in two weeks", "now": "2025-10-20T08:00:00", "tz": "America/Los_Angeles"}]) + "\n")
    code, out, _ = run(capsys, "resolve", "--batch", str(batch))
    lines = [json.loads(l) for l in out.splitlines()]
    assert code == 0 and [l["text"] for l in lines] == ["next Sunday", "in two weeks"]
    assert lines[1]["expressions"][0]["candidates"][0]["start"] == "2025-11-03"


@pytest.mark.parametrize("args, needle", [
    (["resolve", "x", "--now", "not-a-date", "--tz", "America/Los_Angeles"], "not-a-date"),
    (["resolve", "x", "--now", "2025-10-22T09:15:00", "--tz", "Mars/Olympus"], "Mars/Olympus"),
    (["check", "/nonexistent/cases.jsonl"], "no such file"),
    (["replay", "/nonexistent/x.json"], "no such file"),
    (["agenda", "--days", "many"], "many"),
    (["resolve"], "TEXT"),
])
def test_bad_input_exits_2_with_one_line(args: list[str], needle: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert needle in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_check_reports_bad_lines_and_checks_the_rest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = {"id": "g1", "user_message": "Move swim lesson to Thursday", "now": "2025-10-20T08:00:00",
            "timezone": "America/Los_Angeles", "calendar": [
                {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
                 "end": "2025-10-21T17:45:00-07:00"}],
            "tool_calls": [{"name": "update_calendar_event",
                            "input": {"event_id": "ev_swim1", "start": "2025-10-24T17:00:00"}}]}
    bad_zone = dict(good, id="g2", timezone="Mars/Olympus")
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(good) + "\n{oops\n" + json.dumps(bad_zone) + "\n")
    code, out, _ = run(capsys, "check", str(path))
    lines = [json.loads(l) for l in out.splitlines()]
    assert code == 0 and len(lines) == 3
    assert lines[0]["id"] == "g1" and lines[0]["valid"] is False and lines[0]["confidence"] == "low"
    assert "line 2" in lines[1]["error"]
    assert lines[2]["id"] == "g2" and "Mars/Olympus" in lines[2]["error"]


def test_replay_of_a_shipped_conversation(capsys: pytest.CaptureFixture[str]) -> None:
    path = resources.files("fixtures").joinpath("conversations/wrong_weekday.json")
    code, out, _ = run(capsys, "replay", str(path))
    report = json.loads(out)
    turn = report["turns"][0]
    assert code == 0
    assert turn["attempts"] == 2 and turn["rolled_back"] == ["ev_swim1"] and turn["confidence"] == "high"
    swim = next(e for e in report["calendar"] if e["id"] == "ev_swim1")
    assert swim["start"] == "2025-10-23T17:00:00-07:00"


def test_replay_question_turn_has_no_confidence(capsys: pytest.CaptureFixture[str]) -> None:
    path = resources.files("fixtures").joinpath("conversations/question_only.json")
    code, out, _ = run(capsys, "replay", str(path))
    turns = json.loads(out)["turns"]
    assert [t["confidence"] for t in turns] == [None, "high"]


def test_replay_runs_in_its_own_calendar(home: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """The person's own calendar holds an event with the very id the scenario seeds and deletes,
    in the scenario's week: after the replay it is still there, unchanged, and alone."""
    from tools.backends.local import LocalBackend
    from tools.calendar.events import event_from_contract

    path = resources.files("fixtures").joinpath("conversations/wrong_event_deleted.json")
    scenario = json.loads(path.read_text())
    mine = event_from_contract({"id": "ev_book1", "title": "My own book club", "timezone": scenario["timezone"],
                                "start": "2025-10-23T19:30:00", "end": "2025-10-23T21:00:00"},
                               scenario["timezone"])
    LocalBackend(home / "home" / "calendar.db", scenario["timezone"]).create_event("primary", mine)
    code, out, _ = run(capsys, "replay", str(path))
    report = json.loads(out)
    assert code == 0 and "ev_book1" not in {e["id"] for e in report["calendar"]}  # deleted in the replay
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", scenario["timezone"])
    code, out, _ = run(capsys, "agenda", "--json", "--now", scenario["now"])
    assert code == 0 and json.loads(out) == [mine.to_contract()]


@pytest.mark.parametrize("calendar, needle", [
    ([{"id": "ev_1", "title": "x", "start": "2025-10-21T17:00:00", "end": "2025-10-21T16:00:00"}],
     "calendar[0].end"),
    ([{"id": "ev_1", "title": "x", "start": "2025-10-21T17:00:00"},
      {"id": "ev_1", "title": "y", "start": "2025-10-22T17:00:00"}], "calendar[1].id"),
    ([{"id": "ev_1", "title": "x", "start": "2025-10-21T17:00:00", "recurrence": "RRULE:FREQ=SOMETIMES"}],
     "calendar[0].recurrence"),
])
def test_replay_refuses_a_calendar_it_could_not_seed_faithfully(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                calendar: list[dict[str, str]], needle: str) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"now": "2025-10-20T08:00:00", "timezone": "America/Los_Angeles",
                                "calendar": calendar, "turns": [{"user": "hi", "model": [[]]}]}))
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2 and needle in err and err.count("\n") == 1 and out == ""


def test_replay_refused_confirmation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    scenario = json.loads(resources.files("fixtures").joinpath("conversations/wrong_weekday.json").read_text())
    scenario["turns"] = [{"user": "cancel piano lesson and swim lesson", "confirm": False, "model": [
        [{"type": "tool_use", "name": "delete_calendar_event", "input": {"event_id": "ev_piano1"}},
         {"type": "tool_use", "name": "delete_calendar_event", "input": {"event_id": "ev_swim1"}}],
        [{"type": "text", "text": "You did not confirm, so nothing was deleted."}]]}]
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario))
    code, out, _ = run(capsys, "replay", str(path))
    report = json.loads(out)
    assert {"ev_piano1", "ev_swim1"} <= {e["id"] for e in report["calendar"]}


def test_replay_bad_scenario_names_the_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"now": "2025-10-20T08:00:00", "timezone": "America/Los_Angeles",
                                "turns": [{"model": []}]}))
    code, _, err = run(capsys, "replay", str(path))
    assert code == 2 and "turns[0].user" in err


def test_stats_counts_replayed_turns(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "replay", str(resources.files("fixtures").joinpath("conversations/wrong_weekday.json")))
    code, out, _ = run(capsys, "stats", "--json")
    figures = json.loads(out)
    assert code == 0 and figures["guarded_turns"] == 1 and figures["errors_caught"] == 1
    assert figures["retries_that_fixed_the_error"] == 1
    assert figures["reflection_calls"] == 0  # symbolic mode: two attempts, no reflection call


@pytest.mark.slow
def test_stats_counts_the_reflection_calls_that_were_made(capsys: pytest.CaptureFixture[str]) -> None:
    run(capsys, "replay", str(resources.files("fixtures").joinpath("conversations/correct_turn_reviewed.json")))
    run(capsys, "replay", str(resources.files("fixtures").joinpath("conversations/question_only.json")))
    code, out, _ = run(capsys, "stats", "--json")
    assert code == 0 and json.loads(out)["reflection_calls"] == 1


def test_stats_text_on_no_records_says_dash_not_none(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "stats")
    assert code == 0 and "None" not in out
    assert "median guard time (ms):       -" in out


def test_check_llm_makes_live_calls_only_where_needed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.scripted.fake_anthropic import FakeAnthropicServer
    from assistant.settings import DEFAULT_REFLECTION_MODEL

    cal = [{"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
            "end": "2025-10-21T17:45:00-07:00"}]
    base = {"now": "2025-10-20T08:00:00", "timezone": "America/Los_Angeles", "calendar": cal}
    verified = dict(base, id="v", user_message="Move swim lesson to Thursday", tool_calls=[
        {"name": "calculate_datetime", "input": {"expression": "Thursday"}},
        {"name": "update_calendar_event", "input": {"event_id": "ev_swim1", "start": "2025-10-23T17:00:00"}}])
    judgement = dict(base, id="j", user_message="rename swim lesson to Swimming", tool_calls=[
        {"name": "update_calendar_event", "input": {"event_id": "ev_swim1", "title": "Swim"}}])
    path = tmp_path / "cases.jsonl"
    path.write_text(json.dumps(verified) + "\n" + json.dumps(judgement) + "\n")
    answer = {"valid": False, "confidence": "low", "errors": [
        {"type": "other", "severity": "error", "issue": "the title is 'Swim', not 'Swimming'",
         "correction": "use 'Swimming'"}]}
    reply = {"content": [{"type": "text", "text": json.dumps(answer)}]}
    with FakeAnthropicServer({DEFAULT_REFLECTION_MODEL: [reply]}) as server:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
        code, out, _ = run(capsys, "check", "--llm", str(path))
        assert len(server.requests) == 1
        assert server.requests[0].body["output_config"]["format"]["type"] == "json_schema"
        assert server.requests[0].body["max_tokens"] == 1000
    lines = [json.loads(l) for l in out.splitlines()]
    assert code == 0
    assert lines[0]["llm_used"] is False and lines[0]["valid"] is True
    assert lines[1]["llm_used"] is True and lines[1]["valid"] is False and lines[1]["confidence"] == "low"


# ----------------------------------------------------------------------------- the commands' shape
def _modules(package: Path) -> list[Path]:
    return sorted(p for p in package.rglob("*.py"))


def test_every_command_module_is_registered_and_every_subcommand_has_one() -> None:
    """`assistant.cli` builds its parser from `assistant.commands`: a module left out of
    `COMMANDS` would be a command nobody can run, and a subcommand must map to one module."""
    import assistant.commands as package
    from assistant.cli import COMMANDS, build_parser

    names = {p.stem for p in Path(package.__file__).parent.glob("*.py")} - {"__init__", "usage"}
    assert {c.__name__.rsplit(".", 1)[1] for c in COMMANDS} == names  # type: ignore[attr-defined]
    parser = build_parser()
    [subparsers] = [a for a in parser._actions if a.choices and a.dest == "command"]
    for name, sub in subparsers.choices.items():
        run = sub.get_default("run")
        # a keyword (`import`) lives in a module with PEP 8's trailing underscore (`import_`)
        assert run.__module__ in (f"assistant.commands.{name}", f"assistant.commands.{name}_"), name


def test_reflection_never_imports_assistant() -> None:
    """DESIGN's import rule, with no exception left: the lessons command lives in assistant."""
    import ast

    import reflection

    offenders = []
    for path in _modules(Path(reflection.__file__).parent):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            offenders += [f"{path.name}: {n}" for n in names if n == "assistant" or n.startswith("assistant.")]
    assert offenders == []


def test_no_command_imports_the_cli_or_loads_modules_by_name() -> None:
    """Commands import `usage` for their errors; nothing reaches back into `assistant.cli` (the
    old cycle) and nothing is dispatched through module-name strings."""
    import assistant.commands as package

    root = Path(package.__file__).parent
    for path in [*_modules(root), root.parent / "cli.py"]:
        text = path.read_text(encoding="utf-8")
        assert "from assistant.cli" not in text and "import_module" not in text, path.name


def test_undo_with_nothing_recorded(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "undo")
    assert (code, out) == (0, "Nothing to undo.\n")
