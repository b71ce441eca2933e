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
from sqlalchemy.sql.dml import UpdateBase

_SQLITE = sqlite.dialect()


def _dbapi_cursor(conn: Connection, sql: str, args: Any, many: bool) -> Any:
    """A cursor of `conn`'s own DB-API connection (inside its transaction), the statement
    first shown to the statement listeners as SQLAlchemy would show it; the caller closes it."""
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        for listener in conn.dispatch.before_cursor_execute:
            listener(conn, cursor, sql, args, None, many)
    except BaseException:
        cursor.close()
        raise
    return cursor


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
        cursor = _dbapi_cursor(conn, self.sql, args, False)
        try:
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


class DirectMany:
    """One INSERT, UPDATE or DELETE run over many rows as one executemany on SQLite's cursor.

    The rows of one call name the same columns; the SQL for each set of names is compiled once
    (`column_keys`, as SQLAlchemy compiles it for such rows) and each value passed through its
    column type's own bind processor (a Boolean as SQLite's integer, a datetime as SQLAlchemy's
    text), so the row stored is the one SQLAlchemy would have stored. A statement that needs
    more than the rows give (a column default to work out, a list to expand) goes through
    SQLAlchemy as before, as does every statement on another database. Core's per-row work
    (`construct_params` and the processors looked up anew for each of 50 rows) was most of a
    bulk update's UPDATE and journal INSERT: 0.84 ms against 0.35 ms for the raw executemany
    (issue 25, tenth step)."""

    __slots__ = ("statement", "_compiled")

    def __init__(self, statement: UpdateBase) -> None:
        self.statement = statement
        self._compiled: dict[tuple[str, ...], tuple[str, tuple[str, ...], tuple[Any, ...]] | None] = {}

    def _for(self, keys: tuple[str, ...]) -> tuple[str, tuple[str, ...], tuple[Any, ...]] | None:
        if keys in self._compiled:
            return self._compiled[keys]
        compiled = self.statement.compile(dialect=_SQLITE, column_keys=list(keys))
        names = tuple(compiled.positiontup or ())
        found: tuple[str, tuple[str, ...], tuple[Any, ...]] | None = None
        if not (compiled.literal_execute_params or compiled.post_compile_params) and \
                set(names) <= set(keys):
            found = (str(compiled), names, tuple(
                compiled.binds[name].type._cached_bind_processor(_SQLITE)  # noqa: SLF001
                for name in names))
        self._compiled[keys] = found
        return found

    @staticmethod
    def _args(names: tuple[str, ...], processors: tuple[Any, ...],
              row: Mapping[str, Any]) -> tuple[Any, ...]:
        return tuple(row[name] if process is None else process(row[name])
                     for name, process in zip(names, processors, strict=True))

    def run(self, conn: Connection, rows: list[dict[str, Any]]) -> int:
        """Write `rows` in `conn`'s transaction, one executemany per set of columns they name
        (a bulk change of one field is one statement); the rows matched, or -1 where the
        driver does not count an executemany's rows (`supports_sane_multi_rowcount`)."""
        groups: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for row in rows:
            groups.setdefault(tuple(row), []).append(row)
        matched = 0
        for keys, group in groups.items():
            count = self._run(conn, keys, group)
            matched = -1 if matched < 0 or count < 0 else matched + count
        return matched

    def _run(self, conn: Connection, keys: tuple[str, ...], rows: list[dict[str, Any]]) -> int:
        plan = self._for(keys) if conn.dialect.name == "sqlite" else None
        if plan is None:
            count = conn.execute(self.statement, rows).rowcount
            return -1 if count is None else int(count)
        sql, names, processors = plan
        args = [self._args(names, processors, row) for row in rows]
        cursor = _dbapi_cursor(conn, sql, args, True)
        try:
            cursor.executemany(sql, args)
            return int(cursor.rowcount)
        finally:
            cursor.close()

    def returning(self, conn: Connection, row: dict[str, Any]) -> Any:
        """Write one row and return the first column of what the statement's RETURNING gives."""
        plan = self._for(tuple(row)) if conn.dialect.name == "sqlite" else None
        if plan is None:
            return conn.execute(self.statement, row).scalar_one()
        sql, names, processors = plan
        args = self._args(names, processors, row)
        cursor = _dbapi_cursor(conn, sql, args, False)
        try:
            cursor.execute(sql, args)
            found = cursor.fetchall()
        finally:
            cursor.close()
        if len(found) != 1:
            raise ValueError(f"expected one row back, got {len(found)}")
        return found[0][0]
