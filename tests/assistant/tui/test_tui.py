"""The TUI driven by Textual's Pilot against the real agent: real anthropic SDK -> the fake
Anthropic server, real registry, journal, guard and rollback on a local calendar.

Said on Monday 2025-10-20 08:00 in Los Angeles, so "Thursday" is October 23 and the scripted
wrong date, Friday October 24, must be caught, rolled back and fixed on screen.
"""
from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets import Input, Markdown, Static

from assistant.agent import Agent
from assistant.app import build_agent
from assistant.scripted.fake_anthropic import FakeAnthropicServer
from assistant.session.chat import AgentSession
from assistant.settings import Settings, load_settings, save_setting
from assistant.tui.app import CalendarApp
from assistant.tui.formatting import describe_outcome, when_label
from assistant.tui.screens.changes import ChangesScreen
from assistant.tui.screens.confirm import ConfirmScreen
from assistant.tui.screens.findings import FindingsScreen
from assistant.tui.screens.first_run import SetupScreen
from assistant.tui.screens.help import HelpScreen
from assistant.tui.widgets.agenda import AgendaPanel
from assistant.tui.widgets.event_card import EventCardView
from assistant.tui.widgets.messages import UserMessage
from assistant.tui.widgets.outcome import OutcomeBadge
from assistant.tui.widgets.turn import TurnView
from assistant.tui.widgets.undo import UndoView
from assistant.tui.widgets.working import WorkingIndicator
from tools.backends.local import LocalBackend
from tools.calendar.events import event_from_contract, zone

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
MAIN, REFL = "tui-main", "tui-reflection"


def screen_text(screen: Screen[object]) -> str:
    """Every Static/Markdown text on a screen, joined."""
    parts: list[str] = []
    for widget in screen.query("Static, Markdown"):
        if isinstance(widget, Markdown):
            parts.append(widget.source)
        else:
            parts.append(str(widget.render()))
    return "\n".join(parts)


def _two_deletes() -> dict[str, Any]:
    """A model reply deleting book club and the piano lesson at once (two deletes: a confirmation)."""
    return {"content": [{"type": "tool_use", "name": "delete_calendar_event", "input": {"event_id": "ev_book1"}},
                        {"type": "tool_use", "name": "delete_calendar_event", "input": {"event_id": "ev_piano1"}}]}


CALENDAR = [
    {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
     "end": "2025-10-21T17:45:00-07:00", "timezone": TZ, "location": "Westside Pool"},
    {"id": "ev_book1", "title": "Book club", "start": "2025-10-23T19:00:00-07:00",
     "end": "2025-10-23T21:00:00-07:00", "timezone": TZ, "location": "Library"},
    {"id": "ev_piano1", "title": "Piano lesson", "start": "2025-10-24T15:00:00-07:00",
     "end": "2025-10-24T15:30:00-07:00", "timezone": TZ},
]
WRONG_THEN_RIGHT = [
    {"content": [{"type": "tool_use", "name": "update_calendar_event",
                  "input": {"event_id": "ev_swim1", "start": "2025-10-24T17:00:00",
                            "end": "2025-10-24T17:45:00"}}]},
    {"content": [{"type": "text", "text": "Moved the swim lesson to Thursday, October 24."}]},
    {"content": [{"type": "tool_use", "name": "calculate_datetime", "input": {"expression": "Thursday"}}]},
    {"content": [{"type": "tool_use", "name": "update_calendar_event",
                  "input": {"event_id": "ev_swim1", "start": "2025-10-23T17:00:00",
                            "end": "2025-10-23T17:45:00"}}]},
    {"content": [{"type": "text", "text": "Moved the **swim lesson** to Thursday, October 23 at 5 PM."}]},
]


@pytest.fixture
def anyio_backend() -> str:
    """Textual runs on asyncio; the async tests run through anyio's pytest plugin."""
    return "asyncio"


