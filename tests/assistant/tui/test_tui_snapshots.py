"""Snapshot tests of the TUI (pytest-textual-snapshot): the main screen, a corrected turn, the
findings panel and the setup screen.

They run against a fake session that returns fixed `TurnReport`s built from the real dataclasses,
so a snapshot changes only when the *screen* changes, not when the guard's wording does (the
functional tests in test_tui.py drive the real agent). Everything is deterministic: a fixed
"now", no cursor blink, no spinner (`animate=False`), no clock in the header.

The corrected turn and the findings panel are also taken at 80×24 (first-class: the agenda folds
away) and 60×20 (usable), the sizes a laptop split or a phone's SSH app gives.

Update after an intended change: pytest tests/assistant/tui/test_tui_snapshots.py --snapshot-update
"""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from fake_session import FakeSession, factory

from assistant.report import Attempt, TurnReport
from assistant.settings import Settings
from assistant.tui.app import CalendarApp
from reflection.findings import Fact, Finding, Verdict
from tools.calendar.events import Event, EventCard, event_from_contract, zone
from tools.context import ToolCall, ToolResult
from tools.journal.journal import RestoredEvent, RollbackReport

pytestmark = pytest.mark.slow  # whole screens rendered to SVG and compared

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
SIZE = (120, 38)


def ev(event_id: str, title: str, start: str, end: str, location: str | None = None) -> Event:
    return event_from_contract({"id": event_id, "title": title, "start": start, "end": end,
                                "timezone": TZ, "location": location}, TZ)


SWIM = ev("ev_swim1", "Swim lesson", "2025-10-21T17:00:00-07:00", "2025-10-21T17:45:00-07:00", "Westside Pool")
SWIM_WRONG = SWIM.with_changes(start=datetime(2025, 10, 24, 17, tzinfo=zone(TZ)),
                               end=datetime(2025, 10, 24, 17, 45, tzinfo=zone(TZ)))
SWIM_RIGHT = SWIM.with_changes(start=datetime(2025, 10, 23, 17, tzinfo=zone(TZ)),
                               end=datetime(2025, 10, 23, 17, 45, tzinfo=zone(TZ)))
AGENDA = [
    ev("ev_dinner", "Family dinner", "2025-10-20T18:00:00-07:00", "2025-10-20T19:30:00-07:00"),
    SWIM,
    ev("ev_soccer", "Soccer practice", "2025-10-22T16:00:00-07:00", "2025-10-22T17:30:00-07:00"),
    ev("ev_book", "Book club", "2025-10-23T19:00:00-07:00", "2025-10-23T21:00:00-07:00"),
    ev("ev_piano", "Piano lesson", "2025-10-24T15:00:00-07:00", "2025-10-24T15:30:00-07:00"),
]
REQUEST = "Move the swim lesson to Thursday"


def corrected_report() -> TurnReport:
    """The wrong-weekday turn: Friday written for "Thursday", caught, rolled back, redone."""
    wrong_call = ToolCall("t1", "update_calendar_event",
                          {"event_id": "ev_swim1", "start": "2025-10-24T17:00:00"},
                          ToolResult("updated", cards=[EventCard("updated", SWIM_WRONG, SWIM)]))
    facts = [Fact("weekday", "Thursday", "'Thursday' said on Monday 2025-10-20 is Thursday 2025-10-23"),
             Fact("event", "ev_swim1", "Swim lesson was Tuesday 2025-10-21 17:00-17:45")]
    first = Attempt(1, calls=[wrong_call], reply="Moved the swim lesson to Thursday, October 24.",
                    verdict=Verdict(findings=[Finding(
                        "date", "error", "'Thursday' is Thursday 2025-10-23; the call uses Friday 2025-10-24 17:00",
                        correction="start on 2025-10-23", call_index=0, phrase="Thursday")],
                        facts=facts + [Fact("weekday", "2025-10-24", "2025-10-24 is a Friday")]),
                    rollback=RollbackReport("turn1", restored=[RestoredEvent("ev_swim1", SWIM_WRONG, SWIM)]))
    calc = ToolCall("t2", "calculate_datetime", {"expression": "Thursday"}, ToolResult("Thursday 2025-10-23"))
    right_call = ToolCall("t3", "update_calendar_event",
                          {"event_id": "ev_swim1", "start": "2025-10-23T17:00:00"},
                          ToolResult("updated", cards=[EventCard("updated", SWIM_RIGHT, SWIM)]))
    second = Attempt(2, calls=[calc, right_call], reply="Moved the **swim lesson** to Thursday, October 23 at 5 PM.",
                     verdict=Verdict(findings=[], facts=facts))
    return TurnReport("turn1", REQUEST, attempts=[first, second], reply=second.reply)


FAMILY_NAMES = {"home/family": "Family", "home/leo": "Leo", "mom/maya": "Mom"}
FAMILY_CALENDARS = {"ev_dinner": "home/family", "ev_swim1": "home/leo", "ev_soccer": "home/leo",
                    "ev_book": "mom/maya", "ev_piano": "home/leo"}


