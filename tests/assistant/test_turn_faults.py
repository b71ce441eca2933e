"""No turn is left half-judged: faults after a write, calls that wrote nothing, cut-off streams.

Real agent loop (anthropic SDK -> fake Anthropic server on 127.0.0.1, real registry, journal,
guard and rollback) on every backend: the local calendar and the Google client against the fake
Calendar v3 server. Said on Monday 2025-10-20 08:00 in Los Angeles.
"""
from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Iterator
from datetime import datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from conftest import BACKENDS, make_backend, on_backends

from assistant.app import build_agent
from assistant.scripted.fake_anthropic import FakeAnthropicServer, resp, stream_events, text, tool
from assistant.settings import Settings
from reflection.guard import Guard
from tools.backends.base import CalendarBackend, CalendarError, EventPatch, VersionConflict
from tools.calendar.events import event_from_contract, zone

TZ = "America/Los_Angeles"
NOW = datetime(2025, 10, 20, 8, 0, tzinfo=zone(TZ))
MAIN, REFL = "test-main", "test-reflection"
CALENDAR = {
    "swim": {"title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
             "end": "2025-10-21T17:45:00-07:00", "timezone": TZ, "location": "Westside Pool"},
    "book": {"title": "Book club", "start": "2025-10-23T19:00:00-07:00",
             "end": "2025-10-23T21:00:00-07:00", "timezone": TZ, "location": "Library"},
}





@dataclasses.dataclass
class Rig:
    server: FakeAnthropicServer
    backend: CalendarBackend
    settings: Settings
    ids: dict[str, str]

    def agent(self, base_url: str | None = None, confirm: bool = True, **kw: Any) -> Any:
        kw.setdefault("backend", self.backend)
        return build_agent(self.settings, base_url=base_url or self.server.base_url,
                           reflection_mode="symbolic", now=lambda: NOW,
                           confirm=lambda _c: confirm, lessons=False,
                           max_retries=0, **kw)

    def event(self, name: str) -> Any:
        return self.backend.get_event(self.backend.primary_calendar_id(), self.ids[name])

    def turn_state(self, agent: Any, turn_id: str) -> str | None:
        turn = agent.services.journal.turn(turn_id)
        return turn.state if turn else None


@pytest.fixture(params=on_backends(BACKENDS))
def rig(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Rig]:
    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    backend = make_backend(request.param, tmp_path)
    settings = Settings(home=home, timezone=TZ, home_address="77 Cedar Ln", model=MAIN,
                        reflection_model=REFL, api_key="test-key", backend=request.param)
    ids = {}
    for name, raw in CALENDAR.items():
        event = event_from_contract({"id": backend.new_event_id(), **raw}, TZ)
        ids[name] = backend.create_event(backend.primary_calendar_id(), event).id
    server = FakeAnthropicServer({MAIN: [], REFL: []}).start()
    yield Rig(server, backend, settings, ids)
    server.failures.clear()
    server.close()
    backend.close()


# ----------------------------------------------------------------------------- faults after a write
def _moved_swim(rig: Rig) -> None:
    rig.server.add(MAIN, resp(tool("update_calendar_event", event_id=rig.ids["swim"],
                                   start="2025-10-23T17:00:00", end="2025-10-23T17:45:00")),
                   resp(text("Moved the swim lesson to Thursday.")))


class OverflowingGuard(Guard):
    """A guard that fails the way a date overflow in a check would."""

    def judge(self, *_a: Any, **_k: Any) -> Any:
        raise OverflowError("date value out of range")


class NoListing:
    """The rig's backend, whose listings fail as a calendar service that is down would (the
    guard's view of the calendar is a listing; the scripted tools never list)."""

    def __init__(self, inner: CalendarBackend) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def list_events(self, *_a: Any, **_k: Any) -> Any:
        raise CalendarError("Google Calendar error 503 (backendError): unavailable")


def test_an_overflow_in_the_guard_after_a_write_rolls_back_in_one_line(rig: Rig) -> None:
    _moved_swim(rig)
    agent = rig.agent(guard=OverflowingGuard(mode="symbolic"))
    report = agent.run_turn("Move swim lesson to Thursday")
    assert report.error is not None and "OverflowError" in report.error
    assert report.reply == report.error and "\n" not in report.reply
    assert report.reply.endswith("Nothing was changed.")
    assert rig.event("swim").start.day == 21  # the write was taken back
    assert rig.turn_state(agent, report.turn_id) == "rolled_back"  # not left open
    assert report.confidence is None


