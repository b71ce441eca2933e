"""The guarded attempt under every door: the class itself, a rollback that cannot finish, a turn
whose writes all failed, and a change nobody could verify (CONTRACT 5, without a reflection model).

Real parts throughout: the anthropic SDK against the fake Anthropic server, the real registry,
journal, guard and rollback on a local calendar (and Google's client on the fake Calendar v3
server where the rollback must fail as a 503). No reflection model answers: the guard runs in
`symbolic` mode (replay's mode without scripted reflections) or in `auto` mode against a
reflection service that is down. Said on Monday 2025-10-20 08:00 in Los Angeles.
"""
from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from conftest import make_backend
from test_tui import send, settle, wait_for_screen

from assistant.app import build_agent
from assistant.cli import main as cli_main
from assistant.scripted.fake_anthropic import FakeAnthropicServer, resp, text, tool
from assistant.services import Services, Stores, build_locations, build_services
from assistant.session.attempt import GuardedAttempt, UnverifiedChange
from assistant.session.chat import AgentSession
from assistant.settings import Settings
from assistant.tui.app import CalendarApp
from assistant.tui.formatting import describe_outcome
from assistant.tui.screens.confirm import ConfirmScreen
from assistant.tui.widgets.outcome import OutcomeBadge
from reflection.guard import Guard
from tools.backends.base import CalendarBackend, CalendarError, RestoreItem, RestoreResult
from tools.backends.local import LocalBackend
from tools.calendar.events import Event, event_from_contract, zone
from tools.context import Confirmation, ToolCall
from tools.journal.changes import Changes
from tools.journal.journal import Journal
from tools.store.database import Store

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
MAIN, REFL = "main-model", "reflection-model"
CALENDAR = [
    {"id": "ev_swim1", "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
     "end": "2025-10-21T17:45:00-07:00", "timezone": TZ, "location": "Westside Pool"},
    {"id": "ev_book1", "title": "Book club", "start": "2025-10-23T19:00:00-07:00",
     "end": "2025-10-23T21:00:00-07:00", "timezone": TZ, "location": "Library"},
]
WRONG_SWIM = {"event_id": "ev_swim1", "start": "2025-10-24T17:00:00", "end": "2025-10-24T17:45:00"}
RIGHT_SWIM = {"event_id": "ev_swim1", "start": "2025-10-23T17:00:00", "end": "2025-10-23T17:45:00"}
UNSURE_CREATE = {"title": "Dentist", "start": "2025-10-21T18:00:00", "end": "2025-10-21T19:00:00"}
"""Code cannot bind "after the swim lesson" to a time: the guard defers (no error, unverified)."""
UNSURE_MESSAGE = "add dentist after the swim lesson"
UNSURE_DELETE_MESSAGE = "cancel the thing on thursday"
"""Code cannot tell that "the thing on thursday" is Book club: an unverified delete."""


class FlakyRestores(LocalBackend):
    """A local calendar whose restores fail as a calendar service answering 503 would, while
    `down` is set (writes still succeed: the failure is the rollback's)."""

    down = False

    def restore_many(self, items: Sequence[RestoreItem]) -> list[RestoreResult]:
        if self.down:
            raise CalendarError("Calendar service error 503: backend unavailable")
        return super().restore_many(items)


@dataclasses.dataclass
class Rig:
    server: FakeAnthropicServer
    backend: CalendarBackend
    settings: Settings
    home: Path
    asked: list[Confirmation]

    def agent(self, *, confirm: bool = True, mode: str = "symbolic", **kw: Any) -> Any:
        def answer(confirmation: Confirmation) -> bool:
            self.asked.append(confirmation)
            return confirm
        return build_agent(self.settings, base_url=self.server.base_url, backend=self.backend,
                           reflection_mode=mode, now=lambda: NOW, confirm=answer,  # type: ignore[arg-type]
                           lessons=False, max_retries=0, **kw)

    def event(self, event_id: str) -> Event | None:
        return self.backend.get_event(self.backend.primary_calendar_id(), event_id)

    def turn_state(self, turn_id: str) -> tuple[str, str | None] | None:
        """The journal turn's state and owner, read without starting anything (a start would
        recover it)."""
        with Store.sqlite(self.settings.state_db) as store:
            turn = Journal(store, self.backend).turn(turn_id)
        return None if turn is None else (turn.state, turn.owner)

    def main_requests(self) -> int:
        return sum(1 for r in self.server.requests if r.body.get("model") == MAIN)


