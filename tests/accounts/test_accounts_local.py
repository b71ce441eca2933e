"""Several accounts on this machine (issue 27): two local accounts, four calendars. The same
behaviours on Google and CalDAV are `test_family_accounts.py` (slow: they need the servers).

What is held here: a listing without a calendar reads every chosen calendar and says each event's
calendar; `list_calendars` gives each calendar's facts; `find_free_time` across calendars names
the one it could not read and never calls its time free; a turn that wrote on two accounts is
one change, rolled back exactly (each account's records as before) by the turn's rollback and by
`undo`; the `calendars` and `agenda` commands say whose calendar in words; the single-account
settings are unchanged."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from family_support import NOW, calendar_of, context, local_family, records, run, seed

from assistant.cli import main
from assistant.services import build_services
from assistant.settings import load_settings
from tools.backends.accounts import AccountsBackend
from tools.backends.base import CalendarError
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.registry import ToolRegistry


@pytest.fixture
def family(home: Path) -> Path:
    local_family(home)
    return home



def test_listing_without_a_calendar_reads_every_chosen_calendar(family: Path) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        registry = ToolRegistry(context(services, "turn-read"))
        result = run(registry, "list_events", {"start": "2025-10-20", "end": "2025-10-27"})
    listed = {e["title"]: e["calendar_id"] for e in result.data["events"]}
    assert listed == {title: cal for title, (cal, _) in made.items()}
    assert [e["title"] for e in result.data["events"]] == ["Mom's dentist", "Dentist", "Piano", "Leo's swim"]
    rows = result.text.splitlines()
    assert any("Piano" in row and row.endswith("| on Leo") for row in rows), result.text
    assert "calendar_id 'home/leo'" in result.text  # the head says which id to write with


def test_one_calendar_named_is_listed_as_before(family: Path) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        registry = ToolRegistry(context(services, "turn-read"))
        leo = made["Piano"][0]
        result = run(registry, "list_events", {"start": "2025-10-20", "end": "2025-10-27",
                                               "calendar_id": leo})
    assert [e["title"] for e in result.data["events"]] == ["Piano"]


def test_list_calendars_gives_each_calendar_with_its_account(family: Path) -> None:
    with build_services(load_settings()) as services:
        result = run(ToolRegistry(context(services, "t")), "list_calendars", {})
    facts = {c["name"]: c for c in result.data["calendars"]}
    assert set(facts) == {"Family", "Leo", "Dad", "Mom"}
    assert facts["Family"] == {"id": "home/primary", "name": "Family", "primary": True,
                               "writable": True, "account": "home"}
    assert facts["Dad"]["account"] == "work" and facts["Dad"]["owner"] == "Sam"
    assert not facts["Leo"]["primary"]


def test_a_calendar_not_chosen_is_not_listed(home: Path) -> None:
    text = local_family(home).read_text().replace(', "work/Mom"]', "]")
    (home / "config.toml").write_text(text)
    with build_services(load_settings()) as services:
        seed_ids = {c for c in services.calendars.ids}
        result = run(ToolRegistry(context(services, "t")), "list_events",
                     {"start": "2025-10-20", "end": "2025-10-27"})
    assert "work/mom" not in seed_ids and len(seed_ids) == 3
    assert "Mom" not in result.text


class _Down(Exception):
    pass


def test_free_time_names_a_calendar_it_could_not_read(family: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with build_services(load_settings()) as services:
        seed(services)
        backend = services.backend
        assert isinstance(backend, AccountsBackend)
        work = backend.accounts["work"].backend
        real = work.list_events

        def failing(calendar_id: str, *args: Any, **kwargs: Any) -> Any:
            if calendar_id == "mom":
                raise CalendarError("The CalDAV server could not be reached")
            return real(calendar_id, *args, **kwargs)

        monkeypatch.setattr(work, "list_events", failing)
        registry = ToolRegistry(context(services, "t"))
        free = run(registry, "find_free_time", {"start": "2025-10-23T09:00:00", "end": "2025-10-23T18:00:00",
                                                "duration_minutes": 60})
        listing = run(registry, "list_events", {"start": "2025-10-20", "end": "2025-10-27"})
    assert free.data["unreadable"] == ["Mom"]
    assert set(free.data["checked"]) == {"Family", "Leo", "Dad"}
    # busy on the calendars read: 15:00 to 18:00 (dentist, piano, swim) is not free
    assert [s["start"] for s in free.data["slots"]] == ["2025-10-23T09:00:00-07:00"]
    assert "NOT CHECKED" in free.text and "Mom" in free.text
    assert "NOT READ: Mom" in listing.text
    assert "Mom's dentist" not in listing.text


def test_free_time_for_the_calendars_named(family: Path) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        registry = ToolRegistry(context(services, "t"))
        leo, mom = made["Piano"][0], made["Mom's dentist"][0]
        free = run(registry, "find_free_time", {"start": "2025-10-23T09:00:00", "end": "2025-10-23T18:00:00",
                                                "duration_minutes": 60, "calendar_ids": [leo, mom]})
    assert set(free.data["checked"]) == {"Leo", "Mom"}
    assert [(s["start"], s["end"]) for s in free.data["slots"]] == [
        ("2025-10-23T09:00:00-07:00", "2025-10-23T11:00:00-07:00"),
        ("2025-10-23T12:00:00-07:00", "2025-10-23T16:00:00-07:00"),
        ("2025-10-23T17:00:00-07:00", "2025-10-23T18:00:00-07:00")]


def test_a_turn_across_two_accounts_is_one_change_rolled_back_exactly(family: Path) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services)
        registry = ToolRegistry(context(services, "turn-both"))
        swim_cal, swim = made["Leo's swim"]
        dentist_cal, dentist = made["Dentist"]
        run(registry, "update_calendar_event", {"event_id": swim, "calendar_id": swim_cal,
                                                "start": "2025-10-24T17:00:00"})
        run(registry, "update_calendar_event", {"event_id": dentist, "calendar_id": dentist_cal,
                                                "start": "2025-10-24T15:00:00"})
        run(registry, "create_calendar_event", {"title": "Snacks", "start": "2025-10-24T10:00:00",
                                                "calendar_id": calendar_of(services, "Leo")})
        assert records(services) != before
        report = services.journal.rollback("turn-both")
        assert report.clean and len(report.restored) == 3, report.summary()
        assert records(services) == before


def test_undo_takes_back_both_accounts(family: Path) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services)
        registry = ToolRegistry(context(services, "turn-undo"))
        for title in ("Leo's swim", "Mom's dentist"):
            cal, event_id = made[title]
            run(registry, "update_calendar_event", {"event_id": event_id, "calendar_id": cal,
                                                    "title": title + " moved"})
        services.journal.close_turn("turn-undo")
    assert main(["undo", "--yes"]) == 0
    with build_services(load_settings()) as services:
        assert records(services) == before


def test_a_bulk_update_over_two_accounts_is_undone_whole(family: Path) -> None:
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services)
        registry = ToolRegistry(context(services, "turn-bulk"))
        run(registry, "bulk_update_calendar_events", {"updates": [
            {"event_id": made[t][1], "calendar_id": made[t][0], "description": "moved"}
            for t in ("Piano", "Leo's swim", "Mom's dentist")]})
        assert records(services) != before
        assert services.journal.rollback("turn-bulk").clean
        assert records(services) == before


def test_a_new_event_goes_to_the_default_calendar(family: Path) -> None:
    with build_services(load_settings()) as services:
        result = run(ToolRegistry(context(services, "t")), "create_calendar_event",
                     {"title": "Groceries", "start": "2025-10-24T10:00:00"})
        event = services.backend.get_event("home/primary", result.data["id"])
        assert event is not None and event.calendar_id == "home/primary"


def test_agenda_says_whose_calendar(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with build_services(load_settings()) as services:
        seed(services)
    assert main(["agenda", "--now", NOW.isoformat(), "--days", "3"]) == 0
    out = capsys.readouterr().out
    assert "  3:00 PM – 4:00 PM  Dentist  (Family)" in out, out
    assert "  5:00 PM – 6:00 PM  Leo's swim  (Dad)" in out, out
    assert main(["agenda", "--now", NOW.isoformat(), "--days", "3", "--json"]) == 0
    events = json.loads(capsys.readouterr().out)
    assert {e["title"]: e["calendar_id"] for e in events}["Piano"] == "home/leo"


def test_calendars_command_lists_every_calendar_in_words(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = local_family(family).read_text().replace(', "work/Mom"]', "]")
    (family / "config.toml").write_text(text)
    assert main(["calendars"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines == [
        "Calendars (* new events go here; - not read by the assistant):",
        '* home/Family  local account "home" (on this computer), can be changed',
        '  home/Leo     local account "home" (on this computer), can be changed',
        '- work/Family  local account "work" (on this computer), owner Sam, can be changed',
        '  work/Dad     local account "work" (on this computer), owner Sam, can be changed',
        '- work/Mom     local account "work" (on this computer), owner Sam, can be changed']


def test_calendars_command_with_one_account(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calendars"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "Calendars (* new events go here):", "* Family  a calendar on this computer, can be changed"]


def test_one_account_keeps_its_ids_unprefixed(home: Path) -> None:
    with build_services(load_settings()) as services:
        assert services.calendar_id == "primary" and services.calendars.ids == ()
        result = run(ToolRegistry(context(services, "t")), "list_calendars", {})
    assert result.data["calendars"] == [{"id": "primary", "name": "Family", "primary": True,
                                         "writable": True, "account": "default"}]


def test_agenda_says_overlaps_within_one_calendar_only(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Leo's 15:30 snack overlaps his piano (his own calendar: said) and my dentist (another
    calendar: not a clash for anyone)."""
    from family_support import LA

    with build_services(load_settings()) as services:
        seed(services)
        leo = calendar_of(services, "Leo")
        services.backend.create_event(leo, Event(
            id=services.backend.new_event_id(), title="Snack", timezone="America/Los_Angeles",
            start=NOW.replace(day=23, hour=15, minute=30, tzinfo=LA),
            end=NOW.replace(day=23, hour=16, minute=30, tzinfo=LA), calendar_id=leo))
    assert main(["agenda", "--now", NOW.isoformat(), "--days", "3"]) == 0
    out = capsys.readouterr().out
    assert "  3:00 PM – 4:00 PM  Dentist  (Family)\n" in out, out
    assert "Snack  (Leo)  ⚠ overlaps Piano" in out, out
    assert "Piano  (Leo)  ⚠ overlaps Snack" in out, out


