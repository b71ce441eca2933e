"""Fixed SELECTs run on SQLite's own cursor: the SQL compiled once, each call only the statement.

SQLAlchemy's Core costs about 35 us of Python per statement on top of the driver (compiled-cache
lookup, parameter processing, result metadata, the row objects), whatever the statement returns.
A month listing of a 1,000-event calendar runs five statements whose rows SQLite finds in about
20 us each: the overhead was a third of the listing (bench/RESULTS_backend.md, issue 25's seventh
step). A `DirectSelect` keeps what SQLAlchemy would have sent (the same SQL text, the same
parameters in the same order) and, on SQLite, hands it to the connection's DB-API cursor itself;
on any other database it runs the statement through SQLAlchemy as before.

Only statements that need nothing of SQLAlchemy's at run time qualify, and the constructor
refuses any other: no parameter that SQLAlchemy converts before sending (its type's bind
processor), no list expanded into a statement of its own (`expanding`), and results read as
SQLite returns them (a Boolean is the integer stored; the callers here read it through `bool`).
Statement listeners still see every statement (`before_cursor_execute`, as SQLAlchemy calls it):
benchmarks and tests record the SQL a listing runs that way.
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping
from typing import Any

from sqlalchemy.dialects import sqlite
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Select

_SQLITE = sqlite.dialect()


class DirectSelect:
    """One SELECT, compiled for SQLite when built, run by `rows` / `scalars` on a connection."""

    __slots__ = ("statement", "sql", "names", "fixed", "row")

    def __init__(self, statement: Select[Any]) -> None:
        self.statement = statement
        compiled = statement.compile(dialect=_SQLITE)
        if compiled.literal_execute_params or compiled.post_compile_params:
            raise ValueError("a DirectSelect cannot expand a list into its statement")
        binds = compiled.binds
        if any(bind.type._cached_bind_processor(_SQLITE) is not None  # noqa: SLF001
               for bind in binds.values()):
            raise ValueError("a DirectSelect's parameters must go to SQLite as they are given")
        self.sql = str(compiled)
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self.fixed = {name: bind.effective_value for name, bind in binds.items()
                      if not bind.required and bind.callable is None}
        """The values the statement itself holds (`status = 'confirmed'` is sent as a parameter
        too), by the names SQLAlchemy gave them."""
        self.row: Any = namedtuple("Row", [column.key or f"c{i}" for i, column in  # type: ignore[misc]
                                           enumerate(statement.selected_columns)], rename=True)
        """Each row as a named tuple: read by name (`row.id`) or position, as a Core row is."""

    def _fetch(self, conn: Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        given = {**self.fixed, **params}
        args = tuple(given[name] for name in self.names)
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            for listener in conn.dispatch.before_cursor_execute:
                listener(conn, cursor, self.sql, args, None, False)
            cursor.execute(self.sql, args)
            return list(cursor.fetchall())
        finally:
            cursor.close()

    def rows(self, conn: Connection, params: Mapping[str, Any]) -> list[Any]:
        """Every row, each readable by column name and by position."""
        if conn.dialect.name != "sqlite":
            return list(conn.execute(self.statement, params).all())
        make = self.row._make
        return [make(found) for found in self._fetch(conn, params)]

    def scalars(self, conn: Connection, params: Mapping[str, Any]) -> list[Any]:
        """The first column of every row."""
        if conn.dialect.name != "sqlite":
            return list(conn.execute(self.statement, params).scalars())
        return [found[0] for found in self._fetch(conn, params)]
