"""Scrolling and focus at 80x24 (issue 28 item 8): PageUp/PageDown did nothing while typing, a
long reply was shown from its end with its start cut off above, and keys typed while the
conversation had the focus vanished. The window alone, on a fake session (fake_session.py); the
same in a real terminal is test_demo_tmux.py's."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fake_session import FakeSession, factory
from test_tui import send, settle, visible_lines
from textual import events
from textual.widgets import Input

from assistant.report import Attempt, TurnReport
from assistant.settings import Settings
from assistant.tui.app import CalendarApp
from assistant.tui.widgets.turn import TurnView
from tools.calendar.events import zone

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
LONG = "FIRST LINE of the answer.\n\n" + "\n\n".join(
    f"Paragraph {i}: a long answer about the week that goes on for a while." for i in range(1, 31)) \
    + "\n\nLAST LINE of the answer."


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def answer(text: str) -> TurnReport:
    return TurnReport("t-x", "tell me about my week", attempts=[Attempt(1, reply=text)], reply=text)


def window(tmp_path: Path, *replies: str) -> CalendarApp:
    session = FakeSession(TZ, NOW.date(), reports=[answer(r) for r in replies])
    return CalendarApp(Settings(home=tmp_path, timezone=TZ, api_key="k"), factory(session), animate=False)


@pytest.mark.anyio
async def test_a_long_reply_is_shown_from_its_first_line_at_80x24(tmp_path: Path) -> None:
    app = window(tmp_path, LONG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await send(pilot, "tell me about my week")
        await settle(pilot)
        await pilot.pause()
        shown = visible_lines(app)
        assert "FIRST LINE of the answer." in shown
        assert "LAST LINE" not in shown  # it is longer than the window: the rest is below
        assert isinstance(app.focused, Input)


@pytest.mark.anyio
async def test_a_short_reply_still_follows_the_end(tmp_path: Path) -> None:
    past = [("user", f"question {i}") if i % 2 else ("assistant", f"answer {i}") for i in range(30)]
    session = FakeSession(TZ, NOW.date(), reports=[answer("Sure: dinner is at 6.")], history=past)
    app = CalendarApp(Settings(home=tmp_path, timezone=TZ, api_key="k"), factory(session), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await send(pilot, "when is dinner?")
        await settle(pilot)
        await pilot.pause()
        assert "Sure: dinner is at 6." in visible_lines(app)
        assert 0 < app.conversation.max_scroll_y == app.conversation.scroll_y


@pytest.mark.anyio
async def test_page_up_and_down_scroll_the_conversation_while_typing(tmp_path: Path) -> None:
    app = window(tmp_path, LONG)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await send(pilot, "tell me about my week")
        await settle(pilot)
        await pilot.pause()
        app.query_one("#prompt", Input).value = "and fri"
        conversation = app.conversation
        top = conversation.scroll_y
        assert top < conversation.max_scroll_y  # shown from the reply's start
        await pilot.press("pagedown")
        await pilot.pause()
        assert conversation.scroll_y > top
        await pilot.press("pagedown", "pagedown", "pagedown")
        await pilot.pause()
        assert "LAST LINE of the answer." in visible_lines(app)
        bottom = conversation.scroll_y
        await pilot.press("pageup")
        await pilot.pause()
        assert conversation.scroll_y < bottom
        prompt = app.query_one("#prompt", Input)
        assert app.focused is prompt and prompt.value == "and fri"  # typing was not disturbed


async def typed_then_conversation_focused(app: CalendarApp, pilot: Any, typed: str) -> Input:
    """The input holding `typed` with its cursor at the end, and the focus on the conversation."""
    await settle(pilot)
    prompt = app.query_one("#prompt", Input)
    prompt.value = typed
    prompt.cursor_position = len(prompt.value)
    app.conversation.focus()
    await pilot.pause()
    assert app.focused is app.conversation
    return prompt


@pytest.mark.anyio
async def test_keys_typed_while_the_conversation_has_focus_go_to_the_input(tmp_path: Path) -> None:
    app = window(tmp_path, "first answer")
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await typed_then_conversation_focused(app, pilot, "move ")
        await pilot.press("d", "i", "n", "n", "e", "r", "space", "a", "t", "space", "7")
        await pilot.pause()
        assert prompt.value == "move dinner at 7"  # every key, none lost
        assert app.focused is prompt
        await pilot.press("enter")
        await settle(pilot)
        assert [v.message for v in app.query(TurnView)] == ["move dinner at 7"]


@pytest.mark.anyio
async def test_keys_arriving_before_the_focus_reaches_the_input_are_not_lost(tmp_path: Path) -> None:
    """A fast typist's keys are all queued to the conversation before the first one has moved
    the focus to the input: each still comes back up to the window after the input has the
    focus, and must be typed, not taken for one the input already had."""
    app = window(tmp_path, "first answer")
    async with app.run_test(size=(80, 24)) as pilot:
        prompt = await typed_then_conversation_focused(app, pilot, "and fri")
        app.conversation._forward_event(events.Key("d", "d"))
        await pilot.pause()
        assert app.focused is prompt  # the first key moved the focus
        # the next two were sent to the conversation before it moved; they come up after it
        for key in "ay":
            app.conversation._forward_event(events.Key(key, key))
        await pilot.pause()
        assert prompt.value == "and friday"
        assert app.focused is prompt
