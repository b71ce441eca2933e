"""Builds the running parts from settings: backend, journal, places. One place, so the CLI, the
TUI, `replay` and the tests all assemble the same app, and a killed turn is recovered before any
new one starts.

Recovery takes only turns whose process is gone (a turn open in another window is left alone),
with the calendar service's retries capped to seconds (a service that is down must not hold a
command for minutes; what could not be undone waits for the next start), and tells the person
what it did: each recovered turn is one line on the `calendar_assistant.recovery` logger (the CLI
prints it to stderr) and is kept in `Services.recovered` (the chat shows it)."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any

from sqlalchemy.engine import Engine

from assistant.logfile import open_log
from assistant.settings import Settings, SettingsError
from reflection.lessons.store import LessonStore
from tools.backends.base import CalendarBackend
from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.journal.journal import Journal, RollbackReport
from tools.locations import LocationService, NominatimGeocoder
from tools.store.database import database_engine, sqlite_engine

RECOVERY_LOG = logging.getLogger("calendar_assistant.recovery")
RECOVERY_LOG.addHandler(logging.NullHandler())
RECOVERY_LOG.propagate = False
RECOVERY_RETRIES: dict[str, Any] = {"max_attempts": 3, "base_delay": 0.25, "max_delay": 2.0}
"""Calendar-service retries during start-up recovery: a few seconds per call at most."""


@dataclass
class Services:
    settings: Settings
    backend: CalendarBackend
    journal: Journal
    locations: LocationService
    calendar_id: str
    recovered: list[RollbackReport] = field(default_factory=list)

    def agenda(self, now: datetime, days: int) -> list[Event]:
        """Events from the start of today (in `now`'s zone) for `days` days."""
        start = datetime.combine(now.date(), time(0), tzinfo=now.tzinfo)
        return self.backend.list_events(self.calendar_id, start, start + timedelta(days=days))


def calendar_engine(settings: Settings) -> Engine:
    """Where the local calendars live: the `DATABASE_URL` database, else `calendar.db`."""
    if settings.database_url:
        return database_engine(settings.database_url)
    return sqlite_engine(settings.calendar_db)


def state_engine(settings: Settings) -> Engine:
    """Where the journal, turn records, history, undo records and lessons live: the
    `DATABASE_URL` database (beside the calendars), else `assistant.db`."""
    if settings.database_url:
        return database_engine(settings.database_url)
    return sqlite_engine(settings.state_db)


def build_backend(settings: Settings, **options: Any) -> CalendarBackend:
    """The configured backend; `options` tune the Google client (retries, timeouts)."""
    if settings.backend == "google":
        from tools.backends.google.backend import backend_from_settings

        return backend_from_settings(settings.home, api_endpoint=settings.google_api_endpoint,
                                     token_uri=settings.google_token_uri,
                                     default_timezone=settings.timezone, **options)
    if settings.backend == "caldav":
        from tools.backends.caldav.backend import CalDAVBackend

        return CalDAVBackend(settings.caldav_url or "", settings.caldav_username,
                             settings.caldav_password, calendar=settings.calendar_id,
                             default_timezone=settings.timezone)
    return LocalBackend(calendar_engine(settings), settings.timezone)


def build_locations(settings: Settings) -> LocationService:
    geocoder = None
    if settings.geocoder == "nominatim":
        geocoder = NominatimGeocoder(settings.geocoder_user_agent)
    return LocationService(settings.home_address, settings.places, geocoder)


def open_lessons(settings: Settings) -> LessonStore:
    """The configured lesson store: the state database and the selection knobs. Here, not with
    the agent, so every door (the chat, the MCP server, the `lessons` command) opens it the same
    way without loading the model SDK."""
    return LessonStore(state_engine(settings), recency_days=settings.lesson_recency_days,
                       min_seen=settings.lesson_min_seen, max_surfaced=settings.lessons_max_surfaced)


def recover_turns(settings: Settings, journal: Journal, own_backend: bool) -> list[RollbackReport]:
    """Roll back what dead processes left open; each recovered turn is logged as one line.

    On Google, when the backend is ours to build, recovery runs on a second client whose retries
    are capped (`RECOVERY_RETRIES`), so a service that is down costs seconds, not minutes."""
    runner = journal
    if own_backend and settings.backend == "google" and journal.recoverable_turns():
        runner = Journal(journal.engine, build_backend(settings, **RECOVERY_RETRIES), journal.owner)
    try:
        reports = runner.recover()
    finally:
        if runner is not journal:
            runner.backend.close()
    for report in reports:
        RECOVERY_LOG.warning(report.notice())
    return reports


def build_services(settings: Settings, backend: CalendarBackend | None = None,
                   recover: bool = True) -> Services:
    open_log(settings.home)  # what fails below is told in words; its details go to the file
    own_backend = backend is None
    backend = backend or build_backend(settings)
    settings.home.mkdir(parents=True, exist_ok=True)
    journal = Journal(state_engine(settings), backend)
    calendar_id = settings.calendar_id or backend.primary_calendar_id()
    known = {c.id for c in backend.calendars()} if settings.backend == "local" else None
    if known is not None and calendar_id not in known:
        raise SettingsError(f"calendar_id: no calendar {calendar_id!r} (have {', '.join(sorted(known))})")
    recovered = recover_turns(settings, journal, own_backend) if recover else []
    return Services(settings, backend, journal, build_locations(settings), calendar_id, recovered)