def _seed(backend: CalendarBackend) -> None:
    """The scenario's events; a backend that cannot hold its ids (Google) gives them its own."""
    calendar = backend.primary_calendar_id()
    for raw in CALENDAR:
        if backend.id_problem(raw["id"]):
            raw = {**raw, "id": backend.new_event_id()}
        backend.create_event(calendar, event_from_contract(raw, TZ, calendar))


def _rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, backend: CalendarBackend) -> Rig:
    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    settings = Settings(home=home, timezone=TZ, home_address="77 Cedar Ln", model=MAIN,
                        reflection_model=REFL, api_key="test-key", backend=backend.name)
    _seed(backend)
    return Rig(FakeAnthropicServer({MAIN: [], REFL: []}).start(), backend, settings, home, [])


@pytest.fixture
def rig(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Rig]:
    made = _rig(tmp_path, monkeypatch, FlakyRestores(tmp_path / "calendar.db", TZ))
    yield made
    made.server.failures.clear()
    made.server.close()


# ----------------------------------------------------------------------------- the class itself
def _services(tmp_path: Path) -> Services:
    backend = LocalBackend(tmp_path / "calendar.db", TZ)
    _seed(backend)
    settings = Settings(home=tmp_path, timezone=TZ, home_address="77 Cedar Ln")
    return Services(settings, backend, Journal(Store.sqlite(tmp_path / "journal.db"), backend),
                    build_locations(settings), "primary", Stores(settings))


def test_an_attempt_rolls_back_a_wrong_write_and_closes_its_turn_as_rolled_back(tmp_path: Path) -> None:
    services = _services(tmp_path)
    attempt = GuardedAttempt(services, Guard(mode="symbolic"), turn_id="t-wrong", now=lambda: NOW)
    attempt.open()
    attempt.run([ToolCall("c1", "update_calendar_event", dict(WRONG_SWIM))])
    verdict = attempt.judge("Move swim lesson to Thursday")
    assert verdict is not None and [f.type for f in verdict.errors] == ["date"]
    assert attempt.settle() == "rolled_back"
    swim = services.backend.get_event("primary", "ev_swim1")
    assert swim is not None and swim.start.day == 21
    assert attempt.finish() == "rolled_back"
    turn = services.journal.turn("t-wrong")
    assert turn is not None and turn.state == "rolled_back"


def test_an_attempt_keeps_a_right_write_and_commits_its_turn(tmp_path: Path) -> None:
    services = _services(tmp_path)
    attempt = GuardedAttempt(services, Guard(mode="symbolic"), turn_id="t-right", now=lambda: NOW)
    attempt.open()
    attempt.run([ToolCall("c0", "calculate_datetime", {"expression": "Thursday"})])
    attempt.run([ToolCall("c1", "update_calendar_event", dict(RIGHT_SWIM))])
    verdict = attempt.judge("Move swim lesson to Thursday")
    assert verdict is not None and verdict.valid and not verdict.unverified
    assert attempt.settle() == "stands"
    assert attempt.finish() == "committed"
    assert Changes(services.journal).last_undoable() == "t-right"


def test_an_attempt_holds_an_unverified_delete_until_the_person_says_yes(tmp_path: Path) -> None:
    services = _services(tmp_path)
    asked: list[Confirmation] = []

    def yes(confirmation: Confirmation) -> bool:
        asked.append(confirmation)
        return True

    attempt = GuardedAttempt(services, Guard(mode="symbolic"), turn_id="t-hold", now=lambda: NOW,
                             confirm=yes)
    attempt.open()
    attempt.run([ToolCall("c1", "delete_calendar_event", {"event_id": "ev_book1"})])
    attempt.judge(UNSURE_DELETE_MESSAGE)
    before_asked = services.backend.get_event("primary", "ev_book1")
    assert before_asked is None  # deleted, not yet judged
    assert attempt.settle() == "confirmed"
    [question] = asked
    assert isinstance(question, UnverifiedChange)
    assert "remove 'Book club' on Thursday, October 23 at 7:00 PM" in question.summary
    assert "ev_book1" not in question.summary + " ".join(question.reasons)
    assert any("needs your yes" in r for r in question.reasons)
    assert services.backend.get_event("primary", "ev_book1") is None  # made again at the yes
    assert attempt.finish() == "committed"
    undone = Changes(services.journal).undo("t-hold")  # journaled as usual: undo brings it back
    assert undone is not None and services.backend.get_event("primary", "ev_book1") is not None


