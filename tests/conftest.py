"""Shared fixtures: hypothesis profiles, the backend-neutral `backend` fixture, a journal, a
registry context, and the comparison helpers the rollback tests use.

The local backend runs on two stores: `local` (SQLite files in tmp_path) and `local-pg` (the
calendar and its journal in a schema of their own on the session's real PostgreSQL server,
`tests/pg_support.py`; skipped with the reason when no server can be started here).

Hypothesis profiles: "ci" (the default, a few dozen examples) and "thorough" (1000 examples),
chosen with the environment variable HYPOTHESIS_PROFILE.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, settings
from hypothesis.configuration import set_hypothesis_home_dir
from hypothesis.database import DirectoryBasedExampleDatabase

from tools.backends.base import CalendarBackend
from tools.backends.local import LocalBackend
from tools.context import ToolContext, grant_all
from tools.journal.journal import Journal
from tools.locations import LocationService
from tools.store.database import Store, StorePart

# Hypothesis keeps its example database and caches in a temporary dir, never in the checkout
# (it would otherwise write `.hypothesis/` into the working tree).
HYPOTHESIS_HOME = Path(tempfile.mkdtemp(prefix="calendar-assistant-hypothesis-"))
set_hypothesis_home_dir(str(HYPOTHESIS_HOME))
_EXAMPLES = DirectoryBasedExampleDatabase(str(HYPOTHESIS_HOME / "examples"))
# Under CI (CI=true) the examples are derived from each test's name, so a run is reproducible: a
# failure there is the same failure on the next run. Elsewhere they are random, to keep exploring;
# what exploration finds is pinned as a plain test (see test_journal_properties.py).
_IN_CI = os.environ.get("CI", "").lower() == "true"
settings.register_profile("ci", max_examples=30, deadline=None,
                          database=None if _IN_CI else _EXAMPLES,  # derandomized runs keep no examples
                          suppress_health_check=[HealthCheck.too_slow], derandomize=_IN_CI)
settings.register_profile("thorough", max_examples=1000, deadline=None, database=_EXAMPLES,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

HOME_ADDRESS = "12 Oak Lane, Springfield"
SAVED_PLACES = {"Grandma's": "5 Elm Street, Shelbyville"}
PERSON_TZ = "America/Los_Angeles"

# Wide enough for every event the tests and the property strategies make.
WIDE_START = datetime(2023, 1, 1, tzinfo=ZoneInfo("UTC"))
WIDE_END = datetime(2028, 1, 1, tzinfo=ZoneInfo("UTC"))

# Backends the neutral suite runs against: the local SQLite one, Google (the real client on the
# fake Calendar v3 server) and CalDAV (on a real Radicale server, tests/caldav_support.py).
BACKENDS = ["local", "google", "caldav"]
# The same, with the local backend also on PostgreSQL: the suites that must hold on every store
# (the backend suite, the journal properties, concurrent writers).
STORE_BACKENDS = ["local", "local-pg", "google", "caldav"]
# Each behaviour is checked on the local SQLite backend in the quick run (`-m "not slow"`); the
# same tests on the servers (Google's fake, Radicale, PostgreSQL) are marked `slow` and run in the
# full suite.
SLOW_BACKENDS = ("local-pg", "google", "caldav")


def on_backends(names: list[str]) -> list[Any]:
    """`names` as test parameters, those of `SLOW_BACKENDS` marked `slow`."""
    return [pytest.param(name, id=name, marks=pytest.mark.slow) if name in SLOW_BACKENDS else name
            for name in names]


_TEMPLATES = Path(tempfile.mkdtemp(prefix="calendar-assistant-templates-"))


def migrated_file(path: Path, part: StorePart) -> Path:
    """`path`, a new SQLite file holding `part`'s tables at the newest revision: a copy of one
    migrated once per session. Migrating a new file runs alembic (about 30 ms, its scripts
    executed again each time), half of a journal property's example; the copy is the same
    bytes. The migrations themselves are tested from empty and older stores in tests/store."""
    template = _TEMPLATES / f"{part}.db"
    if not template.exists():
        made = _TEMPLATES / f"{part}.making.db"
        with Store.sqlite(made) as store:
            store.migrate(part)
        os.replace(made, template)  # whole, or not there (the store closed: its WAL is merged)
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)
    os.chmod(path, 0o600)
    return path


def make_backend(name: str, tmp_path: Path) -> CalendarBackend:
    if name == "local":
        return LocalBackend(migrated_file(tmp_path / "calendar.db", "calendar"), PERSON_TZ)
    if name == "local-pg":  # a fresh schema on the session's PostgreSQL (skipped without one)
        from pg_support import fresh_store

        return LocalBackend(fresh_store(), PERSON_TZ, close_store=True)
    if name == "google":  # the real client against the fake Calendar v3 server on 127.0.0.1
        from google_support import fake_google_backend

        return fake_google_backend(tmp_path / "google-home", time_zone=PERSON_TZ)
    if name == "caldav":  # a calendar of its own on the session's Radicale on 127.0.0.1
        from caldav_support import caldav_backend

        return caldav_backend(tmp_path, time_zone=PERSON_TZ)
    raise ValueError(f"unknown backend {name!r}")  # pragma: no cover


@pytest.fixture(scope="session", autouse=True)
def _radicale_session() -> Iterator[None]:
    """Stops the Radicale server at the end of the session, if a test started one."""
    yield
    from caldav_support import stop_radicale

    stop_radicale()


@pytest.fixture(scope="session", autouse=True)
def _postgres_session() -> Iterator[None]:
    """Stops the PostgreSQL server at the end of the session, if a test started one."""
    yield
    from pg_support import stop_postgres

    stop_postgres()


@pytest.fixture
def radicale() -> Any:
    """The session's Radicale CalDAV server (started on first use)."""
    from caldav_support import radicale_server

    return radicale_server()


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private CALENDAR_ASSISTANT_HOME, in a fixed zone, with the local backend."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("CALENDAR_ASSISTANT_HOME", str(path))
    monkeypatch.setenv("CALENDAR_ASSISTANT_TIMEZONE", PERSON_TZ)
    monkeypatch.delenv("CALENDAR_ASSISTANT_BACKEND", raising=False)
    monkeypatch.delenv("CALENDAR_ASSISTANT_CALENDAR", raising=False)
    yield path


