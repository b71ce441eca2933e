"""SQLite engines for the app's own files, with the pragmas every one of them needs.

One place decides WAL, foreign keys and the busy timeout, so the calendar, the journal, the
conversation history and the lessons all survive a killed process the same way. It also decides
who may read them: the data dir is made 0700 and every database file 0600 (a calendar, the
conversations and the lessons are private), and a file that is not a usable SQLite database,
or a data dir that is a file or cannot be written, is a `StoreError` naming the path.
"""
from __future__ import annotations

import os
import stat
from pathlib import Path

from sqlalchemy import Table
from sqlalchemy import event as sa_event
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel, create_engine

_ENGINES: dict[str, Engine] = {}
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


class StoreError(Exception):
    """A data dir or database file the app cannot use; the message names it."""


def private_dir(path: Path | str) -> Path:
    """The data dir, created 0700 if missing; a StoreError if it is a file or cannot be made."""
    folder = Path(path)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    except FileExistsError:
        raise StoreError(f"{folder}: the data dir is a file, not a directory") from None
    except OSError as exc:
        raise StoreError(f"{folder}: the data dir cannot be created ({exc.strerror or exc})") from None
    if not folder.is_dir():
        raise StoreError(f"{folder}: the data dir is a file, not a directory")
    return folder


def private_file(path: Path) -> None:
    """Create `path` 0600 if missing (before SQLite does, with the umask's 0644), or tighten it
    if others could read it; a StoreError if it cannot be opened for writing."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, PRIVATE_FILE)
    except IsADirectoryError:
        raise StoreError(f"{path}: is a directory, not a database file") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be opened for writing ({exc.strerror or exc}); "
                         "is the data dir read-only?") from None
    try:
        if stat.S_IMODE(os.fstat(fd).st_mode) & 0o077:
            os.fchmod(fd, PRIVATE_FILE)
    finally:
        os.close(fd)


def _check_readable(engine: Engine, path: str) -> None:
    """Open the file once now, so a corrupt database is named here rather than surfacing as a
    raw driver message from deep inside the first query."""
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA schema_version").all()
    except sa_exc.DBAPIError as exc:
        engine.dispose()
        reason = str(exc.orig) if exc.orig is not None else str(exc)
        raise StoreError(f"{path}: not a usable SQLite database ({reason}); move it aside to "
                         "start afresh, or restore it from a backup") from None


def sqlite_engine(path: Path | str) -> Engine:
    """A shared engine per database file (":memory:" gets a fresh private one)."""
    key = str(path)
    if key != ":memory:" and key in _ENGINES:
        return _ENGINES[key]
    if key != ":memory:":
        private_dir(Path(key).parent)
        private_file(Path(key))
    url = "sqlite://" if key == ":memory:" else f"sqlite:///{key}"
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @sa_event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
        cur = dbapi_conn.cursor()
        if key != ":memory:":
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    if key != ":memory:":
        _check_readable(engine, key)
        _ENGINES[key] = engine
    return engine


def table_of(model: type[SQLModel] | Table) -> Table:
    """The Core table of a sqlmodel class, or the table itself."""
    if isinstance(model, Table):
        return model
    table: Table = model.__table__  # type: ignore[attr-defined]
    return table


def ensure_tables(engine: Engine, *models: type[SQLModel] | Table) -> None:
    """Create the tables (and their indexes) of `models` if missing; each store calls it for its
    own tables only."""
    for model in models:
        table_of(model).create(engine, checkfirst=True)


def forget_engines() -> None:
    """Drop cached engines (tests that point the home dir elsewhere)."""
    for engine in _ENGINES.values():
        engine.dispose()
    _ENGINES.clear()
