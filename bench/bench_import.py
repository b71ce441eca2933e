"""`import` of a 1,000-event .ics against its floors (issue 25), in one run:

    .venv/bin/python bench/bench_import.py [--events 1000] [--runs 3] [--no-caldav] [--profile]

The file is `bench_caldav.sample_events` written as one VCALENDAR: 1,000 events over 2025, one
in twenty a weekly series of 52 (the file issue 25 measured). The use case timed is what
`calendar-assistant import FILE` does once its services are built: `read_ics` (read and check the
whole file), `plan_import` against the calendar, `apply_import` as one journaled change; the
journal in a SQLite file of its own beside the calendar, as the app keeps them.

- local: into a fresh local calendar (SQLite), in CPU time (the process does all the work),
  against the floor of parsing the same bytes with icalendar and expanding every series with
  recurring-ical-events (`floor_parse`). Aim: <= 1.5x.
- CalDAV: into a fresh calendar on a local Radicale (started as the tests start it,
  tests/caldav_support.py), in wall time (the server does part of the work in another process),
  against the floor of a raw caldav-library `add_event` (one PUT) of each of the same resources
  into another fresh calendar of the same server (`floor_caldav`). Aim: <= 1.5x.

Project and floor runs are interleaved, and each run ends by checking what it wrote (the event
count; for the project, that `undo` of the import leaves the calendar empty, untimed): a ratio
taken side by side moves far less than absolute times on a shared 2-core VM. `--profile` prints
the top of a cProfile of one project run of each kind instead.
"""
from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for extra in (ROOT, ROOT / "tests", ROOT / "bench"):
    if str(extra) not in sys.path:
        sys.path.insert(0, str(extra))

import icalendar
import recurring_ical_events
from bench_backend import Clock  # the same clock as the backend's ratios
from bench_caldav import sample_events
from caldav_support import (  # type: ignore[import-not-found]
    PASSWORD,
    USERNAME,
    caldav_backend,
    new_calendar_url,
    radicale_server,
    stop_radicale,
)

from tools.backends.base import CalendarBackend
from tools.backends.local import LocalBackend
from tools.ical.events import calendar_of, new_component
from tools.ical.files import read_ics
from tools.ical_import import apply_import, plan_import
from tools.journal.journal import Journal
from tools.store.database import Store

TZ = "America/Los_Angeles"
AIM = 1.5


def ics_bytes(count: int) -> bytes:
    return bytes(calendar_of(new_component(e, e.id) for e in sample_events(count)).to_ical())


def resources(data: bytes) -> list[str]:
    """The file as the CalDAV floor sends it: one VCALENDAR per UID (made before timing)."""
    cal = icalendar.Calendar.from_ical(data)
    by_uid: dict[str, list[Any]] = {}
    for component in cal.walk("VEVENT"):
        by_uid.setdefault(str(component["UID"]), []).append(component)
    return [calendar_of(parts).to_ical().decode() for parts in by_uid.values()]


# ---------------------------------------------------------------------------- floors
def floor_parse(data: bytes) -> int:
    """The least work that reads the same file: icalendar parses it, recurring-ical-events
    expands every series (the library the project expands with); the occurrences counted."""
    cal = icalendar.Calendar.from_ical(data)
    return sum(1 for _ in recurring_ical_events.of(cal).all())


def floor_caldav(url: str, bodies: list[str]) -> int:
    """The least work that stores the same events: the caldav library's `add_event` (one PUT)
    of each resource into a fresh calendar."""
    from caldav import DAVClient

    with DAVClient(url.split("/", 3)[0] + "//" + url.split("/", 3)[2] + "/", username=USERNAME,
                   password=PASSWORD, auth_type="basic") as client:
        calendar = client.calendar(url=url)
        for body in bodies:
            calendar.add_event(body)
    return len(bodies)


# ---------------------------------------------------------------------------- the project
def project_import(backend: CalendarBackend, journal: Journal, path: Path) -> str:
    """What `calendar-assistant import FILE` runs once its services are built."""
    cal = backend.primary_calendar_id()
    steps = plan_import(backend, cal, read_ics(path, TZ), TZ)
    return apply_import(journal, cal, steps)