@dataclasses.dataclass
class Rig:
    server: FakeAnthropicServer
    backend: LocalBackend
    settings: Settings
    deltas: list[str]
    statuses: list[str]
    agents: list[Agent] = dataclasses.field(default_factory=list)

    def app(self, **kw: Any) -> CalendarApp:
        def factory(confirm: Any) -> AgentSession:
            agent = build_agent(self.settings, confirm=confirm, backend=self.backend,
                                base_url=self.server.base_url, reflection_mode="symbolic",
                                now=lambda: NOW, lessons=False, max_retries=0)
            self.agents.append(agent)  # a test may look at what the agent remembers
            return AgentSession(agent)
        return CalendarApp(self.settings, factory, animate=False, **kw)

    def start(self, event_id: str) -> str | None:
        event = self.backend.get_event("primary", event_id)
        return None if event is None else event.start.isoformat()


@pytest.fixture
def rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Rig]:
    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    settings = Settings(home=home, timezone=TZ, home_address="77 Cedar Ln", model=MAIN,
                        reflection_model=REFL, api_key="test-key")
    home.mkdir(parents=True)
    backend = LocalBackend(home / "calendar.db", TZ)
    for raw in CALENDAR:
        backend.create_event("primary", event_from_contract(raw, TZ))
    deltas: list[str] = []
    original = TurnView.add_delta

    async def spy(self: TurnView, text: str) -> None:  # every token the person could have read
        deltas.append(text)
        await original(self, text)

    monkeypatch.setattr(TurnView, "add_delta", spy)
    statuses: list[str] = []
    original_status = TurnView.set_status

    def status_spy(self: TurnView, text: str) -> None:  # every working state shown
        statuses.append(text)
        original_status(self, text)

    monkeypatch.setattr(TurnView, "set_status", status_spy)
    server = FakeAnthropicServer({MAIN: [], REFL: []}).start()
    yield Rig(server, backend, settings, deltas, statuses)
    server.failures.clear()
    server.close()


async def send(pilot: Any, text: str) -> None:
    """Put a request in the input and press Enter (typing key by key is tested once, in the
    setup test; here it would only make the suite slow)."""
    prompt = pilot.app.query_one("#prompt")
    prompt.focus()
    prompt.value = text
    await pilot.press("enter")


async def settle(pilot: Any) -> None:
    """Wait for every worker (turn, agenda, undo) and the UI updates they schedule."""
    app = pilot.app
    for _ in range(200):
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        if not app.turns.running and all(w.is_finished for w in app.workers):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the app did not settle")


async def wait_for_screen(pilot: Any, kind: type) -> Any:
    for _ in range(500):
        if isinstance(pilot.app.screen, kind):
            return pilot.app.screen
        await pilot.pause(0.01)
    raise AssertionError(f"{kind.__name__} never appeared (screen: {pilot.app.screen!r})")


def texts(app: CalendarApp, kind: type) -> list[str]:
    return [w.plain for w in app.query(kind)]


def texts_of(app: CalendarApp, kind: type[Static]) -> list[str]:
    """What widgets that render their own text (a message, a notice) show."""
    return [str(w.render()) for w in app.query(kind)]


# ----------------------------------------------------------------------------- turns
@pytest.mark.anyio
async def test_question_streams_token_by_token(rig: Rig) -> None:
    reply = "You have a **swim lesson** tomorrow at 5 PM and book club on Thursday."
    rig.server.add(MAIN, {"content": [{"type": "text", "text": reply}], "chunk_delay": 0.005})
    app = rig.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await send(pilot, "what's on this week?")
        await settle(pilot)
        view = app.query_one(TurnView)
        assert len(rig.deltas) > 5  # streamed, not one block at the end
        assert "".join(rig.deltas) == reply
        assert view.reply.source == reply
        assert not app.query(OutcomeBadge)  # a question touches nothing: no confidence shown
        assert not app.query(WorkingIndicator)


