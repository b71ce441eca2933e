"""Builds the running parts from settings: the stores, backend, journal, places. One place, so the
CLI, the TUI, `replay` and the tests all assemble the same app, and a killed turn is recovered
before any new one starts.

The stores are opened here and handed down (`Stores`): the local backend and the journal get the
one they live in, and the history, turn records and lessons are opened on `Services.stores.state`,
so one assembled app uses one engine per database and closes them together (`Services.close`).

Recovery takes only turns whose process is gone (a turn open in another window is left alone),
with the calendar service's retries capped to seconds (a service that is down must not hold a
command for minutes; what could not be undone waits for the next start), and tells the person
what it did: each recovered turn is one line on the `calendar_assistant.recovery` logger (the CLI
prints it to stderr) and is kept in `Services.recovered` (the chat shows it)."""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from types import TracebackType
from typing import TYPE_CHECKING, Any

from assistant.logfile import open_log
from assistant.settings import Settings, SettingsError, caldav_missing
from tools.backends.accounts import AccountsBackend, CalendarChoice
from tools.backends.base import CalendarBackend, CalendarError
from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.journal.journal import Journal, RollbackReport
from tools.locations import LocationService, NominatimGeocoder
from tools.specs import SpecRegistry, all_specs
from tools.store.database import Store

if TYPE_CHECKING:  # the registry (handlers, schemas) loads with the agent, not with every command
    from reflection.lessons.store import LessonStore
    from tools.registry import Behaviours

RECOVERY_LOG = logging.getLogger("calendar_assistant.recovery")
RECOVERY_LOG.addHandler(logging.NullHandler())
RECOVERY_LOG.propagate = False
RECOVERY_RETRIES: dict[str, Any] = {"max_attempts": 3, "base_delay": 0.25, "max_delay": 2.0}
"""Calendar-service retries during start-up recovery: a few seconds per call at most."""


