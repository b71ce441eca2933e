"""Secrets never printed (issue 24 item 7): `config show` printed `caldav_password` and the
password inside `database_url` in clear (it masked only `api_key`). One helper
(`tools.masking`) now masks them in `config show`/`get`/`set`, in every error line, in the tool
results the model reads and in the log file."""
from __future__ import annotations

import socket
from pathlib import Path

import pytest

from assistant.cli import main
from assistant.logfile import LOG_NAME
from assistant.settings import load_settings
from tools.backends.base import CalendarError
from tools.context import ToolResult
from tools.masking import mask_secrets, mask_url, remember_secret

CALDAV_PASSWORD = "caldav-s3cret-pw"
DB_PASSWORD = "db-pa55word-xyz"
API_KEY = "sk-ant-api03-abcdefghijklmnopqrstuv"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def write_config(home: Path, **values: str) -> None:
    lines = [f'{key} = "{value}"' for key, value in values.items()]
    (home / "config.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def assert_no_secret(text: str) -> None:
    for secret in (CALDAV_PASSWORD, DB_PASSWORD, API_KEY, "hunter2"):
        assert secret not in text, f"{secret!r} printed in {text!r}"


# ----------------------------------------------------------------------------- config
def test_config_show_masks_every_secret(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_config(home, api_key=API_KEY, caldav_password=CALDAV_PASSWORD,
                 caldav_url="https://family:hunter2@caldav.example.com/dav/",
                 database_url=f"sqlite:///{home}/x.db")
    assert main(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert_no_secret(out)
    assert "api_key = (set)" in out and "caldav_password = (set)" in out
    assert "caldav_url = https://family:***@caldav.example.com/dav/" in out


def test_config_show_masks_the_password_inside_database_url(home: Path, capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"postgresql+psycopg://assistant:{DB_PASSWORD}@db.internal/calendars?options=-csearch_path%3Dsmith"
    monkeypatch.setenv("DATABASE_URL", url)
    assert main(["config", "show"]) == 0
    out = capsys.readouterr().out
    assert_no_secret(out)
    assert ("database_url = postgresql+psycopg://assistant:***@db.internal/calendars?"
            "options=-csearch_path%3Dsmith") in out


@pytest.mark.parametrize("key", ["caldav_password", "api_key"])
def test_config_get_and_set_never_echo_a_secret(home: Path, capsys: pytest.CaptureFixture[str], key: str) -> None:
    assert main(["config", "set", key, CALDAV_PASSWORD]) == 0
    assert main(["config", "get", key]) == 0
    out = capsys.readouterr().out
    assert_no_secret(out)
    assert out.splitlines()[0].startswith(f"{key} = (set)") and out.splitlines()[1] == "(set)"
    assert getattr(load_settings(), key) == CALDAV_PASSWORD  # saved as given


@pytest.mark.parametrize(("url", "shown"), [
    (f"me:{DB_PASSWORD}@db.internal/calendars", "me:***@db.internal/calendars"),  # no scheme
    (f"postgresql://me:{DB_PASSWORD}@db.internal:port/calendars",  # a port that is no number
     "postgresql://me:***@db.internal:port/calendars"),
])
def test_a_bad_database_url_is_named_without_its_password(home: Path, capsys: pytest.CaptureFixture[str],
                                                         url: str, shown: str) -> None:
    assert main(["config", "set", "database_url", url]) == 2
    err = capsys.readouterr().err
    assert_no_secret(err)
    assert shown in err and err.count("\n") == 1 and "Traceback" not in err


# ----------------------------------------------------------------------------- messages
def test_an_unreachable_database_is_one_line_without_password_or_address(
        home: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", f"postgresql+psycopg://assistant:{DB_PASSWORD}@127.0.0.1:"
                                       f"{closed_port()}/calendars")
    assert main(["agenda"]) == 2
    err = capsys.readouterr().err
    assert_no_secret(err)
    assert err == ("calendar-assistant: The calendar database cannot be reached: check that the "
                   "database server is running and that database_url is right.\n")
    log = (home / LOG_NAME).read_text(encoding="utf-8")
    assert "OperationalError" in log and "127.0.0.1" in log  # the details are kept for a developer
    assert DB_PASSWORD not in log


def test_a_caldav_url_with_a_password_in_it_is_never_printed(home: Path, capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    port = closed_port()
    monkeypatch.setenv("CALENDAR_ASSISTANT_BACKEND", "caldav")
    monkeypatch.setenv("CALENDAR_ASSISTANT_CALDAV_URL", f"http://family:hunter2@127.0.0.1:{port}/dav/")
    monkeypatch.setenv("CALENDAR_ASSISTANT_CALDAV_PASSWORD", CALDAV_PASSWORD)
    assert main(["agenda"]) == 1
    err = capsys.readouterr().err
    assert_no_secret(err)
    assert err.count("\n") == 1
    assert_no_secret((home / LOG_NAME).read_text(encoding="utf-8"))


def test_tool_results_the_model_reads_are_masked() -> None:
    remember_secret(CALDAV_PASSWORD)
    result = ToolResult.error(str(CalendarError(f"the server said: bad password {CALDAV_PASSWORD} "
                                                "for https://me:hunter2@dav.example.com/")))
    assert_no_secret(result.text)
    assert_no_secret(str(result.data))
    assert "https://me:***@dav.example.com/" in result.text


# ----------------------------------------------------------------------------- the helper
@pytest.mark.parametrize(("text", "masked"), [
    ("postgresql+psycopg://u:hunter2@h/db", "postgresql+psycopg://u:***@h/db"),
    ("GET https://dav.example.com/cal?token=abc123&view=1 failed",
     "GET https://dav.example.com/cal?token=***&view=1 failed"),
    ('{"access_token": "ya29.a0AfH6", "refresh_token": "1//0gLmnopqrstu", "expires_in": 3599}',
     '{"access_token": "***", "refresh_token": "***", "expires_in": 3599}'),
    ("Authorization: Bearer abcdefghijklmnop", "Authorization: Bearer ***"),
    (f"the key {API_KEY} was refused", "the key *** was refused"),
    ("login with password=hunter2 failed", "login with password=*** failed"),
    ("client_secret: GOCSPX-abc123", "client_secret: ***"),
    ("turn_token_budget = 60000; the key: value", "turn_token_budget = 60000; the key: value"),
])
def test_mask_secrets_catches_passwords_tokens_and_keys(text: str, masked: str) -> None:
    assert mask_secrets(text) == masked


def test_mask_url_keeps_what_names_the_server() -> None:
    assert mask_url("https://me:hunter2@caldav.fastmail.com/dav/calendars/user/me/") == \
        "https://me:***@caldav.fastmail.com/dav/calendars/user/me/"
    assert mask_url("http://localhost:5232/") == "http://localhost:5232/"
    assert mask_url("https://x.example/api?key=abc&q=1") == "https://x.example/api?key=***&q=1"


def test_a_secret_of_the_wrong_type_is_not_shown_in_the_error(home: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    (home / "config.toml").write_text("caldav_password = 31415926535\n", encoding="utf-8")
    assert main(["agenda"]) == 2
    err = capsys.readouterr().err
    assert "31415926535" not in err
    assert err.endswith("caldav_password should be a string, got a value of another type\n")


def test_every_error_line_of_the_command_line_is_masked(home: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever a command fails with, the line printed has the known secrets masked."""
    import assistant.commands.agenda as agenda

    def failing(_args: object) -> int:
        load_settings()  # the settings' secrets are known from here on
        raise CalendarError(f"the server echoed the password {CALDAV_PASSWORD} back")

    monkeypatch.setenv("CALENDAR_ASSISTANT_CALDAV_PASSWORD", CALDAV_PASSWORD)
    monkeypatch.setattr(agenda, "run", failing)
    assert main(["agenda"]) == 1
    assert capsys.readouterr().err == "calendar-assistant: the server echoed the password *** back\n"
