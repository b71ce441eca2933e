"""The journal never overwrites what it did not write, and recovery takes only dead turns.

Real processes on one home, on every backend (local SQLite, and the Google client against the
fake Calendar v3 server on 127.0.0.1): a child runs a guarded write through the app's own
services and registry and stops at one journal step (after the pre-image, after the write, after
the post-image); the test kills it with SIGKILL (or leaves it running), edits the event from
"a phone" (outside the journal), and starts the CLI again.
"""
from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from conftest import BACKENDS, PERSON_TZ

from assistant.services import Services, build_services
from assistant.settings import load_settings
from tools.backends.base import CalendarBackend, CalendarError, EventPatch
from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry

pytestmark = pytest.mark.slow  # real processes on one home, killed with SIGKILL, on every backend

LA = ZoneInfo(PERSON_TZ)
TURN = "turn-child"

CHILD = textwrap.dedent("""
    import sys, time
    from assistant.services import Services, build_services
    from assistant.settings import load_settings
    from tools.context import ToolCall, ToolContext
    from tools.journal.journal import Journal
    from tools.registry import ToolRegistry

    step, name, args = sys.argv[1], sys.argv[2], __import__("json").loads(sys.argv[3])
    services = build_services(load_settings())

    def stop_here():
        print("ready", flush=True)
        time.sleep(120)

    if step == "after_begin":  # pre-image and intent committed, the write not made
        for method in ("patch_event", "delete_event", "create_event"):
            setattr(services.backend, method, lambda *a, **k: stop_here())
    if step == "after_write":  # the write made, its post-image not recorded
        Journal.complete = lambda self, *a, **k: stop_here()
    ctx = ToolContext(backend=services.backend, journal=services.journal,
                      calendar_id=services.calendar_id, timezone=services.settings.timezone,
                      locations=services.locations, turn_id=%(turn)r)
    result = ToolRegistry(ctx).run(ToolCall("1", name, args))
    if result.is_error:
        print("error", result.text, flush=True)
        sys.exit(3)
    stop_here()  # after_complete / live: the turn is open, its write done and recorded
""") % {"turn": TURN}


@dataclass
class Home:
    """One CALENDAR_ASSISTANT_HOME on one backend, with a way to edit "from a phone"."""

    backend_name: str
    path: Path
    env: dict[str, str]
    server: Any = None
    children: list[subprocess.Popen[str]] = field(default_factory=list)
    built: list[Services] = field(default_factory=list)

    def services(self, recover: bool = True, backend: CalendarBackend | None = None) -> Services:
        """The app's services as a new start builds them (fresh stores); closed at the end."""
        self.built.append(build_services(load_settings(), backend=backend, recover=recover))
        return self.built[-1]

    def seed(self) -> dict[str, str]:
        services = self.services(recover=False)
        backend, cal = services.backend, services.calendar_id
        ids = {}
        for title, hour in (("Dinner", 18), ("Swim", 7), ("Piano", 15)):
            made = backend.create_event(cal, Event(
                id=backend.new_event_id(), title=title, start=datetime(2025, 10, 23, hour, tzinfo=LA),
                end=datetime(2025, 10, 23, hour + 1, tzinfo=LA), timezone=PERSON_TZ))
            ids[title] = made.id
        services.close()
        return ids

    def phone_edit(self, event_id: str, **fields: Any) -> None:
        """A change made outside the app (another device): no journal, no turn."""
        if self.server is not None:
            changes = {"location": fields["location"]} if "location" in fields else {}
            self.server.edit_event("primary", event_id, **changes)
            return
        phone = LocalBackend(self.path / "calendar.db", PERSON_TZ)
        phone.patch_event("primary", event_id, EventPatch(fields))
        phone.close()

    def event(self, event_id: str) -> Event | None:
        services = self.services(recover=False)
        try:
            return services.backend.get_event(services.calendar_id, event_id)
        finally:
            services.close()

    def start_child(self, step: str, tool: str, args: dict[str, Any], script: Path) -> subprocess.Popen[str]:
        child = subprocess.Popen([sys.executable, str(script), step, tool, json.dumps(args)],
                                 env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.children.append(child)
        line = child.stdout.readline().strip() if child.stdout else ""
        assert line == "ready", (line, child.stderr.read() if child.poll() is not None and child.stderr else "")
        return child

    @staticmethod
    def kill(child: subprocess.Popen[str]) -> None:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert child.returncode == -signal.SIGKILL

    def cli(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True,
                              text=True, env=self.env, timeout=120, check=False)

    def turn_state(self, turn_id: str = TURN) -> str | None:
        with sqlite3.connect(self.path / "assistant.db") as conn:
            row = conn.execute("SELECT state FROM journal_turns WHERE turn_id = ?", (turn_id,)).fetchone()
        return row[0] if row else None


# CalDAV is left out here: this fixture configures only the local and Google homes (and edits
# "from a phone" through them); a CalDAV home would need its own setup.
@pytest.fixture(params=[name for name in BACKENDS if name != "caldav"])
def home(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Home]:
    path = tmp_path / "home"
    path.mkdir()
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(path), "CALENDAR_ASSISTANT_TIMEZONE": PERSON_TZ}
    env.pop("CALENDAR_ASSISTANT_BACKEND", None)
    env.pop("CALENDAR_ASSISTANT_CALENDAR", None)
    env.pop("ANTHROPIC_API_KEY", None)
    server = None
    if request.param == "google":
        from google_support import write_token

        from fixtures.fake_google import FakeGoogleCalendar

        server = FakeGoogleCalendar(time_zone=PERSON_TZ).start()
        write_token(server, path)
        env.update({"CALENDAR_ASSISTANT_BACKEND": "google",
                    "CALENDAR_ASSISTANT_GOOGLE_API_ENDPOINT": server.api_endpoint,
                    "CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI": server.token_uri})
    for key in ("CALENDAR_ASSISTANT_HOME", "CALENDAR_ASSISTANT_TIMEZONE", "CALENDAR_ASSISTANT_BACKEND",
                "CALENDAR_ASSISTANT_GOOGLE_API_ENDPOINT", "CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI"):
        if key in env:
            monkeypatch.setenv(key, env[key])
        else:
            monkeypatch.delenv(key, raising=False)
    monkeypatch.delenv("CALENDAR_ASSISTANT_CALENDAR", raising=False)
    made = Home(request.param, path, env, server)
    yield made
    for child in made.children:
        if child.poll() is None:
            child.kill()
            child.wait(timeout=30)
    for services in made.built:
        services.close()
    if server is not None:
        server.stop()


