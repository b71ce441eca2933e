"""Adopting tables an older version of the app already created.

Before alembic, every store created its tables with `create` (checkfirst) and added columns
that were new since (`create` never touches an existing table). The first migration of each part
of the store (`tools/store/migrations/versions`) does the same once, on its own frozen copy of the
tables: create what is missing, add the columns an older file lacks (each new column nullable
or with a literal default), create missing indexes. So a file from any earlier version and an
empty database reach the same schema.
"""
from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Table, inspect
from sqlalchemy.engine import Connection
from sqlalchemy.schema import CreateIndex


def _literal(value: object) -> str | None:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return None


def add_missing_columns(conn: Connection, tables: Iterable[Table]) -> list[str]:
    """ALTER TABLE ... ADD COLUMN for every column its existing table lacks; returns what was
    added (`table.column`)."""
    added: list[str] = []
    inspector = inspect(conn)
    for table in tables:
        if not inspector.has_table(table.name):
            continue
        present = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name in present:
                continue
            ddl = f'ALTER TABLE "{table.name}" ADD COLUMN "{column.name}" ' \
                  f"{column.type.compile(dialect=conn.dialect)}"
            default = getattr(column.default, "arg", None)
            literal = None if callable(default) else _literal(default)
            if literal is not None:
                ddl += f" DEFAULT {literal}"
            conn.exec_driver_sql(ddl)
            added.append(f"{table.name}.{column.name}")
    return added


def adopt(conn: Connection, tables: Iterable[Table]) -> list[str]:
    """Create the missing `tables` and indexes, and add the columns older tables lack."""
    tables = list(tables)
    added = add_missing_columns(conn, tables)
    for table in tables:
        table.create(conn, checkfirst=True)
        for index in table.indexes:
            conn.execute(CreateIndex(index, if_not_exists=True))
    return added
