"""One undo and redo for every door, in one wording, and big changes said as counts.

- A change made over MCP and undone in the chat, and a chat change undone over MCP, both show in
  the chat's changes list (F4) as undone and come back with the chat's redo (ctrl+y): MCP's
  `undo_last_change` is the person's undo of `tools.journal.changes`, not a bare journal rollback.
- An undone create says "Removed" everywhere (never "put back").
- A rollback or undo of thousands of events (an interrupted import) is one short line of counts
  ("removed 40 imported events"), in recovery's notice, the command line and MCP; `undo` shows
  what it will take back and asks when that is more than one event.

Real parts: the MCP SDK's client against our server in process, the TUI under Textual's pilot
with the real agent (anthropic SDK -> the fake Anthropic server), the console command in a real
pseudo-terminal. Said on Thursday 2025-10-23 09:00 in Los Angeles.
"""
from __future__ import annotations

import os
import pty
import subprocess
import sys
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from mcp import Client, types
from mcp_support import seeded_home
from test_tui import settle, wait_for_screen

from assistant.app import build_agent
from assistant.cli import main as cli_main
from assistant.mcp.server import build_server
from assistant.mcp_tools import UNDO_TOOL
from assistant.scripted.fake_anthropic import FakeAnthropicServer, resp, text, tool
from assistant.services import build_services
from assistant.session.chat import AgentSession
from assistant.settings import Settings, load_settings
from assistant.tui.app import CalendarApp
from assistant.tui.screens.changes import ChangesScreen
from tools.backends.base import WriteRecord
from tools.backends.local import LocalBackend
from tools.calendar.events import Event, event_from_contract, zone
from tools.ical.files import read_ics
from tools.ical_import import apply_import, plan_import
from tools.journal.changes import Changes, rollback_words
from tools.journal.entries import Intent, IntentKind
from tools.journal.journal import Journal

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 23, 9, 0, tzinfo=zone(TZ))
MAIN = "undo-main"
DENTIST = {"title": "Dentist", "start": "2025-10-31T15:00:00", "end": "2025-10-31T16:00:00"}
DENTIST_WORDS = "'Dentist' on Friday, October 31 at 3:00 PM"
MANY = 40


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Settings]:
    home = seeded_home(tmp_path, monkeypatch, [
        {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-24T17:00:00",
         "end": "2025-10-24T17:45:00", "timezone": TZ}])
    yield Settings(home=home, timezone=TZ, home_address="77 Cedar Ln", model=MAIN,
                   reflection_model="undo-reflection", api_key="test-key")


@pytest.fixture
def model() -> Iterator[FakeAnthropicServer]:
    server = FakeAnthropicServer({MAIN: []}).start()
    yield server
    server.failures.clear()
    server.close()


def titles(settings: Settings) -> list[str]:
    backend = LocalBackend(settings.calendar_db, TZ)
    found = backend.list_events("primary", datetime(2025, 10, 1, tzinfo=zone(TZ)),
                                datetime(2026, 3, 1, tzinfo=zone(TZ)))
    return sorted(e.title for e in found)


def text_of(result: types.CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))


def mcp_server(settings: Settings) -> Any:
    return build_server(settings, now=lambda: NOW, configured=lambda: None)


def chat(settings: Settings, model: FakeAnthropicServer) -> CalendarApp:
    def factory(confirm: Any) -> AgentSession:
        return AgentSession(build_agent(settings, confirm=confirm, base_url=model.base_url,
                                        reflection_mode="symbolic", now=lambda: NOW, lessons=False,
                                        max_retries=0))
    return CalendarApp(settings, factory, animate=False)


async def changes_listed(pilot: Any) -> ChangesScreen:
    await pilot.press("f4")
    screen: ChangesScreen = await wait_for_screen(pilot, ChangesScreen)
    return screen


