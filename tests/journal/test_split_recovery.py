"""A process killed between the writes of a `following` split (the new series written, the old
one not yet ended) leaves a turn the next start rolls back exactly: the new series gone, the old
rule and its own changes back."""
from __future__ import annotations

import textwrap
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import listed, records_without_version
from kill_support import killed_when_ready

from assistant.services import build_services
from assistant.settings import load_settings
from tools.backends.base import EventPatch
from tools.calendar.events import Event

pytestmark = pytest.mark.slow  # a child process killed with SIGKILL in the middle of a turn

LA = ZoneInfo("America/Los_Angeles")
TURN = "turn-split-killed"

CHILD = textwrap.dedent("""
    import sys, time
    from assistant.services import build_services
    from assistant.settings import load_settings
    from tools.context import ToolCall, ToolContext
    from tools.registry import ToolRegistry

    series, occurrence = sys.argv[1:3]
    services = build_services(load_settings())
    backend = services.backend
    real = type(backend).patch_event

    def halting(self, calendar_id, event_id, patch, **kw):
        if event_id == series:  # the old series is about to be ended: stop here
            print("ready", flush=True)
            time.sleep(120)
        return real(self, calendar_id, event_id, patch, **kw)

    type(backend).patch_event = halting
    ctx = ToolContext(backend=backend, journal=services.journal, calendar_id=services.calendar_id,
                      timezone=services.settings.timezone, locations=services.locations,
                      turn_id=%(turn)r)
    result = ToolRegistry(ctx).run(ToolCall("1", "update_calendar_event", {
        "event_id": occurrence, "start": "2027-01-07T16:00:00", "scope": "following"}))
    print("finished", result.text, flush=True)
""") % {"turn": TURN}


def _state() -> tuple[object, object]:
    with build_services(load_settings(), recover=False) as services:
        return records_without_version(services.backend), listed(services.backend)


def test_a_split_killed_between_its_writes_is_rolled_back_on_the_next_start(home: Path,
                                                                         tmp_path: Path) -> None:
    with build_services(load_settings()) as services:
        backend, cal = services.backend, services.calendar_id
        first = datetime(2026, 9, 1, 17, tzinfo=LA)
        piano = backend.create_event(cal, Event(
            id=backend.new_event_id(), title="Piano", start=first, end=first + timedelta(hours=1),
            timezone="America/Los_Angeles", recurrence=("RRULE:FREQ=WEEKLY;BYDAY=TU",)))
        moved = f"{piano.id}_20270120T010000Z"  # January 19th, 17:00 in Los Angeles
        backend.patch_event(cal, moved, EventPatch({"title": "Piano recital"}))
    before_records, before_list = _state()

    with killed_when_ready(CHILD, [piano.id, f"{piano.id}_20270106T010000Z"], home, tmp_path):
        during_records, _ = _state()
        assert len(during_records) > len(before_records)  # the new series is there

    with build_services(load_settings()) as services:
        assert [r.turn_id for r in services.recovered] == [TURN]
        assert services.recovered[0].clean, services.recovered[0].summary()
        assert records_without_version(services.backend) == before_records
        assert listed(services.backend) == before_list