@pytest.fixture
def child_script(tmp_path: Path) -> Path:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    return script


def notices(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "unfinished request" in line]


# ----------------------------------------------------------------------------- kill -9 at each step
@pytest.mark.parametrize("step", ["after_begin", "after_write", "after_complete"])
def test_killed_at_each_journal_step_then_edited_elsewhere_keeps_the_edit(
        home: Home, child_script: Path, step: str) -> None:
    ids = home.seed()
    child = home.start_child(step, "update_calendar_event",
                             {"event_id": ids["Dinner"], "title": "Dinner out"}, child_script)
    home.kill(child)
    home.phone_edit(ids["Dinner"], location="Grandma's house")

    proc = home.cli("agenda", "--json")  # the next start
    assert proc.returncode == 0, proc.stderr
    lines = notices(proc.stderr)
    assert len(lines) == 1, proc.stderr
    assert "'Dinner' on Thu 23 Oct at 18:00 was changed by someone else" in lines[0]
    assert ids["Dinner"] not in proc.stderr and TURN not in proc.stderr
    after = home.event(ids["Dinner"])
    assert after is not None and after.location == "Grandma's house"  # the phone's edit survives
    assert after.title == ("Dinner" if step == "after_begin" else "Dinner out")
    assert home.turn_state() == "rolled_back"  # reported once, never restored later
    assert notices(home.cli("agenda", "--json").stderr) == []


@pytest.mark.parametrize("step", ["after_begin", "after_write", "after_complete"])
def test_killed_at_each_journal_step_alone_is_put_back(home: Home, child_script: Path, step: str) -> None:
    ids = home.seed()
    child = home.start_child(step, "update_calendar_event",
                             {"event_id": ids["Dinner"], "title": "Dinner out"}, child_script)
    home.kill(child)

    proc = home.cli("agenda", "--json")
    lines = notices(proc.stderr)
    assert len(lines) == 1 and "was undone" in lines[0], proc.stderr
    if step != "after_begin":
        assert "put back 'Dinner' on Thu 23 Oct at 18:00" in lines[0]
    after = home.event(ids["Dinner"])
    assert after is not None and after.title == "Dinner" and after.location is None
    assert home.turn_state() == "rolled_back"


def test_killed_after_a_delete_landed_puts_the_event_back(home: Home, child_script: Path) -> None:
    """Killed after its delete landed, before its post-image: the event reads as our intent
    (deleted), so it is ours to put back."""
    ids = home.seed()
    child = home.start_child("after_write", "delete_calendar_event", {"event_id": ids["Swim"]}, child_script)
    home.kill(child)
    assert home.event(ids["Swim"]) is None
    proc = home.cli("agenda", "--json")
    assert "put back 'Swim' on Thu 23 Oct at 07:00" in proc.stderr
    back = home.event(ids["Swim"])
    assert back is not None and back.title == "Swim"


