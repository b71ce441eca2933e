"""The command line basics: `tools` prints exactly what the model sees, `agenda` lists the
configured calendar in words, `--version` prints the version, and bad arguments exit 2 with one
line on stderr and no traceback."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ

from assistant.cli import main
from assistant.services import build_services
from assistant.settings import load_settings
from tools.calendar.events import Event
from tools.registry import tool_definitions

NOW = "2025-10-20T08:00:00"  # a fixed Monday: the agenda lists from it, not from the clock


def test_tools_prints_the_tool_definitions(home, capsys):
    assert main(["tools"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == tool_definitions()
    names = [t["name"] for t in json.loads(out)]
    assert names == ["list_events", "calculate_datetime", "create_calendar_event", "update_calendar_event",
                     "bulk_update_calendar_events", "delete_calendar_event", "get_location_info",
                     "get_location_suggestions", "find_free_time"]
    assert all(set(t) == {"name", "description", "input_schema"} for t in json.loads(out))


@pytest.mark.parametrize("argv,needle", [
    (["agenda", "--days", "many"], "many"),
    (["agenda", "--days", "0"], "0"),
    (["agenda", "--days", "-3"], "--days"),
    (["agenda", "--bogus"], "--bogus"),
    (["no-such-command"], "no-such-command"),
])
def test_bad_arguments_exit_2_with_one_line(home, capsys, argv, needle):
    assert main(argv) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert needle in err
    assert "Traceback" not in err and captured.out == ""


def test_bad_config_exits_2_naming_the_setting(home, capsys):
    (home / "config.toml").write_text('backend = "outlook"\n', encoding="utf-8")
    assert main(["agenda"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "backend" in err and "Traceback" not in err


def test_agenda_json_lists_a_created_event(home, capsys):
    services = build_services(load_settings())
    tz = ZoneInfo(PERSON_TZ)
    start = datetime(2025, 10, 21, 18, 0, tzinfo=tz)  # the day after NOW
    made = services.backend.create_event(services.calendar_id, Event(
        id=services.backend.new_event_id(), title="Family dinner", start=start,
        end=start + timedelta(hours=1, minutes=30), timezone=PERSON_TZ, location="123 Maple St"))
    far = services.backend.create_event(services.calendar_id, Event(
        id=services.backend.new_event_id(), title="Far away", start=start + timedelta(days=30),
        end=start + timedelta(days=30, hours=1), timezone=PERSON_TZ))
    assert main(["agenda", "--json", "--now", NOW]) == 0
    listed = json.loads(capsys.readouterr().out)
    assert [e["id"] for e in listed] == [made.id]
    assert listed[0] == made.to_contract()
    assert main(["agenda", "--json", "--days", "40", "--now", NOW]) == 0
    assert [e["id"] for e in json.loads(capsys.readouterr().out)] == [made.id, far.id]
    assert main(["agenda", "--now", NOW]) == 0
    text = capsys.readouterr().out
    assert "Family dinner" in text and "Far away" not in text


def test_agenda_text_is_in_words_without_ids(home, capsys):
    """Family members read the agenda: the day and times in words, the title and place, no id."""
    services = build_services(load_settings())
    start = datetime(2025, 10, 21, 18, 0, tzinfo=ZoneInfo(PERSON_TZ))
    made = services.backend.create_event(services.calendar_id, Event(
        id=services.backend.new_event_id(), title="Family dinner", start=start,
        end=start + timedelta(hours=1, minutes=30), timezone=PERSON_TZ, location="123 Maple St"))
    assert main(["agenda", "--now", NOW]) == 0
    text = capsys.readouterr().out
    assert text == "Tuesday, October 21, 6:00 PM – 7:30 PM  Family dinner  @ 123 Maple St\n"
    assert made.id not in text


def test_version_prints_the_installed_version(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"calendar-assistant {version('calendar-assistant')}\n"


def test_agenda_on_an_empty_calendar(home, capsys):
    assert main(["agenda", "--days", "3"]) == 0
    assert capsys.readouterr().out.strip() == "No events in the next 3 day(s)."


# ----------------------------------------------------------------------------- issue 18
def test_config_set_writes_toml_0600_and_get_reads_it_back(home, capsys):
    import stat
    import tomllib

    assert main(["config", "set", "timezone", "Europe/Paris"]) == 0
    assert main(["config", "set", "max_rounds", "5"]) == 0
    path = home / "config.toml"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert data["timezone"] == "Europe/Paris" and data["max_rounds"] == 5  # a number, not "5"
    capsys.readouterr()
    assert main(["config", "get", "max_rounds"]) == 0
    assert capsys.readouterr().out == "5\n"


def test_config_show_hides_the_api_key(home, capsys, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["config", "set", "api_key", "sk-ant-secret-value"]) == 0
    capsys.readouterr()
    assert main(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert "api_key = (set)" in out and "sk-ant-secret-value" not in out


@pytest.mark.parametrize("argv,needle", [
    (["config", "set", "max_rounds", "lots"], "max_rounds"),
    (["config", "set", "max_rounds", "0"], "max_rounds"),
    (["config", "set", "backend", "outlook"], "backend"),
    (["config", "set", "no_such_key", "1"], "no_such_key"),
    (["ask", "   "], "empty"),
])
def test_bad_config_values_and_empty_ask_exit_2_writing_nothing(home, capsys, argv, needle, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # never reached
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err
    assert not (home / "config.toml").exists()


def test_resolve_defaults_to_the_configured_zone_and_keeps_explicit_flags(home, capsys):
    assert main(["config", "set", "timezone", "Asia/Tokyo"]) == 0
    capsys.readouterr()
    assert main(["resolve", "tomorrow at 3pm", "--now", "2025-10-22T09:15:00"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["timezone"] == PERSON_TZ  # CALENDAR_ASSISTANT_TIMEZONE overrides the file
    assert out["expressions"][0]["candidates"][0]["start"] == "2025-10-23T15:00:00-07:00"
    assert main(["resolve", "tomorrow at 3pm", "--now", "2025-10-22T09:15:00", "--tz", "Asia/Tokyo"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["expressions"][0]["candidates"][0]["start"] == "2025-10-23T15:00:00+09:00"


def test_resolve_without_now_uses_the_clock(home, capsys):
    assert main(["resolve", "today"]) == 0
    out = json.loads(capsys.readouterr().out)
    today = datetime.now(ZoneInfo(PERSON_TZ)).date()
    now = datetime.fromisoformat(out["now"])
    assert abs(now.date() - today) <= timedelta(days=1)  # the run may cross midnight
    assert out["expressions"][0]["candidates"][0]["start"] == now.date().isoformat()


def test_completion_prints_a_script_for_the_console_script(capsys):
    assert main(["completion", "bash"]) == 0
    out = capsys.readouterr().out
    assert "calendar-assistant" in out and "complete" in out


@pytest.mark.slow
def test_completion_lists_subcommands_and_settings(tmp_path):
    """argcomplete answers from the parser: `calendar-assistant co<TAB>` and `config set ti<TAB>`
    (run as the shell runs it: a process with argcomplete's variables, answers on fd 8)."""
    import os
    import subprocess
    import sys

    def complete(line: str) -> set[str]:
        env = {**os.environ, "_ARGCOMPLETE": "1", "COMP_LINE": line, "COMP_POINT": str(len(line)),
               "_ARGCOMPLETE_IFS": "\n", "CALENDAR_ASSISTANT_HOME": str(tmp_path)}
        code = "import sys; from assistant.cli import main; sys.exit(main())"
        done = subprocess.run(["bash", "-c", f'"{sys.executable}" -c "{code}" 8>&1 9>/dev/null'],
                              env=env, capture_output=True, text=True, timeout=60)
        return {w.strip() for w in done.stdout.split("\n") if w.strip()}

    assert {"config", "completion"} <= complete("calendar-assistant co")
    assert "timezone" in complete("calendar-assistant config set ti")


def test_ask_without_a_key_says_so_before_loading_the_agent_or_the_sdk(home):
    """Issue 28 item 9: with no key, `ask` answered after seconds of loading the agent and the
    model SDK. It checks the key first (in a fresh interpreter, so no other test's imports hide
    a load)."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    code = ("import sys\nfrom assistant.cli import main\nrc = main(['ask', 'add dentist friday'])\n"
            "heavy = [m for m in ('anthropic', 'assistant.agent', 'assistant.app', 'sqlalchemy') "
            "if m in sys.modules]\nprint(rc, heavy)")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "2 []", done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "no API key" in done.stderr
    assert "config set api_key" in done.stderr and "Traceback" not in done.stderr
