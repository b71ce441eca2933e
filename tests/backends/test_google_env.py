"""CONTRACT section 1 configuration by environment: with CALENDAR_ASSISTANT_BACKEND=google, the
API endpoint and the token URI pointed at a Calendar-v3-compatible server, and google-token.json
in the home dir, `agenda` and `replay` run against that server (installed command, subprocess)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest
from google_support import write_token

from fixtures.fake_google import FakeGoogleCalendar

pytestmark = pytest.mark.slow  # the command line in child processes against the fake Google server


@pytest.fixture
def google_env(tmp_path: Path) -> Iterator[tuple[FakeGoogleCalendar, dict[str, str]]]:
    server = FakeGoogleCalendar(time_zone="America/Los_Angeles").start()
    home = tmp_path / "home"
    home.mkdir()
    write_token(server, home, expired=True)  # forces a refresh at the overridden token URI
    token = json.loads((home / "google-token.json").read_text())
    token["token_uri"] = "https://oauth2.invalid/token"  # ignored on purpose, as google-auth does
    (home / "google-token.json").write_text(json.dumps(token))
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(home), "CALENDAR_ASSISTANT_BACKEND": "google",
           "CALENDAR_ASSISTANT_GOOGLE_API_ENDPOINT": server.api_endpoint,
           "CALENDAR_ASSISTANT_GOOGLE_TOKEN_URI": server.token_uri}
    env.pop("ANTHROPIC_API_KEY", None)
    yield server, env
    server.stop()


def cli(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "assistant.cli", *args], capture_output=True,
                          text=True, env=env, timeout=120)


def test_agenda_lists_the_google_calendar(google_env: tuple[FakeGoogleCalendar, dict[str, str]]) -> None:
    server, env = google_env
    tz = "America/Los_Angeles"
    server.put_event("primary", {"id": "dinner2025", "summary": "Family dinner", "location": "Home",
                                 "start": {"dateTime": "2025-10-23T18:00:00-07:00", "timeZone": tz},
                                 "end": {"dateTime": "2025-10-23T19:30:00-07:00", "timeZone": tz}})
    server.put_event("primary", {"id": "later2025", "summary": "Far away",
                                 "start": {"dateTime": "2025-12-01T18:00:00-08:00", "timeZone": tz},
                                 "end": {"dateTime": "2025-12-01T19:00:00-08:00", "timeZone": tz}})
    proc = cli({**env, "CALENDAR_ASSISTANT_TIMEZONE": tz}, "agenda", "--json", "--now", "2025-10-20T08:00:00")
    assert proc.returncode == 0, proc.stderr
    listed = json.loads(proc.stdout)
    assert [(e["id"], e["title"], e["start"]) for e in listed] == [
        ("dinner2025", "Family dinner", "2025-10-23T18:00:00-07:00")]
    assert any(r.path.endswith("/token") for r in server.requests)


def test_replay_runs_against_the_google_server(google_env: tuple[FakeGoogleCalendar, dict[str, str]]) -> None:
    server, env = google_env
    path = resources.files("fixtures").joinpath("conversations/wrong_weekday.json")
    proc = cli(env, "replay", str(path))
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    turn = report["turns"][0]
    assert turn["attempts"] == 2 and turn["rolled_back"] == ["ev_swim1"] and turn["confidence"] == "high"
    swim = next(e for e in report["calendar"] if e["id"] == "ev_swim1")
    assert swim["start"] == "2025-10-23T17:00:00-07:00"
    stored = {e["summary"]: e for e in server.stored_events()}
    assert stored["Swim lesson"]["start"]["dateTime"].startswith("2025-10-23T17:00:00")


def test_expired_grant_gives_a_clean_login_message(google_env: tuple[FakeGoogleCalendar, dict[str, str]]) -> None:
    server, env = google_env
    home = Path(env["CALENDAR_ASSISTANT_HOME"])
    server.revoke_refresh_token(json.loads((home / "google-token.json").read_text())["refresh_token"])
    proc = cli(env, "agenda")
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "calendar-assistant login" in proc.stderr
    assert not (home / "google-token.json").exists()
