"""The store's databases: SQLite files in the home dir by default, or any database a SQLAlchemy
URL names (`DATABASE_URL`, CONTRACT section 9: PostgreSQL through psycopg 3).

A `Store` is one database and the engine that talks to it. It is opened where the app is
assembled (`assistant.services`) and handed to every part that keeps data in it (the local
calendars, the journal, the history, the turn records, the lessons), and closed by whoever opened
it. There is no module-level cache of engines: which parts share a connection pool, and when it
is closed, is decided in plain sight by the code that built them, and two stores on one file (two
windows, or a test and the app it drives) are two clients of one database, as two processes
always were.

One place decides WAL and the busy timeout, so the calendar, the journal, the conversation
history and the lessons all survive a killed process the same way and several processes can
share one file. It also decides who may read them: the data dir is made 0700 and every database
file 0600 (a calendar, the conversations and the lessons are private), and a file that is not a
usable SQLite database, a data dir that is a file or cannot be written, or a database server
that cannot be reached is a `StoreError` saying so in words (the details, never the password, go
to the log: `tools.backends.errors`).

The schema is alembic's (`tools.store.migrations`): `Store.migrate` brings a part's tables to the
newest revision once per store, so an old SQLite file and a new PostgreSQL database reach the same
schema. `writer_lock` is the one way a write transaction shuts out other writers on either
database, so a version check and the write it guards cannot be split by another process.
"""
from __future__ import annotations

import os
import re
import stat
import threading
from functools import cache
from pathlib import Path
from types import TracebackType
from typing import Literal

from sqlalchemy import event as sa_event
from sqlalchemy import exc as sa_exc
from sqlalchemy import func, select
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlmodel import create_engine

from tools.backends.errors import service_error
from tools.masking import mask_url

StorePart = Literal["calendar", "state"]
"""The two halves of the store, each its own branch of migrations: the local calendars
(`calendar.db` by default), and the journal, turn records, history, undo records and lessons
(`assistant.db`). On one database server both live side by side."""

MIGRATIONS = Path(__file__).with_name("migrations")
_ALEMBIC = threading.Lock()
"""Alembic runs a migration through module-level proxies (`alembic.context`, `alembic.op`), so
two stores of one process migrate one after the other."""
WRITER_LOCK_KEY = 0x63616C656E646172  # pg_advisory_xact_lock key: "calendar" in ASCII
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600


