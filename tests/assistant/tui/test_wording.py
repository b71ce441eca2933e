"""One date style everywhere (issue 28 item 6): the badge said "Friday 2026-11-27 17:00" under a
card saying "Friday, November 27, 5:00 PM"; the why screen showed raw ISO times, "'Swim lesson'
is 'Swim lesson'", a confidence per try beside the turn's own, and zones as "America/Los_Angeles"
or "Etc/UTC"; counts read "change(s)".

The turn here is the demo's caught step, judged by the real guard (its findings and facts are
written for code), and what is greped is what the window renders."""
from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from textual.widgets import Input

from assistant.session.spoken import counted_words, dates_in_words, without_tautology, zone_words
from assistant.tui.screens.findings import FindingsScreen
from assistant.tui.widgets.conversation import welcome
from assistant.tui.widgets.event_card import EventCardView
from assistant.tui.widgets.outcome import OutcomeBadge
from tools.calendar.events import zone
from tools.journal.changes import rollback_words
from tools.journal.journal import RollbackReport

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
CLOCK_24H = re.compile(r"\b\d{2}:\d{2}\b(?! ?[AP]M)")
TAUTOLOGY = re.compile(r"('[^']+') is \1")


def assert_people_words(text: str) -> None:
    assert not ISO_DATE.search(text), text
    assert not CLOCK_24H.search(text), text
    assert not TAUTOLOGY.search(text), text
    assert "Etc/" not in text and "America/" not in text and "(s)" not in text, text


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_badge_and_the_why_screen_say_dates_as_the_card_does(tmp_path: Path) -> None:
    from test_tui import settle, wait_for_screen

    from assistant.tui.launch import demo_rig

    rig = demo_rig(NOW, tz_name=TZ, chunk_delay=0, animate=False, home=tmp_path / "demo")
    app = rig.app
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            for _ in range(2):  # the verified step, then the caught one
                await pilot.press("enter")
                await settle(pilot)
            prompt = app.query_one("#prompt", Input)
            assert prompt.value == "/undo" and prompt.cursor_position == len("/undo")  # typing goes after
            card = [w.plain for w in app.query(EventCardView)][-1]
            badge = list(app.query(OutcomeBadge))[-1]
            assert "Thursday, October 23, 5:00 PM" in card
            # the wrong day in the card's words, under the card
            assert "the change used Friday, October 24, 5:00 PM" in badge.plain
            assert_people_words(badge.plain)
            shown = str(badge.render())
            assert "(sure)" not in shown and badge.border_title == "confidence: high"  # said once
            await pilot.press("ctrl+f")
            why = (await wait_for_screen(pilot, FindingsScreen)).markdown
    finally:
        rig.close()
    assert_people_words(why)
    assert "'Swim lesson' was on Tuesday, October 21" in why
    assert "now is Monday, October 20, 8:00 AM, Los Angeles time" in why
    assert why.lower().count("confidence") == 1, why  # the turn's one confidence, no other


def test_guard_sentences_are_said_in_the_cards_words() -> None:
    said = dates_in_words("'Thursday' is Thursday 2026-11-26; the change used Friday 2026-11-27 "
                          "17:00; start 2026-11-27T17:00:00-08:00 is a Friday (2 days after today)",
                          TZ)
    assert said == ("'Thursday' is Thursday, November 26; the change used Friday, November 27, "
                    "5:00 PM; the start is Friday, November 27, 5:00 PM (2 days after today)")
    assert dates_in_words("now is Friday 2026-11-27 09:05 in Etc/UTC") == \
        "now is Friday, November 27, 9:05 AM UTC"
    assert without_tautology("'Swim lesson' is 'Swim lesson' on Monday") == "'Swim lesson' was on Monday"
    assert counted_words("2 days and 1 event(s) were created; 3 event(s)") == \
        "2 days and 1 event were created; 3 events"


def test_zones_are_said_as_people_say_them() -> None:
    assert zone_words("Etc/UTC") == "UTC" and zone_words("UTC") == "UTC"
    assert zone_words("America/Los_Angeles") == "Los Angeles time"
    assert zone_words("America/Argentina/Buenos_Aires") == "Buenos Aires time"
    assert "Times are shown in UTC." in welcome("Etc/UTC").plain


def test_an_undo_that_waits_counts_in_words() -> None:
    one = rollback_words(RollbackReport("t1", waiting=1), TZ)
    two = rollback_words(RollbackReport("t1", waiting=2), TZ)
    assert "1 more change will be undone" in one[-1] and "2 more changes will be" in two[-1]
    assert all("(s)" not in line for line in one + two)