# ---------------------------------------------------------------------------- one undo, every door
@pytest.mark.anyio
async def test_an_mcp_change_undone_in_the_chat_is_listed_and_redone(
        settings: Settings, model: FakeAnthropicServer) -> None:
    async with Client(mcp_server(settings)) as client:
        made = await client.call_tool("create_calendar_event", {
            **DENTIST, "request": "add dentist on Friday October 31 at 3pm"})
    assert not made.is_error, text_of(made)
    assert "Dentist" in titles(settings)
    app = chat(settings, model)
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        listing = await changes_listed(pilot)
        [change] = listing.changes
        assert change.state == "standing" and change.lines(TZ) == [f"Added {DENTIST_WORDS}"]
        await pilot.press("enter")  # undo the chosen change
        await settle(pilot)
        assert "Dentist" not in titles(settings)
        listing = await changes_listed(pilot)
        assert [(c.state, c.redoable) for c in listing.changes] == [("undone", True)]
        await pilot.press("escape")
        await pilot.press("ctrl+y")
        await settle(pilot)
    assert "Dentist" in titles(settings)


@pytest.mark.anyio
async def test_a_chat_change_undone_over_mcp_is_listed_in_the_chat_and_redone(
        settings: Settings, model: FakeAnthropicServer) -> None:
    model.add(MAIN, resp(tool("create_calendar_event", **DENTIST)),
              resp(text("Added the dentist on Friday, October 31 at 3 PM.")))
    agent = build_agent(settings, base_url=model.base_url, reflection_mode="symbolic",
                        now=lambda: NOW, lessons=False, max_retries=0)
    report = agent.run_turn("add dentist on Friday October 31 at 3pm")
    assert [c.action for c in report.cards] == ["created"] and "Dentist" in titles(settings)
    async with Client(mcp_server(settings)) as client:
        undone = await client.call_tool(UNDO_TOOL, {})
    assert not undone.is_error
    said = text_of(undone)
    assert f"Removed {DENTIST_WORDS}" in said and "put back" not in said.lower()
    assert "Dentist" not in titles(settings)
    app = chat(settings, model)
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        listing = await changes_listed(pilot)
        [change] = listing.changes
        assert (change.state, change.redoable) == ("undone", True)
        await pilot.press("escape")
        await pilot.press("ctrl+y")
        await settle(pilot)
    assert "Dentist" in titles(settings)


@pytest.mark.anyio
async def test_mcp_undo_words_match_the_command_line(settings: Settings,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The same change undone at two doors reads the same."""
    for door in ("mcp", "cli"):
        async with Client(mcp_server(settings)) as client:
            await client.call_tool("create_calendar_event", {
                **DENTIST, "request": "add dentist on Friday October 31 at 3pm"})
            if door == "mcp":
                said = text_of(await client.call_tool(UNDO_TOOL, {}))
        if door == "cli":
            assert cli_main(["undo"]) == 0
            said = capsys.readouterr().out
        assert f"Removed {DENTIST_WORDS}" in said, (door, said)


def test_an_undone_create_is_removed_in_the_one_line_summary(settings: Settings) -> None:
    services = build_services(load_settings())
    event = event_from_contract({**DENTIST, "id": "ev_dentist", "timezone": TZ}, TZ)
    journal = services.journal
    journal.open_turn("t1")
    entry = journal.begin("t1", 1, "create_calendar_event", "primary", "ev_dentist",
                          intent=Intent(IntentKind.CREATE))
    journal.complete(entry, services.backend.create_event("primary", event))
    summary = journal.rollback("t1").summary()
    assert summary.startswith("removed 'Dentist' on Fri 31 Oct at 15:00")
    assert "put back" not in summary


# ---------------------------------------------------------------------------- big changes
def _ics(count: int) -> str:
    """A file of `count` one-hour events, one a day from November 1."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//undo//EN"]
    day = datetime(2025, 11, 1, 17, 0)
    for n in range(count):
        start = day + timedelta(days=n)
        lines += ["BEGIN:VEVENT", f"UID:import-{n}@example.com", "DTSTAMP:20251020T120000Z",
                  f"DTSTART;TZID={TZ}:{start:%Y%m%dT%H%M%S}",
                  f"DTEND;TZID={TZ}:{start + timedelta(hours=1):%Y%m%dT%H%M%S}",
                  f"SUMMARY:Imported {n}", "END:VEVENT"]
    return "\r\n".join([*lines, "END:VCALENDAR", ""])


@pytest.fixture
def many(settings: Settings, tmp_path: Path) -> Path:
    path = tmp_path / "many.ics"
    path.write_text(_ics(MANY))
    return path


