"""A `DirectSelect` sends SQLite exactly what SQLAlchemy would (the same SQL text, the same
parameters in the same order, the statement's own values included), returns the same rows, still
shows the statement to statement listeners, and refuses a statement it could not send as it is."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Boolean, Column, DateTime, Integer, MetaData, String, Table, bindparam, func, insert, select
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

from tools.store.database import Store
from tools.store.direct import DirectSelect

_META = MetaData()
_ROWS = Table("things", _META, Column("id", String, primary_key=True), Column("kind", String),
              Column("size", Integer), Column("done", Boolean), Column("seen", DateTime))
_KINDS = [("a", "toy", 3, True), ("b", "toy", 7, False), ("c", "tool", 5, True),
          ("d", "toy", 11, False)]


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with Store.sqlite(tmp_path / "things.db") as opened:
        _META.create_all(opened.engine)
        with opened.engine.begin() as conn:
            conn.execute(insert(_ROWS), [dict(zip(("id", "kind", "size", "done"), row, strict=True))
                                         for row in _KINDS])
        yield opened


def _sent(engine: Engine, work: Any) -> tuple[Any, list[tuple[str, Any]]]:
    seen: list[tuple[str, Any]] = []

    def record(conn: Any, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        seen.append((statement, tuple(parameters)))

    sa_event.listen(engine, "before_cursor_execute", record)
    try:
        return work(), seen
    finally:
        sa_event.remove(engine, "before_cursor_execute", record)


# a literal value of the statement's own ('toy'), a parameter given twice over, one given once
_TOYS = select(_ROWS.c.id, _ROWS.c.size, _ROWS.c.done).where(
    _ROWS.c.kind == "toy", _ROWS.c.size >= bindparam("least"),
    _ROWS.c.size < bindparam("most")).order_by(_ROWS.c.id)


def test_it_sends_what_sqlalchemy_sends_and_reads_the_same_rows(store: Store) -> None:
    direct = DirectSelect(_TOYS)
    params = {"least": 4, "most": 20}
    with store.engine.connect() as conn:
        core, core_sent = _sent(store.engine, lambda: conn.execute(_TOYS, params).all())
        mine, mine_sent = _sent(store.engine, lambda: direct.rows(conn, params))
    assert mine_sent == core_sent and len(mine_sent) == 1
    assert [tuple(row) for row in mine] == [tuple(row) for row in core] == [("b", 7, 0), ("d", 11, 0)]


def test_its_rows_read_by_column_name_and_its_scalars_are_the_first_column(store: Store) -> None:
    direct = DirectSelect(_TOYS)
    with store.engine.connect() as conn:
        rows = direct.rows(conn, {"least": 0, "most": 8})
        ids = direct.scalars(conn, {"least": 0, "most": 8})
    assert [(row.id, row.size) for row in rows] == [("a", 3), ("b", 7)]
    assert ids == ["a", "b"]


def test_it_reads_inside_the_connections_transaction(store: Store) -> None:
    """A read made in a write transaction sees that transaction's own uncommitted change."""
    direct = DirectSelect(_TOYS)
    with store.engine.connect() as conn:
        conn.exec_driver_sql("BEGIN IMMEDIATE")
        conn.execute(_ROWS.update().where(_ROWS.c.id == "a").values(size=9))
        assert [row.size for row in direct.rows(conn, {"least": 0, "most": 20})] == [9, 7, 11]
        conn.rollback()


def test_a_function_of_a_bound_value_is_sent_too(store: Store) -> None:
    by_ids = DirectSelect(select(_ROWS.c.id).where(_ROWS.c.id.in_(
        select(func.json_each(bindparam("ids")).table_valued("value").c.value))).order_by(_ROWS.c.id))
    with store.engine.connect() as conn:
        assert by_ids.scalars(conn, {"ids": '["d", "a", "zz"]'}) == ["a", "d"]


def test_a_list_expanded_into_the_statement_is_refused() -> None:
    with pytest.raises(ValueError, match="expand"):
        DirectSelect(select(_ROWS.c.id).where(_ROWS.c.id.in_(bindparam("ids", expanding=True))))


def test_a_value_sqlalchemy_would_convert_before_sending_is_refused() -> None:
    with pytest.raises(ValueError, match="as they are given"):
        DirectSelect(select(_ROWS.c.id).where(_ROWS.c.seen < bindparam("when", type_=DateTime)))