@pytest.mark.slow
@pytest.mark.anyio
async def test_wrong_weekday_is_caught_and_shown_corrected(rig: Rig) -> None:
    rig.server.add(MAIN, *WRONG_THEN_RIGHT)
    app = rig.app()
    async with app.run_test(size=(120, 40)) as pilot:
        await send(pilot, "Move swim lesson to Thursday")
        await settle(pilot)
        view = app.query_one(TurnView)
        assert view.reply.source == "Moved the **swim lesson** to Thursday, October 23 at 5 PM."
        # The working state said what was going on, in order.
        shown = list(dict.fromkeys(rig.statuses))
        assert shown.index("checking the change…") < shown.index("correcting…")
        assert not app.query(WorkingIndicator)  # and is gone once the verdict is in
        # The rolled-back attempt's text never reached the screen, not even as a stream.
        assert "October 24" not in "".join(rig.deltas)
        assert "October 24" not in view.reply.source
        [card] = texts(app, EventCardView)
        assert "Tuesday, October 21, 5:00 PM" in card and "Thursday, October 23, 5:00 PM" in card
        assert "  →  " in card
        [badge] = app.query(OutcomeBadge)
        assert badge.outcome.kind == "corrected" and badge.outcome.confidence == "high"
        assert "Friday, October 24, 5:00 PM" in badge.plain  # what was wrong
        assert ("Put 'Swim lesson' back on Tuesday, October 21 at 5:00 PM "
                "(it was Friday, October 24 at 5:00 PM)") in badge.plain  # what came back
        assert rig.start("ev_swim1") == "2025-10-23T17:00:00-07:00"
        agenda = app.query_one(AgendaPanel)
        swim = [e for e in agenda.events if e.id == "ev_swim1"]
        assert swim and swim[0].start.day == 23  # refreshed after the change

        await pilot.press("ctrl+f")
        panel = await wait_for_screen(pilot, FindingsScreen)
        assert "“Move swim lesson to Thursday”" in panel.markdown
        assert "First try: wrong, undone" in panel.markdown
        assert "**Problem:** 'Thursday' is Thursday, October 23" in panel.markdown
        assert "What the check worked out" in panel.markdown
        assert "calculate_datetime" not in panel.markdown and "ev_swim1" not in panel.markdown
        assert "|" not in panel.markdown  # no table: sentences wrap at any width
        await pilot.press("escape")
        assert not isinstance(app.screen, FindingsScreen)


@pytest.mark.slow
@pytest.mark.anyio
async def test_correct_change_is_verified_high(rig: Rig) -> None:
    rig.server.add(MAIN, *WRONG_THEN_RIGHT[2:])
    app = rig.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await send(pilot, "Move swim lesson to Thursday")
        await settle(pilot)
        [badge] = app.query(OutcomeBadge)
        assert (badge.outcome.kind, badge.outcome.confidence) == ("verified", "high")
        assert badge.border_title == "confidence: high"


@pytest.mark.slow
@pytest.mark.anyio
async def test_undo_asks_then_restores_the_calendar(rig: Rig) -> None:
    rig.server.add(MAIN, *WRONG_THEN_RIGHT[2:])
    app = rig.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await send(pilot, "Move swim lesson to Thursday")
        await settle(pilot)
        assert rig.start("ev_swim1") == "2025-10-23T17:00:00-07:00"
        await pilot.press("ctrl+z")
        dialog = await wait_for_screen(pilot, ConfirmScreen)
        assert "Swim lesson" in dialog.summary
        await pilot.press("n")  # no means no
        await settle(pilot)
        assert rig.start("ev_swim1") == "2025-10-23T17:00:00-07:00"
        await send(pilot, "/undo")
        dialog = await wait_for_screen(pilot, ConfirmScreen)
        assert "Demo step" not in dialog.summary  # only the demo's scripted step says yes first
        await pilot.press("enter")  # "No" has the focus outside the demo: Enter keeps the change
        await settle(pilot)
        assert rig.start("ev_swim1") == "2025-10-23T17:00:00-07:00"
        await send(pilot, "/undo")
        await wait_for_screen(pilot, ConfirmScreen)
        await pilot.click("#yes")
        await settle(pilot)
        assert rig.start("ev_swim1") == "2025-10-21T17:00:00-07:00"
        [undo] = app.query(UndoView)
        cards = [c.plain for c in undo.query(EventCardView)]
        assert any("Tuesday, October 21, 5:00 PM" in c for c in cards)
        swim = [e for e in app.query_one(AgendaPanel).events if e.id == "ev_swim1"]
        assert swim[0].start.day == 21