def on_family_calendars(event: Event) -> Event:
    """The demo's event on the calendar it sits on in the family demo (Leo's swim on Leo's)."""
    return event.with_changes(calendar_id=FAMILY_CALENDARS.get(event.id, "home/family"))


def family_report() -> TurnReport:
    """The corrected turn with each card naming its calendar, as with several calendars."""
    report = corrected_report()
    for attempt in report.attempts:
        for call in attempt.calls:
            call.result.cards = [EventCard(c.action, c.after and on_family_calendars(c.after),
                                           c.before and on_family_calendars(c.before), calendar="Leo")
                                 for c in call.result.cards]
    return report


def make_family_app(tmp_path: Path) -> CalendarApp:
    """The docs' family screenshot: three calendars, each event tagged with whose it is."""
    settings = Settings(home=tmp_path, timezone=TZ, api_key="k")

    def moved(session: FakeSession) -> None:
        session.events = [on_family_calendars(SWIM_RIGHT) if e.id == "ev_swim1" else e for e in session.events]

    session = FakeSession(TZ, NOW.date(), reports=[family_report()],
                          events=[on_family_calendars(e) for e in AGENDA], on_send=moved)
    session.calendar_names = FAMILY_NAMES
    return CalendarApp(settings, factory(session), prefill=REQUEST, animate=False)


def make_app(tmp_path: Path, *, needs_setup: bool = False, prefill: str = REQUEST) -> CalendarApp:
    settings = Settings(home=tmp_path, timezone=TZ, api_key=None if needs_setup else "k")
    if needs_setup:
        return CalendarApp(settings, lambda confirm: None,  # type: ignore[arg-type,return-value]
                           prefill=prefill, needs_setup=True, animate=False)

    def moved(session: FakeSession) -> None:  # the agenda after the turn shows the swim moved
        session.events = [SWIM_RIGHT if e.id == "ev_swim1" else e for e in session.events]

    session = FakeSession(TZ, NOW.date(), reports=[corrected_report()], events=AGENDA, on_send=moved)
    return CalendarApp(settings, factory(session), prefill=prefill, needs_setup=needs_setup, animate=False)


async def settle(pilot: Any) -> None:
    for _ in range(3):
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_main_screen(snap_compare: Any, tmp_path: Path) -> None:
    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=settle)


def test_corrected_turn(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_findings_panel(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+f")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=SIZE, run_before=run_before)


@pytest.mark.slow
def test_setup_screen(snap_compare: Any, tmp_path: Path) -> None:
    app = make_app(Path("/home/person/.local/share/calendar-assistant"), needs_setup=True, prefill="")
    assert snap_compare(app, terminal_size=SIZE, run_before=settle)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
def test_corrected_turn_small(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
def test_main_screen_small(snap_compare: Any, tmp_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(tmp_path), terminal_size=size, run_before=settle)


@pytest.mark.slow
def test_findings_panel_80x24(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Any) -> None:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("ctrl+f")
        await settle(pilot)

    assert snap_compare(make_app(tmp_path), terminal_size=(80, 24), run_before=run_before)


def render_corrected_turn(directory: Path, name: str, size: tuple[int, int] = SIZE, *, family: bool = False) -> Path:
    """The corrected turn, rendered by Textual and saved as SVG in `directory` (`family`: on
    three calendars, each event tagged with whose it is)."""
    import asyncio
    import tempfile

    async def shoot() -> None:
        # the app's home (calendar, journal) is never `directory`
        app = make_family_app(Path(home)) if family else make_app(Path(home))
        async with app.run_test(size=size) as pilot:
            await settle(pilot)
            await pilot.press("enter")
            await settle(pilot)
            app.save_screenshot(filename=name, path=str(directory))

    with tempfile.TemporaryDirectory() as home:
        asyncio.run(shoot())
    return directory / name


@pytest.mark.parametrize("name, size, family", [("screenshot.svg", SIZE, False),
                                                ("screenshot-80x24.svg", (80, 24), False),
                                                ("screenshot-family.svg", SIZE, True)])
def test_docs_screenshot_is_current(tmp_path: Path, name: str, size: tuple[int, int], family: bool) -> None:
    """docs/screenshot.svg (and the 80×24 and family ones) are exactly what the corrected turn
    renders today (regenerate them with UPDATE_SCREENSHOT=1, the only time this test writes into
    the checkout)."""
    import os

    target = Path(__file__).resolve().parents[3] / "docs" / name
    if os.environ.get("UPDATE_SCREENSHOT"):
        render_corrected_turn(target.parent, target.name, size, family=family)
    shot = render_corrected_turn(tmp_path, name, size, family=family).read_text(encoding="utf-8")
    text = shot.replace("&#160;", " ").replace("\u00a0", " ")
    assert "Corrected after review" in text
    # whose calendar, only with several, each dot beside its name (a wrap never parts them)
    assert all(f"● {name}" in text for name in FAMILY_NAMES.values()) == family
    assert shot == target.read_text(encoding="utf-8"), (
        "docs/screenshot.svg is out of date: run UPDATE_SCREENSHOT=1 pytest " + __file__)
