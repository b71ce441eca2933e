"""The window alone, on a fake `ChatSession` (tests/assistant/tui/fake_session.py): how it
queues requests, refuses what must wait, and routes keys, slash commands and the palette. What
the real agent does on screen is test_tui.py's."""
from __future__ import annotations

import threading
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fake_session import FakeSession, factory
from test_tui import send, settle
from textual.widgets import Markdown

from assistant.report import Attempt, TurnReport
from assistant.settings import Settings
from assistant.tui import keys
from assistant.tui.app import CalendarApp
from assistant.tui.widgets.messages import NoticeMessage
from assistant.tui.widgets.turn import TurnView
from tools.calendar.events import zone

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def answer(text: str) -> TurnReport:
    return TurnReport("t-" + text, text, attempts=[Attempt(1, reply=text)], reply=text)


def window(tmp_path: Path, session: FakeSession) -> CalendarApp:
    return CalendarApp(Settings(home=tmp_path, timezone=TZ, api_key="k"), factory(session), animate=False)


def notifications(app: CalendarApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


@pytest.mark.anyio
async def test_a_request_sent_while_one_runs_waits_its_turn_and_undo_waits_too(tmp_path: Path) -> None:
    release = threading.Event()
    session = FakeSession(TZ, NOW.date(), reports=[answer("first"), answer("second")],
                          on_send=lambda _session: release.wait(10))
    app = window(tmp_path, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await send(pilot, "first")
        await send(pilot, "second")
        await pilot.press("ctrl+z")
        await send(pilot, "/clear")
        await pilot.pause()
        assert len(app.query(TurnView)) == 1  # the second request is not sent yet
        said = notifications(app)
        assert "Still working on the last request; yours is next." in said
        assert said.count("Wait for the current request to finish first.") == 2  # undo, /clear
        assert session.new_conversations == 0
        release.set()
        await settle(pilot)
        assert [view.reply.source for view in app.query(TurnView)] == ["first", "second"]


@pytest.mark.anyio
async def test_the_window_shows_the_resumed_conversation(tmp_path: Path) -> None:
    session = FakeSession(TZ, NOW.date(), history=[("user", "what's on friday?"),
                                                   ("assistant", "Piano at **3 PM**.")])
    app = window(tmp_path, session)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert str(app.query_one(".past").render()) == "what's on friday?"
        assert app.query_one(".past-reply", Markdown).source == "Piano at **3 PM**."


@pytest.mark.anyio
async def test_a_session_that_cannot_start_is_a_notice_and_requests_wait(tmp_path: Path) -> None:
    def broken(confirm: Any) -> FakeSession:
        raise OSError("disk full")

    app = CalendarApp(Settings(home=tmp_path, timezone=TZ, api_key="k"), broken, animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        notices = [str(n.render()) for n in app.query(NoticeMessage)]
        assert any(n.startswith("Could not start the assistant") for n in notices), notices
        await send(pilot, "hello")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert not app.query(TurnView)
        said = notifications(app)
        assert "The assistant is not ready (see the setup notice)." in said
        assert "The assistant is not ready." in said


def test_every_key_slash_command_and_palette_entry_names_an_action_of_the_app() -> None:
    """A typo in a table of `keys` would be a key or a command that silently does nothing."""
    named = {b.action.split("(")[0] for b in CalendarApp.BINDINGS if not isinstance(b, tuple)}  # name(args)
    named |= set(keys.SLASH_COMMANDS.values()) | {action for _, _, action in keys.PALETTE}
    assert all(callable(getattr(CalendarApp, f"action_{name}", None)) for name in named), named
    assert keys.slash_action("/Undo now") == "undo" and keys.slash_action("/why") == "findings"
    assert keys.slash_action("/") is None and keys.slash_action("/nonsense") is None

