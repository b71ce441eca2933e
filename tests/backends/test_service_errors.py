"""Calendar services that fail, said in words (issue 24 item 8).

With the CalDAV server down, the person (and the model, in its tool result) read the HTTP
library's internals: `HTTPConnectionPool(host=...)`, `<urllib3.connection.HTTPConnection object
at 0x7f…>`, the server's paths. Now a server that is down, one that does not answer in time and
one that refuses the sign-in each give one sentence (`tools.backends.errors`), and the internals go
to the log file in the app's home. On real parts: a Radicale server started and stopped here, a
socket that never answers, Google's client against the fake Calendar server, PostgreSQL.
"""
from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from caldav_support import PASSWORD, USERNAME, new_calendar_url, start_radicale
from conftest import PERSON_TZ, make_context
from google_support import google_backend_for
from sqlalchemy import create_engine
from sqlalchemy import text as sql
from sqlalchemy.exc import OperationalError

from assistant.app import build_agent
from assistant.cli import main
from assistant.logfile import LOG_NAME, open_log
from assistant.scripted.fake_anthropic import FakeAnthropicServer, resp, text, tool
from assistant.settings import Settings
from fixtures.fake_google import FakeGoogleCalendar
from tools.backends.caldav.backend import CalDAVBackend
from tools.backends.errors import ServiceFailure, person_message
from tools.backends.google.backend import GoogleBackend
from tools.backends.local import LocalBackend
from tools.calendar.events import event_from_contract, zone
from tools.context import ToolCall
from tools.registry import ToolRegistry

TZ = zone(PERSON_TZ)
WINDOW = (datetime(2025, 10, 1, tzinfo=TZ), datetime(2025, 11, 1, tzinfo=TZ))
INTERNALS = ("HTTPConnectionPool", "0x", "object at", "Max retries", "NewConnectionError", "urllib3",
             "Errno", "Traceback", "psycopg", "OperationalError", "127.0.0.1", "http://", "https://")
DOWN = "The CalDAV server cannot be reached: check that it is running and that its address " \
       "(caldav_url) is right."
SLOW = "The CalDAV server did not answer in time; please try again in a moment."
REFUSED = "The CalDAV server refused the sign-in: check the user name and password (iCloud and " \
          "Fastmail need an app password)."


def assert_plain(said: str) -> None:
    for word in INTERNALS:
        assert word not in said, f"{word!r} in {said!r}"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture
