"""Adding new columns to tables an older version of the app already created.

`SQLModel.metadata.create_all` creates missing tables but never touches an existing one, so a
journal.db from before a column existed would fail on the first query that names it. Every new
column is therefore nullable or has a literal default, and this adds what is missing in place.
"""
from __future__ import annotations

from sqlalchemy import Table, inspect
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

from tools.store import table_of


def _literal(value: object) -> str | None:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return None


def add_missing_columns(engine: Engine, *models: type[SQLModel] | Table) -> list[str]:
    """ALTER TABLE ... ADD COLUMN for every model column its table lacks; returns what was added."""
    added: list[str] = []
    inspector = inspect(engine)
    for model in models:
        table = table_of(model)
        if not inspector.has_table(table.name):
            continue
        present = {c["name"] for c in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name in present:
                continue
            ddl = f'ALTER TABLE "{table.name}" ADD COLUMN "{column.name}" ' \
                  f"{column.type.compile(dialect=engine.dialect)}"
            default = getattr(column.default, "arg", None)
            literal = None if callable(default) else _literal(default)
            if literal is not None:
                ddl += f" DEFAULT {literal}"
            with engine.begin() as conn:
                conn.exec_driver_sql(ddl)
            added.append(f"{table.name}.{column.name}")
    return added
