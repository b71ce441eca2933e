"""CalDAV set-up (issue 28 item 4): in the README's order `config set backend caldav` was refused
until the URL was set, `calendars` kept showing the local calendar, and an empty account got a
calendar without a word. Now `setup caldav` asks (or takes options), connects, and saves the four
settings together 0600; the settings are also accepted in any order and checked when used; a
calendar made on the person's account is said.

The connecting paths run on a real Radicale on 127.0.0.1 (`tests/caldav_support.py`); an empty
account needs a server of its own, started and stopped here."""
from __future__ import annotations

import io
import socket
import stat
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from caldav_support import PASSWORD, USERNAME, RadicaleServer, new_calendar_url, start_radicale

from assistant.cli import main


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def config(home: Path) -> dict[str, Any]:
    path = home / "config.toml"
    return tomllib.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


@pytest.fixture
def empty_account() -> Iterator[RadicaleServer]:
    """A Radicale of its own whose one account has no calendar yet."""
    server = start_radicale()
    yield server
    server.stop()


# ----------------------------------------------------------------------------- any order
def test_config_set_backend_caldav_is_accepted_before_the_url(home: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "set", "backend", "caldav"]) == 0
    assert config(home)["backend"] == "caldav"
    assert main(["config", "set", "caldav_url", "http://127.0.0.1:9/dav/"]) == 0
    assert config(home)["caldav_url"] == "http://127.0.0.1:9/dav/"


def test_a_missing_caldav_url_is_one_line_naming_it_when_used(home: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["config", "set", "backend", "caldav"]) == 0
    capsys.readouterr()
    assert main(["calendars"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "caldav_url is not set" in err and "setup caldav" in err


def test_a_user_name_without_its_password_is_named_when_used(home: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    for key, value in (("caldav_username", "sam"), ("backend", "caldav"),
                       ("caldav_url", "http://127.0.0.1:9/")):
        assert main(["config", "set", key, value]) == 0
    capsys.readouterr()
    assert main(["agenda"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "caldav_password is not set for 'sam'" in err


# ----------------------------------------------------------------------------- setup caldav
def test_setup_caldav_on_an_unreachable_server_is_one_line_exit_2_and_saves_nothing(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"http://127.0.0.1:{closed_port()}/dav/"
    assert main(["setup", "caldav", "--url", url, "--username", "sam", "--password", "pw",
                 "--calendar", ""]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be reached" in err and "Traceback" not in err
    assert config(home) == {}


def test_setup_caldav_without_a_terminal_names_the_option_it_needs(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("http://127.0.0.1:9/\n"))
    assert main(["setup", "caldav"]) == 2
    err = capsys.readouterr().err
    assert err.strip().endswith("no username given (use --username when not at a terminal)")
    assert config(home) == {}


@pytest.mark.slow
def test_setup_caldav_asks_connects_and_saves_the_account_0600(
        home: Path, radicale: RadicaleServer, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    calendar = new_calendar_url(radicale, name="Setup family")
    monkeypatch.setattr("sys.stdin", io.StringIO(f"{radicale.url}\n{USERNAME}\n{PASSWORD}\nSetup family\n"))
    assert main(["setup", "caldav"]) == 0
    out = capsys.readouterr().out
    assert "Connected: new events go to 'Setup family'" in out and PASSWORD not in out
    saved = config(home)
    assert saved == {"backend": "caldav", "caldav_url": radicale.url, "caldav_username": USERNAME,
                     "caldav_password": PASSWORD, "calendar_id": "Setup family"}
    assert stat.S_IMODE((home / "config.toml").stat().st_mode) == 0o600
    assert main(["calendars"]) == 0
    listed = capsys.readouterr().out
    assert f"* {calendar}\tSetup family" in listed  # the CalDAV calendars, the chosen one starred
    assert "calendar.db" not in {p.name for p in home.iterdir()}  # no local calendar was opened


@pytest.mark.slow
def test_setup_caldav_with_a_wrong_password_saves_nothing(
        home: Path, radicale: RadicaleServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["setup", "caldav", "--url", radicale.url, "--username", USERNAME,
                 "--password", "not-the-password", "--calendar", ""]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "refused the sign-in" in err and "not-the-password" not in err
    assert config(home) == {}


@pytest.mark.slow
def test_setup_caldav_on_an_empty_account_says_it_created_the_calendar(
        home: Path, empty_account: RadicaleServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["setup", "caldav", "--url", empty_account.url, "--username", USERNAME,
                 "--password", PASSWORD, "--calendar", "Kids"]) == 0
    assert "Created the calendar 'Kids' on your CalDAV account." in capsys.readouterr().out
    assert main(["calendars"]) == 0
    assert "\tKids" in capsys.readouterr().out


@pytest.mark.slow
def test_settings_in_the_readme_order_on_an_empty_account_say_the_calendar_made(
        home: Path, empty_account: RadicaleServer, capsys: pytest.CaptureFixture[str]) -> None:
    for key, value in (("backend", "caldav"), ("caldav_url", empty_account.url),
                       ("caldav_username", USERNAME), ("caldav_password", PASSWORD)):
        assert main(["config", "set", key, value]) == 0
    capsys.readouterr()
    assert main(["calendars"]) == 0
    captured = capsys.readouterr()
    assert "Created the calendar 'Family' on your CalDAV account" in captured.err
    assert captured.out.startswith("* http") and "\tFamily" in captured.out  # not the local one
    assert main(["calendars"]) == 0
    assert "Created" not in capsys.readouterr().err  # said once: the second time it is there


# ----------------------------------------------------------------------------- the chat says it too
class EmptyCalDAV:
    """Just what `primary_calendar` asks of a CalDAV backend, on an account with no calendar."""

    def __init__(self) -> None:
        self.made: list[str] = []

    def calendars(self) -> list[Any]:
        return []

    def add_calendar(self, calendar_id: str, name: str) -> Any:
        from tools.calendar.events import CalendarInfo

        self.made.append(name)
        return CalendarInfo("http://dav/family/", name, False)

    def primary_calendar_id(self) -> str:
        return "http://dav/family/"


def test_a_calendar_made_at_start_is_a_notice_the_services_carry(home: Path) -> None:
    from assistant.services import primary_calendar
    from assistant.settings import Settings

    backend = EmptyCalDAV()
    settings = Settings(home=home, backend="caldav", caldav_url="http://dav/")
    calendar_id, notices = primary_calendar(settings, backend)  # type: ignore[arg-type]
    assert calendar_id == "http://dav/family/" and backend.made == ["Family"]
    assert notices == ["Created the calendar 'Family' on your CalDAV account (it had none)."]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_chat_shows_the_calendar_made_at_start(tmp_path: Path) -> None:
    from datetime import date

    from fake_session import FakeSession, factory
    from test_tui import settle

    from assistant.settings import Settings
    from assistant.tui.app import CalendarApp
    from assistant.tui.widgets.messages import NoticeMessage

    session = FakeSession("UTC", date(2025, 10, 20))
    session.notices = ["Created the calendar 'Family' on your CalDAV account (it had none)."]
    app = CalendarApp(Settings(home=tmp_path, timezone="UTC", api_key="k"), factory(session), animate=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        shown = [str(n.render()) for n in app.query(NoticeMessage)]
    assert session.notices[0] in shown