class StopsAfter(LocalBackend):
    """A local calendar whose process is killed (an interrupt, not an error) at the n-th create:
    one by one, or in the import's chunk of creates that would go past it."""

    def __init__(self, *args: Any, stop_at: int, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.left = stop_at

    def create_event(self, *args: Any, **kw: Any) -> Event:
        self.left -= 1
        if self.left < 0:
            raise KeyboardInterrupt
        return super().create_event(*args, **kw)

    def create_events_recorded(self, calendar_id: str, events: Sequence[Event],
                               record: WriteRecord, **kw: Any) -> list[Event]:
        self.left -= len(events)
        if self.left < 0:
            raise KeyboardInterrupt
        return super().create_events_recorded(calendar_id, events, record, **kw)


def test_an_interrupted_import_is_recovered_and_reported_as_a_count(
        settings: Settings, many: Path) -> None:
    from test_recovery import dead_owner

    backend = StopsAfter(settings.calendar_db, TZ, stop_at=MANY - 5)
    services = build_services(load_settings(), backend=backend)
    journal = Journal(services.journal.store, backend, owner=dead_owner())
    steps = plan_import(backend, "primary", read_ics(many, TZ), TZ)
    with pytest.raises(KeyboardInterrupt):
        apply_import(journal, "primary", steps, chunk=5)  # interrupted in its eighth chunk
    assert len(titles(settings)) == 1 + MANY - 5
    [report] = build_services(load_settings()).recovered  # the next start
    notice = report.notice()
    assert f"removed {MANY - 5} imported events" in notice
    assert "put back" not in notice and "Imported 3" not in notice and len(notice) < 200
    assert titles(settings) == ["Swim lesson"]


def test_undo_of_a_big_import_without_a_terminal_needs_yes(
        settings: Settings, many: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["import", str(many)]) == 0
    capsys.readouterr()
    assert cli_main(["undo"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--yes" in captured.err and captured.err.count("\n") == 1
    assert f"takes back {MANY} events" in captured.err
    assert len(titles(settings)) == 1 + MANY  # nothing was undone
    assert cli_main(["undo", "--yes"]) == 0
    out = capsys.readouterr().out
    assert out == f"Undone: Removed {MANY} imported events.\n"
    assert titles(settings) == ["Swim lesson"]


@pytest.mark.anyio
async def test_mcp_undo_of_a_big_import_is_a_count(settings: Settings, many: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["import", str(many)]) == 0
    async with Client(mcp_server(settings)) as client:
        undone = await client.call_tool(UNDO_TOOL, {})
    said = text_of(undone)
    assert f"Removed {MANY} imported events" in said and len(said) < 400
    assert "put back" not in said.lower()
    assert len((undone.structured_content or {})["events"]) == MANY


def test_the_changes_list_counts_a_big_change(settings: Settings, many: Path) -> None:
    assert cli_main(["import", str(many)]) == 0
    [change] = Changes(build_services(load_settings()).journal).recent()
    assert change.lines(TZ) == [f"Added {MANY} events"]
    report = Changes(build_services(load_settings()).journal).undo()
    assert report is not None and rollback_words(report, TZ) == [f"Removed {MANY} imported events"]


def _undo_on_a_terminal(settings: Settings, answer: bytes) -> tuple[int, str]:
    """`calendar-assistant undo` with a real terminal as its input, answering `answer`."""
    leader, follower = pty.openpty()
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(settings.home),
           "CALENDAR_ASSISTANT_TIMEZONE": TZ}
    proc = subprocess.Popen([sys.executable, "-m", "assistant.cli", "undo"], stdin=follower,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    os.close(follower)
    try:
        os.write(leader, answer)
        out, err = proc.communicate(timeout=60)
    finally:
        os.close(leader)
    assert not err, err
    return proc.returncode, out.decode()


def test_undo_on_a_terminal_shows_what_it_takes_back_and_asks(settings: Settings, many: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["import", str(many)]) == 0
    code, out = _undo_on_a_terminal(settings, b"n\n")
    assert code == 1 and out.startswith("This takes back:\n  Added 40 events\n")
    assert f"Undo these {MANY} changes? [y/N]" in out and out.endswith("Nothing was undone.\n")
    assert len(titles(settings)) == 1 + MANY
    code, out = _undo_on_a_terminal(settings, b"y\n")
    assert code == 0 and out.endswith(f"Undone: Removed {MANY} imported events.\n")
    assert titles(settings) == ["Swim lesson"]
