"""A family's calendars on several accounts, for the tests of `[[accounts]]` (issue 27).

`local_family(home)` writes a config of two local accounts (quick tests); `server_family(home,
google, radicale)` one of three: the local calendars, Dad's Google account on the fake Calendar v3
server and Mom's CalDAV account on the session's real Radicale: 4 calendars on 3 accounts. Both
seed the same events, said on Wednesday 2025-10-22 in Los Angeles:

    home/Family   Dentist (mine)    Thu 23 Oct 15:00
    home/Leo      Piano             Thu 23 Oct 16:00
    dad/Dad       Leo's swim        Thu 23 Oct 17:00   (Google in the server family)
    mom/Mom       Mom's dentist     Thu 23 Oct 11:00   (CalDAV in the server family)

In the local family, Dad's and Mom's calendars are the `work` account's (a SQLite file of its
own). `records(services)` is every account's stored records, server stamps aside, as
`conftest.records_without_version` compares one backend: "exactly the same calendars".
"""
from __future__ import annotations

import secrets
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from conftest import PERSON_TZ, records_without_version

from assistant.services import Services
from tools.backends.accounts import AccountsBackend
from tools.calendar.events import Event
from tools.context import ToolCall, ToolContext
from tools.registry import ToolRegistry

LA = ZoneInfo(PERSON_TZ)
NOW = datetime(2025, 10, 22, 9, 0, tzinfo=LA)

LOCAL_CONFIG = """\
default_calendar = "home/Family"
calendars = ["home/Family", "home/Leo", "work/Dad", "work/Mom"]

[[accounts]]
name = "home"
backend = "local"
calendars = ["Family", "Leo"]

[[accounts]]
name = "work"
backend = "local"
path = "work-calendars.db"
calendars = ["Dad", "Mom"]
owner = "Sam"
"""


def write_config(home: Path, text: str) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def local_family(home: Path) -> Path:
    return write_config(home, LOCAL_CONFIG)


def google_token(server: Any, home: Path, account: str) -> None:
    """The account's own token file (`google-token-<name>.json`), accepted by the fake."""
    from google.oauth2.credentials import Credentials

    from tools.backends.google.auth import SCOPES, account_token_file, save_credentials

    access, refresh = server.issue_tokens()
    credentials = Credentials(token=access, refresh_token=refresh, token_uri=server.token_uri,
                              client_id=server.client_id, client_secret=server.client_secret,
                              scopes=SCOPES,
                              expiry=datetime.now(UTC).replace(tzinfo=None) + timedelta(hours=1))
    save_credentials(credentials, home, account_token_file(account))


def server_family(home: Path, google: Any, radicale: Any) -> str:
    """Config for local + Google (the fake `google`, primary calendar "Dad") + CalDAV (a fresh
    calendar on `radicale`); returns the CalDAV calendar's display name."""
    from caldav_support import PASSWORD, USERNAME, new_calendar_url

    mom = f"Mom {secrets.token_hex(3)}"  # the session's Radicale holds other tests' calendars
    url = new_calendar_url(radicale, name=mom)
    google_token(google, home, "dad")
    write_config(home, f"""\
default_calendar = "home/Family"
calendars = ["home/Family", "home/Leo", "dad/Dad", "mom/{mom}"]

[[accounts]]
name = "home"
backend = "local"
calendars = ["Family", "Leo"]

[[accounts]]
name = "dad"
backend = "google"
owner = "Dad"
google_api_endpoint = "{google.api_endpoint}"
google_token_uri = "{google.token_uri}"

[[accounts]]
name = "mom"
backend = "caldav"
caldav_url = "{radicale.url}"
caldav_username = "{USERNAME}"
caldav_password = "{PASSWORD}"
calendar = "{url}"
""")
    return mom


def calendar_of(services: Services, name: str) -> str:
    """The id of the calendar read under this short name ("Leo", "Dad", "Mom …")."""
    found = [c for c in services.calendars.ids if services.calendars.name(c).startswith(name)]
    assert len(found) == 1, (name, dict(services.calendars.names))
    return found[0]


def seed(services: Services) -> dict[str, tuple[str, str]]:
    """The four events; returns (calendar id, event id) by short title."""
    backend = services.backend
    made: dict[str, tuple[str, str]] = {}
    for calendar, title, hour in (("Family", "Dentist", 15), ("Leo", "Piano", 16),
                                  ("Dad", "Leo's swim", 17), ("Mom", "Mom's dentist", 11)):
        calendar_id = calendar_of(services, calendar)
        event = backend.create_event(calendar_id, Event(
            id=backend.new_event_id(), title=title, start=datetime(2025, 10, 23, hour, tzinfo=LA),
            end=datetime(2025, 10, 23, hour + 1, tzinfo=LA), timezone=PERSON_TZ,
            calendar_id=calendar_id))
        made[title] = (calendar_id, event.id)
    return made


def context(services: Services, turn_id: str) -> ToolContext:
    """The tools' context as the chat and MCP build it from the services."""
    return ToolContext(backend=services.backend, journal=services.journal,
                       calendar_id=services.calendar_id, timezone=services.settings.timezone,
                       locations=services.locations, turn_id=turn_id, calendars=services.calendars,
                       now=lambda: NOW)


def run(registry: ToolRegistry, name: str, args: dict[str, Any]) -> Any:
    """One tool call through the registry, which must succeed; its result."""
    result = registry.run(ToolCall("1", name, args))
    assert not result.is_error, result.text
    return result


def records(services: Services, google: Any = None) -> dict[str, Any]:
    """Every account's stored records, stamps aside, by account name."""
    backend = services.backend
    assert isinstance(backend, AccountsBackend)
    out: dict[str, Any] = {}
    for name, account in backend.accounts.items():
        if account.backend.name == "google" and google is not None:
            account.backend.fake_server = google  # type: ignore[attr-defined]
        out[name] = records_without_version(account.backend)
    return out
