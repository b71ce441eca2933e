"""The tool loop's round limit (`max_rounds`): a model that keeps calling tools is stopped after
exactly that many model calls, the person is told, and what it wrote is still judged by the guard.
Real SDK against the fake Anthropic server; said on Monday 2025-10-20 08:00 in Los Angeles."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from assistant.app import build_agent
from assistant.scripted.fake_anthropic import FakeAnthropicServer
from assistant.settings import Settings
from tools.backends.local import LocalBackend
from tools.calendar.events import event_from_contract, zone

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
MAIN = "limits-main"
SWIM = {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
        "end": "2025-10-21T17:45:00-07:00", "timezone": TZ}
LOOK = {"content": [{"type": "tool_use", "name": "list_events",
                     "input": {"start": "2025-10-20", "end": "2025-10-27"}}]}


@pytest.fixture
def server() -> Iterator[FakeAnthropicServer]:
    made = FakeAnthropicServer({MAIN: []}).start()
    yield made
    made.failures.clear()
    made.close()


def agent_for(tmp_path: Path, server: FakeAnthropicServer, max_rounds: int) -> Any:
    home = tmp_path / "home"
    settings = Settings(home=home, timezone=TZ, model=MAIN, reflection_model="unused",
                        api_key="test-key", max_rounds=max_rounds)
    backend = LocalBackend(home / "calendar.db", TZ)
    backend.create_event("primary", event_from_contract(SWIM, TZ))
    return build_agent(settings, base_url=server.base_url, backend=backend, reflection_mode="symbolic",
                       now=lambda: NOW, confirm=lambda _c: True,
                       lessons=False, max_retries=0)


def main_calls(server: FakeAnthropicServer) -> int:
    return sum(1 for r in server.requests if r.body.get("model") == MAIN)


@pytest.mark.parametrize("max_rounds", [1, 3])
def test_a_model_that_never_stops_gets_exactly_max_rounds_calls(tmp_path: Path, server: FakeAnthropicServer,
                                                                max_rounds: int) -> None:
    server.add(MAIN, *[LOOK] * (max_rounds + 3))
    report = agent_for(tmp_path, server, max_rounds).run_turn("what's on this week?")
    assert main_calls(server) == max_rounds
    assert len(server.remaining()[MAIN]) == 3  # the rest of the script was never asked for
    assert len(report.attempts) == 1 and len(report.attempts[0].calls) == max_rounds
    assert f"stopped after {max_rounds} rounds" in report.reply


def test_a_write_before_the_limit_is_still_judged(tmp_path: Path, server: FakeAnthropicServer) -> None:
    write = {"content": [{"type": "tool_use", "name": "update_calendar_event",
                          "input": {"event_id": "ev_swim1", "start": "2025-10-23T17:00:00",
                                    "end": "2025-10-23T17:45:00"}}]}
    server.add(MAIN, write, LOOK, LOOK, LOOK)
    agent = agent_for(tmp_path, server, 2)
    report = agent.run_turn("move the swim lesson to Thursday")
    assert main_calls(server) == 2
    assert report.attempts[0].verdict is not None  # the guard looked at the write
    assert "stopped after 2 rounds" in report.reply
