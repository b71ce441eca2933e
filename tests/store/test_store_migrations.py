"""Schema by alembic: stores made before migrations are adopted with their data, and a new
PostgreSQL store reaches the same tables and columns as an upgraded SQLite file."""
from __future__ import annotations

import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ
from sqlalchemy import inspect
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

from reflection.lessons.store import Lesson, LessonEvent, LessonStore
from tools.backends.local import LocalBackend
from tools.journal.journal import Journal
from tools.store.database import Store

LA = ZoneInfo(PERSON_TZ)

# calendar.db as versions before `turn_id` and the listing indexes wrote it
OLD_CALENDAR = """
CREATE TABLE calendars (id VARCHAR NOT NULL, name VARCHAR NOT NULL, timezone VARCHAR,
  is_primary BOOLEAN NOT NULL, PRIMARY KEY (id));
CREATE TABLE events (calendar_id VARCHAR NOT NULL, id VARCHAR NOT NULL, title VARCHAR NOT NULL,
  start VARCHAR NOT NULL, "end" VARCHAR NOT NULL, all_day BOOLEAN NOT NULL,
  timezone VARCHAR NOT NULL, location VARCHAR, description VARCHAR, attendees VARCHAR NOT NULL,
  recurrence VARCHAR, recurring_event_id VARCHAR, original_start VARCHAR, status VARCHAR NOT NULL,
  version INTEGER NOT NULL, start_utc INTEGER NOT NULL, end_utc INTEGER NOT NULL,
  PRIMARY KEY (calendar_id, id));
INSERT INTO calendars VALUES ('primary', 'Family', 'America/Los_Angeles', 1);
INSERT INTO events VALUES ('primary', 'evold', 'Dentist', '2025-03-04T09:00:00-08:00',
  '2025-03-04T10:00:00-08:00', 0, 'America/Los_Angeles', 'Main St', NULL, '[]', NULL, NULL,
  NULL, 'confirmed', 3, 1741107600, 1741111200);
"""


def _columns(engine: Engine) -> dict[str, set[str]]:
    inspector = inspect(engine)
    return {name: {c["name"] for c in inspector.get_columns(name)}
            for name in inspector.get_table_names() if name != "alembic_version"}


def _versions(engine: Engine) -> set[str]:
    with engine.connect() as conn:
        return {row[0] for row in conn.exec_driver_sql("SELECT version_num FROM alembic_version")}


def test_an_old_calendar_file_is_adopted_and_keeps_its_events(tmp_path: Path) -> None:
    path = tmp_path / "calendar.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_CALENDAR)
    backend = LocalBackend(path, PERSON_TZ)
    old = backend.get_event("primary", "evold")
    assert old is not None and old.title == "Dentist" and old.location == "Main St"
    assert old.version == "3" and old.start == datetime(2025, 3, 4, 9, tzinfo=LA)
    listed = backend.list_events("primary", datetime(2025, 3, 1, tzinfo=LA),
                                 datetime(2025, 4, 1, tzinfo=LA))
    assert [e.id for e in listed] == ["evold"]
    assert _versions(backend.engine) == {"c0003"}
    assert (old.reminders, old.end_timezone) == (None, None)  # the calendar's default, one zone
    with sqlite3.connect(path) as conn:
        columns = {row[1] for row in conn.execute("PRAGMA table_info(events)")}
        indexes = {row[1] for row in conn.execute("PRAGMA index_list(events)")}
    assert {"turn_id", "reminders", "end_timezone"} <= columns
    assert {"ix_events_span", "ix_events_cal_start", "ix_events_masters", "ix_events_cal_series",
            "ix_events_window_texts"} <= indexes


def test_an_old_state_file_made_by_create_all_is_adopted_and_keeps_its_lessons(
        tmp_path: Path) -> None:
    """The pre-migration path: sqlmodel's create_all on the models, nothing stamped."""
    path = tmp_path / "assistant.db"
    with Store.sqlite(path) as old:
        tables = [Lesson.__table__, LessonEvent.__table__]  # type: ignore[attr-defined]
        SQLModel.metadata.create_all(old.engine, tables=tables)
        with old.engine.begin() as conn:
            conn.exec_driver_sql(
                "INSERT INTO lessons (fingerprint, type, severity, text, rationale, change, source, "
                "change_source, entities, provenance, guard_version, seen_count, first_seen, "
                "last_seen, resolved) VALUES ('fp', 'wrong_date', 'error', 'Friday is the 24th', "
                "'r', 'c', 'symbolic', 'symbolic', '[]', '[]', '1', 4, '2025-10-01 08:00:00.000000', "
                "'2025-10-20 08:00:00.000000', 0)")
    with Store.sqlite(path) as opened:
        lessons = LessonStore(opened).all()
        assert [(l.text, l.seen_count) for l in lessons] == [("Friday is the 24th", 4)]
        assert lessons[0].last_seen == datetime(2025, 10, 20, 8, tzinfo=ZoneInfo("UTC"))
        assert _versions(opened.engine) == {"s0001"}
        assert {"journal_turns", "journal_entries", "undo_records"} <= set(_columns(opened.engine))