def silent_port() -> Iterator[int]:
    """A port that accepts connections and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        yield int(sock.getsockname()[1])


@pytest.fixture
def stopped_caldav(tmp_path: Path) -> Iterator[tuple[CalDAVBackend, str]]:
    """A CalDAV backend with an event on a Radicale server of its own, which is then stopped."""
    server = start_radicale()
    try:
        url = new_calendar_url(server)
        backend = CalDAVBackend(server.url, USERNAME, PASSWORD, calendar=url, default_timezone=PERSON_TZ)
        backend.create_event(url, event_from_contract({
            "id": backend.new_event_id(), "title": "Swim lesson", "start": "2025-10-21T17:00:00-07:00",
            "end": "2025-10-21T17:45:00-07:00", "timezone": PERSON_TZ}, PERSON_TZ))
        assert len(backend.list_events(url, *WINDOW)) == 1
    finally:
        server.stop()
    yield backend, url
    backend.close()


# ----------------------------------------------------------------------------- CalDAV
def test_a_stopped_caldav_server_is_one_sentence_and_its_internals_go_to_the_log(
        stopped_caldav: tuple[CalDAVBackend, str], tmp_path: Path) -> None:
    backend, url = stopped_caldav
    open_log(tmp_path)
    for call in (lambda: backend.list_events(url, *WINDOW), lambda: backend.get_event(url, "ev1"),
                 lambda: backend.calendars()):
        with pytest.raises(ServiceFailure) as caught:
            call()
        assert str(caught.value) == DOWN
    log = (tmp_path / LOG_NAME).read_text(encoding="utf-8")
    assert "Connection refused" in log and "Traceback" in log  # the internals, for a developer
    assert PASSWORD not in log


@pytest.mark.slow  # waits out a client timeout
def test_a_caldav_server_that_never_answers_is_a_timeout_in_words(silent_port: int) -> None:
    url = f"http://127.0.0.1:{silent_port}/dav/cal/"
    backend = CalDAVBackend(f"http://127.0.0.1:{silent_port}/dav/", USERNAME, PASSWORD, calendar=url,
                            default_timezone=PERSON_TZ, timeout=1)
    with pytest.raises(ServiceFailure) as caught:
        backend.list_events(url, *WINDOW)
    assert str(caught.value) == SLOW


@pytest.mark.slow  # a real Radicale server
def test_a_refused_caldav_sign_in_is_said_as_such(radicale: Any) -> None:
    url = new_calendar_url(radicale)
    backend = CalDAVBackend(radicale.url, USERNAME, "not-the-password", calendar=url,
                            default_timezone=PERSON_TZ)
    for call in (lambda: backend.list_events(url, *WINDOW), lambda: backend.get_event(url, "ev1")):
        with pytest.raises(ServiceFailure) as caught:
            call()
        assert str(caught.value) == REFUSED
    unnamed = CalDAVBackend(radicale.url, USERNAME, "not-the-password", default_timezone=PERSON_TZ)
    with pytest.raises(ServiceFailure, match="refused the sign-in"):
        unnamed.primary_calendar_id()


def test_the_model_and_the_person_read_words_when_caldav_is_down(
        stopped_caldav: tuple[CalDAVBackend, str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A real turn: the model lists the calendar and tries a change on the stopped server; the
    tool results it reads and the reply carry the sentence, none of the internals."""
    backend, url = stopped_caldav
    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    settings = Settings(home=home, timezone=PERSON_TZ, model="main", reflection_model="refl",
                        api_key="test-key", backend="caldav", calendar_id=url, caldav_url=url)
    server = FakeAnthropicServer({"main": [], "refl": []}).start()
    try:
        server.add("main", resp(tool("list_events", start="2025-10-20", end="2025-10-27")),
                   resp(tool("create_calendar_event", title="Dentist", start="2025-10-22T09:00:00",
                             end="2025-10-22T10:00:00")),
                   resp(text("I could not reach your calendar.")))
        agent = build_agent(settings, backend=backend, base_url=server.base_url, reflection_mode="symbolic",
                            now=lambda: datetime(2025, 10, 20, 8, tzinfo=TZ), lessons=False, max_retries=0)
        report = agent.run_turn("What is on this week? And add the dentist Wednesday at 9")
        results = [block for request in server.requests for message in request.body["messages"]
                   if isinstance(message["content"], list) for block in message["content"]
                   if block.get("type") == "tool_result"]
    finally:
        server.close()
    said = [json.dumps(block["content"]) for block in results]
    assert len({s for s in said}) == 2
    assert any(DOWN in s for s in said) and all(DOWN in s for s in said)
    for text_ in (*said, report.reply or "", report.error or ""):
        assert_plain(text_)
        assert url not in text_