def test_a_backend_error_while_building_the_guards_view_rolls_back(rig: Rig) -> None:
    _moved_swim(rig)
    agent = rig.agent(backend=NoListing(rig.backend))
    report = agent.run_turn("Move swim lesson to Thursday")
    assert report.error is not None and "503" in report.error and "\n" not in report.error
    assert rig.event("swim").start.day == 21
    assert rig.turn_state(agent, report.turn_id) == "rolled_back"


def test_date_arithmetic_out_of_range_is_a_tool_error(rig: Rig) -> None:
    rig.server.add(MAIN, resp(tool("calculate_datetime", expression="tomorrow",
                                   reference="9999-12-31T23:00:00")),
                   resp(tool("create_calendar_event", title="Far", start="9999-12-31T23:30:00")),
                   resp(text("That is too far away; when do you mean?")))
    report = rig.agent().run_turn("add a reminder in 99999999 days")
    assert report.error is None
    calc, create = report.attempts[0].calls
    assert "out of range" in calc.result.text or "years 1 to 9999" in calc.result.text
    assert create.result.is_error and "nothing was written" in create.result.text
    assert report.confidence is None


def test_the_date_tool_turns_an_overflow_into_a_clear_error() -> None:
    import assistant.date_tool as date_tool

    def overflowing(*_a: Any, **_k: Any) -> Any:
        raise OverflowError("date value out of range")

    calculate = date_tool.date_calculator(TZ, lambda: NOW, overflowing)
    with pytest.raises(CalendarError, match="years 1 to 9999"):
        calculate("in 99999999 days", None)


# ----------------------------------------------------------------------------- nothing written
def test_a_turn_whose_guarded_calls_all_failed_is_never_verified(rig: Rig) -> None:
    """A 412 / version conflict, and an invalid create: nothing was written, so no verdict."""
    backend = rig.backend
    real_patch = backend.patch_event

    def raced(calendar_id: str, event_id: str, patch: EventPatch, **kw: Any) -> Any:
        real_patch(calendar_id, event_id, EventPatch({"location": "Eastside Pool"}))  # the phone
        return real_patch(calendar_id, event_id, patch, **kw)

    backend.patch_event = raced  # type: ignore[method-assign]
    rig.server.add(MAIN, resp(tool("update_calendar_event", event_id=rig.ids["swim"],
                                   start="2025-10-23T17:00:00", end="2025-10-23T17:45:00"),
                              tool("create_calendar_event", title="Swim", start="2025-10-23T17:00:00",
                                   end="2025-10-23T16:00:00")),
                   resp(text("Moved the swim lesson to Thursday.")))
    report = rig.agent().run_turn("Move swim lesson to Thursday")
    backend.patch_event = real_patch  # type: ignore[method-assign]
    assert all(c.result.is_error for c in report.attempts[0].calls)
    assert report.attempts[0].verdict is None
    assert report.confidence is None and report.to_json()["confidence"] is None
    swim = rig.event("swim")
    assert swim.start.day == 21 and swim.location == "Eastside Pool"


def test_a_correct_retry_after_a_rollback_has_its_own_confidence(rig: Rig) -> None:
    """The retry first tries to change the wrong event, which the calendar refuses (someone
    edited it: a 412); then it makes the right change. Only what was written is judged."""
    swim, book = rig.ids["swim"], rig.ids["book"]
    backend = rig.backend
    real_patch = backend.patch_event

    def refuse_book(calendar_id: str, event_id: str, patch: EventPatch, **kw: Any) -> Any:
        if event_id == book:
            raise VersionConflict(event_id, kw.get("if_match"), "newer")
        return real_patch(calendar_id, event_id, patch, **kw)

    backend.patch_event = refuse_book  # type: ignore[method-assign]
    rig.server.add(MAIN,
                   resp(tool("update_calendar_event", event_id=swim, start="2025-10-24T17:00:00",
                             end="2025-10-24T17:45:00")),
                   resp(text("Moved to Friday.")),
                   resp(tool("update_calendar_event", event_id=book, start="2025-10-23T17:00:00",
                             end="2025-10-23T17:45:00")),
                   resp(tool("calculate_datetime", expression="Thursday")),
                   resp(tool("update_calendar_event", event_id=swim, start="2025-10-23T17:00:00",
                             end="2025-10-23T17:45:00")),
                   resp(text("Moved the swim lesson to Thursday, October 23.")))
    try:
        report = rig.agent().run_turn("Move swim lesson to Thursday")
    finally:
        backend.patch_event = real_patch  # type: ignore[method-assign]
    assert len(report.attempts) == 2 and report.rolled_back == [swim]
    assert report.attempts[1].calls[0].result.is_error
    assert report.confidence == "high", report.findings
    assert rig.event("swim").start.day == 23 and rig.event("book").start.day == 23