# ----------------------------------------------------------------------------- two processes
def test_a_second_command_does_not_roll_back_a_live_turn(home: Home, child_script: Path) -> None:
    ids = home.seed()
    child = home.start_child("live", "update_calendar_event",
                             {"event_id": ids["Piano"], "title": "Piano recital"}, child_script)
    proc = home.cli("agenda", "--json")  # another terminal, while the turn is open
    assert proc.returncode == 0 and notices(proc.stderr) == [], proc.stderr
    services = home.services()
    assert services.recovered == []
    services.backend.close()
    assert home.event(ids["Piano"]).title == "Piano recital"  # type: ignore[union-attr]
    assert home.turn_state() == "open"

    home.kill(child)  # now its owner is gone: the next start takes it back
    proc = home.cli("agenda", "--json")
    assert len(notices(proc.stderr)) == 1
    assert home.event(ids["Piano"]).title == "Piano"  # type: ignore[union-attr]


def test_the_owner_does_not_commit_a_turn_recovery_took(home: Home) -> None:
    """A turn that is no longer its own (taken by a recovery elsewhere) is not committed."""
    from tools.journal.turn_owner import Owner

    home.seed()
    services = home.services()
    journal = services.journal
    journal.open_turn("turn-mine")
    assert journal.owns("turn-mine")
    other = Journal(journal.store, services.backend, owner=Owner("elsewhere", "b", 1, "1"))
    other.rollback("turn-mine")
    assert not journal.owns("turn-mine")
    assert journal.close_turn("turn-mine") is False
    assert home.turn_state("turn-mine") == "rolled_back"
    services.backend.close()


# ----------------------------------------------------------------------------- refused writes
def test_a_refused_write_is_never_undone_over_the_other_change(home: Home) -> None:
    """Someone edits the event between our read and our conditional write: the server refuses
    it (VersionConflict / 412). Undo later must not put our pre-image over their change."""
    ids = home.seed()
    services = home.services()
    backend = services.backend
    real_patch = backend.patch_event

    def raced(calendar_id: str, event_id: str, patch: EventPatch, **kw: Any) -> Event:
        home.phone_edit(event_id, location="Library")
        return real_patch(calendar_id, event_id, patch, **kw)

    backend.patch_event = raced  # type: ignore[method-assign]
    ctx_registry = ToolRegistry(_context(services, "turn-race"))
    result = ctx_registry.run(ToolCall("1", "update_calendar_event",
                                       {"event_id": ids["Dinner"], "title": "Dinner out"}))
    backend.patch_event = real_patch  # type: ignore[method-assign]
    assert result.is_error
    [entry] = services.journal.entries("turn-race", states=("refused",))
    assert entry.event_id == ids["Dinner"]
    services.journal.close_turn("turn-race")
    undo = services.journal.rollback("turn-race")
    assert undo.restored == [] and undo.clean
    now = backend.get_event(services.calendar_id, ids["Dinner"])
    assert now is not None and now.location == "Library" and now.title == "Dinner"
    backend.close()


def _context(services: Any, turn_id: str) -> Any:
    from tools.context import ToolContext

    return ToolContext(backend=services.backend, journal=services.journal,
                       calendar_id=services.calendar_id, timezone=PERSON_TZ,
                       locations=services.locations, turn_id=turn_id)


# ----------------------------------------------------------------------------- backend down
class Unavailable(LocalBackend):
    """The local calendar with every restore failing, as a service outage would."""

    restores = 0

    def restore(self, snapshot: Any, *, expected_version: str | None) -> Any:
        self.restores += 1
        raise CalendarError("the calendar service is unavailable (503)")

    def restore_many(self, items: Any) -> Any:  # the rollback's one call for all three events
        self.restores += 1
        raise CalendarError("the calendar service is unavailable (503)")


def _write_many(home: Home, turn_id: str, ids: dict[str, str]) -> None:
    """A turn left open by a process that died after three writes."""
    from test_recovery import dead_owner

    services = home.services()
    dead = Journal(services.journal.store, services.backend, owner=dead_owner())
    ctx = _context(services, turn_id)
    ctx.journal = dead
    result = ToolRegistry(ctx).run(ToolCall("1", "bulk_update_calendar_events", {"updates": [
        {"event_id": ids[t], "description": "moved"} for t in ("Dinner", "Swim", "Piano")]}))
    assert not result.is_error, result.text
    services.backend.close()