# ----------------------------------------------------------------------------- a rollback that fails
def _script_wrong_then_right(server: FakeAnthropicServer) -> None:
    server.add(MAIN, resp(tool("update_calendar_event", **WRONG_SWIM)),
               resp(text("Moved the swim lesson to Thursday, October 24.")),
               resp(tool("update_calendar_event", **RIGHT_SWIM)),
               resp(text("Moved the swim lesson to Thursday, October 23.")))


def _assert_unfinished_then_recovered(rig: Rig, report: Any) -> None:
    """No retry ran, the turn is left for recovery, the person is told in words, and a later
    start puts the event back."""
    assert rig.main_requests() == 2  # the retry never started
    assert len(report.attempts) == 1 and report.unfinished
    assert report.to_json()["unfinished"] is True
    assert rig.turn_state(report.turn_id) == ("unfinished", None)
    assert "next time the assistant starts" in report.reply and "did not try again" in report.reply
    assert "'Swim lesson'" in report.reply and rig.event("ev_swim1") is not None
    assert "ev_swim1" not in report.reply and "update_calendar_event" not in report.reply
    outcome = describe_outcome(report, TZ)
    assert outcome is not None and outcome.title == "Not everything could be put back yet"
    assert rig.event("ev_swim1").start.day == 24  # type: ignore[union-attr]  # not back yet
    recovered = build_services(rig.settings, backend=rig.backend).recovered  # a later start
    assert [r.turn_id for r in recovered] == [report.turn_id] and recovered[0].complete
    assert rig.event("ev_swim1").start.day == 21  # type: ignore[union-attr]


def test_a_rollback_that_fails_keeps_the_turn_for_recovery_and_does_not_retry(rig: Rig) -> None:
    assert isinstance(rig.backend, FlakyRestores)
    _script_wrong_then_right(rig.server)
    rig.backend.down = True
    report = rig.agent().run_turn("Move swim lesson to Thursday")
    rig.backend.down = False
    _assert_unfinished_then_recovered(rig, report)


