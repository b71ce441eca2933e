"""How close a journaled 50-event bulk update can come to its floor in plain Python (issue 25).

Run by hand: `python bench/floor_python_journaled.py [EVENTS ...]` (default 1000 10000).

The bulk update's aim is 5x a raw `executemany` of the 50 UPDATEs (`bench_backend.py`). This
measures the least a journaled update written in Python does on the project's own tables, with
the guarantees the project keeps: one read of the 50 rows, each row's before and after encoded
as JSON into a journal entry, the entries committed on the journal's file before the calendar
is written, the UPDATE under a version check (`WHERE version = ?`, every row counted), a result
line per event. It skips what the project adds on top (the tool's schema check, the check's own
read, patches through the event model, the result in words), so its ratio to the floor is what
a row-level write path could reach, and the gap to the project's ratio is that layering.

It also times the tool itself around that least write (`in the tool`): the project's
`ToolRegistry.run` of the same call (schema check, the check's read and patches, the result in
words and cards), with only the journaled write (`tools.handlers._write_bulk`) replaced by the
one above. That is the best a rewrite of the write path alone could give the whole call.
"""
from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bench_backend as bb  # noqa: E402

from tools import handlers  # noqa: E402
from tools.backends.local import LocalBackend  # noqa: E402
from tools.context import ToolCall, ToolContext  # noqa: E402
from tools.journal.journal import Journal  # noqa: E402
from tools.locations import LocationService  # noqa: E402
from tools.registry import ToolRegistry  # noqa: E402
from tools.store.database import Store  # noqa: E402

BULK = 50
RUNS = 60
WARM = 10
_ENCODE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def journaled_update(raw: Any, raw_journal: Any, cal: str, cols: list[str], turn: str, ids: list[str],
                     title: str) -> str:
    """The whole journaled write of `ids`, as described above; returns the result text."""
    cur = raw.cursor()
    cur.execute(f"SELECT * FROM events WHERE calendar_id = ? AND id IN ({','.join('?' * len(ids))})",
                (cal, *ids))
    entries, updates, lines = [], [], []
    for row in cur.fetchall():
        before = dict(zip(cols, row, strict=True))
        after = dict(before, title=title, description="moved")
        text_before, text_after = _ENCODE(before), _ENCODE(after)
        entries.append((turn, 1, "bulk_update_calendar_events", cal, before["id"], text_before, text_before,
                        '{"kind":"update"}', before["version"], "2026-11-27T06:00:00Z", text_after,
                        before["version"] + 1, text_after, "done"))
        updates.append((title, "moved", cal, before["id"], before["version"]))
        lines.append(f"- {title}: {before['start'][:10]} {before['start'][11:16]}")
    journal = raw_journal.cursor()
    journal.execute("BEGIN IMMEDIATE")
    journal.executemany(f"INSERT INTO journal_entries ({', '.join(bb._ENTRY_COLUMNS)}) VALUES "
                        f"({', '.join('?' * len(bb._ENTRY_COLUMNS))})", entries)
    raw_journal.commit()
    cur.execute("BEGIN IMMEDIATE")
    changes = raw.total_changes
    cur.executemany("UPDATE events SET title = ?, description = ?, version = version + 1 "
                    "WHERE calendar_id = ? AND id = ? AND version = ?", updates)
    if raw.total_changes - changes != len(updates):
        raw.rollback()
        raise RuntimeError("an event changed under the write")
    raw.commit()
    return "\n".join(lines)


def measure(size: int) -> tuple[float, float, float]:
    """Medians (CPU seconds) of the Python journaled update, of the tool around it, and of the
    floor, interleaved run by run."""
    rng = random.Random(size)
    with tempfile.TemporaryDirectory() as tmp:
        backend = LocalBackend(Path(tmp) / "calendar.db", bb.TZ_NAME)
        journal = Journal(Store.sqlite(Path(tmp) / "journal.db"), backend)
        cal = backend.primary_calendar_id()
        events = bb.make_events(backend, size, rng)
        bb.seed_quickly(backend, events)
        singles = [e for e in events if not e.recurrence]
        raw = backend.engine.raw_connection()
        raw_journal = journal.store.engine.raw_connection()
        ctx = ToolContext(backend=backend, journal=journal, calendar_id=cal, timezone=bb.TZ_NAME,
                          locations=LocationService("12 Oak Lane, Springfield"))
        registry = ToolRegistry(ctx)
        project_write = handlers._write_bulk
        try:
            cur = raw.cursor()
            cur.execute("SELECT * FROM events LIMIT 1")
            cols = [d[0] for d in cur.description]

            def least_write(ctx: ToolContext, calendar_id: str, group: list[Any], notify: bool,
                            started: list[int]) -> list[Any]:
                journaled_update(raw, raw_journal, calendar_id, cols, ctx.turn_id,
                                 [current.id for current, _, _ in group], group[0][2].title)
                return [(current, expected) for current, _, expected in group]

            handlers._write_bulk = least_write  # type: ignore[assignment]
            ours, tool, floor = [], [], []
            for run in range(RUNS):
                ids = [e.id for e in rng.sample(singles, BULK)]
                t0 = time.process_time()
                journaled_update(raw, raw_journal, cal, cols, f"p{run}", ids, f"B{run}")
                t1 = time.process_time()
                bb.floor_update(raw, False, [(f"C{run}", "x", cal, i) for i in ids])
                t2 = time.process_time()
                ctx.turn_id = f"t{run}"
                call = ToolCall(f"r{run}", "bulk_update_calendar_events", {"updates": [
                    {"event_id": i, "title": f"T{run}", "description": "moved"} for i in ids]})
                result = registry.run(call)
                t3 = time.process_time()
                assert not result.is_error, result.text
                if run >= WARM:
                    ours.append(t1 - t0)
                    floor.append(t2 - t1)
                    tool.append(t3 - t2)
        finally:
            handlers._write_bulk = project_write
            raw_journal.close()
            raw.close()
            backend.close()
            journal.store.close()
    return statistics.median(ours), statistics.median(tool), statistics.median(floor)


def main(argv: list[str]) -> int:
    for size in [int(a) for a in argv] or [1000, 10000]:
        ours, tool, floor = measure(size)
        print(f"{size:>7,} events: Python journaled update {ours * 1e3:.2f} ms ({ours / floor:.1f}x), "
              f"in the tool {tool * 1e3:.2f} ms ({tool / floor:.1f}x), floor {floor * 1e3:.2f} ms "
              f"(CPU, median of {RUNS - WARM})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
