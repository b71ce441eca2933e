"""The command line basics: `tools` prints exactly what the model sees, `agenda` lists the
configured calendar in words, `--version` prints the version, and bad arguments exit 2 with one
line on stderr and no traceback."""
from __future__ import annotations

import json
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from assistant.cli import main
from assistant.services import build_services
from assistant.settings import load_settings
from conftest import PERSON_TZ
from tools import store
from tools.events import Event
from tools.registry import tool_definitions

NOW = "2025-10-20T08:00:00"  # a fixed Monday: the agenda lists from it, not from the clock


def test_tools_prints_the_tool_definitions(home, capsys):
    assert main(["tools"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == tool_definitions()
    names = [t["name"] for t in json.loads(out)]
    assert names == ["list_events", "calculate_datetime", "create_calendar_event", "update_calendar_event",
                     "bulk_update_calendar_events", "delete_calendar_event", "get_location_info",
                     "get_location_suggestions"]
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
    store.forget_engines()
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
    store.forget_engines()
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
