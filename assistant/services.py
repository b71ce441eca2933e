"""Builds the running parts from settings: backend, journal, places. One place, so the CLI, the
TUI, `replay` and the tests all assemble the same app, and a killed turn is recovered before any
new one starts."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, time, timedelta

from assistant.settings import Settings, SettingsError
from tools.backend import CalendarBackend
from tools.events import Event
from tools.journal import Journal, RollbackReport
from tools.local_backend import LocalBackend
from tools.locations import LocationService, NominatimGeocoder
from tools.store import sqlite_engine


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


def build_backend(settings: Settings) -> CalendarBackend:
    if settings.backend == "google":
        from tools.google_backend import backend_from_settings

        return backend_from_settings(settings.home, api_endpoint=settings.google_api_endpoint,
                                     token_uri=settings.google_token_uri,
                                     default_timezone=settings.timezone)
    return LocalBackend(settings.calendar_db, settings.timezone)


def build_locations(settings: Settings) -> LocationService:
    geocoder = None
    if settings.geocoder == "nominatim":
        geocoder = NominatimGeocoder(settings.geocoder_user_agent)
    return LocationService(settings.home_address, settings.places, geocoder)


def build_services(settings: Settings, backend: CalendarBackend | None = None,
                   recover: bool = True) -> Services:
    backend = backend or build_backend(settings)
    settings.home.mkdir(parents=True, exist_ok=True)
    journal = Journal(sqlite_engine(settings.state_db), backend)
    calendar_id = settings.calendar_id or backend.primary_calendar_id()
    known = {c.id for c in backend.calendars()} if settings.backend == "local" else None
    if known is not None and calendar_id not in known:
        raise SettingsError(f"calendar_id: no calendar {calendar_id!r} (have {', '.join(sorted(known))})")
    recovered = journal.recover() if recover else []
    return Services(settings, backend, journal, build_locations(settings), calendar_id, recovered)
