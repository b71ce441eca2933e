"""A process killed (SIGKILL) between the two writes of a turn over two accounts is rolled back on
the next start (issue 27 item 3): the family of `family_support` on local + the fake Google server
+ a real Radicale, the turn "move Leo's swim and my dentist to Friday" run in a real child process
on the app's own services, as `tests/journal/test_recovery.py` does for one calendar.

`between`: killed after the Google write, before the CalDAV one; `landed`: the CalDAV write landed
too but its post-image was never recorded (the process died inside the write). Either way the
next `build_services` puts every account back exactly, and only once."""
from __future__ import annotations

import json
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from family_support import records, seed, server_family
from google_support import block_network
from kill_support import killed_when_ready

from assistant.services import build_services
from assistant.settings import load_settings
from fixtures.fake_google import FakeGoogleCalendar

pytestmark = pytest.mark.slow  # a child process killed mid-turn, the fake Google server, Radicale

TURN = "turn-killed"

CHILD = textwrap.dedent("""
    import json, sys, time
    from assistant.services import build_services
    from assistant.settings import load_settings
    from tools.backends.base import EventPatch
    from tools.calendar.patching import apply_patch
    from tools.context import ToolCall, ToolContext
    from tools.journal.entries import Intent
    from tools.registry import ToolRegistry

    mode = sys.argv[1]
    made = json.loads(sys.argv[2])
    services = build_services(load_settings())
    ctx = ToolContext(backend=services.backend, journal=services.journal,
                      calendar_id=services.calendar_id, timezone=services.settings.timezone,
                      locations=services.locations, turn_id=%(turn)r, calendars=services.calendars)
    registry = ToolRegistry(ctx)
    swim_cal, swim = made["Leo's swim"]
    dentist_cal, dentist = made["Mom's dentist"]
    result = registry.run(ToolCall("1", "update_calendar_event", {
        "event_id": swim, "calendar_id": swim_cal, "start": "2025-10-24T17:00:00"}))
    if result.is_error:
        print("error", result.text, flush=True)
        sys.exit(3)
    if mode == "landed":
        # the second write lands, but the process dies before its post-image is recorded
        current = services.backend.get_event(dentist_cal, dentist)
        patch = EventPatch({"title": "Mom's dentist (Friday)"})
        services.journal.begin(%(turn)r, 1, "update_calendar_event", dentist_cal, dentist,
                               intent=Intent.update(apply_patch(current, patch)),
                               base_version=current.version)
        services.backend.patch_event(dentist_cal, dentist, patch, if_match=current.version)
    print("ready", flush=True)
    time.sleep(120)
""") % {"turn": TURN}


@pytest.fixture
def google(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGoogleCalendar]:
    block_network(monkeypatch)
    with FakeGoogleCalendar(primary_id="dad@example.test", summary="Dad") as server:
        yield server


@pytest.mark.parametrize("mode", ["between", "landed"])
def test_a_turn_killed_between_two_accounts_is_rolled_back_on_the_next_start(
        home: Path, tmp_path: Path, google: FakeGoogleCalendar, radicale: Any, mode: str) -> None:
    server_family(home, google, radicale)
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services, google)

    with killed_when_ready(CHILD, [mode, json.dumps(made)], home, tmp_path):
        with build_services(load_settings(), recover=False) as services:
            during = records(services, google)
        assert during["dad"] != before["dad"]  # the child really wrote on Google
        assert (during["mom"] != before["mom"]) == (mode == "landed")

    with build_services(load_settings()) as services:
        assert [r.turn_id for r in services.recovered] == [TURN]
        assert services.recovered[0].clean, services.recovered[0].summary()
        assert records(services, google) == before
        assert services.journal.open_turns() == []
    with build_services(load_settings()) as again:  # recovery runs once
        assert again.recovered == []
        assert records(again, google) == before