def local_run(folder: Path) -> tuple[LocalBackend, Journal]:
    folder.mkdir()
    backend = LocalBackend(folder / "calendar.db", TZ)
    return backend, Journal(Store.sqlite(folder / "assistant.db"), backend)


def caldav_run(folder: Path) -> tuple[CalendarBackend, Journal]:
    folder.mkdir()
    backend = caldav_backend(time_zone=TZ)
    return backend, Journal(Store.sqlite(folder / "assistant.db"), backend)


def check_and_undo(backend: CalendarBackend, journal: Journal, turn: str, count: int) -> None:
    """Untimed: the import wrote `count` events, and undo takes every one back."""
    cal = backend.primary_calendar_id()
    span = (datetime(2024, 12, 1, tzinfo=backend_zone()), datetime(2026, 2, 1, tzinfo=backend_zone()))
    masters = {e.recurring_event_id or e.id for e in backend.list_events(cal, *span)}
    assert len(masters) == count, (len(masters), count)
    report = journal.rollback(turn)
    assert report.clean and len(report.restored) == count, report.summary()
    assert backend.list_events(cal, *span) == []


def backend_zone() -> Any:
    from zoneinfo import ZoneInfo

    return ZoneInfo(TZ)


def profile(work: Callable[[], Any], title: str) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    work()
    profiler.disable()
    print(f"\n--- {title}")
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


def _measure(args: argparse.Namespace, path: Path, title: str,
             open_run: Callable[[int], tuple[CalendarBackend, Journal]],
             floor: Callable[[], Any]) -> tuple[Clock, Clock] | None:
    """The project's import and its floor, run by run on fresh calendars (each import checked
    and undone, untimed); with `--profile`, one profiled import and None."""
    project, floor_clock = Clock(), Clock()
    for run in range(args.runs):
        backend, journal = open_run(run)
        if args.profile:
            profile(partial(project_import, backend, journal, path), title)
            return None
        turn = project.time(project_import, backend, journal, path)
        check_and_undo(backend, journal, turn, args.events)
        backend.close()
        journal.store.close()
        assert floor_clock.time(floor) is not False
    return project, floor_clock


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3, help="timed runs of each (median)")
    parser.add_argument("--no-caldav", action="store_true", help="the local ratio only")
    parser.add_argument("--profile", action="store_true",
                        help="print a cProfile of one project run of each kind, no ratios")
    args = parser.parse_args(argv)
    data = ics_bytes(args.events)
    rows: list[tuple[str, str, Clock, Clock, bool]] = []
    with tempfile.TemporaryDirectory(prefix="bench-import-") as tmp:
        folder = Path(tmp)
        path = folder / "thousand.ics"
        path.write_bytes(data)
        local = _measure(args, path, "local import", lambda run: local_run(folder / f"local{run}"),
                         lambda: floor_parse(data) >= args.events)
        if local is not None:
            rows.append(("local (SQLite)", "parse + expand", *local, True))
        if not args.no_caldav:
            bodies = resources(data)
            try:
                server = radicale_server()
                remote = _measure(args, path, "caldav import",
                                  lambda run: caldav_run(folder / f"caldav{run}"),
                                  lambda: floor_caldav(new_calendar_url(server), bodies))
            finally:
                stop_radicale()
            if remote is not None:
                rows.append(("CalDAV (Radicale)", "caldav add_event", *remote, False))
    if args.profile:
        return 0
    print(f"\nimport of a {args.events:,}-event .ics against its floors "
          f"(median of {args.runs} runs)")
    print(f"{'into':20}{'floor':18}{'clock':>6}{'project':>10}{'floor':>10}{'ratio':>8}"
          f"{'aim':>7}   (other clock)")
    for into, what, project, floor, on_cpu in rows:
        ratio = project.median(on_cpu) / floor.median(on_cpu)
        other = project.median(not on_cpu) / floor.median(not on_cpu)
        print(f"{into:20}{what:18}{'CPU' if on_cpu else 'wall':>6}"
              f"{project.median(on_cpu):>9.2f}s{floor.median(on_cpu):>9.2f}s{ratio:>7.1f}x"
              f"{'<=' + str(AIM) + 'x':>7}   ({'wall' if on_cpu else 'CPU'} {other:.1f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