@pytest.mark.slow
@pytest.mark.anyio
async def test_multi_delete_waits_for_the_person(rig: Rig) -> None:
    rig.server.add(MAIN, _two_deletes(),
                   {"content": [{"type": "text", "text": "Cancelled book club and the piano lesson."}]})
    app = rig.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await send(pilot, "cancel book club and the piano lesson")
        dialog = await wait_for_screen(pilot, ConfirmScreen)
        assert "Book club" in dialog.summary and "Piano lesson" in dialog.summary
        await pilot.pause(0.2)
        # The worker is blocked on the answer: nothing is deleted yet, the turn is still running.
        assert rig.start("ev_book1") is not None and rig.start("ev_piano1") is not None
        assert app.query_one(WorkingIndicator).label == "waiting for your answer…"  # still running
        await pilot.press("y")
        await settle(pilot)
        assert rig.start("ev_book1") is None and rig.start("ev_piano1") is None
        assert sorted(c.card_text.action for c in app.query(EventCardView)) == ["deleted", "deleted"]


@pytest.mark.anyio
async def test_multi_delete_refused_deletes_nothing(rig: Rig) -> None:
    rig.server.add(MAIN, _two_deletes(),
                   {"content": [{"type": "text", "text": "OK, I left both events alone."}]})
    app = rig.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await send(pilot, "cancel book club and the piano lesson")
        await wait_for_screen(pilot, ConfirmScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert rig.start("ev_book1") is not None and rig.start("ev_piano1") is not None
        reply = app.query_one(TurnView).reply.source
        assert reply.startswith("Nothing was changed in your calendar: none of the 2 changes I "
                                "tried went through (you did not confirm it).")
        assert reply.endswith("OK, I left both events alone.")


@pytest.mark.anyio
async def test_network_error_is_a_notice_and_retry_works(rig: Rig) -> None:
    rig.server.add(MAIN, {"fault": "status", "status": 429, "headers": {"x-should-retry": "false"}},
                   {"content": [{"type": "text", "text": "Nothing on Sunday."}]})
    app = rig.app()
    async with app.run_test(size=(110, 36), notifications=True) as pilot:
        await send(pilot, "what's on Sunday?")
        await settle(pilot)
        [badge] = app.query(OutcomeBadge)
        assert badge.outcome.kind == "error" and "rate limiting" in badge.plain
        await pilot.press("ctrl+r")
        await settle(pilot)
        views = list(app.query(TurnView))
        assert len(views) == 2 and views[-1].reply.source == "Nothing on Sunday."
        assert texts_of(app, UserMessage) == ["what's on Sunday?"] * 2  # the failed request, again
        await send(pilot, "/retry")  # it went through: nothing is left to retry
        await settle(pilot)
        assert len(app.query(TurnView)) == 2
        assert any("Nothing to retry" in str(n.message) for n in app._notifications)


# ----------------------------------------------------------------------------- screens
@pytest.mark.slow
@pytest.mark.anyio
async def test_help_palette_and_agenda_toggle(rig: Rig) -> None:
    app = rig.app()
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot)
        agenda = app.query_one(AgendaPanel)
        assert [e.id for e in agenda.events] == ["ev_swim1", "ev_book1", "ev_piano1"]
        await pilot.press("ctrl+g")
        assert not agenda.display
        await send(pilot, "/agenda")
        assert agenda.display
        await pilot.press("f1")
        await wait_for_screen(pilot, HelpScreen)
        await pilot.press("ctrl+z")  # app keys are off while a dialog is up
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Undo last change", "Retry", "Why this confidence", "Toggle agenda", "Help"} <= titles
        await send(pilot, "/nonsense")
        assert not app.query(TurnView)