def test_an_account_that_cannot_be_reached_is_named_not_fatal(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A CalDAV account whose server is down: `calendars` says so, `agenda` lists the others and
    names it on stderr, a listing for the model says it was not read."""
    import socket

    from family_support import write_config

    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    write_config(home, '[[accounts]]\nname = "home"\nbackend = "local"\n\n[[accounts]]\nname = "mom"\n'
                       f'backend = "caldav"\ncaldav_url = "http://127.0.0.1:{port}/"\ncaldav_username = "mom"\n')
    assert main(["calendars"]) == 0
    out = capsys.readouterr().out
    assert 'mom/mom' in out and "cannot be reached now (The CalDAV server" in out, out
    assert "(account 'mom')." in out
    with build_services(load_settings()) as services:
        seed_dentist = services.backend.create_event("home/primary", Event(
            id=services.backend.new_event_id(), title="Dentist", timezone="America/Los_Angeles",
            start=NOW.replace(day=23, hour=15), end=NOW.replace(day=23, hour=16)))
        result = run(ToolRegistry(context(services, "t")), "list_events", {"start": "2025-10-20", "end": "2025-10-27"})
    assert [e["title"] for e in result.data["events"]] == [seed_dentist.title]
    assert "NOT READ: mom" in result.text
    assert main(["agenda", "--now", NOW.isoformat(), "--days", "3"]) == 0
    captured = capsys.readouterr()
    assert "Dentist" in captured.out
    assert "warning: the calendar 'mom' could not be read" in captured.err


def test_a_card_says_whose_calendar_in_words_and_a_colour(family: Path) -> None:
    """With several calendars a change's card names the calendar it is on ("Leo"), and the chat
    shows that short name in the calendar's own colour on the card's border."""
    from assistant.tui.formatting import calendar_colour, card_text
    from assistant.tui.widgets.event_card import EventCardView

    with build_services(load_settings()) as services:
        made = seed(services)
        registry = ToolRegistry(context(services, "turn-card"))
        piano_cal, piano = made["Piano"]  # on Leo's calendar
        result = registry.run(ToolCall("c1", "update_calendar_event", {
            "event_id": piano, "calendar_id": piano_cal, "start": "2025-10-24T16:00:00"}))
        assert not result.is_error, result.text
        [card] = result.cards
        assert card.calendar == "Leo"
        assert card_text(card, "America/Los_Angeles").lines[0] == "calendar: Leo"
        view = EventCardView(card, "America/Los_Angeles")
        subtitle = str(view.border_subtitle)  # Textual keeps it as markup
        assert "Leo" in subtitle and calendar_colour("Leo") in subtitle


def test_with_one_calendar_a_card_names_none(home: Path) -> None:
    with build_services(load_settings()) as services:
        registry = ToolRegistry(context(services, "turn-one"))
        result = registry.run(ToolCall("c1", "create_calendar_event", {
            "title": "Dentist", "start": "2025-10-24T15:00:00"}))
        assert not result.is_error and result.cards[0].calendar is None


def _down(monkeypatch: pytest.MonkeyPatch, services: Any, account: str) -> None:
    """Every read and restore on `account` fails as its service would."""
    backend = services.backend.accounts[account].backend

    def fail(*_args: Any, **_kwargs: Any) -> Any:
        raise CalendarError("the calendar service did not answer")

    for method in ("snapshots", "snapshot", "restore_many", "restore_item", "restore", "get_event"):
        monkeypatch.setattr(backend, method, fail)


def test_an_account_down_during_a_rollback_leaves_only_its_own_part_waiting(
        family: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The newest write is on the account that is down: the other account's part is still put
    back now, the down one's waits (named) and the next start finishes it."""
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services)
        registry = ToolRegistry(context(services, "turn-down"))
        for title in ("Piano", "Leo's swim"):  # home first, then work (the newest)
            cal, event_id = made[title]
            run(registry, "update_calendar_event", {"event_id": event_id, "calendar_id": cal,
                                                    "start": "2025-10-24T08:00:00"})
        with monkeypatch.context() as patch:
            _down(patch, services, "work")
            report = services.journal.rollback("turn-down")
        assert report.down_services == {"work"} and not report.complete
        assert "account 'work'" in report.summary(), report.summary()
        now = records(services)
        assert now["home"] == before["home"]  # not held back by the account that is down
        assert now["work"] != before["work"]
        assert services.journal.turn("turn-down").state == "unfinished"
    with build_services(load_settings()) as services:  # the next start
        assert [r.turn_id for r in services.recovered] == ["turn-down"]
        assert services.recovered[0].complete, services.recovered[0].summary()
        assert records(services) == before


