"""CalDAV and iCalendar import figures (issue 16 aims).

1. A month listing of a 1,000-event CalDAV calendar, 5 % of it weekly series, on a local Radicale
   (started here as in the tests): aim under 500 ms.
2. `import` of a 1,000-event .ics file (read, checked, planned and written as one journaled
   change) into the local calendar: aim under 2 s.

Run: `.venv/bin/python bench/bench_caldav.py` (about a minute: filling the CalDAV calendar is
one PUT per event). Figures on the 2-core dev container, 2026-11, median of 5 runs, measured
while other test suites shared the machine (load average about 3):

    caldav month listing (1000 events, 50 series): 0.42 s   (aim < 0.5 s)
    import 1000-event .ics into the local calendar: 3.27 s  (aim < 2 s: missed)

Where the import's time went (cProfile, then): reading and checking the file 0.75 s, planning
0.2 s, and the journal about 5 ms an event (a pre-image and a post-image, each its own SQLite
commit). Since issue 25 the creates are written and journaled in chunks
(`Journal.create_events`); bench/bench_import.py measures the import against its floors
(bench/RESULTS_import.md).
"""
from __future__ import annotations

import statistics
import sys
import tempfile
import time
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the Radicale starter the tests use

from caldav_support import caldav_backend, stop_radicale  # type: ignore[import-not-found]

from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.ical.events import calendar_of, new_component
from tools.ical.files import read_ics
from tools.ical_import import apply_import, plan_import
from tools.journal.journal import Journal
from tools.store.database import Store

TZ = "America/Los_Angeles"
LA = ZoneInfo(TZ)
EVENTS = 1000
RECURRING_SHARE = 0.05
RUNS = 5


def sample_events(count: int = EVENTS) -> list[Event]:
    """`count` events over 2025, one in twenty a weekly series."""
    made = []
    every = round(1 / RECURRING_SHARE)
    for n in range(count):
        day = date(2025, 1, 1) + timedelta(days=(n * 7) % 365)
        start = datetime(day.year, day.month, day.day, 8 + n % 10, 0, tzinfo=LA)
        made.append(Event(id=f"bench{n:05d}", title=f"Event {n}", start=start,
                          end=start + timedelta(hours=1), timezone=TZ,
                          location="Town hall" if n % 3 == 0 else None,
                          recurrence=("RRULE:FREQ=WEEKLY;COUNT=52",) if n % every == 0 else None))
    return made


def timed(fn: object, runs: int = RUNS) -> float:
    samples = []
    for _ in range(runs):
        begin = time.perf_counter()
        fn()  # type: ignore[operator]
        samples.append(time.perf_counter() - begin)
    return statistics.median(samples)


def bench_listing() -> float:
    backend = caldav_backend(time_zone=TZ)
    cal = backend.primary_calendar_id()
    for event in sample_events():
        backend.create_event(cal, event)
    start, end = datetime(2025, 6, 1, tzinfo=LA), datetime(2025, 7, 1, tzinfo=LA)
    listed = backend.list_events(cal, start, end)
    assert len(listed) > 100, len(listed)
    return timed(lambda: backend.list_events(cal, start, end))


def bench_import(folder: Path) -> float:
    ics = folder / "thousand.ics"
    ics.write_bytes(calendar_of(new_component(e, e.id) for e in sample_events()).to_ical())

    def once() -> None:
        run = folder / f"run{time.perf_counter_ns()}"
        run.mkdir()
        backend = LocalBackend(run / "calendar.db", TZ)
        journal = Journal(Store.sqlite(run / "journal.db"), backend)
        steps = plan_import(backend, "primary", read_ics(ics, TZ), TZ)
        apply_import(journal, "primary", steps)
        assert len(steps) == EVENTS
        backend.close()
        journal.store.close()

    return timed(once)


def main() -> int:
    try:
        listing = bench_listing()
    finally:
        stop_radicale()
    with tempfile.TemporaryDirectory() as tmp:
        importing = bench_import(Path(tmp))
    print(f"caldav month listing ({EVENTS} events, {int(EVENTS * RECURRING_SHARE)} series): "
          f"{listing:.2f} s   (aim < 0.5 s)")
    print(f"import {EVENTS}-event .ics into the local calendar: {importing:.2f} s  (aim < 2 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