def test_a_google_rollback_answered_503_keeps_the_turn_for_recovery(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    backend = make_backend("google", tmp_path)
    rig = _rig(tmp_path, monkeypatch, backend)
    ids = {e.title: e.id for e in backend.list_events(
        backend.primary_calendar_id(), datetime(2025, 10, 20, tzinfo=zone(TZ)),
        datetime(2025, 10, 27, tzinfo=zone(TZ)))}
    swim = ids["Swim lesson"]
    try:
        rig.server.add(MAIN, resp(tool("update_calendar_event", **{**WRONG_SWIM, "event_id": swim})),
                       resp(text("Moved the swim lesson to Thursday, October 24.")))
        server = backend.fake_server  # type: ignore[attr-defined]
        server.inject(503, method="PUT", times=50)  # the rollback's restore; the move is a PATCH
        report = rig.agent().run_turn("Move swim lesson to Thursday")
        server.faults.clear()
        assert rig.main_requests() == 2 and report.unfinished
        assert rig.turn_state(report.turn_id) == ("unfinished", None)
        assert "next time the assistant starts" in report.reply and swim not in report.reply
        assert backend.get_event("primary", swim).start.day == 24  # type: ignore[union-attr]
        build_services(rig.settings, backend=backend)  # a later start finishes the undo
        assert backend.get_event("primary", swim).start.day == 21  # type: ignore[union-attr]
    finally:
        rig.server.failures.clear()
        rig.server.close()
        backend.close()


def test_when_the_rollback_works_the_retry_runs_and_the_turn_is_committed(rig: Rig) -> None:
    """The same script with the calendar service up: the contrast that shows the test above
    is about the failure, not the script."""
    _script_wrong_then_right(rig.server)
    report = rig.agent().run_turn("Move swim lesson to Thursday")
    assert rig.main_requests() == 4 and len(report.attempts) == 2 and not report.unfinished
    assert rig.turn_state(report.turn_id) is not None
    assert rig.turn_state(report.turn_id)[0] == "committed"  # type: ignore[index]


# ----------------------------------------------------------------------------- nothing written
NOT_FOUND = {"event_id": "ev_nope", "start": "2025-10-23T17:00:00", "end": "2025-10-23T17:45:00"}


def test_a_turn_whose_writes_all_failed_says_nothing_was_written(rig: Rig) -> None:
    rig.server.add(MAIN, resp(tool("update_calendar_event", **NOT_FOUND)),
                   resp(text("Done: I moved the swim lesson to Thursday.")))
    report = rig.agent().run_turn("Move swim lesson to Thursday")
    assert report.reply.startswith("Nothing was changed in your calendar: the change I tried did "
                                   "not go through (the event was not found).")
    assert "ev_nope" not in report.reply
    assert report.confidence is None and rig.event("ev_swim1").start.day == 21  # type: ignore[union-attr]


def test_a_turn_that_wrote_something_has_no_nothing_written_notice(rig: Rig) -> None:
    rig.server.add(MAIN, resp(tool("update_calendar_event", **NOT_FOUND),
                              tool("calculate_datetime", expression="Thursday")),
                   resp(tool("update_calendar_event", **RIGHT_SWIM)),
                   resp(text("Moved the swim lesson to Thursday.")))
    report = rig.agent().run_turn("Move swim lesson to Thursday")
    assert report.reply == "Moved the swim lesson to Thursday."


def _cli_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, server: FakeAnthropicServer) -> Path:
    home = tmp_path / "cli-home"
    home.mkdir()
    (home / "config.toml").write_text(f'timezone = "{TZ}"\nhome_address = "77 Cedar Ln"\n'
                                      f'model = "{MAIN}"\nreflection_model = "{REFL}"\n'
                                      'reflection_mode = "symbolic"\n')
    seeded = LocalBackend(home / "calendar.db", TZ)
    _seed(seeded)
    seeded.close()
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    for name in ("CALENDAR_ASSISTANT_TIMEZONE", "CALENDAR_ASSISTANT_BACKEND", "CALENDAR_ASSISTANT_CALENDAR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    return home


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Path, FakeAnthropicServer]]:
    server = FakeAnthropicServer({MAIN: [], REFL: []}).start()
    home = _cli_home(tmp_path, monkeypatch, server)
    yield home, server
    server.failures.clear()
    server.close()


def _calendar(home: Path) -> dict[str, Event]:
    backend = LocalBackend(home / "calendar.db", TZ)
    found = backend.list_events("primary", datetime(2025, 10, 1, tzinfo=zone(TZ)),
                                datetime(2025, 11, 30, tzinfo=zone(TZ)))
    backend.close()
    return {e.title: e for e in found}


def test_ask_says_nothing_was_written_when_every_write_failed(
        cli: tuple[Path, FakeAnthropicServer], capsys: pytest.CaptureFixture[str]) -> None:
    _, server = cli
    server.add(MAIN, resp(tool("update_calendar_event", **NOT_FOUND)),
               resp(text("Done: I moved the swim lesson to Thursday.")))
    assert cli_main(["ask", "Move swim lesson to Thursday", "--now", NOW.isoformat()]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Nothing was changed in your calendar")


def test_replay_says_nothing_was_written_when_every_write_failed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path / "replay-home"))
    scenario = {"now": "2025-10-20T08:00:00", "timezone": TZ, "calendar": CALENDAR,
                "turns": [{"user": "Move swim lesson to Thursday",
                           "model": [[tool("update_calendar_event", **NOT_FOUND)],
                                     [text("Done: I moved the swim lesson to Thursday.")]]}]}
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(scenario))
    assert cli_main(["replay", str(path)]) == 0
    [turn] = json.loads(capsys.readouterr().out)["turns"]
    assert turn["reply"].startswith("Nothing was changed in your calendar")
    assert turn["confidence"] is None


# ----------------------------------------------------------------------------- not verified: chat
def test_an_unverified_change_that_stands_is_never_called_verified(rig: Rig) -> None:
    rig.server.add(MAIN, resp(tool("create_calendar_event", **UNSURE_CREATE)),
                   resp(text("Added the dentist on Tuesday at 6 PM.")))
    report = rig.agent().run_turn(UNSURE_MESSAGE)
    assert report.held is False and [c.action for c in report.cards] == ["created"]
    assert report.verified is False and report.doubts
    outcome = describe_outcome(report, TZ)
    assert outcome is not None and outcome.kind == "unverified" and outcome.title == "Not verified"
    said = "\n".join([outcome.title, *outcome.lines])
    assert "Verified" not in said.replace("Not verified", "")
    assert "its time is said relative to another event" in said and "ctrl+z" in said
    assert rig.asked == []  # a create is not destructive: nobody is asked


