"""Journal entries inserted in one statement's worth of work, their ids in the rows' order.

The journal needs each new entry's id, in the order of its rows (the caller pairs ids with the
writes they record). SQLAlchemy gets them with `INSERT .. RETURNING` and
`sort_by_parameter_order=True`; on PostgreSQL that is one batched statement, but on SQLite it
does not trust the order RETURNING gives rows back, so it runs one INSERT per row: fifty
statements for a 50-event bulk update (with their commit 0.64 ms of CPU, against 0.49 ms as
done here; bench/RESULTS_backend.md, issue 25's fifth step).

On SQLite, then, the first row is inserted alone and its id read back, and the rest are given
the ids that follow it, in one executemany. That is exactly what SQLite would choose: the
table's id is its rowid (no AUTOINCREMENT), and a new row gets the largest rowid plus one; the
first INSERT has taken the file's write lock (SQLite's `RESERVED`, held to the commit), so no
other connection can insert in between. An id that were taken anyway would fail the INSERT
(primary key), never be given to two entries.

On PostgreSQL the rows' ids are drawn from the table's sequence first (one statement), and the
rows inserted with them in one executemany. SQLAlchemy's `RETURNING` for many rows renders one
INSERT of 700 parameters for 50 entries, a text psycopg parses anew on every call (it caches no
query of more than 50 parameters): 3.4 ms of CPU of a 50-event bulk update's 16 (issue 25's
seventh step); the executemany is one short statement psycopg keeps parsed and sends in a
pipeline.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Table, insert, text
from sqlalchemy.engine import Connection

from tools.journal.entries import JournalEntry
from tools.store.database import is_postgresql
from tools.store.direct import DirectMany

_ENTRIES: Table = JournalEntry.__table__  # type: ignore[attr-defined]
_NEXT_IDS = text("SELECT nextval(pg_get_serial_sequence('journal_entries', 'id')) "
                 "FROM generate_series(1, :b_n)")
"""PostgreSQL: `b_n` new entry ids from the table's own sequence, as its INSERTs would draw them
(unique whatever other writers do; sorted, they follow each other within one call)."""
_ONE_RETURNING_ID = DirectMany(insert(_ENTRIES).returning(_ENTRIES.c.id))
_WITH_IDS = DirectMany(insert(_ENTRIES))

_LARGEST_ROWID = 2 ** 63 - 1
"""Past it SQLite picks rowids at random: the ids would not follow on (never reached in
practice; then every row is inserted alone)."""


def insert_entries(conn: Connection, rows: Sequence[dict[str, Any]]) -> list[int]:
    """Insert these entry rows (each with the same columns, no id) in `conn`'s transaction;
    their ids, in the rows' order."""
    if not rows:
        return []
    if is_postgresql(conn):
        ids = sorted(conn.execute(_NEXT_IDS, {"b_n": len(rows)}).scalars())
        _WITH_IDS.run(conn, [{**row, "id": entry_id} for row, entry_id in zip(rows, ids, strict=True)])
        return ids
    first = int(_ONE_RETURNING_ID.returning(conn, rows[0]))
    ids = list(range(first, first + len(rows)))
    if ids[-1] > _LARGEST_ROWID:
        return [first, *(int(_ONE_RETURNING_ID.returning(conn, row))
                         for row in rows[1:])]
    if len(rows) > 1:
        _WITH_IDS.run(conn, [{**row, "id": entry_id}
                             for row, entry_id in zip(rows[1:], ids[1:], strict=True)])
    return ids
