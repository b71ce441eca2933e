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
    assert text == ("The next 7 days · Los Angeles time\n\n"
                    "Tuesday, October 21\n"
                    "  6:00 PM – 7:30 PM  Family dinner  @ 123 Maple St\n")
    assert made.id not in text


def test_version_prints_the_installed_version(capsys):
    from importlib.metadata import version

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"calendar-assistant {version('calendar-assistant')}\n"


def test_agenda_on_an_empty_calendar(home, capsys):
    assert main(["agenda", "--days", "3"]) == 0
    assert capsys.readouterr().out.strip() == "No events in the next 3 days."
    assert main(["agenda", "--days", "1"]) == 0
    assert capsys.readouterr().out.strip() == "No events in the next 1 day."


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


# ----------------------------------------------------------------------------- issue 28 item 7
def _week(services) -> dict[str, Event]:
    """Said on Monday 2025-10-20: dinner Tuesday, a trip Friday to Sunday, a late show from
    Friday night into Saturday, swim the Thursday of next week."""
    from datetime import date

    tz = ZoneInfo(PERSON_TZ)
    backend, cal = services.backend, services.calendar_id

    def make(title: str, start, end, **kw) -> Event:
        return backend.create_event(cal, Event(id=backend.new_event_id(), title=title, start=start,
                                               end=end, timezone=PERSON_TZ, **kw))
    return {
        "dinner": make("Family dinner", datetime(2025, 10, 21, 18, 0, tzinfo=tz),
                       datetime(2025, 10, 21, 19, 30, tzinfo=tz)),
        "trip": make("Trip", date(2025, 10, 24), date(2025, 10, 27), all_day=True),
        "show": make("Late show", datetime(2025, 10, 24, 23, 0, tzinfo=tz),
                     datetime(2025, 10, 25, 1, 0, tzinfo=tz)),
        "swim": make("Swim", datetime(2025, 10, 30, 17, 0, tzinfo=tz),
                     datetime(2025, 10, 30, 17, 45, tzinfo=tz)),
    }


def test_agenda_reads_days_in_words_and_groups_by_day(home, capsys):
    with build_services(load_settings()) as services:
        made = _week(services)
    assert main(["agenda", "tomorrow", "--now", NOW]) == 0
    assert capsys.readouterr().out == ("Times are Los Angeles time\n\nTuesday, October 21\n"
                                       "  6:00 PM – 7:30 PM  Family dinner\n")
    assert main(["agenda", "friday", "--now", NOW]) == 0
    assert capsys.readouterr().out == ("Times are Los Angeles time\n\nFriday, October 24\n"
                                       "  all day, until Sunday, October 26  Trip\n"
                                       "  11:00 PM – Saturday, October 25, 1:00 AM  Late show\n")
    assert main(["agenda", "next", "week", "--now", NOW]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Monday, October 27 – Sunday, November 2 · Los Angeles time\n")
    assert "Thursday, October 30\n  5:00 PM – 5:45 PM  Swim" in out and "Trip" not in out
    assert out.count("Los Angeles time") == 1 and PERSON_TZ not in out  # named once, in words
    assert main(["agenda", "--now", NOW, "--days", "14"]) == 0
    out = capsys.readouterr().out
    days = [line for line in out.splitlines() if line and not line.startswith(" ")][1:]
    assert days == ["Tuesday, October 21", "Friday, October 24", "Thursday, October 30"]
    assert main(["agenda", "--json", "this", "weekend", "--now", NOW]) == 0
    assert [e["id"] for e in json.loads(capsys.readouterr().out)] == [made["trip"].id, made["show"].id]
    assert main(["agenda", "on", "saturday", "--now", NOW]) == 0
    assert "  since Friday, October 24, 11:00 PM – Saturday, October 25, 1:00 AM  Late show" in \
        capsys.readouterr().out
    assert main(["agenda", "wednesday", "--now", NOW]) == 0
    assert capsys.readouterr().out == "No events on Wednesday, October 22.\n"


def test_agenda_says_which_reading_of_an_ambiguous_day_it_shows(home, capsys):
    """'next friday' said on a Tuesday is this Friday or the one after (CONTRACT 4): the first is
    shown and stderr names both."""
    with build_services(load_settings()) as services:
        _week(services)
    assert main(["agenda", "next friday", "--now", "2025-10-21T08:00"]) == 0
    out, err = capsys.readouterr()
    assert "Friday, October 24" in out and "Late show" in out
    assert err == ("calendar-assistant: agenda: 'next friday' could be Friday, October 24 or Friday, "
                   "October 31; showing Friday, October 24 (give the date for the other)\n")


@pytest.mark.parametrize("words,needle", [
    (["blah"], "cannot read 'blah' as a day"),
    (["friday", "blah"], "cannot read 'blah' in 'friday blah'"),
    (["3pm"], "'3pm' is a time, not a day"),
    (["friday", "and", "monday"], "names more than one day"),
])
def test_agenda_words_it_cannot_read_exit_2_in_one_line(home, capsys, words, needle):
    assert main(["agenda", *words, "--now", NOW]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_export_from_and_to_read_days_in_words(home, capsys, tmp_path):
    with build_services(load_settings()) as services:
        made = _week(services)
    target = tmp_path / "out.ics"
    assert main(["export", str(target), "--from", "next monday", "--now", NOW]) == 0
    text = target.read_text()
    assert "SUMMARY:Swim" in text and "SUMMARY:Family dinner" not in text
    assert main(["export", str(target), "--from", "tomorrow", "--to", "this weekend", "--now", NOW]) == 0
    text = target.read_text()
    assert all(f"SUMMARY:{made[k].title}" in text for k in ("dinner", "trip", "show"))
    assert "SUMMARY:Swim" not in text
    assert capsys.readouterr().err.endswith("Wrote 3 events to " + str(target) + ".\n")
    assert main(["export", str(target), "--from", "someday"]) == 2
    assert "export --from: cannot read 'someday'" in capsys.readouterr().err


def test_every_option_and_argument_has_help_text():
    """`--help` explains every option of every command (hidden test hooks excepted)."""
    import argparse

    from assistant.cli import build_parser

    missing = []

    def walk(parser: argparse.ArgumentParser, name: str) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub_name, sub in action.choices.items():
                    walk(sub, f"{name} {sub_name}")
            elif not isinstance(action, argparse._HelpAction) and not action.help:
                missing.append(f"{name} {'/'.join(action.option_strings) or action.dest}")
    walk(build_parser(), "calendar-assistant")
    assert missing == []