def test_with_the_reflection_service_down_a_deferred_change_is_not_verified_with_a_note(rig: Rig) -> None:
    """`auto` mode with the reflection model failing (the case that used to read "Verified,
    with a note")."""
    rig.server.add(MAIN, resp(tool("create_calendar_event", **UNSURE_CREATE)),
                   resp(text("Added the dentist on Tuesday at 6 PM.")))
    rig.server.add(REFL, {"fault": "status", "status": 500, "headers": {"x-should-retry": "false"}})
    report = rig.agent(mode="auto").run_turn(UNSURE_MESSAGE)
    assert "reflection_unavailable" in [f.type for f in report.findings]
    outcome = describe_outcome(report, TZ)
    assert outcome is not None and outcome.title == "Not verified"
    assert not any("Verified" in line for line in outcome.lines)


def test_a_verified_change_is_still_called_verified(rig: Rig) -> None:
    rig.server.add(MAIN, resp(tool("calculate_datetime", expression="Thursday")),
                   resp(tool("update_calendar_event", **RIGHT_SWIM)),
                   resp(text("Moved the swim lesson to Thursday.")))
    report = rig.agent().run_turn("Move swim lesson to Thursday")
    outcome = describe_outcome(report, TZ)
    assert report.verified is True and outcome is not None and outcome.title == "Verified"


def _script_unsure_delete(server: FakeAnthropicServer) -> None:
    server.add(MAIN, resp(tool("delete_calendar_event", event_id="ev_book1")),
               resp(text("Cancelled book club on Thursday.")))


def test_an_unverified_delete_is_undone_and_the_person_asked_no_leaves_it(rig: Rig) -> None:
    _script_unsure_delete(rig.server)
    report = rig.agent(confirm=False).run_turn(UNSURE_DELETE_MESSAGE)
    assert rig.event("ev_book1") is not None  # rolled back, and not made again
    [question] = rig.asked
    assert isinstance(question, UnverifiedChange)
    assert report.held and report.verified is False and report.cards == []
    assert report.reply.startswith("I did not make this change")
    assert "Cancelled" not in report.reply and "Nothing was changed." in report.reply
    assert "remove 'Book club' on Thursday, October 23 at 7:00 PM" in report.reply
    outcome = describe_outcome(report, TZ)
    assert outcome is not None and outcome.kind == "held"
    assert Changes(rig.agent().services.journal).last_undoable() is None  # nothing stands


def test_an_unverified_delete_confirmed_is_made_and_can_be_undone(rig: Rig) -> None:
    _script_unsure_delete(rig.server)
    agent = rig.agent(confirm=True)
    report = agent.run_turn(UNSURE_DELETE_MESSAGE)
    assert rig.event("ev_book1") is None and len(rig.asked) == 1
    assert report.reply == "Cancelled book club on Thursday."
    assert [c.action for c in report.cards] == ["deleted"]
    outcome = describe_outcome(report, TZ)
    assert outcome is not None and outcome.title == "Done at your word, not verified"
    assert agent.undo_last() is not None and rig.event("ev_book1") is not None


# ----------------------------------------------------------------------------- not verified: ask
def test_ask_says_not_verified_and_how_to_undo_in_text_and_json(
        cli: tuple[Path, FakeAnthropicServer], capsys: pytest.CaptureFixture[str]) -> None:
    _, server = cli
    for _ in range(2):
        server.add(MAIN, resp(tool("create_calendar_event", **UNSURE_CREATE)),
                   resp(text("Added the dentist on Tuesday at 6 PM.")))
    assert cli_main(["ask", UNSURE_MESSAGE, "--now", NOW.isoformat()]) == 0
    out = capsys.readouterr().out
    assert "Not verified" in out and "Verified\n" not in out
    assert "its time is said relative to another event" in out and "calendar-assistant undo" in out
    assert cli_main(["ask", UNSURE_MESSAGE, "--json", "--now", NOW.isoformat()]) == 0
    data = json.loads(capsys.readouterr().out)
    # the second ask finds the first one's dentist on the calendar, so its doubt is its own
    assert data["verified"] is False and data["doubts"] and all(
        isinstance(d, str) and "ev_" not in d for d in data["doubts"])


