"""Stores are plain objects, so one process may open a database more than once (a new chat,
a test and the app it drives): opening another store must not disturb the connections of
the first one, and another process then still sees them."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import text

from tools.store.database import Store

LAST_CLOSE = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1])
assert conn.execute("SELECT count(*) FROM notes").fetchone() == (1,)
conn.close()  # the last connection to close checkpoints the WAL and removes it and its index
"""


def test_opening_a_second_store_keeps_the_first_ones_locks(tmp_path: Path) -> None:
    """SQLite's locks are POSIX locks, which a process drops on any close of the file. Had the
    second store opened and closed the file itself (to make it private), the first store's
    connection would hold no lock any more: another process closing its connection would take
    itself for the last one and remove the WAL index under the first store."""
    path = tmp_path / "assistant.db"
    with Store.sqlite(path) as first:
        with first.engine.begin() as conn:
            conn.execute(text("CREATE TABLE notes (body TEXT)"))
            conn.execute(text("INSERT INTO notes VALUES ('kept')"))
        with Store.sqlite(path) as second:
            subprocess.run([sys.executable, "-c", LAST_CLOSE, str(path)], check=True, timeout=60)
            assert Path(f"{path}-shm").exists()  # our connections are still open: it stays
            with second.engine.connect() as conn:
                assert conn.execute(text("SELECT body FROM notes")).scalar_one() == "kept"
