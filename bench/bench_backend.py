"""Benchmark of the local backend and the journal, run by hand:

    .venv/bin/python bench/bench_backend.py [--events 10000] [--seed 7] [--database-url URL]

Builds a 10,000-event calendar (single timed events, all-day events and ~2% recurring series) in
a LocalBackend on a temporary file (or, with `--database-url`, in that database with its journal
beside it: bench/bench_store.py compares SQLite with PostgreSQL), then times: create (per
event), patch (per event), listing one month (`list_events` over 31 days, median and p95 of 50
runs), and the rollback of a 50-event bulk update made through the registry (`bulk_update_calendar_events`, then
`journal.rollback(turn_id)`, median of 20 runs). Peak memory: tracemalloc peak over a listing and
a bulk update + rollback, and the process's ru_maxrss.

Aims (issue 14): a 50-event bulk update through the registry under 25 ms, its rollback under
25 ms, a month of a 10,000-event calendar listed with a p95 under 10 ms (medians for the first
two).
"""
from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tools.backends.base import EventPatch
from tools.backends.local import LocalBackend
from tools.calendar.events import Event
from tools.context import ToolCall, ToolContext
from tools.journal.journal import Journal
from tools.locations import LocationService
from tools.registry import ToolRegistry
from tools.store.database import Store

TZ_NAME = "America/Los_Angeles"
TZ = ZoneInfo(TZ_NAME)
FIRST_DAY = date(2024, 7, 1)
SPAN_DAYS = 730  # two years of family life
TITLES = ["Soccer practice", "Dentist", "Piano lesson", "Team standup", "Groceries", "Book club",
          "Parent-teacher conference", "Swim meet", "Date night", "Vet appointment"]
PLACES = [None, None, "Riverside Park Field 3", "14 Main St", "Library", "12 Oak Lane, Springfield"]
RULES = ["RRULE:FREQ=WEEKLY;BYDAY=MO,WE", "RRULE:FREQ=WEEKLY", "RRULE:FREQ=DAILY;COUNT=30",
         "RRULE:FREQ=MONTHLY", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "RRULE:FREQ=YEARLY"]
MONTH_START = datetime(2025, 10, 1, tzinfo=TZ)
MONTH_END = MONTH_START + timedelta(days=31)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def make_events(backend: LocalBackend, n: int, rng: random.Random) -> list[Event]:
    events = []
    for _ in range(n):
        day = FIRST_DAY + timedelta(days=rng.randrange(SPAN_DAYS))
        roll = rng.random()
        title = rng.choice(TITLES)
        common: dict[str, Any] = {"id": backend.new_event_id(), "title": title,
                                  "timezone": TZ_NAME, "location": rng.choice(PLACES),
                                  "attendees": tuple(rng.sample(
                                      ["sam@example.com", "kim@example.com", "lee@example.org"],
                                      rng.randrange(3)))}
        if roll < 0.15:  # all-day
            events.append(Event(start=day, end=day + timedelta(days=rng.choice([1, 1, 1, 2, 3])),
                                all_day=True, **common))
            continue
        start = datetime(day.year, day.month, day.day, rng.randrange(7, 21), rng.choice([0, 15, 30, 45]),
                         tzinfo=TZ)
        end = start + timedelta(minutes=rng.choice([30, 45, 60, 90, 120]))
        recurrence = (rng.choice(RULES),) if roll > 0.98 else None
        events.append(Event(start=start, end=end, recurrence=recurrence, **common))
    return events


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--database-url", default=None,
                        help="a SQLAlchemy URL of an empty store (default: temporary SQLite files)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    return report(measure(parse(argv)))


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """Every figure of the run, by name (seconds, counts)."""
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        if args.database_url:  # the calendar and the journal in one store, as DATABASE_URL has it
            backend = LocalBackend(Store.from_url(args.database_url), TZ_NAME, close_store=True)
            journal = Journal(backend.store, backend)
        else:
            backend = LocalBackend(Path(tmp) / "calendar.db", TZ_NAME)
            journal = Journal(Store.sqlite(Path(tmp) / "journal.db"), backend)
        cal = backend.primary_calendar_id()
        events = make_events(backend, args.events, rng)
        n_recurring = sum(1 for e in events if e.recurrence)
        n_all_day = sum(1 for e in events if e.all_day)

        t0 = time.perf_counter()
        for event in events:
            backend.create_event(cal, event)
        create_total = time.perf_counter() - t0

        singles = [e for e in events if not e.recurrence]
        patched = rng.sample(singles, 1000)
        t0 = time.perf_counter()
        for event in patched:
            backend.patch_event(cal, event.id, EventPatch({"title": event.title + " (moved)"}))
        patch_total = time.perf_counter() - t0

        # cold: the first listing of each month of 2025 (rows read, series expanded afresh)
        cold_times = []
        for month in range(1, 13):
            first = datetime(2025, month, 1, tzinfo=TZ)
            t0 = time.perf_counter()
            backend.list_events(cal, first, first + timedelta(days=31))
            cold_times.append(time.perf_counter() - t0)

        month_rows = len(backend.list_events(cal, MONTH_START, MONTH_END))  # warm-up
        list_times = []
        for _ in range(50):
            t0 = time.perf_counter()
            backend.list_events(cal, MONTH_START, MONTH_END)
            list_times.append(time.perf_counter() - t0)

        ctx = ToolContext(backend=backend, journal=journal, calendar_id=cal, timezone=TZ_NAME,
                          locations=LocationService("12 Oak Lane, Springfield"))
        registry = ToolRegistry(ctx)
        bulk_times, rollback_times = [], []
        for run in range(21):
            ctx.turn_id = f"bench-{run}"
            chosen = rng.sample(singles, 50)
            updates = [{"event_id": e.id, "title": f"Bulk {run}", "description": "moved by the bench"}
                       for e in chosen]
            t0 = time.perf_counter()
            result = registry.run(ToolCall(f"b{run}", "bulk_update_calendar_events", {"updates": updates}))
            bulk = time.perf_counter() - t0
            assert not result.is_error, result.text
            t0 = time.perf_counter()
            report = journal.rollback(ctx.turn_id)
            rollback = time.perf_counter() - t0
            assert report.clean and len(report.restored) == 50, report.summary()
            if run:  # the first run warms caches
                bulk_times.append(bulk)
                rollback_times.append(rollback)
        check = backend.get_event(cal, chosen[0].id)
        assert check is not None and not check.title.startswith("Bulk"), "rollback did not restore"

        tracemalloc.start()
        backend.list_events(cal, MONTH_START, MONTH_END)
        ctx.turn_id = "bench-mem"
        registry.run(ToolCall("m", "bulk_update_calendar_events", {"updates": [
            {"event_id": e.id, "title": "Mem"} for e in rng.sample(singles, 50)]}))
        journal.rollback("bench-mem")
        _, traced_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        db_size = sum(p.stat().st_size for p in Path(tmp).iterdir())  # 0 on a server
        backend.close()
        journal.store.close()

    return {"events": args.events, "all_day": n_all_day, "recurring": n_recurring,
            "db_size": db_size, "create_total": create_total, "patch_total": patch_total,
            "patched": len(patched), "month_rows": month_rows, "list_times": list_times,
            "cold_times": cold_times, "bulk_times": bulk_times, "rollback_times": rollback_times,
            "traced_peak": traced_peak, "database": args.database_url or "sqlite"}