class StoreError(Exception):
    """A data dir or database file the app cannot use; the message names it."""

    speaks_for_itself = True
    """Its message is written for the person (`tools.backends.errors.person_message` shows it)."""


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
    if others could read it; a StoreError if it cannot be written.

    An existing file is never opened here: closing any descriptor of a file drops every POSIX
    lock this process holds on it, so a bare open and close would silently release the locks
    of a connection another `Store` of this process has open on the same database, and another
    process could then checkpoint and remove the WAL under it (SQLite's own connections
    coordinate their descriptors; this code would not)."""
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, PRIVATE_FILE)
    except FileExistsError:
        _private_existing(path)
        return
    except IsADirectoryError:
        raise StoreError(f"{path}: is a directory, not a database file") from None
    except OSError as exc:
        raise StoreError(f"{path}: cannot be opened for writing ({exc.strerror or exc}); "
                         "is the data dir read-only?") from None
    os.close(fd)  # a new file: no connection can hold a lock on it yet


def _private_existing(path: Path) -> None:
    """`private_file` for a file that exists: by its path alone, no descriptor opened."""
    try:
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            raise StoreError(f"{path}: is a directory, not a database file")
        if stat.S_IMODE(mode) & 0o077:
            os.chmod(path, PRIVATE_FILE)
    except OSError as exc:
        raise StoreError(f"{path}: cannot be opened for writing ({exc.strerror or exc}); "
                         "is the data dir read-only?") from None
    if not os.access(path, os.W_OK):
        raise StoreError(f"{path}: cannot be opened for writing (permission denied); "
                         "is the data dir read-only?")


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


def _sqlite_engine(path: str) -> Engine:
    """A new engine on one SQLite file (":memory:": a private database of its own), its file
    made private and checked readable before the first query needs it."""
    memory = path == ":memory:"
    if not memory:
        private_dir(Path(path).parent)
        private_file(Path(path))
    engine = create_engine("sqlite://" if memory else f"sqlite:///{path}",
                           connect_args={"check_same_thread": False, "timeout": 30})

    @sa_event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn, _record) -> None:  # type: ignore[no-untyped-def]
        cur = dbapi_conn.cursor()
        if not memory:
            cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=NORMAL")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.close()

    if not memory:
        _check_readable(engine, path)
    return engine


def _server_engine(url: URL) -> Engine:
    """A new engine on a database server, checked once by connecting, so a wrong host or
    password is a StoreError naming the database here, not a traceback inside a turn."""
    try:
        # No pool_pre_ping: its extra round trip on every checkout cost a third of a bulk
        # update's time (bench/bench_store.py); a connection the server dropped fails its one
        # statement (that transaction rolls back whole) and SQLAlchemy then replaces the pool.
        engine = create_engine(url)
        with engine.connect() as conn:
            conn.execute(select(1))
    except (sa_exc.SQLAlchemyError, ImportError) as exc:
        raise StoreError(str(service_error("database", exc, "open the store"))) from None
    return engine


class Store:
    """One database of the store and its engine, shared by every part that keeps data in it.

    Opened once where the app is assembled and passed down, so the local calendars and the
    journal on one `DATABASE_URL` share one pool, and each part's tables are migrated once per
    store (not per engine found in a module cache). Closing it (`close`, or leaving a `with`
    block) disposes of its connections; whoever opened it closes it."""

    def __init__(self, engine: Engine, name: str) -> None:
        self.engine = engine
        self.name = name
        """Where it is, as a person may be shown it: the file, or the URL without its password."""
        self._migrated: set[StorePart] = set()

    @classmethod
    def sqlite(cls, path: Path | str) -> Store:
        """The SQLite file at `path` (":memory:": a private in-memory database)."""
        return cls(_sqlite_engine(str(path)), str(path))

    @classmethod
    def from_url(cls, url: str) -> Store:
        """The database a SQLAlchemy URL names: `sqlite:///PATH` as `Store.sqlite(PATH)`, anything
        else (`postgresql+psycopg://user@host/db`) on its server."""
        try:
            parsed = make_url(url)
        except (sa_exc.ArgumentError, ValueError):  # ValueError: a port that is not a number
            raise StoreError(f"DATABASE_URL: {mask_url(url)!r} is not a database URL "
                             "(e.g. postgresql+psycopg://user@host/dbname)") from None
        if parsed.get_backend_name() == "sqlite":
            return cls.sqlite(parsed.database or ":memory:")
        return cls(_server_engine(parsed), parsed.render_as_string(hide_password=True))

    @property
    def is_postgresql(self) -> bool:
        return is_postgresql(self.engine)

    def migrate(self, part: StorePart) -> None:
        """Bring `part`'s tables to the newest revision (alembic `upgrade part@head`), once per
        store. The first revision adopts a store an older version made (tables created if
        missing, missing columns added), so old files open unchanged. Writers are shut out
        meanwhile (`writer_lock`): two processes opening a new store at once create it once."""
        if part in self._migrated:
            return
        with _ALEMBIC:
            if part not in self._migrated:
                _upgrade(self.engine, part)
                self._migrated.add(part)

    def close(self) -> None:
        """Close every connection of the pool (a later use would open new ones)."""
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.name!r})"


def is_postgresql(engine: Engine | Connection) -> bool:
    return engine.dialect.name == "postgresql"


def writer_lock(conn: Connection) -> None:
    """Begin `conn`'s transaction as the store's only writer until it ends: SQLite's
    `BEGIN IMMEDIATE` (one writer per file; the others wait out the busy timeout), or on
    PostgreSQL a transaction-scoped advisory lock every writer takes first. Reads after it see
    every write committed before it (PostgreSQL's READ COMMITTED reads afresh per statement),
    so what a write checks cannot change before it writes, in any process."""
    if is_postgresql(conn):
        conn.execute(select(func.pg_advisory_xact_lock(WRITER_LOCK_KEY)))
    else:
        conn.exec_driver_sql("BEGIN IMMEDIATE")


_REVISION_RE = re.compile(r'^revision\s*(?::\s*str\s*)?=\s*"(?P<v>[^"]+)"', re.M)
_DOWN_RE = re.compile(r'^down_revision\s*(?::[^=]+)?=\s*(?:None|"(?P<v>[^"]+)")', re.M)
_LABELS_RE = re.compile(r'^branch_labels\s*(?::[^=]+)?=\s*(?:None|\((?P<v>[^)]*)\))', re.M)


@cache
def _script_heads() -> dict[str, str]:
    """The newest revision of each part, read from the shipped migration files once a process.

    Read with three patterns rather than through alembic, whose import costs more than the
    whole of a command like `agenda` on an up-to-date store (alembic is loaded only when a
    store is behind). `tests/store` holds this equal to alembic's own reading of the files."""
    down: dict[str, str | None] = {}
    labels: dict[str, list[str]] = {}
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        found, before, label = _REVISION_RE.search(text), _DOWN_RE.search(text), _LABELS_RE.search(text)
        if found is None or before is None or label is None:
            raise StoreError(f"migration {path.name}: its revision header cannot be read")
        down[found["v"]] = before["v"]
        labels[found["v"]] = re.findall(r'"([^"]+)"', label["v"] or "")
    children: dict[str, list[str]] = {}
    for revision, parent in down.items():
        if parent is not None:
            children.setdefault(parent, []).append(revision)
    heads: dict[str, str] = {}
    for root, names in labels.items():
        for name in names:
            head = root
            while children.get(head):
                (head,) = children[head]  # one line of revisions per part
            heads[name] = head
    return heads


def _current_heads(conn: Connection) -> set[str]:
    """The revisions the store is at: alembic's own table, read with one query (none yet: empty)."""
    if is_postgresql(conn):
        exists = conn.exec_driver_sql("SELECT to_regclass('alembic_version') IS NOT NULL").scalar()
    else:
        exists = conn.exec_driver_sql(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'alembic_version'").first() is not None
    if not exists:
        return set()
    return {str(row[0]) for row in conn.exec_driver_sql("SELECT version_num FROM alembic_version")}


def _upgrade(engine: Engine, part: StorePart) -> None:
    """`upgrade part@head` on `engine` when it is behind, as the only writer meanwhile."""
    try:
        with engine.connect() as conn:
            if _script_heads()[part] not in _current_heads(conn):
                from alembic import command
                from alembic.config import Config

                conn.rollback()  # the check's read ends before the writer's transaction begins
                writer_lock(conn)
                config = Config()
                config.set_main_option("script_location", str(MIGRATIONS))
                config.attributes["connection"] = conn
                command.upgrade(config, f"{part}@head")
                conn.commit()
    except sa_exc.OperationalError as exc:
        raise StoreError(str(service_error("database", exc, f"create or upgrade the {part} "
                                           "tables"))) from None
