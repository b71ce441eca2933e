"""Bad input and private files (issue 13): the config file, the data dir and its databases, and
the commands' one-line errors. Each test names the behaviour it pins; every CLI failure must be
exit 2 with exactly one line on stderr and no traceback."""
from __future__ import annotations

import json
import os
import stat
import tomllib
from importlib import resources
from pathlib import Path

import pytest
from conftest import PERSON_TZ

from assistant.cli import main
from assistant.settings import Settings, SettingsError, load_settings, save_setting
from tools.store.database import Store


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def one_line_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> str:
    code = main(argv)
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err, captured.err
    assert needle in captured.err, captured.err
    return captured.err


# ----------------------------------------------------------------------------- config file
def test_saved_key_is_private_and_atomic(home: Path) -> None:
    settings = load_settings()
    save_setting(settings, "api_key", "sk-ant-secret-1")
    path = home / "config.toml"
    assert mode(path) == 0o600
    assert tomllib.loads(path.read_text())["api_key"] == "sk-ant-secret-1"
    assert [p.name for p in home.iterdir() if p.name.endswith(".tmp")] == []


def test_saving_a_key_keeps_the_persons_comments_and_other_settings(home: Path) -> None:
    path = home / "config.toml"
    path.write_text('# my settings\nhome_address = "1 Elm St"  # the house\napi_key = "old"\n\n'
                    '[places]\n# where grandma lives\n"Grandma\'s" = "5 Oak Rd"\n')
    save_setting(load_settings(), "api_key", "sk-ant-new")
    text = path.read_text()
    assert "# my settings" in text and "# where grandma lives" in text and "# the house" in text
    data = tomllib.loads(text)
    assert data == {"home_address": "1 Elm St", "api_key": "sk-ant-new",
                    "places": {"Grandma's": "5 Oak Rd"}}


@pytest.mark.parametrize("value", ['line one\nline two', 'quote " and \\ backslash', "tab\tand é"])
def test_any_string_value_round_trips(home: Path, value: str) -> None:
    """The hand-written writer wrote a file that no longer loaded for a value with a newline."""
    (home / "config.toml").write_text('model = "m"\n[places]\nschool = "1 School Rd"\n')
    save_setting(load_settings(), "home_address", value)
    assert load_settings().home_address == value
    assert load_settings().places == {"school": "1 School Rd"}


@pytest.mark.parametrize("line, needle", [
    ("turn_token_budget = -1", "turn_token_budget"),
    ('model = ""', "model"),
    ("max_rounds = 0", "max_rounds"),
    ("reflection_model = 3", "reflection_model"),
    ('max_tokens = "lots"', "max_tokens"),
])
def test_unusable_settings_exit_2_naming_the_key(home: Path, capsys: pytest.CaptureFixture[str],
                                                 line: str, needle: str) -> None:
    (home / "config.toml").write_text(line + "\n")
    with pytest.raises(SettingsError, match=needle):
        load_settings()
    one_line_exit_2(capsys, ["agenda"], needle)


def test_valid_settings_still_load(home: Path) -> None:
    (home / "config.toml").write_text('turn_token_budget = 1000\nmodel = "claude-x"\n')
    settings = load_settings()
    assert settings.turn_token_budget == 1000 and settings.model == "claude-x"
    assert Settings(home=home, timezone=PERSON_TZ).validate().max_rounds >= 1


