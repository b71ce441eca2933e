"""A process killed in the middle of a turn is rolled back on the next start.

The turn runs in a real child process (the app's own services, registry and journal on a temp
CALENDAR_ASSISTANT_HOME); once it has written, it prints "ready" and sleeps, and the test kills it
with SIGKILL: no `finally`, no atexit, no clean close of SQLite. The next `build_services` must
find the open turn and put the calendar back exactly.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import textwrap
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import listed, records_without_version
from kill_support import killed_when_ready

from assistant.services import Services, build_services
from assistant.settings import load_settings
from tools.calendar.events import Event
from tools.journal.journal import Journal
from tools.journal.turn_owner import Owner, boot_id

pytestmark = pytest.mark.slow  # a child process killed with SIGKILL in the middle of a turn

LA = ZoneInfo("America/Los_Angeles")
TURN = "turn-killed"

CHILD = textwrap.dedent("""
    import sys, time
    from assistant.services import build_services
    from assistant.settings import load_settings
    from tools.backends.base import EventPatch
    from tools.context import ToolCall, ToolContext
    from tools.journal.entries import Intent
    from tools.calendar.patching import apply_patch
    from tools.registry import ToolRegistry

    mode, single, allday, series = sys.argv[1:5]
    services = build_services(load_settings())
    ctx = ToolContext(backend=services.backend, journal=services.journal,
                      calendar_id=services.calendar_id, timezone=services.settings.timezone,
                      locations=services.locations, turn_id=%(turn)r)
    registry = ToolRegistry(ctx)
    calls = [
        ("create_calendar_event", {"title": "Swim", "start": "2025-10-24T07:00:00-07:00"}),
        ("update_calendar_event", {"event_id": single, "title": "Dinner out", "attendees": []}),
        ("update_calendar_event", {"event_id": series + "_20251027T210000Z",
                                   "start": "2025-10-28T19:00:00-04:00"}),
        ("bulk_update_calendar_events", {"updates": [
            {"event_id": allday, "end": "2025-10-29"},
            {"event_id": single, "description": "changed"}]}),
        ("delete_calendar_event", {"event_id": series + "_20251103T220000Z"}),
    ]
    for n, (name, args) in enumerate(calls):
        result = registry.run(ToolCall(str(n), name, args))
        if result.is_error:
            print("error", name, result.text, flush=True)
            sys.exit(3)
    if mode == "pending":
        # killed between the pre-image and the post-image of a write that did happen
        current = services.backend.get_event(services.calendar_id, allday)
        patch = EventPatch({"title": "half"})
        services.journal.begin(%(turn)r, 1, "update_calendar_event", services.calendar_id, allday,
                               intent=Intent.update(apply_patch(current, patch)))
        services.backend.patch_event(services.calendar_id, allday, patch)
    print("ready", flush=True)
    time.sleep(120)
""") % {"turn": TURN}


def dead_owner() -> Owner:
    """The owner of a process that has exited (and been reaped)."""
    pid = subprocess.Popen([sys.executable, "-c", "pass"])
    pid.wait()
    return Owner(socket.gethostname(), boot_id(), pid.pid, "1")


def left_by_dead_process(services: Services) -> Journal:
    """The app's journal as a process that has since died would have written it."""
    return Journal(services.journal.store, services.backend, owner=dead_owner())


def _seed(home: Path) -> tuple[str, str, str]:
    with build_services(load_settings()) as services:
        backend, cal = services.backend, services.calendar_id
        single = backend.create_event(cal, Event(
            id=backend.new_event_id(), title="Dinner", start=datetime(2025, 10, 23, 18, tzinfo=LA),
            end=datetime(2025, 10, 23, 19, 30, tzinfo=LA), timezone="America/Los_Angeles",
            location="123 Maple St", attendees=("sam@example.com",)))
        allday = backend.create_event(cal, Event(
            id=backend.new_event_id(), title="Fair", start=date(2025, 10, 25), end=date(2025, 10, 27),
            all_day=True, timezone="America/Los_Angeles", description="tickets"))
        ny = ZoneInfo("America/New_York")
        series = backend.create_event(cal, Event(
            id=backend.new_event_id(), title="Choir", start=datetime(2025, 10, 20, 17, tzinfo=ny),
            end=datetime(2025, 10, 20, 18, 30, tzinfo=ny), timezone="America/New_York",
            recurrence=("RRULE:FREQ=WEEKLY;COUNT=6",)))
    return single.id, allday.id, series.id


def _state():
    with build_services(load_settings(), recover=False) as services:
        return records_without_version(services.backend), listed(services.backend)


@pytest.mark.parametrize("mode", ["done", "pending"])
def test_killed_turn_is_rolled_back_on_the_next_start(home: Path, tmp_path: Path, mode: str):
    ids = _seed(home)
    before_records, before_list = _state()

    with killed_when_ready(CHILD, [mode, *ids], home, tmp_path):
        during_records, _ = _state()
        assert during_records != before_records  # the child really wrote

    with build_services(load_settings()) as services:
        assert [r.turn_id for r in services.recovered] == [TURN]
        assert services.recovered[0].clean, services.recovered[0].summary()
        assert records_without_version(services.backend) == before_records
        assert listed(services.backend) == before_list
        assert services.journal.open_turns() == []

    with build_services(load_settings()) as again:  # recovery runs once
        assert again.recovered == []
        assert records_without_version(again.backend) == before_records