def test_start_up_goes_on_past_an_account_that_is_down(family: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two turns left unfinished: with one account down at start-up, both turns' events on the
    other account are put back, and every event on the down one waits for the start after."""
    with build_services(load_settings()) as services:
        made = seed(services)
        before = records(services)
        for turn, titles in (("turn-old", ("Piano", "Leo's swim")), ("turn-new", ("Mom's dentist", "Dentist"))):
            registry = ToolRegistry(context(services, turn))
            for title in titles:
                cal, event_id = made[title]
                run(registry, "update_calendar_event", {"event_id": event_id, "calendar_id": cal,
                                                        "title": f"{title} ({turn})"})
            services.journal.keep_for_recovery(turn, "its process died")
        with monkeypatch.context() as patch:
            _down(patch, services, "work")
            reports = services.journal.recover()
        assert [r.turn_id for r in reports] == ["turn-new", "turn-old"]
        assert all(r.down_services == {"work"} for r in reports)
        now = records(services)
        assert now["home"] == before["home"] and now["work"] != before["work"]
    with build_services(load_settings()) as services:
        assert all(r.complete for r in services.recovered), [r.summary() for r in services.recovered]
        assert records(services) == before


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_agenda_and_the_changes_list_say_whose_calendar_in_its_colour(family: Path) -> None:
    """Beside each event of the chat's agenda and each line of the changes list (F4): the
    calendar's short name, in the same colour as its cards."""
    from test_tui import settle, wait_for_screen

    from assistant.app import build_agent
    from assistant.session.chat import AgentSession
    from assistant.tui.app import CalendarApp
    from assistant.tui.formatting import calendar_colour
    from assistant.tui.screens.changes import ChangesScreen
    from assistant.tui.widgets.agenda import AgendaPanel

    settings = load_settings()
    with build_services(settings) as services:
        made = seed(services)
        piano_cal, piano = made["Piano"]  # on Leo's calendar
        run(ToolRegistry(context(services, "turn-tag")), "update_calendar_event",
            {"event_id": piano, "calendar_id": piano_cal, "title": "Piano recital"})
        services.journal.close_turn("turn-tag")

    def coloured(text: Any, name: str) -> bool:  # a rich Text, or the Content Textual made of it
        hexa = calendar_colour(name).lower()
        rgb = "rgb({},{},{})".format(*(int(hexa[i:i + 2], 16) for i in (1, 3, 5)))
        return any(text.plain[span.start:span.end].replace("\u00a0", " ") == f"● {name}"
                   and (hexa in str(span.style).lower() or rgb in str(span.style))
                   for span in text.spans)

    def session(confirm: Any) -> AgentSession:
        return AgentSession(build_agent(settings, confirm=confirm, base_url="http://127.0.0.1:9",
                                        reflection_mode="symbolic", now=lambda: NOW, lessons=False))

    app = CalendarApp(settings, session, animate=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        body: Any = app.query_one(AgendaPanel).query_one(".agenda-body").render()
        line = next(x for x in body.plain.splitlines() if "Piano recital" in x)
        assert "●\u00a0Leo  Piano recital" in line and coloured(body, "Leo"), body.plain
        assert coloured(body, "Mom") and coloured(body, "Family")
        await pilot.press("f4")
        listing: ChangesScreen = await wait_for_screen(pilot, ChangesScreen)
        [option] = listing.query_one("#change-list").options  # type: ignore[attr-defined]
        prompt: Any = option.prompt
        assert "Piano recital" in prompt.plain
        assert coloured(prompt, "Leo"), prompt.plain


def test_an_unfinished_request_from_before_the_accounts_is_named_and_waits(home: Path) -> None:
    """A turn killed with one local calendar, then the accounts set up: these settings cannot
    undo it, so start-up says so (never quiet), and the settings it was made with undo it."""
    from family_support import write_config

    with build_services(load_settings(), recover=False) as services:
        made = services.backend.create_event(services.calendar_id, Event(
            id=services.backend.new_event_id(), title="Dentist", timezone="America/Los_Angeles",
            start=NOW.replace(day=23, hour=15), end=NOW.replace(day=23, hour=16)))
        run(ToolRegistry(context(services, "t-old")), "update_calendar_event",
            {"event_id": made.id, "title": "Dentist (moved)"})
        services.journal.keep_for_recovery("t-old", "its process died")
    local_family(home)
    with build_services(load_settings()) as services:
        assert services.recovered == []
        [notice] = services.notices
        assert "An unfinished request made with other calendar settings (the calendar on this computer)" in notice
    (home / "config.toml").unlink()
    write_config(home, "")
    with build_services(load_settings()) as services:
        assert [r.turn_id for r in services.recovered] == ["t-old"] and services.notices == []
        back = services.backend.get_event(services.calendar_id, made.id)
        assert back is not None and back.title == "Dentist"