def test_a_store_migrates_each_part_once_and_a_new_store_checks_again(tmp_path: Path) -> None:
    """Migration is remembered by the store that ran it, not by a module cache: a second store
    on the same file (another window, a later start) checks the file itself and finds it done,
    and a file replaced under a new store is brought up to date again."""
    path = tmp_path / "assistant.db"
    with Store.sqlite(path) as first:
        first.migrate("state")
        assert _versions(first.engine) == {"s0001"}
        with first.engine.begin() as conn:
            conn.exec_driver_sql("DELETE FROM alembic_version")
        first.migrate("state")  # remembered: not looked at again
        assert _versions(first.engine) == set()
    with Store.sqlite(path) as second:
        second.migrate("state")  # its own check: the tables are there, the stamp is written
        assert _versions(second.engine) == {"s0001"}


@pytest.mark.slow  # a real PostgreSQL server
def test_a_postgresql_store_reaches_the_same_schema_as_an_upgraded_sqlite_one(
        tmp_path: Path) -> None:
    from pg_support import fresh_store

    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_CALENDAR)
    with Store.sqlite(path) as sqlite_store, fresh_store() as pg_store:
        Journal(sqlite_store, LocalBackend(sqlite_store, PERSON_TZ))
        Journal(pg_store, LocalBackend(pg_store, PERSON_TZ))
        sqlite, pg = sqlite_store.engine, pg_store.engine
        assert _columns(pg) == _columns(sqlite)
        assert _versions(pg) == _versions(sqlite) == {"c0003", "s0001"}
        with pg.connect() as conn:
            kinds: dict[str, str] = dict(conn.exec_driver_sql(
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_schema = current_schema() AND table_name = 'journal_turns'").all())
    assert kinds["started_at"] == "timestamp with time zone"


def _store_at_c0001_with_an_event(store: Store) -> None:
    """`store` as the version before reminders left it: the calendar tables at c0001 (by
    alembic itself, on the frozen c0001 tables) holding one event."""
    from alembic import command
    from alembic.config import Config

    from tools.store.database import MIGRATIONS

    with store.engine.begin() as conn:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = conn
        command.upgrade(config, "c0001")
        conn.exec_driver_sql(
            "INSERT INTO calendars (id, name, timezone, is_primary) VALUES "
            "('primary', 'Family', 'America/Los_Angeles', true)")
        conn.exec_driver_sql(
            'INSERT INTO events (calendar_id, id, title, start, "end", all_day, timezone, '
            "location, description, attendees, recurrence, recurring_event_id, original_start, "
            "status, version, turn_id, start_utc, end_utc) VALUES ('primary', 'evold', 'Dentist', "
            "'2025-03-04T09:00:00-08:00', '2025-03-04T10:00:00-08:00', false, "
            "'America/Los_Angeles', 'Main St', NULL, '[]', NULL, NULL, NULL, 'confirmed', 3, NULL, "
            "1741107600, 1741111200)")


def _upgrades_to_reminders(store: Store) -> None:
    _store_at_c0001_with_an_event(store)
    assert _versions(store.engine) == {"c0001"}
    backend = LocalBackend(store, PERSON_TZ, close_store=False)
    assert _versions(store.engine) == {"c0003"}
    old = backend.get_event("primary", "evold")
    assert old is not None and (old.title, old.version) == ("Dentist", "3")
    assert (old.reminders, old.end_timezone) == (None, None)
    from tools.backends.base import EventPatch

    changed = backend.patch_event("primary", "evold", EventPatch({
        "reminders": [1440], "end_timezone": "America/New_York"}))
    again = backend.get_event("primary", "evold")
    assert again == changed and again.reminders == (1440,)
    assert again.to_contract()["end"] == "2025-03-04T13:00:00-05:00"  # the same instant, in New York


def test_a_sqlite_calendar_at_the_first_revision_upgrades_to_reminders_and_keeps_its_events(
        tmp_path: Path) -> None:
    with Store.sqlite(tmp_path / "calendar.db") as store:
        _upgrades_to_reminders(store)


@pytest.mark.slow  # a real PostgreSQL server
def test_a_postgresql_calendar_at_the_first_revision_upgrades_to_reminders_and_keeps_its_events() -> None:
    from pg_support import fresh_store

    with fresh_store() as store:
        _upgrades_to_reminders(store)


def test_the_heads_read_without_alembic_are_alembics_own() -> None:
    """`agenda` on an up-to-date store never imports alembic: the shipped heads are read from the
    migration files' headers, which must say what alembic itself reads from them."""
    from alembic.script import ScriptDirectory

    from tools.store.database import MIGRATIONS, _script_heads

    script = ScriptDirectory(str(MIGRATIONS))
    theirs = {label: head.revision for head in script.get_revisions("heads") if head is not None
              for label in head.branch_labels}
    assert _script_heads() == theirs and set(theirs) == {"calendar", "state"}


def test_an_up_to_date_store_opens_without_loading_alembic(tmp_path: Path) -> None:
    db = tmp_path / "calendar.db"
    Store.sqlite(db).migrate("calendar")  # made and brought up to date
    code = ("import sys; from tools.store.database import Store; Store.sqlite(sys.argv[1]).migrate('calendar'); "
            "print('alembic' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(db)], capture_output=True, text=True, check=True,
                         cwd=str(Path(__file__).resolve().parents[2]))
    assert out.stdout.strip() == "False"
