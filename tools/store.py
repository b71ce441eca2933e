"""SQLite engines for the app's own files, with the pragmas every one of them needs.

One place decides WAL, foreign keys and the busy timeout, so the calendar, the journal, the
conversation history and the lessons all survive a killed process the same way.
"""
from __future__ import annotations

from pathlib import Path

from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel, create_engine

_ENGINES: dict[str, Engine] = {}


def sqlite_engine(path: Path | str) -> Engine:
    """A shared engine per database file (":memory:" gets a fresh private one)."""
    key = str(path)
    if key != ":memory:" and key in _ENGINES:
        return _ENGINES[key]
    if key != ":memory:":
        Path(key).parent.mkdir(parents=True, exist_ok=True)
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
        _ENGINES[key] = engine
    return engine


def ensure_tables(engine: Engine, *models: type[SQLModel]) -> None:
    """Create the tables of `models` if missing; each store calls it for its own tables only."""
    SQLModel.metadata.create_all(engine, tables=[m.__table__ for m in models])  # type: ignore[attr-defined]


def forget_engines() -> None:
    """Drop cached engines (tests that point the home dir elsewhere)."""
    for engine in _ENGINES.values():
        engine.dispose()
    _ENGINES.clear()