class Stores:
    """The two halves of the store one assembled app uses, each opened on first use and closed
    together: the local calendars (`calendar.db`) and the state (`assistant.db`: the journal,
    turn records, history, undo records and lessons). With `DATABASE_URL` both live in that one
    database, served by one `Store`. On first use, so a Google or CalDAV app never creates a
    calendar file it does not need."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._state: Store | None = None
        self._calendar: Store | None = None

    @property
    def state(self) -> Store:
        if self._state is None:
            url = self.settings.database_url
            self._state = Store.from_url(url) if url else Store.sqlite(self.settings.state_db)
        return self._state

    @property
    def calendar(self) -> Store:
        if self._calendar is None:
            self._calendar = self.state if self.settings.database_url else \
                Store.sqlite(self.settings.calendar_db)
        return self._calendar

    def close(self) -> None:
        for store in {id(s): s for s in (self._calendar, self._state) if s is not None}.values():
            store.close()
        self._calendar = self._state = None

    def __enter__(self) -> Stores:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


@dataclass
class AgendaListing:
    """The events of an agenda, and what it could not show."""

    events: list[Event]
    skipped: list[Event]
    unreadable: dict[str, str] = field(default_factory=dict)


@dataclass
class Services:
    settings: Settings
    backend: CalendarBackend
    journal: Journal
    locations: LocationService
    calendar_id: str
    stores: Stores
    """Where the history, turn records and lessons of this app are kept (`stores.state`)."""
    recovered: list[RollbackReport] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    """Other things start-up did that the person should hear of (a calendar made on an empty
    CalDAV account), one sentence each; the chat shows them, the CLI printed them on stderr."""
    closes_backend: bool = False
    """Whether `close` closes the backend too: it was built here, not handed in."""
    catalog: SpecRegistry = field(default_factory=all_specs)
    """The tools the model is offered and the guard reads calls by."""
    behaviours: Behaviours | None = None
    """What runs for each of them (None: the app's, `tools.registry.BEHAVIOURS`)."""
    calendars: CalendarChoice = field(default_factory=CalendarChoice)
    """With several accounts: the calendars read and their short names (`assistant.accounts`);
    empty with one account, where `calendar_id` is the one calendar."""

    def agenda(self, now: datetime, days: int) -> list[Event]:
        """Events from the start of today (in `now`'s zone) for `days` days, of every calendar
        read, in order of their start."""
        return self.agenda_listing(now, days).events

    def agenda_listing(self, now: datetime, days: int) -> AgendaListing:
        """`agenda`, with what it could not show: the repeating events left out, and each
        calendar that could not be read (with the reason), so no door calls a day free when a
        calendar was not read. One calendar's failure is raised, as before accounts."""
        start = datetime.combine(now.date(), time(0), tzinfo=now.tzinfo)
        end = start + timedelta(days=days)
        if not self.calendars.ids:
            events = self.backend.list_events(self.calendar_id, start, end)
            return AgendaListing(events, self.backend.skipped_series())
        listing = AgendaListing([], [])
        for calendar_id in self.calendars.ids:
            try:
                listing.events += self.backend.list_events(calendar_id, start, end)
            except CalendarError as exc:
                listing.unreadable[calendar_id] = str(exc)
                continue
            listing.skipped += self.backend.skipped_series()
        listing.events.sort(key=lambda e: (e.start_instant.timestamp(), e.title))
        return listing

    def close(self) -> None:
        """Close what was opened for these services: the stores, and the backend if built here."""
        if self.closes_backend:
            self.backend.close()
        self.stores.close()

    def __enter__(self) -> Services:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def build_backend(settings: Settings, stores: Stores, *, memory_map: bool = True,
                  **options: Any) -> CalendarBackend:
    """The configured backend (a local one on `stores.calendar`, which stays the stores' to
    close, its file memory-mapped unless `memory_map` is false: `LocalBackend`); `options` tune
    the Google client (retries, timeouts). With `[[accounts]]`, one backend over all of them
    (`assistant.accounts`)."""
    if settings.accounts:
        from assistant.accounts import build_accounts

        return build_accounts(settings, stores, **options)
    if settings.backend == "google":
        from tools.backends.google.backend import backend_from_settings

        return backend_from_settings(settings.home, api_endpoint=settings.google_api_endpoint,
                                     token_uri=settings.google_token_uri,
                                     default_timezone=settings.timezone, **options)
    if settings.backend == "caldav":
        from tools.backends.caldav.backend import CalDAVBackend

        missing = caldav_missing(settings)  # checked here, so the settings come in any order
        if missing:
            raise SettingsError(missing)
        return CalDAVBackend(settings.caldav_url or "", settings.caldav_username,
                             settings.caldav_password, calendar=settings.calendar_id,
                             default_timezone=settings.timezone)
    return LocalBackend(stores.calendar, settings.timezone, memory_map=memory_map)


def primary_calendar(settings: Settings, backend: CalendarBackend) -> tuple[str, list[str]]:
    """The calendar a new event goes to, and what was done to have one, in words.

    A CalDAV account with no calendar at all gets one (the backend's `Family`); that is a change
    on the person's account, so it is said ("Created the calendar 'Family' on your CalDAV
    account"), never done silently. The notice is also logged on `RECOVERY_LOG`, which the CLI
    prints on stderr."""
    notices: list[str] = []
    if settings.backend == "caldav" and not settings.calendar_id and not backend.calendars():
        from tools.backends.caldav.backend import DEFAULT_CALENDAR_NAME

        made = backend.add_calendar("family", DEFAULT_CALENDAR_NAME)
        notices.append(created_notice(made.name))
        RECOVERY_LOG.warning(notices[-1])
    return settings.calendar_id or backend.primary_calendar_id(), notices


def stranded_notices(journal: Journal) -> list[str]:
    """One sentence for the unfinished requests other calendar settings left, which these
    settings cannot undo: named, never dropped."""
    turns = journal.stranded_turns()
    if not turns:
        return []
    kinds = ", ".join(sorted({BACKEND_WORDS.get(t.backend, t.backend) for t in turns}))
    one = len(turns) == 1
    count = "An unfinished request" if one else f"{len(turns)} unfinished requests"
    notice = (f"{count} made with other calendar settings ({kinds}) could not be undone with "
              f"these; {'it waits, and is' if one else 'they wait, and are'} undone the next time "
              "the app starts with those settings.")
    RECOVERY_LOG.warning(notice)
    return [notice]


BACKEND_WORDS = {"local": "the calendar on this computer", "google": "Google Calendar",
                 "caldav": "a CalDAV calendar", "accounts": "several accounts"}


def created_notice(name: str) -> str:
    """The sentence said when a calendar was made on the person's CalDAV account."""
    return f"Created the calendar {name!r} on your CalDAV account (it had none)."


def build_locations(settings: Settings) -> LocationService:
    geocoder = None
    if settings.geocoder == "nominatim":
        geocoder = NominatimGeocoder(settings.geocoder_user_agent)
    return LocationService(settings.home_address, settings.places, geocoder)


def open_lessons(settings: Settings, store: Store) -> LessonStore:
    """The configured lesson store: the lessons in `store` (the state database) and the
    selection knobs. Here, not with the agent, so every door (the chat, the MCP server, the
    `lessons` command) opens it the same way without loading the model SDK; imported here, so
    commands that read no lessons (`agenda`) do not load them."""
    from reflection.lessons.store import LessonStore

    return LessonStore(store, recency_days=settings.lesson_recency_days,
                       min_seen=settings.lesson_min_seen, max_surfaced=settings.lessons_max_surfaced)


def recover_turns(settings: Settings, journal: Journal, own_backend: bool,
                  stores: Stores) -> list[RollbackReport]:
    """Roll back what dead processes left open; each recovered turn is logged as one line.

    On Google, when the backend is ours to build, recovery runs on a second client whose retries
    are capped (`RECOVERY_RETRIES`), so a service that is down costs seconds, not minutes."""
    runner = journal
    if own_backend and uses_google(settings) and journal.recoverable_turns():
        runner = Journal(journal.store, build_backend(settings, stores, **RECOVERY_RETRIES),
                         journal.owner)
    try:
        reports = runner.recover()
    finally:
        if runner is not journal:
            runner.backend.close()
    for report in reports:
        RECOVERY_LOG.warning(report.notice())
    return reports


def uses_google(settings: Settings) -> bool:
    """Whether the app talks to Google (its retries are the ones to cap at start-up)."""
    if settings.accounts:
        return any(account.backend == "google" for account in settings.accounts)
    return settings.backend == "google"


def build_services(settings: Settings, backend: CalendarBackend | None = None,
                   recover: bool = True, one_shot: bool = False) -> Services:
    """The app's running parts on freshly opened stores (`Services.close` closes them, and the
    backend unless it was handed in). `one_shot`: a command that reads the calendar once and
    exits (`agenda`, `export`), which does without the local file's memory map."""
    open_log(settings.home)  # what fails below is told in words; its details go to the file
    stores = Stores(settings)
    own_backend = backend is None
    try:
        backend = backend or build_backend(settings, stores, memory_map=not one_shot)
        settings.home.mkdir(parents=True, exist_ok=True)
        journal = Journal(stores.state, backend)
        calendars = CalendarChoice()
        notices: list[str] = []
        if isinstance(backend, AccountsBackend):
            # recovery first: an account that is down must not keep a killed turn's other
            # accounts from being put back
            recovered = recover_turns(settings, journal, own_backend, stores) if recover else []
            from assistant.accounts import choose_calendars

            calendars, calendar_id = choose_calendars(settings, backend)
        else:
            calendar_id, notices = primary_calendar(settings, backend)
            known = {c.id for c in backend.calendars()} if settings.backend == "local" else None
            if known is not None and calendar_id not in known:
                raise SettingsError(f"calendar_id: no calendar {calendar_id!r} (have {', '.join(sorted(known))})")
            recovered = recover_turns(settings, journal, own_backend, stores) if recover else []
        if recover:
            notices += stranded_notices(journal)
    except BaseException:
        if own_backend and backend is not None:
            backend.close()
        stores.close()
        raise
    return Services(settings, backend, journal, build_locations(settings), calendar_id, stores,
                    recovered, notices, closes_backend=own_backend, calendars=calendars)
