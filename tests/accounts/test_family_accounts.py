"""A family of 4 calendars on 3 accounts (issue 27): the local calendars, Dad's Google account (the
real google-api-python-client against the fake Calendar v3 server) and Mom's CalDAV account (a
real Radicale). Everything goes through `build_services` on a config.toml, as the app runs.

"Move Leo's swim and my dentist to Friday" writes on Google and on CalDAV in one turn; its
rollback (and `undo`) restores both, each account's stored records exactly as before; with Google
down during the rollback, the CalDAV part is put back, the Google part is named and kept for the
next start, which finishes it.
"""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from family_support import NOW, calendar_of, context, records, run, seed, server_family
from google_support import block_network

from assistant.cli import main
from assistant.services import build_services
from assistant.settings import load_settings
from fixtures.fake_google import FakeGoogleCalendar
from tools.registry import ToolRegistry

pytestmark = pytest.mark.slow  # the fake Google server and a real Radicale


@pytest.fixture
def google(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeGoogleCalendar]:
    block_network(monkeypatch)
    with FakeGoogleCalendar(primary_id="dad@example.test", summary="Dad") as server:
        yield server


@pytest.fixture
def family(home: Path, google: FakeGoogleCalendar, radicale: Any) -> str:
    return server_family(home, google, radicale)



def move_swim_and_dentist(services: Any, made: dict[str, tuple[str, str]], turn: str) -> None:
    """The turn of "move Leo's swim and my dentist to Friday": one write on Google, one on
    CalDAV (Mom's dentist is the one on her calendar)."""
    registry = ToolRegistry(context(services, turn))
    swim_cal, swim = made["Leo's swim"]
    dentist_cal, dentist = made["Mom's dentist"]
    run(registry, "update_calendar_event", {"event_id": swim, "calendar_id": swim_cal,
                                            "start": "2025-10-24T17:00:00"})
    run(registry, "update_calendar_event", {"event_id": dentist, "calendar_id": dentist_cal,
                                            "start": "2025-10-24T11:00:00"})


def test_the_family_is_listed_across_three_accounts(family: str, capsys: pytest.CaptureFixture[str]) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        registry = ToolRegistry(context(services, "turn-read"))
        listing = run(registry, "list_events", {"start": "2025-10-20", "end": "2025-10-27"})
        calendars = run(registry, "list_calendars", {})
    assert {e["title"]: e["calendar_id"] for e in listing.data["events"]} == \
        {t: c for t, (c, _) in made.items()}
    assert made["Leo's swim"][0] == "dad/dad@example.test"
    assert made["Mom's dentist"][0].startswith("mom/http://127.0.0.1:")
    facts = {c["name"]: c for c in calendars.data["calendars"]}
    assert facts["Dad"]["account"] == "dad" and facts["Dad"]["owner"] == "Dad"
    assert facts[family]["account"] == "mom" and facts[family]["owner"] == "family"
    assert all(f["writable"] for f in facts.values())
    assert main(["agenda", "--now", NOW.isoformat(), "--days", "2"]) == 0
    out = capsys.readouterr().out
    assert "Leo's swim  (Dad)" in out and f"Mom's dentist  ({family})" in out, out
    assert main(["calendars"]) == 0
    out = capsys.readouterr().out
    assert '  dad/Dad' in out and 'Google account "dad", owner Dad, can be changed' in out, out
    assert f'  mom/{family}' in out and 'CalDAV account "mom", owner family, can be changed' in out


def test_free_time_across_google_and_caldav(family: str) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        registry = ToolRegistry(context(services, "t"))
        free = run(registry, "find_free_time", {
            "start": "2025-10-23T09:00:00", "end": "2025-10-23T18:00:00", "duration_minutes": 60,
            "calendar_ids": [made["Leo's swim"][0], made["Mom's dentist"][0]]})
    assert free.data["unreadable"] == [] and set(free.data["checked"]) == {"Dad", family}
    assert [(s["start"][11:16], s["end"][11:16]) for s in free.data["slots"]] == [
        ("09:00", "11:00"), ("12:00", "17:00")]


def test_a_turn_on_google_and_caldav_is_rolled_back_exactly(family: str, google: FakeGoogleCalendar) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services, google)
        move_swim_and_dentist(services, made, "turn-move")
        during = records(services, google)
        assert during["dad"] != before["dad"] and during["mom"] != before["mom"]
        assert during["home"] == before["home"]
        report = services.journal.rollback("turn-move")
        assert report.clean and len(report.restored) == 2, report.summary()
        assert records(services, google) == before


def test_undo_of_a_turn_over_two_accounts(family: str, google: FakeGoogleCalendar) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services, google)
        move_swim_and_dentist(services, made, "turn-undo")
        run(ToolRegistry(context(services, "turn-undo")), "create_calendar_event",
            {"title": "Snacks for swim", "start": "2025-10-24T16:00:00",
             "calendar_id": calendar_of(services, "Leo")})
        services.journal.close_turn("turn-undo")
    assert main(["undo", "--yes"]) == 0
    with build_services(load_settings()) as services:
        assert records(services, google) == before


def test_an_account_down_during_the_rollback_is_named_and_finished_at_the_next_start(
        family: str, google: FakeGoogleCalendar) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services, google)
        move_swim_and_dentist(services, made, "turn-down")
        account = services.backend.accounts["dad"].backend  # type: ignore[attr-defined]
        account.max_attempts, account.sleep = 1, lambda _s: None
        google.inject(status=503, times=50)  # every Google request fails for now
        report = services.journal.rollback("turn-down")
        assert not report.complete
        assert "account 'dad'" in report.summary(), report.summary()
        assert services.journal.turn("turn-down").state == "unfinished"
        google.faults.clear()
        now = records(services, google)
        assert now["mom"] == before["mom"]  # the CalDAV part (newest first) is back already
        assert now["dad"] != before["dad"]  # the Google part waits, not dropped
    with build_services(load_settings()) as services:  # the next start
        assert [r.turn_id for r in services.recovered] == ["turn-down"]
        assert services.recovered[0].complete, services.recovered[0].summary()
        assert records(services, google) == before
