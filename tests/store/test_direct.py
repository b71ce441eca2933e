"""A `DirectSelect` sends SQLite exactly what SQLAlchemy would (the same SQL text, the same
parameters in the same order, the statement's own values included), returns the same rows, still
shows the statement to statement listeners, and refuses a statement it could not send as it is.
A `DirectMany` writes the rows SQLAlchemy would have written, counts the rows it matched, and
leaves to SQLAlchemy a statement its rows do not fill."""
from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Engine

from tools.store.database import Store
from tools.store.direct import DirectMany, DirectSelect

_META = MetaData()
_ROWS = Table("things", _META, Column("id", String, primary_key=True), Column("kind", String),
              Column("size", Integer), Column("done", Boolean), Column("seen", DateTime))
_DEFAULTED = Table("defaulted", _META, Column("id", String, primary_key=True),
                   Column("kind", String, default="plain"))
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


_NEW = [{"id": "e", "kind": "toy", "size": 2, "done": True, "seen": datetime(2026, 11, 27, 8, 5, 1, 250)},
        {"id": "f", "kind": "tool", "size": 4, "done": False, "seen": datetime(2026, 1, 2, 3, 4, 5)}]


def _stored(store: Store) -> list[tuple[Any, ...]]:
    """The rows as SQLite holds them (the datetime as its text, the Boolean as its integer)."""
    with store.engine.connect() as conn:
        return [tuple(row) for row in conn.exec_driver_sql("SELECT * FROM things ORDER BY id")]


def test_many_rows_are_stored_as_sqlalchemy_stores_them(tmp_path: Path) -> None:
    stored = []
    for name, write in (("core", lambda conn: conn.execute(insert(_ROWS), _NEW).rowcount),
                        ("direct", lambda conn: DirectMany(insert(_ROWS)).run(conn, _NEW))):
        with Store.sqlite(tmp_path / f"{name}.db") as opened:
            _META.create_all(opened.engine)
            with opened.engine.begin() as conn:
                assert write(conn) == 2
            stored.append(_stored(opened))
    assert stored[0] == stored[1]
    assert stored[1][0][3:] == (1, "2026-11-27 08:05:01.000250")


def test_an_update_counts_the_rows_it_matched_across_column_sets(store: Store) -> None:
    direct = DirectMany(update(_ROWS).where(_ROWS.c.id == bindparam("b_id"), _ROWS.c.size == bindparam("b_size")))
    rows = [{"b_id": "a", "b_size": 3, "kind": "box"}, {"b_id": "b", "b_size": 99, "kind": "box"},
            {"b_id": "c", "b_size": 5, "size": 6, "done": False}]
    with store.engine.begin() as conn:
        assert direct.run(conn, rows) == 2  # "b" is not at size 99: not matched, not written
    assert _stored(store) == [("a", "box", 3, 1, None), ("b", "toy", 7, 0, None),
                              ("c", "tool", 6, 0, None), ("d", "toy", 11, 0, None)]


def test_statement_listeners_see_the_executemany(store: Store) -> None:
    direct = DirectMany(update(_ROWS).where(_ROWS.c.id == bindparam("b_id")))
    with store.engine.begin() as conn:
        _, sent = _sent(store.engine, lambda: direct.run(conn, [{"b_id": "a", "size": 1}, {"b_id": "b", "size": 2}]))
    assert sent == [("UPDATE things SET size=? WHERE things.id = ?", ((1, "a"), (2, "b")))]


def test_a_row_that_leaves_a_default_to_work_out_goes_through_sqlalchemy(store: Store) -> None:
    with store.engine.begin() as conn:
        assert DirectMany(insert(_DEFAULTED)).run(conn, [{"id": "x"}, {"id": "y", "kind": "odd"}]) == 2
        kinds = dict(conn.exec_driver_sql("SELECT id, kind FROM defaulted").all())
    assert kinds == {"x": "plain", "y": "odd"}


def test_returning_gives_the_new_rows_id(store: Store) -> None:
    with store.engine.begin() as conn:
        found = DirectMany(insert(_ROWS).returning(_ROWS.c.size)).returning(conn, _NEW[0])
    assert found == 2
