"""'From January on, piano is on Thursdays at 4' through the whole turn on every backend: the
real anthropic SDK against the scripted fake server, the registry, the guard, the journal. The
split is judged, shown and undone as one change."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import BACKENDS, make_backend, on_backends, records_without_version

from assistant.app import build_agent
from assistant.scripted.fake_anthropic import FakeAnthropicServer, resp, text, tool
from assistant.settings import Settings
from tools.backends.base import CalendarBackend
from tools.calendar.events import Event, zone

TZ = "America/Los_Angeles"
NOW = datetime(2026, 11, 26, 9, 0, tzinfo=zone(TZ))
MAIN, REFL = "test-main", "test-reflection"
FIRST = datetime(2026, 9, 1, 17, 0, tzinfo=zone(TZ))  # Tuesdays at 5


@pytest.fixture(params=on_backends(BACKENDS))
def world(request: pytest.FixtureRequest, tmp_path: Path,
          monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[CalendarBackend, Event, Any, FakeAnthropicServer]]:
    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    backend = make_backend(request.param, tmp_path)
    cal = backend.primary_calendar_id()
    piano = backend.create_event(cal, Event(
        id=backend.new_event_id(), title="Piano", start=FIRST, end=FIRST + timedelta(hours=1),
        timezone=TZ, recurrence=("RRULE:FREQ=WEEKLY;BYDAY=TU",), calendar_id=cal))
    server = FakeAnthropicServer({MAIN: [], REFL: []})
    server.start()
    settings = Settings(home=home, timezone=TZ, home_address="77 Cedar Ln", model=MAIN,
                        reflection_model=REFL, api_key="test-key", backend=backend.name)
    agent = build_agent(settings, base_url=server.base_url, backend=backend,
                        reflection_mode="symbolic", now=lambda: NOW, confirm=lambda c: True)
    yield backend, piano, agent, server
    server.close()
    backend.close()


def test_from_january_on_is_one_split_judged_shown_and_undone(world: Any) -> None:
    backend, piano, agent, server = world
    before = records_without_version(backend)
    january = f"{piano.id}_20270106T010000Z"  # Tuesday January 5th, 5 PM in Los Angeles
    server.add(MAIN,
               resp(tool("calculate_datetime", expression="from January on, Thursdays at 4")),
               resp(tool("update_calendar_event", event_id=january, start="2027-01-07T16:00:00",
                         end="2027-01-07T17:00:00", scope="following")),
               resp(text("From Thursday, January 7, piano is on Thursdays at 4 PM; the lessons "
                         "until then stay on Tuesdays at 5.")))
    report = agent.run_turn("from January on, piano is on Thursdays at 4")
    assert report.rolled_back == []
    assert not [f for f in report.findings if f.severity == "error"]
    # the new series is what the call wrote, not another event the change overlaps
    assert not [f for f in report.findings if f.type == "conflict"], report.findings
    cal = backend.primary_calendar_id()
    start = datetime(2026, 12, 27, tzinfo=zone(TZ))
    seen = [(e.title, e.start_instant.astimezone(zone(TZ)).strftime("%a %m-%d %H:%M"))
            for e in sorted(backend.list_events(cal, start, start + timedelta(days=14)),
                            key=lambda e: e.start_instant)]
    assert seen == [("Piano", "Tue 12-29 17:00"), ("Piano", "Thu 01-07 16:00")]
    assert [c.action for c in report.cards] == ["updated"]

    undone = agent.undo_last()
    assert undone is not None and undone.clean, undone.summary() if undone else None
    assert records_without_version(backend) == before