# ----------------------------------------------------------------------------- data dir
def test_new_home_is_0700_and_databases_0600(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "fresh" / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", PERSON_TZ)
    monkeypatch.delenv("CALENDAR_ASSISTANT_BACKEND", raising=False)
    old = os.umask(0o022)
    try:
        assert main(["agenda", "--days", "1"]) == 0
    finally:
        os.umask(old)
    capsys.readouterr()
    assert mode(home) == 0o700
    databases = sorted(p.name for p in home.iterdir() if p.suffix == ".db")
    assert databases == ["assistant.db", "calendar.db"]
    assert all(mode(home / name) == 0o600 for name in databases)


def test_a_database_others_can_read_is_tightened(tmp_path: Path) -> None:
    path = tmp_path / "calendar.db"
    path.write_bytes(b"")
    path.chmod(0o644)
    Store.sqlite(path).close()
    assert mode(path) == 0o600


@pytest.mark.parametrize("name", ["calendar.db", "assistant.db"])
def test_corrupt_database_is_one_line_naming_the_file(home: Path, capsys: pytest.CaptureFixture[str],
                                                      name: str) -> None:
    if name == "assistant.db":  # a healthy calendar, so the state file is the one that fails
        assert main(["agenda"]) == 0
        capsys.readouterr()
    (home / name).write_bytes(b"this is not a database, just bytes " * 200)
    err = one_line_exit_2(capsys, ["agenda"], str(home / name))
    assert "not a usable SQLite database" in err


def test_home_that_is_a_file_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    home.write_text("not a dir")
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", PERSON_TZ)
    monkeypatch.delenv("CALENDAR_ASSISTANT_BACKEND", raising=False)
    one_line_exit_2(capsys, ["agenda"], str(home))


def _unwritable_dir(tmp_path: Path) -> Path:
    """A directory this process cannot create files in, even as root (sysfs refuses them)."""
    if os.geteuid() != 0:
        folder = tmp_path / "readonly"
        folder.mkdir()
        folder.chmod(0o500)
        return folder
    folder = Path("/sys")
    try:
        (folder / "calendar-assistant-probe").touch()
    except OSError:
        return folder
    pytest.skip("no directory here refuses new files")  # pragma: no cover


def test_unwritable_home_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    home = _unwritable_dir(tmp_path)
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", PERSON_TZ)
    monkeypatch.delenv("CALENDAR_ASSISTANT_BACKEND", raising=False)
    one_line_exit_2(capsys, ["agenda"], str(home / "calendar.db"))


# ----------------------------------------------------------------------------- commands
def test_resolve_batch_that_is_not_utf8_names_the_line(home: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "batch.jsonl"
    good = json.dumps({"text": "tomorrow", "now": "2025-10-20T08:00:00", "tz": PERSON_TZ})
    path.write_bytes(good.encode() + b"\n" + b'{"text": "caf\xe9"}\n')
    one_line_exit_2(capsys, ["resolve", "--batch", str(path)], "line 2")


def test_resolve_refusal_is_one_line(home: Path, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Whatever the resolver refuses (ValueError) or overflows on is bad input, not a crash."""
    import reflection.dates.resolver as resolver  # the command loads it when it runs

    def refuses(text: str, now: object, tz: str) -> None:
        raise OverflowError("date value out of range")

    monkeypatch.setattr(resolver, "resolve", refuses)
    one_line_exit_2(capsys, ["resolve", "x", "--now", "9999-12-31T23:59", "--tz", PERSON_TZ],
                    "out of range")


def test_check_gives_every_line_a_verdict_line(home: Path, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    case = {"id": "c1", "user_message": "cancel book club", "now": "2025-10-20T08:00:00",
            "timezone": PERSON_TZ, "calendar": [], "tool_calls": []}
    path = tmp_path / "cases.jsonl"
    path.write_bytes(json.dumps(case).encode() + b"\n   \n\xff\xfe\n" + json.dumps(case).encode() + b"\n")
    assert main(["check", str(path)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert len(lines) == 4
    assert "line 2" in lines[1]["error"] and "blank" in lines[1]["error"]
    assert "line 3" in lines[2]["error"] and "UTF-8" in lines[2]["error"]
    assert lines[0]["id"] == lines[3]["id"] == "c1" and "valid" in lines[3]


@pytest.mark.parametrize("content, needle", [
    (None, "replay scenario"),  # the sample conversations the help used to invite
    ("{not json", "not JSON"),
    ('{"request": "hi", "model": "nope", "fallback": {"content": []}}', "model"),
    ('{"request": "hi ${nope}", "model": [{"content": []}], "fallback": {"content": []}}', "nope"),
])
def test_demo_script_that_is_not_a_demo_script_is_one_line(tmp_path: Path, home: Path,
                                                           capsys: pytest.CaptureFixture[str],
                                                           content: str | None, needle: str) -> None:
    if content is None:
        path = Path(str(resources.files("fixtures").joinpath("conversations/wrong_weekday.json")))
    else:
        path = tmp_path / "script.json"
        path.write_text(content)
    one_line_exit_2(capsys, ["demo", "--script", str(path)], needle)


# ----------------------------------------------------------------------------- Google token
def test_a_token_others_can_read_is_tightened_with_a_warning(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    from google.oauth2.credentials import Credentials

    from tools.backends.google.auth import load_credentials, save_credentials, token_path

    save_credentials(Credentials(token="t", refresh_token="r", client_id="c", client_secret="s",
                                 token_uri="https://oauth2.invalid/token"), tmp_path)
    path = token_path(tmp_path)
    path.chmod(0o644)
    assert load_credentials(tmp_path).refresh_token == "r"
    assert mode(path) == 0o600
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and "0600" in err
    load_credentials(tmp_path)  # already private: nothing more to say
    assert capsys.readouterr().err == ""


# ----------------------------------------------------------------------------- agenda
def _seed(home: Path, *events: dict[str, object]) -> None:
    from tools.backends.local import LocalBackend
    from tools.calendar.events import event_from_contract

    backend = LocalBackend(home / "calendar.db", PERSON_TZ)
    for raw in events:
        backend.create_event("primary", event_from_contract({"timezone": PERSON_TZ, **raw}, PERSON_TZ)
                             .with_changes(id=backend.new_event_id()))
    backend.close()


def test_agenda_skips_and_names_a_series_it_cannot_read(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _seed(home, {"title": "Dinner", "start": "2025-10-23T18:00:00", "end": "2025-10-23T19:00:00"},
          {"title": "Odd class", "start": "2025-10-01T09:00:00", "end": "2025-10-01T10:00:00",
           "recurrence": ["RRULE:FREQ=SOMETIMES"]})
    assert main(["agenda", "--days", "365", "--now", "2025-10-20T08:00", "--json"]) == 0
    captured = capsys.readouterr()
    assert [e["title"] for e in json.loads(captured.out)] == ["Dinner"]
    assert "'Odd class'" in captured.err and captured.err.count("\n") == 1


BIDI = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "Dinner\u202egnikcab" reads as "Dinnerbacking" reversed


def test_bidi_overrides_never_reach_the_agenda_or_the_model(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import make_context

    from assistant.services import build_services
    from tools.context import ToolCall
    from tools.registry import ToolRegistry

    family = "Picnic \U0001F468\u200D\U0001F469\u200D\U0001F467"  # an emoji family keeps its joiners
    _seed(home, {"title": f"Dinner{BIDI}gnikcab\u2066x\u2069", "location": f"Cafe{BIDI} 9\nMain St",
                 "start": "2025-10-23T18:00:00", "end": "2025-10-23T19:00:00"},
          {"title": family, "start": "2025-10-24T12:00:00", "end": "2025-10-24T13:00:00"})
    assert main(["agenda", "--now", "2025-10-20T08:00"]) == 0
    out = capsys.readouterr().out
    assert "Dinnergnikcabx" in out and "Cafe 9 Main St" in out and family in out
    assert all(ch not in out for ch in (BIDI, "\u2066", "\u2069"))
    services = build_services(load_settings())
    result = ToolRegistry(make_context(services.backend, None)).run(ToolCall(
        "c1", "list_events", {"start": "2025-10-20", "end": "2025-10-27"}))
    assert "Dinnergnikcabx" in result.text and family in result.text
    assert all(ch not in result.text for ch in (BIDI, "\u2066", "\u2069"))


# ----------------------------------------------------------------------------- the suite itself
def test_hypothesis_keeps_its_files_out_of_the_checkout() -> None:
    from hypothesis import settings as hypothesis_settings
    from hypothesis.configuration import storage_directory

    checkout = Path(__file__).resolve().parents[2]
    assert checkout not in Path(storage_directory("examples").path).resolve().parents
    database = hypothesis_settings().database
    assert checkout not in Path(str(getattr(database, "path", "/"))).resolve().parents
