"""The session's real PostgreSQL server for the `local-pg` store, started on first use.

`fixtures.postgres.start_postgres` makes a throwaway cluster (as the `postgres` user when the
tests run as root); each test then gets a schema of its own in one database, through the
`search_path` in its URL, so tests never see each other's rows. When no server can be started
(no binaries, no postgres user) every `local-pg` test is skipped with that reason, never passed.
"""
from __future__ import annotations

import atexit

import pytest

from fixtures.postgres import PostgresServer, PostgresUnavailable, start_postgres
from tools.store.database import Store

_SERVER: PostgresServer | None = None
_DATABASE: str | None = None
_UNAVAILABLE: str | None = None


def postgres_server() -> tuple[PostgresServer, str]:
    """The session's server and its test database; skips the calling test when there is none."""
    global _SERVER, _DATABASE, _UNAVAILABLE
    if _UNAVAILABLE is not None:
        pytest.skip(f"PostgreSQL store not tested: {_UNAVAILABLE}")
    if _SERVER is None or _DATABASE is None:
        try:
            _SERVER = start_postgres()
        except PostgresUnavailable as exc:
            _UNAVAILABLE = str(exc)
            pytest.skip(f"PostgreSQL store not tested: {exc}")
        atexit.register(_SERVER.stop)
        _DATABASE = _SERVER.create_database("tests")
    return _SERVER, _DATABASE


def fresh_store_url() -> str:
    """A SQLAlchemy URL for an empty schema of its own on the session's server."""
    server, database = postgres_server()
    return server.url(database, server.create_schema(database))


def fresh_store() -> Store:
    """A store on an empty schema of its own; the caller closes it."""
    return Store.from_url(fresh_store_url())


def stop_postgres() -> None:
    global _SERVER, _DATABASE
    if _SERVER is not None:
        _SERVER.stop()
        _SERVER = None
        _DATABASE = None