def test_a_closed_turn_is_not_rolled_back_at_start(home: Path):
    from conftest import make_context

    from tools.context import ToolCall
    from tools.registry import ToolRegistry

    single, _, _ = _seed(home)
    with build_services(load_settings()) as services:
        registry = ToolRegistry(make_context(services.backend, services.journal, "turn-ok"))
        assert not registry.run(ToolCall("1", "update_calendar_event",
                                         {"event_id": single, "title": "Kept"})).is_error
        services.journal.close_turn("turn-ok")
    with build_services(load_settings()) as again:
        assert again.recovered == []
        assert again.backend.get_event(again.calendar_id, single).title == "Kept"
        assert again.journal.last_committed_turn() == "turn-ok"


def test_open_turn_with_a_pending_write_that_never_happened_is_a_noop(home: Path):
    single, _, _ = _seed(home)
    with build_services(load_settings()) as services:
        before = records_without_version(services.backend)
        left_by_dead_process(services).begin("turn-x", 1, "update_calendar_event",
                                             services.calendar_id, single)
    with build_services(load_settings()) as again:
        assert [r.turn_id for r in again.recovered] == ["turn-x"]
        assert again.recovered[0].restored == [] and again.recovered[0].clean
        assert records_without_version(again.backend) == before


# A bulk update on two SQLite files records its entries whole (pre- and post-image, `done`) in
# one journal commit, then commits the calendar write. This child is killed between the two:
# the journal says "done" for a write that never landed.
KILLED_BETWEEN_COMMITS = textwrap.dedent("""
    import os, signal, sys
    import tools.backends.local as local
    from assistant.services import build_services
    from assistant.settings import load_settings
    from tools.context import ToolCall, ToolContext
    from tools.registry import ToolRegistry

    single, allday = sys.argv[1:3]
    services = build_services(load_settings())
    ctx = ToolContext(backend=services.backend, journal=services.journal,
                      calendar_id=services.calendar_id, timezone=services.settings.timezone,
                      locations=services.locations, turn_id=%(turn)r)

    def killed(*args, **kw):  # the entries are committed; the calendar write is not
        print("ready", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

    local._UPDATE_ROWS = type("Killed", (), {"run": staticmethod(killed)})()
    ToolRegistry(ctx).run(ToolCall("1", "bulk_update_calendar_events", {"updates": [
        {"event_id": single, "title": "Dinner out"}, {"event_id": allday, "description": "free"}]}))
    print("not killed", flush=True)
""") % {"turn": TURN}


def _killed_between_commits(tmp_path: Path, home: Path, single: str, allday: str) -> None:
    script = tmp_path / "between.py"
    script.write_text(KILLED_BETWEEN_COMMITS, encoding="utf-8")
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(home)}
    child = subprocess.run([sys.executable, str(script), single, allday], env=env,
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == -signal.SIGKILL, (child.stdout, child.stderr)
    assert child.stdout.strip() == "ready", child.stdout


def test_killed_after_the_entries_and_before_the_write_leaves_nothing_to_undo(home: Path,
                                                                              tmp_path: Path):
    single, allday, _ = _seed(home)
    before_records, before_list = _state()
    _killed_between_commits(tmp_path, home, single, allday)
    with build_services(load_settings(), recover=False) as services:
        entries = services.journal.entries(TURN)
        assert [e.state for e in entries] == ["done", "done"]  # recorded whole, never written
        assert records_without_version(services.backend) == before_records

    with build_services(load_settings()) as services:
        [report] = services.recovered
        assert report.turn_id == TURN and report.clean, report.summary()
        assert report.restored == []
        assert records_without_version(services.backend) == before_records
        assert listed(services.backend) == before_list
        assert services.journal.open_turns() == []


def test_a_write_that_never_landed_does_not_take_the_version_someone_else_reached(home: Path,
                                                                                tmp_path: Path):
    """The entry's post-image version (the event's version + 1) is the version the next writer
    reaches with a change of their own: that change is kept, never taken for ours."""
    single, allday, _ = _seed(home)
    _killed_between_commits(tmp_path, home, single, allday)
    with build_services(load_settings(), recover=False) as services:
        from tools.backends.base import EventPatch

        [entry, _] = services.journal.entries(TURN)
        theirs = services.backend.patch_event(services.calendar_id, single,
                                              EventPatch({"title": "Dinner at Sam's"}))
        assert theirs.version == entry.post_version
        expected = records_without_version(services.backend)

    with build_services(load_settings()) as services:
        [report] = services.recovered
        assert [c.event_id for c in report.conflicts] == [single], report.summary()
        assert report.restored == [] and report.complete
        assert records_without_version(services.backend) == expected
        assert services.backend.get_event(services.calendar_id, single).title == "Dinner at Sam's"