@pytest.fixture(params=on_backends(STORE_BACKENDS))
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[CalendarBackend]:
    made = make_backend(request.param, tmp_path)
    yield made
    made.close()


@pytest.fixture
def local(tmp_path: Path) -> LocalBackend:
    return LocalBackend(migrated_file(tmp_path / "calendar.db", "calendar"), PERSON_TZ)


def journal_for(backend: CalendarBackend, directory: Path) -> Journal:
    """A journal beside the backend: in the same store for a local calendar on a server (as
    `DATABASE_URL` puts them; closed with the backend), else in a SQLite file of its own (closed
    when its last reference goes; `journal` closes it at the end of the test)."""
    if isinstance(backend, LocalBackend) and backend.store.is_postgresql:
        return Journal(backend.store, backend)
    return Journal(Store.sqlite(migrated_file(directory / "journal.db", "state")), backend)


@pytest.fixture
def journal(backend: CalendarBackend, tmp_path: Path) -> Iterator[Journal]:
    made = journal_for(backend, tmp_path)
    yield made
    if made.store is not getattr(backend, "store", None):
        made.store.close()


def locations() -> LocationService:
    return LocationService(HOME_ADDRESS, dict(SAVED_PLACES))


def make_context(backend: CalendarBackend, journal: Journal | None, turn_id: str = "turn-1",
                 confirm: Callable[[Any], bool] = grant_all) -> ToolContext:
    return ToolContext(backend=backend, journal=journal, calendar_id=backend.primary_calendar_id(),
                       timezone=PERSON_TZ, locations=locations(), turn_id=turn_id, confirm=confirm)


def records_without_version(backend: CalendarBackend) -> dict[tuple[str, str], dict[str, Any]]:
    """Every stored record (cancelled ones included), server stamps aside: what "exactly the
    same calendar" means on each backend."""
    accounts = getattr(backend, "accounts", None)
    if isinstance(accounts, dict):  # several accounts: each one's records, calendar ids prefixed
        return {(f"{name}/{cal}", event_id): record for name, account in accounts.items()
                for (cal, event_id), record in records_without_version(account.backend).items()}
    server = getattr(backend, "fake_server", None)
    if server is not None:
        # Google: the fake server's own store, etags and timestamps aside. An occurrence once
        # changed stays a stored exception on Google even when put back as it was, so
        # occurrences are compared as listed (`listed`), series and single events as stored; a
        # rolled-back create stays a cancelled event (Google keeps the id taken), which is no
        # event of the calendar.
        from tools.backends.base import strip_volatile

        cal = backend.primary_calendar_id()
        return {(cal, r["id"]): strip_volatile(r) or {} for r in server.stored_events(cal)
                if not r.get("recurringEventId") and r.get("status") != "cancelled"}
    if backend.name == "caldav":  # every resource as its journal record (stamps aside)
        return backend.all_records()  # type: ignore[attr-defined, no-any-return]
    assert isinstance(backend, LocalBackend)
    return {key: {k: v for k, v in rec.items() if k != "version"}
            for key, rec in backend.all_records().items()}


def listed(backend: CalendarBackend, calendar_id: str | None = None,
           start: datetime = WIDE_START, end: datetime = WIDE_END) -> list[dict[str, Any]]:
    """Every event of the calendar over a wide window, as contract dicts (ids included)."""
    cal = calendar_id or backend.primary_calendar_id()
    return [e.to_contract() for e in backend.list_events(cal, start, end)]