# ----------------------------------------------------------------------------- cut-off stream
class CutStreamServer:
    """Serves scripted Messages streams; a `cut` item stops before `message_delta` (no stop
    reason), as a dropped connection or a proxy timeout would."""

    def __init__(self, items: list[tuple[dict[str, Any], bool]]) -> None:
        self.items = list(items)
        self.builder = FakeAnthropicServer({})
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_a: Any) -> None:
                return None

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("content-length") or 0)))
                item, cut = outer.items.pop(0)
                message = outer.builder.build_message(item, body)
                frames = b""
                for event, data, _ in stream_events(message):
                    if cut and event in ("message_delta", "message_stop"):
                        break
                    frames += f"event: {event}\ndata: {json.dumps(data)}\n\n".encode()
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("content-length", str(len(frames)))
                self.end_headers()
                self.wfile.write(frames)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def test_a_cut_off_stream_is_reported_and_its_writes_rolled_back(rig: Rig) -> None:
    server = CutStreamServer([
        (resp(tool("update_calendar_event", event_id=rig.ids["swim"], start="2025-10-23T17:00:00",
                   end="2025-10-23T17:45:00")), False),
        (resp(text("Moved the swim lesson to")), True),
    ])
    try:
        report = rig.agent(base_url=server.base_url).run_turn("Move swim lesson to Thursday")
    finally:
        server.close()
    assert report.error is not None and "cut off" in report.error
    assert report.reply == report.error
    assert rig.event("swim").start.day == 21


def test_ask_never_prints_an_empty_reply_with_exit_0_for_a_cut_stream(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from assistant.cli import main

    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", TZ)
    monkeypatch.delenv("CALENDAR_ASSISTANT_BACKEND", raising=False)
    server = CutStreamServer([(resp(text("")), True)])
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
    try:
        code = main(["ask", "what's on tomorrow?"])
    finally:
        server.close()
    out = capsys.readouterr().out
    assert code == 1
    assert "cut off" in out


# ----------------------------------------------------------------------------- the owner commits
def test_a_turn_taken_by_recovery_elsewhere_is_not_committed(rig: Rig) -> None:
    from tools.journal.journal import Journal
    from tools.journal.turn_owner import Owner

    _moved_swim(rig)
    journal_box: list[Journal] = []

    class LosesTheTurn(Guard):
        """Judges, then another process's recovery takes the open turn and undoes it."""

        def judge(self, *args: Any, **kw: Any) -> Any:
            run = super().judge(*args, **kw)
            mine = journal_box[0]
            other = Journal(mine.store, rig.backend, owner=Owner("other-host", "b", 1, "1"))
            for turn_id in mine.open_turns():
                other.rollback(turn_id)
            return run

    agent = rig.agent(guard=LosesTheTurn(mode="symbolic"))
    journal_box.append(agent.services.journal)
    report = agent.run_turn("Move swim lesson to Thursday")
    assert report.error is not None and "undid" in report.error
    assert report.reply == report.error
    assert rig.turn_state(agent, report.turn_id) == "rolled_back"
    assert agent.history.messages() == []  # not remembered as done


# ----------------------------------------------------------------------------- the chat's notice
@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_chat_shows_what_recovery_undid(rig: Rig) -> None:
    from fake_session import FakeSession, factory

    from assistant.tui.app import CalendarApp
    from assistant.tui.widgets.messages import NoticeMessage
    from tools.journal.journal import Conflict, RestoredEvent, RollbackReport

    swim = rig.event("swim")
    recovered = [
        RollbackReport("t1", restored=[RestoredEvent(swim.id, swim, swim)],
                       started_at=datetime(2025, 10, 20, 7, 0, tzinfo=zone(TZ))),
        RollbackReport("t2", failures=[Conflict(swim.id, f"{swim.id} failed", "'Book club' on Thu 23 Oct "
                                                "at 19:00 could not be put back (503)")])]
    session = FakeSession(TZ, datetime(2025, 10, 20).date(), recovered=recovered)
    app = CalendarApp(rig.settings, factory(session), animate=False)
    async with app.run_test() as pilot:
        await pilot.pause()
        shown = [w.render().plain if hasattr(w.render(), "plain") else str(w.render())
                 for w in app.query(NoticeMessage)]
        joined = "\n".join(shown)
        assert "put back 'Swim lesson' on Tue 21 Oct at 17:00" in joined
        assert "could not be fully undone" in joined and "'Book club'" in joined
        assert swim.id not in joined
        await app.workers.wait_for_complete()