def report(f: dict[str, Any]) -> int:
    """Print the figures and the aims; 0 when every aim is met."""
    maxrss_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    list_times, bulk_times, rollback_times = f["list_times"], f["bulk_times"], f["rollback_times"]
    cold_times, traced_peak, db_size = f["cold_times"], f["traced_peak"], f["db_size"]
    create_total, patch_total, month_rows = f["create_total"], f["patch_total"], f["month_rows"]
    n_all_day, n_recurring, patched = f["all_day"], f["recurring"], f["patched"]
    args = argparse.Namespace(events=f["events"])
    list_median, list_p95 = statistics.median(list_times), p95(list_times)
    rb_median = statistics.median(rollback_times)
    print(f"calendar: {args.events} events ({n_all_day} all-day, {n_recurring} recurring series), "
          f"database {db_size / 1e6:.1f} MB")
    print(f"create: {us(create_total / args.events)} per event ({create_total:.2f} s total)")
    print(f"patch: {us(patch_total / patched)} per event (1000 patches)")
    print(f"list one month ({month_rows} rows): median {ms(list_median)}, p95 {ms(list_p95)} (50 runs)")
    print(f"list one month, first time (12 months of 2025): median {ms(statistics.median(cold_times))}, "
          f"max {ms(max(cold_times))}")
    print(f"bulk update of 50 events through the registry: median {ms(statistics.median(bulk_times))} (20 runs)")
    print(f"rollback of a 50-event bulk update: median {ms(rb_median)}, p95 {ms(p95(rollback_times))} (20 runs)")
    print(f"memory: tracemalloc peak {traced_peak / 1e6:.1f} MB (listing + bulk + rollback), "
          f"ru_maxrss {maxrss_kb / 1024:.0f} MB")
    aims = [("50-event bulk update through the registry < 25 ms",
             statistics.median(bulk_times) < 0.025),
            ("rollback of a 50-event bulk update < 25 ms", rb_median < 0.025),
            ("list a month of a 10,000-event calendar, p95 < 10 ms", list_p95 < 0.010)]
    for label, ok in aims:
        print(f"aim {'met' if ok else 'MISSED'}: {label}")
    return 0 if all(ok for _, ok in aims) else 1


if __name__ == "__main__":
    sys.exit(main())
