"""A transcript of "move Leo's swim and my dentist to Friday" across two accounts (issue 27), run
by hand:

    .venv/bin/python bench/family_transcript.py > transcript.md

Mom's calendars on CalDAV (a real Radicale started here), Dad's Google account (the fake Calendar v3
server, spoken to by the real google-api-python-client), the local Family calendar; the model is
the scripted fake Anthropic server, so the run needs no network and no key. The commands are the
app's own (`calendars`, `agenda`, `ask`, `undo`), run in process on a temporary home; what each
prints is copied into the transcript as a person would see it. The scripted model first puts the
swim on Thursday (the guard catches it, both accounts' writes are undone), then gets it right;
`undo` takes the whole request back from both accounts.
"""
from __future__ import annotations

import contextlib
import io
import os
import shlex
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "tests"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from assistant.cli import main
from assistant.scripted.fake_anthropic import FakeAnthropicServer, resp, text, tool
from assistant.services import build_services
from assistant.settings import load_settings
from fixtures.fake_google import FakeGoogleCalendar
from tools.calendar.events import Event

TZ = "America/Los_Angeles"
LA = ZoneInfo(TZ)
NOW = "2025-10-22T09:00:00"  # a Wednesday
ASK = "Move Leo's swim and my dentist to Friday"


def google_token(server: FakeGoogleCalendar, home: Path, account: str) -> None:
    from google.oauth2.credentials import Credentials

    from tools.backends.google.auth import SCOPES, account_token_file, save_credentials

    access, refresh = server.issue_tokens()
    save_credentials(Credentials(token=access, refresh_token=refresh, token_uri=server.token_uri,
                                 client_id=server.client_id, client_secret=server.client_secret,
                                 scopes=SCOPES,
                                 expiry=datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=1)),
                     home, account_token_file(account))


def command(argv: list[str]) -> str:
    """One command as a person runs it: the line typed, then what it printed."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    shown = "$ calendar-assistant " + " ".join(shlex.quote(a) for a in argv) + "\n"
    shown += out.getvalue() + err.getvalue()
    return shown + (f"(exit {code})\n" if code else "")


def moves(swim: tuple[str, str], dentist: tuple[str, str], swim_day: int) -> list[dict[str, Any]]:
    return [resp(tool("list_events", start="2025-10-20", end="2025-10-27")),
            resp(tool("calculate_datetime", expression="Friday")),
            resp(tool("update_calendar_event", event_id=swim[1], calendar_id=swim[0],
                      start=f"2025-10-{swim_day}T17:00:00", end=f"2025-10-{swim_day}T18:00:00"),
                 tool("update_calendar_event", event_id=dentist[1], calendar_id=dentist[0],
                      start="2025-10-24T11:00:00", end="2025-10-24T12:00:00")),
            resp(text(f"Moved Leo's swim to Friday, October {swim_day} at 5 PM and your dentist "
                      "to Friday, October 24 at 11 AM."))]


def main_transcript() -> int:
    from caldav_support import PASSWORD, USERNAME, new_calendar_url, radicale_server, stop_radicale

    folder = Path(tempfile.mkdtemp(prefix="family-transcript-"))
    home = folder / "home"
    home.mkdir()
    for name in ("ANTHROPIC_API_KEY", "CALENDAR_ASSISTANT_BACKEND", "CALENDAR_ASSISTANT_CALENDAR",
                 "DATABASE_URL"):
        os.environ.pop(name, None)
    os.environ |= {"CALENDAR_ASSISTANT_HOME": str(home), "CALENDAR_ASSISTANT_TIMEZONE": TZ}
    radicale = radicale_server()
    anthropic = FakeAnthropicServer({"main": [], "reflection": []}).start()
    try:
        with FakeGoogleCalendar(primary_id="dad@example.test", summary="Dad") as google:
            mom_url = new_calendar_url(radicale, name="Mom")
            google_token(google, home, "dad")
            (home / "config.toml").write_text(f"""\
model = "main"
reflection_model = "reflection"
reflection_mode = "symbolic"
api_key = "scripted"
default_calendar = "mom/Mom"

[[accounts]]
name = "home"
backend = "local"

[[accounts]]
name = "dad"
backend = "google"
owner = "Dad"
google_api_endpoint = "{google.api_endpoint}"
google_token_uri = "{google.token_uri}"

[[accounts]]
name = "mom"
backend = "caldav"
owner = "Mom"
caldav_url = "{radicale.url}"
caldav_username = "{USERNAME}"
caldav_password = "{PASSWORD}"
calendar = "{mom_url}"
""", encoding="utf-8")
            os.environ["ANTHROPIC_BASE_URL"] = anthropic.base_url
            with build_services(load_settings()) as services:
                made: dict[str, tuple[str, str]] = {}
                for calendar, title, hour in (("dad/dad@example.test", "Leo's swim", 17),
                                              (services.calendar_id, "Dentist", 11),
                                              ("home/primary", "Family dinner", 18)):
                    event = services.backend.create_event(calendar, Event(
                        id=services.backend.new_event_id(), title=title, timezone=TZ,
                        start=datetime(2025, 10, 23, hour, tzinfo=LA),
                        end=datetime(2025, 10, 23, hour + 1, tzinfo=LA)))
                    made[title] = (calendar, event.id)
            anthropic.add("main", *moves(made["Leo's swim"], made["Dentist"], 23),
                          *moves(made["Leo's swim"], made["Dentist"], 24))
            print("# Transcript: \"" + ASK + "\" across two accounts\n")
            print((__doc__ or "").split("\n\n", 1)[1].strip() + "\n")
            print("```")
            for argv in (["calendars"], ["agenda", "--now", NOW, "--days", "3"],
                         ["ask", ASK, "--now", NOW], ["agenda", "--now", NOW, "--days", "3"],
                         ["undo", "--yes"], ["agenda", "--now", NOW, "--days", "3"]):
                print(command(argv))
            print("```")
    finally:
        anthropic.close()
        stop_radicale()
    return 0


if __name__ == "__main__":
    sys.exit(main_transcript())