@pytest.mark.slow
@pytest.mark.anyio
async def test_setup_screen_saves_a_pasted_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.tui.launch import chat_app

    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", TZ)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    settings = load_settings()
    app = chat_app(settings, animate=False)
    assert app.needs_setup
    async with app.run_test(size=(100, 34)) as pilot:
        screen = await wait_for_screen(pilot, SetupScreen)
        text = screen.query_one("Markdown").source
        assert "ANTHROPIC_API_KEY" in text and "ANTHROPIC_BASE_URL" in text and "Ollama" in text
        await pilot.press(*"sk-ant-test-1234")
        await pilot.press("enter")
        await settle(pilot)
        assert not isinstance(app.screen, SetupScreen)
        assert app.session is not None
        assert any("API key saved" in str(n.message) for n in app._notifications)
    assert 'api_key = "sk-ant-test-1234"' in (tmp_path / "config.toml").read_text()
    assert load_settings().api_key == "sk-ant-test-1234"
    assert (tmp_path / "config.toml").stat().st_mode & 0o777 == 0o600  # it holds a secret


@pytest.mark.slow
@pytest.mark.anyio
async def test_setup_screen_at_80x24_opens_with_its_heading_and_the_key_input_in_view(
        tmp_path: Path) -> None:
    """Issue 28 item 5: the key input at the bottom of one scrolled column took the focus and
    scrolled the screen past its own heading. Both must be on screen as it opens."""
    settings = Settings(home=tmp_path, timezone=TZ, api_key=None)
    app = CalendarApp(settings, lambda _confirm: None, needs_setup=True, animate=False)  # type: ignore[arg-type,return-value]
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await wait_for_screen(pilot, SetupScreen)
        await settle(pilot)
        seen = set()
        for y in range(24):
            for x in range(80):
                try:
                    seen.add(screen.get_widget_at(x, y)[0])
                except Exception:  # noqa: BLE001 - a cell with no widget
                    pass
        heading = screen.query_one(Markdown).query_one("MarkdownH1")  # "# Set up the assistant"
        assert heading in seen, "the heading is scrolled out of view"
        assert screen.query_one("#api-key") in seen and screen.focused is screen.query_one("#api-key")


