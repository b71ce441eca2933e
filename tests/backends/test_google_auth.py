"""Google sign-in against the fake token endpoint, with the network cut off."""
from __future__ import annotations

import json
import stat
import threading
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from google.oauth2.credentials import Credentials
from google_support import block_network, google_backend_for, write_token

from fixtures.fake_google import FakeGoogleCalendar
from tools.backends.base import CalendarError
from tools.backends.google.auth import (
    LOGIN_AGAIN,
    SCOPES,
    LoginRequired,
    TokenManager,
    load_credentials,
    login,
    logout,
    save_credentials,
    token_path,
)


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    block_network(monkeypatch)


@pytest.fixture
def server() -> Iterator[FakeGoogleCalendar]:
    with FakeGoogleCalendar() as fake:
        yield fake


def mode_of(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_token_file_is_written_0600_atomically(tmp_path: Path) -> None:
    home = tmp_path / "home"
    credentials = Credentials(token="a", refresh_token="r", client_id="c", client_secret="s",
                              token_uri="https://oauth2.googleapis.com/token", scopes=SCOPES)
    path = save_credentials(credentials, home)
    assert path == token_path(home) and mode_of(path) == 0o600
    assert json.loads(path.read_text())["refresh_token"] == "r"
    save_credentials(credentials, home)  # replacing keeps the mode and leaves no temp file
    assert mode_of(path) == 0o600
    assert sorted(p.name for p in home.iterdir()) == ["google-token.json"]


def test_token_uri_in_the_file_is_ignored(server: FakeGoogleCalendar, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    write_token(server, tmp_path, expired=True)
    path = token_path(tmp_path)
    data = json.loads(path.read_text())
    data["token_uri"] = "https://attacker.example/token"
    path.write_text(json.dumps(data))
    monkeypatch.setenv("CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI", server.token_uri)
    assert load_credentials(tmp_path).token_uri == server.token_uri
    monkeypatch.delenv("CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI")
    assert load_credentials(tmp_path).token_uri == "https://oauth2.googleapis.com/token"
    tokens = TokenManager.from_home(tmp_path, token_uri=server.token_uri)
    assert tokens.authorization().startswith("Bearer ya29.fake-")
    assert len(server.requests_to("POST", "/token")) == 1
    refreshed = json.loads(path.read_text())
    assert refreshed["token"] != data["token"] and mode_of(path) == 0o600


def test_revoked_refresh_token_means_login_required_and_the_token_is_gone(
        server: FakeGoogleCalendar, tmp_path: Path) -> None:
    credentials = write_token(server, tmp_path, expired=True)
    server.revoke_refresh_token(credentials.refresh_token)
    backend = google_backend_for(server, tmp_path)
    with pytest.raises(LoginRequired) as info:
        backend.calendars()
    assert str(info.value) == LOGIN_AGAIN
    assert "calendar-assistant login" in str(info.value)
    assert not token_path(tmp_path).exists()
    assert isinstance(info.value, CalendarError)
    backend.close()


def test_api_401_triggers_one_refresh_then_login_required_when_revoked(
        server: FakeGoogleCalendar, tmp_path: Path) -> None:
    credentials = write_token(server, tmp_path)
    backend = google_backend_for(server, tmp_path)
    server.expire_access_tokens()
    server.revoke_refresh_token(credentials.refresh_token)
    with pytest.raises(LoginRequired):
        backend.calendars()
    assert not token_path(tmp_path).exists()
    backend.close()


def test_missing_token_is_login_required(tmp_path: Path) -> None:
    with pytest.raises(LoginRequired, match="login"):
        load_credentials(tmp_path)


def test_login_flow_end_to_end(server: FakeGoogleCalendar, tmp_path: Path,
                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    secrets_file = tmp_path / "client_secret.json"
    secrets_file.write_text(json.dumps({"installed": {
        "client_id": server.client_id, "client_secret": server.client_secret,
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
        "redirect_uris": ["http://localhost"]}}))
    home = tmp_path / "home"
    printed: list[str] = []
    results: list[int] = []
    errors: list[BaseException] = []

    def consent(url: str) -> None:
        """Plays the person's browser: open the consent URL, follow the redirect home."""
        def run() -> None:
            try:
                opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
                with opener.open(url, timeout=10) as response:
                    results.append(response.status)
            except BaseException as exc:  # noqa: BLE001 - surfaced by the assertion below
                errors.append(exc)
        threading.Thread(target=run, daemon=True).start()

    credentials = login(secrets_file, home, open_browser=False, token_uri=server.token_uri,
                        auth_uri=server.auth_uri, on_url=consent, print_fn=printed.append,
                        timeout_seconds=20)
    assert not errors and results == [200]
    assert credentials.refresh_token in server.refresh_tokens
    path = token_path(home)
    assert mode_of(path) == 0o600
    stored = json.loads(path.read_text())
    assert stored["refresh_token"] == credentials.refresh_token
    assert set(stored["scopes"]) == set(SCOPES)
    assert not (tmp_path / "google-token.json").exists()  # never the working directory
    text = "\n".join(printed)
    assert server.auth_uri in text and "ssh -L" in text
    auth_request = server.requests_to("GET", "/auth")[0]
    assert auth_request.query["code_challenge_method"] == "S256"
    assert auth_request.query["access_type"] == "offline"
    token_request = server.requests_to("POST", "/token")[0]
    assert "code_verifier=" in token_request.body
    # the stored sign-in works for the API right away
    backend = google_backend_for(server, home)
    assert backend.calendars()[0].primary
    backend.close()


def test_logout_deletes_the_token_and_revokes_only_when_asked(server: FakeGoogleCalendar,
                                                              tmp_path: Path) -> None:
    write_token(server, tmp_path)
    assert logout(tmp_path) is True
    assert not token_path(tmp_path).exists() and server.revoked_via_endpoint == []
    assert logout(tmp_path) is False
    credentials = write_token(server, tmp_path)
    assert logout(tmp_path, revoke=True, revoke_uri=server.revoke_uri) is True
    assert server.revoked_via_endpoint == [credentials.refresh_token]
    assert not token_path(tmp_path).exists()