def test_the_agenda_command_with_caldav_down_is_one_line(home: Path, capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    port = closed_port()
    monkeypatch.setenv("CALENDAR_ASSISTANT_BACKEND", "caldav")
    monkeypatch.setenv("CALENDAR_ASSISTANT_CALDAV_URL", f"http://127.0.0.1:{port}/dav/")
    assert main(["agenda"]) == 1
    err = capsys.readouterr().err
    assert err == f"calendar-assistant: {DOWN}\n"
    assert "NewConnectionError" in (home / LOG_NAME).read_text(encoding="utf-8")


@pytest.mark.slow  # waits out a client timeout
# ----------------------------------------------------------------------------- Google
def test_google_out_of_reach_and_too_slow_are_said_in_words(silent_port: int) -> None:
    down = GoogleBackend(None, api_endpoint=f"http://127.0.0.1:{closed_port()}/calendar/v3/", max_attempts=1)
    with pytest.raises(ServiceFailure) as caught:
        down.list_events("primary", *WINDOW)
    assert str(caught.value) == "Google Calendar cannot be reached: check the internet connection."
    slow = GoogleBackend(None, api_endpoint=f"http://127.0.0.1:{silent_port}/calendar/v3/", max_attempts=1,
                         timeout=1)
    with pytest.raises(ServiceFailure) as caught:
        slow.list_events("primary", *WINDOW)
    assert str(caught.value) == "Google Calendar did not answer in time; please try again in a moment."
    down.close()
    slow.close()


def test_google_refusing_the_sign_in_says_to_log_in_again(tmp_path: Path) -> None:
    with FakeGoogleCalendar() as server:
        backend = google_backend_for(server, tmp_path)
        server.inject(401, reason="authError", method="GET", path_contains="/events", times=5)
        with pytest.raises(ServiceFailure) as caught:
            backend.list_events("primary", *WINDOW)
        backend.close()
    assert str(caught.value) == "Google refused the sign-in: run `calendar-assistant login` again."


# ----------------------------------------------------------------------------- PostgreSQL
def test_an_unknown_database_user_is_a_refused_sign_in(home: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from pg_support import postgres_server

    server, database = postgres_server()
    url = server.url(database).replace("://postgres@", "://nobody-here:secret-pw@")
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["agenda"]) == 2
    err = capsys.readouterr().err
    assert err == ("calendar-assistant: The calendar database refused the sign-in: check the user "
                   "name and password in database_url.\n")


def test_a_database_failure_inside_a_tool_call_is_a_sentence_for_the_model(tmp_path: Path) -> None:
    """The store's server dropping mid-turn: SQLAlchemy's error (a real one, from a refused
    connection) reaches the registry, which answers the model in words."""
    try:
        with create_engine(f"postgresql+psycopg://u:pw@127.0.0.1:{closed_port()}/db").connect() as conn:
            conn.execute(sql("select 1"))
    except OperationalError as exc:
        failure = exc
    backend = LocalBackend(tmp_path / "calendar.db", PERSON_TZ)

    def dropped(*_a: Any, **_k: Any) -> Any:
        raise failure

    backend.list_events = dropped  # type: ignore[method-assign]
    call = ToolCall("c1", "list_events", {"start": "2025-10-20", "end": "2025-10-27"})
    result = ToolRegistry(make_context(backend, None)).run(call)
    assert result.is_error
    assert result.text == ("Error: The calendar database cannot be reached: check that the database "
                           "server is running and that database_url is right.")
    backend.close()


# ----------------------------------------------------------------------------- the chat, and the rest
@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_chat_says_in_words_that_caldav_is_down(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from assistant.session.chat import AgentSession
    from assistant.tui.app import CalendarApp
    from assistant.tui.widgets.messages import NoticeMessage

    home = tmp_path / "home"
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(home))
    settings = Settings(home=home, timezone=PERSON_TZ, api_key="test-key", backend="caldav",
                        caldav_url=f"http://127.0.0.1:{closed_port()}/dav/")
    app = CalendarApp(settings, lambda confirm: AgentSession(build_agent(settings, confirm=confirm)), animate=False)
    async with app.run_test(size=(120, 34)) as pilot:
        for _ in range(50):
            await pilot.pause()
            notices = [str(w.render()) for w in app.query(NoticeMessage)]
            if any(n.startswith("Could not") for n in notices):
                break
    assert app.session is None
    assert notices[-1] == f"Could not start the assistant: {DOWN}"
    for notice in notices:
        assert_plain(notice)


def test_an_unexpected_error_is_named_by_kind_with_its_details_in_the_log(tmp_path: Path) -> None:
    open_log(tmp_path)
    try:
        {}["missing"]
    except KeyError as exc:
        said = person_message(exc, "list the agenda")
    assert said == "Something went wrong inside the assistant (KeyError); the details are in the log file."
    log = (tmp_path / LOG_NAME).read_text(encoding="utf-8")
    assert "while trying to list the agenda" in log and "KeyError: 'missing'" in log and "Traceback" in log