@pytest.mark.anyio
async def test_escape_on_the_setup_screen_quits_with_exit_0(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.tui.launch import chat_app

    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", TZ)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    app = chat_app(load_settings())
    async with app.run_test(size=(100, 34)) as pilot:
        await wait_for_screen(pilot, SetupScreen)
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code == 0 and app.return_value == 0


@pytest.mark.anyio
async def test_textuals_animate_method_is_not_shadowed(rig: Rig) -> None:
    """Textual calls `animate()` itself (smooth scrolling): a bool in its place would crash."""
    app = rig.app()
    async with app.run_test(size=(100, 34)) as pilot:
        await settle(pilot)
        view = TurnView("hello", TZ, animate=False)
        await app.query_one("#conversation").mount(view)
        await settle(pilot)
        view.scroll_to(y=1, animate=True, duration=0.01)
        app.query_one("#conversation").scroll_end(animate=True, duration=0.01)
        await settle(pilot)
        assert callable(app.animate) and callable(view.animate)


def test_local_server_needs_no_setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.tui.launch import chat_app

    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://localhost:11434")
    assert not chat_app(load_settings()).needs_setup
    monkeypatch.delenv("ANTHROPIC_BASE_URL")
    settings = load_settings()
    save_setting(settings, "api_key", "sk-ant-x")
    assert not chat_app(load_settings()).needs_setup


# ----------------------------------------------------------------------------- demo
@pytest.mark.slow
@pytest.mark.anyio
async def test_demo_plays_a_correct_step_a_caught_step_and_an_undo(tmp_path: Path) -> None:
    from assistant.tui.launch import demo_rig

    rig = demo_rig(NOW, tz_name=TZ, chunk_delay=0, animate=False, home=tmp_path / "demo")
    app = rig.app
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            banner = str(app.query_one("#demo-banner", Static).render())
            assert all(step in banner for step in rig.steps)  # says what it can do, up front
            assert app.title == "calendar-assistant · DEMO" and "DEMO" not in app.sub_title
            assert app.query_one("#prompt", Input).value == "Add Maya's soccer game on October 22 at 10am"
            await pilot.press("enter")
            await settle(pilot)
            assert [b.outcome.kind for b in app.query(OutcomeBadge)] == ["verified"]
            assert app.query_one("#prompt", Input).value == "Move the swim lesson to Thursday"
            await pilot.press("enter")
            await settle(pilot)
            assert [b.outcome.kind for b in app.query(OutcomeBadge)] == ["verified", "corrected"]
            card = texts(app, EventCardView)[-1]
            assert "Thursday, October 23, 5:00 PM" in card
            assert app.query_one("#prompt", Input).value == "/undo"
            await pilot.press("enter")
            dialog = await wait_for_screen(pilot, ConfirmScreen)
            assert "Demo step: Enter undoes it" in dialog.summary
            await pilot.press("enter")  # the banner says "Press Enter for each step": it undoes
            await settle(pilot)
            [undo] = app.query(UndoView)
            assert "Put 'Swim lesson' back on Tuesday, October 21 at 5:00 PM" in undo.plain
            await send(pilot, "and the dentist?")
            await settle(pilot)
            assert "scripted demo" in list(app.query(TurnView))[-1].reply.source
    finally:
        rig.close()


def test_demo_plan_never_uses_an_ambiguous_day() -> None:
    from datetime import timedelta

    from assistant.scripted.demo import build_demo

    for offset in range(7):
        now = NOW + timedelta(days=offset)
        events, script = build_demo(now, TZ, chunk_delay=0)
        plan = script["plan"]
        assert plan.target.weekday() == 3 and plan.target > now.date()
        assert plan.wrong.weekday() == 4
        swim = next(e for e in events if e.id == "ev_swim")
        assert swim.start.date() not in (plan.target, plan.wrong)
        if now.weekday() == 3:
            assert script["request"] == "Move the swim lesson to next Thursday"


# ----------------------------------------------------------------------------- words
def test_when_label_spells_out_the_weekday_in_the_persons_zone() -> None:
    utc = event_from_contract({"id": "a", "title": "Call", "start": "2025-10-24T00:00:00Z",
                               "end": "2025-10-24T01:00:00Z", "timezone": "UTC"}, "UTC")
    assert when_label(utc, TZ) == "Thursday, October 23, 5:00 PM – 6:00 PM"
    allday = event_from_contract({"id": "b", "title": "Trip", "start": "2025-10-24",
                                  "end": "2025-10-27"}, TZ)
    assert when_label(allday, TZ) == "Friday, October 24 – Sunday, October 26 (all day)"


def test_no_outcome_for_a_turn_that_touched_nothing() -> None:
    from assistant.report import Attempt, TurnReport

    report = TurnReport("t", "hi", attempts=[Attempt(1, reply="hello")], reply="hello")
    assert describe_outcome(report, TZ) is None


def test_a_failed_turn_names_the_doors_own_way_to_retry() -> None:
    """Issue 28 item 6: the chat's keys (ctrl+r, /retry) mean nothing to `ask` in a shell."""
    from assistant.report import Attempt, TurnReport
    from assistant.tui.formatting import report_text

    report = TurnReport("t", "hi", attempts=[Attempt(1)], reply="", error="The model did not answer.")
    chat = describe_outcome(report, TZ)
    assert chat is not None and "Press ctrl+r (or type /retry) to try again." in chat.lines
    text = report_text(report, TZ)  # what `ask` prints
    assert "Run the same command again to try again." in text
    assert "ctrl+" not in text and "/retry" not in text


@pytest.mark.anyio
async def test_a_corrupt_calendar_file_is_a_notice_naming_the_file(tmp_path: Path) -> None:
    from assistant.tui.widgets.messages import NoticeMessage

    home = tmp_path / "home"
    home.mkdir()
    (home / "calendar.db").write_bytes(b"not a database at all " * 100)
    settings = Settings(home=home, timezone=TZ, api_key="test-key")
    app = CalendarApp(settings, lambda confirm: AgentSession(build_agent(settings, confirm=confirm)),
                      animate=False)
    async with app.run_test(size=(120, 34)) as pilot:
        await settle(pilot)
        notices = [str(w.render()) for w in app.query(NoticeMessage)]
    assert app.session is None
    assert any(str(home / "calendar.db") in n and "not a usable SQLite database" in n for n in notices), notices


# ----------------------------------------------------------------------------- issue 18
RECURRING = [
    {"content": [{"type": "tool_use", "name": "create_calendar_event",
                  "input": {"title": "Piano lesson", "start": "2025-10-22T16:00:00",
                            "end": "2025-10-22T16:30:00", "recurrence": ["RRULE:FREQ=WEEKLY;BYDAY=WE"]}}]},
    {"content": [{"type": "text", "text": "Added the piano lesson, every Wednesday from October 22."}]},
]


def transcript(app: CalendarApp) -> str:
    """Every word the conversation shows: replies, cards, badges, notices, undo summaries."""
    parts = [screen_text(app.screen)]
    parts += [w.plain for w in app.query(EventCardView)] + [w.plain for w in app.query(OutcomeBadge)]
    parts += [w.plain for w in app.query(UndoView)]
    return "\n".join(parts)


@pytest.mark.slow
@pytest.mark.anyio
async def test_no_tool_name_event_id_or_rrule_reaches_the_transcript(rig: Rig) -> None:
    from tools.specs import all_specs

    rig.server.add(MAIN, *RECURRING)
    app = rig.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await send(pilot, "Add piano lessons every Wednesday at 4pm starting Wednesday")
        await settle(pilot)
        await pilot.press("ctrl+z")
        await wait_for_screen(pilot, ConfirmScreen)
        summary = app.screen.summary  # type: ignore[attr-defined]
        await pilot.press("y")
        await settle(pilot)
        shown = transcript(app) + "\n" + summary
        assert "every Wednesday" in shown  # the repeat rule, in words
        assert "Removed 'Piano lesson'" in shown  # the undo of an added event says so
        for spec in all_specs():
            assert spec.name not in shown, spec.name
        assert "FREQ=" not in shown and "RRULE" not in shown and "BYDAY" not in shown
        ids = [e.id for e in rig.backend.list_events("primary", NOW, NOW + timedelta(days=30))]
        created = [c.event.id for v in app.query(TurnView) if v.report for c in v.report.cards]
        assert created and all(i not in shown for i in created + ids)


@pytest.mark.anyio
async def test_ctrl_z_with_nothing_to_undo_says_so_without_a_dialog(rig: Rig) -> None:
    app = rig.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+z")
        await settle(pilot)
        assert not isinstance(app.screen, ConfirmScreen)
        assert any("Nothing to undo" in str(n.message) for n in app._notifications)
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert any("Nothing to redo" in str(n.message) for n in app._notifications)


@pytest.mark.slow
@pytest.mark.anyio
async def test_changes_list_undoes_a_chosen_change_and_redo_puts_it_back(rig: Rig) -> None:
    rig.server.add(MAIN, *WRONG_THEN_RIGHT[2:])
    app = rig.app()
    async with app.run_test(size=(100, 30)) as pilot:
        await send(pilot, "Move swim lesson to Thursday")
        await settle(pilot)
        await pilot.press("f4")
        listing = await wait_for_screen(pilot, ChangesScreen)
        [change] = listing.changes
        assert change.lines(TZ) == ["Moved 'Swim lesson' from Tuesday, October 21 at 5:00 PM to "
                                    "Thursday, October 23 at 5:00 PM"]
        await pilot.press("enter")
        await settle(pilot)
        assert rig.start("ev_swim1") == "2025-10-21T17:00:00-07:00"
        await pilot.press("ctrl+y")
        await settle(pilot)
        assert rig.start("ev_swim1") == "2025-10-23T17:00:00-07:00"
        assert [v.redo for v in app.query(UndoView)] == [False, True]
        await send(pilot, "/changes")
        listing = await wait_for_screen(pilot, ChangesScreen)
        assert [c.state for c in listing.changes] == ["standing", "undone"]


@pytest.mark.anyio
async def test_clear_starts_a_fresh_conversation(rig: Rig) -> None:
    rig.server.add(MAIN, {"content": [{"type": "text", "text": "You have swim on Tuesday."}]})
    rig.server.add(MAIN, {"content": [{"type": "text", "text": "Fresh start."}]})
    app = rig.app()
    async with app.run_test(size=(80, 24)) as pilot:
        await send(pilot, "what's on?")
        await settle(pilot)
        [agent] = rig.agents
        before = agent.history.conversation_id
        await send(pilot, "/clear")
        await settle(pilot)
        assert not app.query(TurnView) and not app.query(UserMessage)
        assert agent.history.conversation_id != before
        assert agent.history.messages() == []
        await send(pilot, "hello again")
        await settle(pilot)
        sent = rig.server.requests[-1].body["messages"]
        assert [m["content"] for m in sent if m["role"] == "user"] == ["hello again"]


def visible_lines(app: Any) -> str:
    """The words on the screen as drawn (what a person sees, not what the widgets hold)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


@pytest.mark.slow
@pytest.mark.anyio
async def test_narrow_terminal_folds_the_agenda_and_keeps_the_latest_message(rig: Rig) -> None:
    rig.server.add(MAIN, {"content": [{"type": "text", "text": "\n\n".join(f"line {i}" for i in range(40))}]})
    app = rig.app()
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        agenda = app.query_one(AgendaPanel)
        assert agenda.display and not app.narrow
        await send(pilot, "a long answer please")
        await settle(pilot)
        await pilot.resize_terminal(80, 24)
        await settle(pilot)
        conversation = app.query_one("#conversation")
        assert app.narrow and not agenda.display
        assert conversation.size.width >= 78  # the chat gets the width
        # still at the latest message: the long reply, from its first line (issue 28 item 8)
        assert 0 < conversation.scroll_y < conversation.max_scroll_y
        assert "line 0" in visible_lines(app)
        await pilot.press("ctrl+g")
        await settle(pilot)
        assert agenda.display and agenda.region.y > conversation.region.y  # under the chat
        await pilot.resize_terminal(60, 20)
        await settle(pilot)
        assert "line 0" in visible_lines(app)


@pytest.mark.slow
@pytest.mark.anyio
async def test_theme_is_remembered_in_the_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tomllib

    from assistant.settings import load_settings
    from assistant.tui.launch import chat_app

    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path))
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    app = chat_app(load_settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.theme = "nord"
        await settle(pilot)
    assert tomllib.loads((tmp_path / "config.toml").read_text())["theme"] == "nord"
    again = chat_app(load_settings())
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert again.theme == "nord"


def test_screenshots_go_home_when_there_is_no_downloads_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.tui.screenshots import screenshot_dir

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(tmp_path / "Downloads"))  # does not exist
    assert screenshot_dir() == tmp_path
    (tmp_path / "Downloads").mkdir()
    assert screenshot_dir() == tmp_path / "Downloads"
