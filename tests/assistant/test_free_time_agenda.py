"""`calendar-assistant agenda` marks events that overlap (the text only; `--json` is the contract's
event list, unchanged), with the guard's rule: all-day events overlap nothing, touching ones don't."""
from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path

import pytest
from conftest import PERSON_TZ

from assistant.cli import main
from assistant.commands.agenda import agenda_lines
from tools.backends.local import LocalBackend
from tools.calendar.events import Event, zone
from tools.calendar.free_time import overlapping

LA = zone(PERSON_TZ)


def ev(event_id: str, title: str, start: datetime | date, end: datetime | date) -> Event:
    return Event(id=event_id, title=title, start=start, end=end,
                 all_day=not isinstance(start, datetime), timezone=PERSON_TZ)


def t(hh: int, mm: int = 0) -> datetime:
    return datetime(2025, 10, 25, hh, mm, tzinfo=LA)


DENTIST = ev("e1", "Dentist", t(9), t(10))
SOCCER = ev("e2", "Soccer", t(9, 30), t(11))
LUNCH = ev("e3", "Lunch", t(11), t(12))            # touches soccer's end: no overlap
GRANDMA = ev("e4", "Grandma visiting", date(2025, 10, 25), date(2025, 10, 26))


def test_overlapping_pairs_each_event_with_the_ones_it_overlaps() -> None:
    clashes = overlapping([LUNCH, GRANDMA, SOCCER, DENTIST])
    assert {k: [e.title for e in v] for k, v in clashes.items()} == {"e1": ["Soccer"],
                                                                     "e2": ["Dentist"]}


def test_agenda_lines_mark_overlaps_and_leave_other_events_alone() -> None:
    lines = [line for line in agenda_lines([GRANDMA, DENTIST, SOCCER, LUNCH], PERSON_TZ)
             if line.startswith("  ")]  # the events, not their day headings
    assert lines[1].endswith("Dentist  ⚠ overlaps Soccer")
    assert lines[2].endswith("Soccer  ⚠ overlaps Dentist")
    assert "⚠" not in lines[0] and "⚠" not in lines[3]


def test_an_event_overlapping_many_names_three_and_counts_the_rest() -> None:
    crowd = [ev(f"c{i}", f"Meeting {i}", t(9), t(10)) for i in range(6)]
    line = [line for line in agenda_lines(crowd, PERSON_TZ) if line.startswith("  ")][0]
    assert line.endswith("⚠ overlaps Meeting 1, Meeting 2, Meeting 3 and 2 more")
    pair = [line for line in agenda_lines(crowd[:3], PERSON_TZ) if line.startswith("  ")][0]
    assert pair.endswith("⚠ overlaps Meeting 1 and Meeting 2")


def test_the_agenda_command_marks_overlaps_in_text_but_not_in_json(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", PERSON_TZ)
    for var in ("CALENDAR_ASSISTANT_BACKEND", "CALENDAR_ASSISTANT_CALENDAR"):
        monkeypatch.delenv(var, raising=False)
    home.mkdir()
    backend = LocalBackend(home / "calendar.db", PERSON_TZ)
    for event in (DENTIST, SOCCER):
        backend.create_event("primary", event.with_changes(calendar_id="primary"))
    try:
        assert main(["agenda", "--now", "2025-10-25T08:00:00"]) == 0
        text = capsys.readouterr().out
        assert "Dentist  ⚠ overlaps Soccer" in text and "Soccer  ⚠ overlaps Dentist" in text
        assert main(["agenda", "--json", "--now", "2025-10-25T08:00:00"]) == 0
        listed = json.loads(capsys.readouterr().out)
        assert [e["title"] for e in listed] == ["Dentist", "Soccer"]
        assert "overlaps" not in json.dumps(listed)
    finally:
        backend.close()