def test_ask_exits_1_with_the_question_for_an_unverified_delete(
        cli: tuple[Path, FakeAnthropicServer], capsys: pytest.CaptureFixture[str]) -> None:
    home, server = cli
    _script_unsure_delete(server)
    assert cli_main(["ask", UNSURE_DELETE_MESSAGE, "--now", NOW.isoformat()]) == 1
    out = capsys.readouterr().out
    assert "I did not make this change" in out and "needs your yes" in out and "--yes" in out
    assert "Book club" in _calendar(home)
    _script_unsure_delete(server)
    assert cli_main(["ask", UNSURE_DELETE_MESSAGE, "--yes", "--now", NOW.isoformat()]) == 0
    out = capsys.readouterr().out
    assert "Done at your word, not verified" in out
    assert "Book club" not in _calendar(home)


def test_replay_grants_the_question_by_default_and_refuses_it_with_confirm_false(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(tmp_path / "replay-home"))
    results = {}
    for confirm in (True, False):
        turn: dict[str, Any] = {"user": UNSURE_DELETE_MESSAGE,
                                "model": [[tool("delete_calendar_event", event_id="ev_book1")],
                                          [text("Cancelled book club on Thursday.")]]}
        if not confirm:
            turn["confirm"] = False
        path = tmp_path / f"scenario-{confirm}.json"
        path.write_text(json.dumps({"now": "2025-10-20T08:00:00", "timezone": TZ,
                                    "calendar": CALENDAR, "turns": [turn]}))
        assert cli_main(["replay", str(path)]) == 0
        results[confirm] = json.loads(capsys.readouterr().out)
    granted, refused = results[True], results[False]
    assert "ev_book1" not in {e["id"] for e in granted["calendar"]}
    assert granted["turns"][0]["verified"] is False and granted["turns"][0]["needs_confirmation"] is False
    assert "ev_book1" in {e["id"] for e in refused["calendar"]}
    assert refused["turns"][0]["needs_confirmation"] is True
    assert refused["turns"][0]["reply"].startswith("I did not make this change")


# ----------------------------------------------------------------------------- not verified: the window
@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _window(rig: Rig) -> CalendarApp:
    def factory(confirm: Any) -> AgentSession:
        return AgentSession(build_agent(rig.settings, confirm=confirm, backend=rig.backend,
                                        base_url=rig.server.base_url, reflection_mode="symbolic",
                                        now=lambda: NOW, lessons=False, max_retries=0))
    return CalendarApp(rig.settings, factory, animate=False)


@pytest.mark.anyio
async def test_the_chat_asks_with_a_card_and_does_it_anyway_on_yes(rig: Rig) -> None:
    _script_unsure_delete(rig.server)
    app = _window(rig)
    async with app.run_test(size=(110, 36)) as pilot:
        await send(pilot, UNSURE_DELETE_MESSAGE)
        card = await wait_for_screen(pilot, ConfirmScreen)
        assert card.title_text == "I could not verify this change"
        assert card.yes_label == "Yes, do it anyway"
        assert "remove 'Book club' on Thursday, October 23 at 7:00 PM" in card.summary
        assert rig.event("ev_book1") is not None  # undone while the person decides
        await pilot.press("y")
        await settle(pilot)
        badge = app.query_one(OutcomeBadge).plain
    assert rig.event("ev_book1") is None
    assert badge.startswith("Done at your word, not verified") and "ctrl+z" in badge


@pytest.mark.anyio
async def test_the_chat_badge_of_an_unverified_change_says_not_verified(rig: Rig) -> None:
    rig.server.add(MAIN, resp(tool("create_calendar_event", **UNSURE_CREATE)),
                   resp(text("Added the dentist on Tuesday at 6 PM.")))
    app = _window(rig)
    async with app.run_test(size=(110, 36)) as pilot:
        await send(pilot, UNSURE_MESSAGE)
        await settle(pilot)
        badge = app.query_one(OutcomeBadge)
        said = badge.plain
        assert badge.has_class("-unverified")
    assert said.startswith("Not verified") and "Verified" not in said.replace("Not verified", "")
    assert "its time is said relative to another event" in said
