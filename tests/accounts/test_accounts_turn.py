"""A guarded turn across two accounts through the real agent loop (the anthropic SDK against the
fake Anthropic server, the real registry, journal and guard): "move Leo's swim and my dentist to
Friday" writes on two accounts in one attempt; the guard judges both against the events on their
own calendars; a wrong attempt is rolled back on both accounts exactly and retried; `undo`
takes the turn back from both. Said on Wednesday 2025-10-22 in Los Angeles."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from family_support import LOCAL_CONFIG, NOW, calendar_of, records, seed, write_config

from assistant.app import build_agent
from assistant.cli import main
from assistant.scripted.fake_anthropic import FakeAnthropicServer, resp, text, tool
from assistant.services import build_services
from assistant.settings import load_settings
from tools.calendar.events import Event

MAIN, REFL = "test-main", "test-reflection"
ASK = "Move Leo's swim and my dentist to Friday"


@pytest.fixture
def server(home: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropicServer]:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    write_config(home, f'model = "{MAIN}"\nreflection_model = "{REFL}"\napi_key = "test-key"\n'
                       + LOCAL_CONFIG)
    fake = FakeAnthropicServer({MAIN: [], REFL: []})
    fake.start()
    yield fake
    fake.close()


def moves(made: dict[str, tuple[str, str]], swim_day: int) -> list[dict[str, Any]]:
    swim_cal, swim = made["Leo's swim"]
    dentist_cal, dentist = made["Dentist"]
    return [resp(tool("calculate_datetime", expression="Friday")),
            resp(tool("update_calendar_event", event_id=swim, calendar_id=swim_cal,
                      start=f"2025-10-{swim_day}T17:00:00", end=f"2025-10-{swim_day}T18:00:00"),
                 tool("update_calendar_event", event_id=dentist, calendar_id=dentist_cal,
                      start="2025-10-24T15:00:00", end="2025-10-24T16:00:00")),
            resp(text("Moved Leo's swim and your dentist to Friday, October 24."))]


def test_a_turn_over_two_accounts_is_judged_undone_and_redone_as_one(server: FakeAnthropicServer) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        for title, calendar, hour in (("Dad's call", "Dad", 17), ("Leo's snack", "Leo", 15)):
            calendar_id = calendar_of(services, calendar)
            services.backend.create_event(calendar_id, Event(
                id=services.backend.new_event_id(), title=title, timezone="America/Los_Angeles",
                start=NOW.replace(day=24, hour=hour), end=NOW.replace(day=24, hour=hour, minute=30),
                calendar_id=calendar_id))
        before = records(services)
    # attempt 1 puts the swim on Thursday the 23rd: the guard rolls back both accounts' writes
    server.add(MAIN, *moves(made, 23), *moves(made, 24))
    agent = build_agent(load_settings(), base_url=server.base_url, reflection_mode="symbolic",
                        now=lambda: NOW)
    seen: dict[str, Any] = {}
    original = agent.services.journal.rollback

    def spy(turn_id: str, attempt: int | None = None) -> Any:
        out = original(turn_id, attempt)
        seen["after"] = records(agent.services)
        return out

    agent.services.journal.rollback = spy  # type: ignore[method-assign]
    try:
        report = agent.run_turn(ASK)
        assert len(report.attempts) == 2, report.findings
        assert [f.type for f in report.attempts[0].verdict.errors] == ["date"]
        assert seen["after"] == before  # both accounts exactly as before attempt 1
        assert not report.attempts[1].verdict.errors, report.attempts[1].verdict.findings
        assert not any(f.type == "event_id" for f in report.findings)
        # an update's calendar_id says where the event is: verified in full, not left unchecked
        assert not report.attempts[1].verdict.llm_needed
        # the swim now overlaps Dad's call on the same calendar (said); the dentist overlaps
        # Leo's snack on another calendar (no conflict for anyone)
        conflicts = [f.issue for f in report.attempts[1].verdict.findings if f.type == "conflict"]
        assert len(conflicts) == 1 and "Dad's call" in conflicts[0], conflicts
        swim = agent.services.backend.get_event(*made["Leo's swim"])
        dentist = agent.services.backend.get_event(*made["Dentist"])
        assert swim is not None and swim.start.isoformat() == "2025-10-24T17:00:00-07:00"
        assert dentist is not None and dentist.start.isoformat() == "2025-10-24T15:00:00-07:00"
    finally:
        agent.services.close()
    assert main(["undo", "--yes"]) == 0
    with build_services(load_settings()) as services:
        assert records(services) == before


def test_a_new_event_on_another_calendar_than_the_one_asked_is_caught_without_list_calendars(
        server: FakeAnthropicServer) -> None:
    """The model never called list_calendars: the guard still knows the calendars' names from
    the accounts the app read, catches "on Leo's calendar" written to the family one, rolls it
    back and the retry writes it on Leo's."""
    with build_services(load_settings()) as services:
        family, leo = calendar_of(services, "Family"), calendar_of(services, "Leo")

    def piano(calendar_id: str) -> list[dict[str, Any]]:
        return [resp(tool("calculate_datetime", expression="Friday")),
                resp(tool("create_calendar_event", title="Piano", calendar_id=calendar_id,
                          start="2025-10-24T16:00:00", end="2025-10-24T17:00:00")),
                resp(text("Added piano on Friday at 4."))]

    server.add(MAIN, *piano(family), *piano(leo))
    agent = build_agent(load_settings(), base_url=server.base_url, reflection_mode="symbolic",
                        now=lambda: NOW)
    try:
        report = agent.run_turn("Add piano to Leo's calendar on Friday at 4")
        assert len(report.attempts) == 2
        (error,) = report.attempts[0].verdict.errors
        assert error.type == "calendar" and error.proof is not None
        assert (error.proof["named_ids"], error.proof["written"]) == ([leo], family)
        assert not report.attempts[1].verdict.errors, report.attempts[1].verdict.findings
        window = (NOW.replace(day=24, hour=0), NOW.replace(day=25, hour=0))
        assert [e.title for e in agent.services.backend.list_events(leo, *window)] == ["Piano"]
        assert not agent.services.backend.list_events(family, *window)
    finally:
        agent.services.close()