def test_backend_failing_during_recovery_keeps_the_turn_for_the_next_start(home: Home) -> None:
    ids = home.seed()
    _write_many(home, "turn-dead", ids)

    if home.server is not None:  # Google answering 503 to every write
        home.server.inject(503, method="PUT", times=1000)
        services = home.services()  # the app's own backend: capped retries during recovery
        tried = len(home.server.requests_to("PUT"))
        from assistant.services import RECOVERY_RETRIES
        assert 1 <= tried <= RECOVERY_RETRIES["max_attempts"]  # stopped at the first failure
        home.server.faults.clear()
    else:
        failing = Unavailable(home.path / "calendar.db", PERSON_TZ)
        services = home.services(backend=failing)
        assert failing.restores == 1  # one failure, then the rest waits
    [report] = services.recovered
    assert not report.complete and report.failures and report.waiting == 2
    assert "could not be fully undone" in report.notice()
    assert "the next start" in report.notice()
    assert all(i not in report.notice() for i in ids.values())
    assert home.turn_state("turn-dead") == "unfinished"
    assert {home.event(i).description for i in ids.values()} == {"moved"}  # type: ignore[union-attr]

    again = home.services()  # the service is back
    [report] = again.recovered
    assert report.complete and len(report.restored) == 3, report.summary()
    assert home.turn_state("turn-dead") == "rolled_back"
    assert {home.event(i).description for i in ids.values()} == {None}  # type: ignore[union-attr]
    assert home.services().recovered == []


def test_an_unreadable_entry_is_reported_and_skipped(home: Home) -> None:
    ids = home.seed()
    _write_many(home, "turn-dead", ids)
    with sqlite3.connect(home.path / "assistant.db") as conn:
        conn.execute("UPDATE journal_entries SET pre = '{not json' WHERE event_id = ?", (ids["Swim"],))
    services = home.services()
    [report] = services.recovered
    assert [c.event_id for c in report.skipped] == [ids["Swim"]]
    assert "could not be read" in report.notice()
    assert home.event(ids["Swim"]).description == "moved"  # type: ignore[union-attr]
    assert home.event(ids["Dinner"]).description is None  # type: ignore[union-attr]
    assert home.event(ids["Piano"]).description is None  # type: ignore[union-attr]
    assert home.services().recovered == []


# ----------------------------------------------------------------------------- migration
OLD_SCHEMA = """
CREATE TABLE journal_turns (turn_id VARCHAR NOT NULL, backend VARCHAR NOT NULL, state VARCHAR NOT NULL,
    started_at DATETIME NOT NULL, closed_at DATETIME, PRIMARY KEY (turn_id));
CREATE TABLE journal_entries (id INTEGER NOT NULL, turn_id VARCHAR NOT NULL, attempt INTEGER NOT NULL,
    tool VARCHAR NOT NULL, calendar_id VARCHAR NOT NULL, event_id VARCHAR NOT NULL, pre VARCHAR NOT NULL,
    pre_event VARCHAR, post VARCHAR, post_version VARCHAR, post_event VARCHAR, state VARCHAR NOT NULL,
    created_at DATETIME NOT NULL, PRIMARY KEY (id));
"""


def test_a_journal_from_before_owners_and_intents_still_opens_and_recovers(home: Home) -> None:
    ids = home.seed()
    services = home.services(recover=False)
    backend, cal = services.backend, services.calendar_id
    pre = backend.snapshot(cal, ids["Dinner"])
    backend.patch_event(cal, ids["Dinner"], EventPatch({"title": "Changed"}))
    post = backend.snapshot(cal, ids["Dinner"])
    services.close()
    (home.path / "assistant.db").unlink()
    with sqlite3.connect(home.path / "assistant.db") as conn:
        conn.executescript(OLD_SCHEMA)
        conn.execute("INSERT INTO journal_turns VALUES ('old-turn', ?, 'open', '2025-10-20 08:00:00', NULL)",
                     (home.backend_name,))
        conn.execute("INSERT INTO journal_entries VALUES (1, 'old-turn', 1, 'update_calendar_event', ?, ?, ?,"
                     " NULL, ?, ?, NULL, 'done', '2025-10-20 08:00:00')",
                     (cal, ids["Dinner"], json.dumps(pre.to_json()), json.dumps(post.to_json()), post.version))
    again = home.services()
    assert [r.turn_id for r in again.recovered] == ["old-turn"]  # no owner recorded: its process is gone
    assert again.recovered[0].complete
    assert home.event(ids["Dinner"]).title == "Dinner"  # type: ignore[union-attr]
    with sqlite3.connect(home.path / "assistant.db") as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(journal_entries)")}
    assert {"intent", "base_version", "note"} <= columns
