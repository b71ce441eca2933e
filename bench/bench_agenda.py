"""`calendar-assistant agenda` on a big calendar, run by hand:

    .venv/bin/python bench/bench_agenda.py [--events 100000] [--days 7]

Seeds bench_backend's calendar (two years of family events, 2% of them repeating series) into a
temporary home, then runs the installed command as a person would, in a child process, and
reads the child's CPU time and peak resident memory (`getrusage(RUSAGE_CHILDREN)`). The floor,
in the same run, is the same command on an empty calendar of the same home layout: what any
agenda costs (interpreter, imports, opening the stores) before it reads an event. Issue 25's aim
is a 100,000-event agenda under 100 MB peak. Peak RSS counts the pages of the calendar file the
listing touched through SQLite's memory map (shared with the OS page cache); the run says how
much that is by running once more with the map off.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "bench"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import bench_backend as bb  # noqa: E402  (imports the project only for the child that seeds)

COMMAND = str(Path(sys.executable).parent / "calendar-assistant")
TIME = "/usr/bin/time"  # GNU time: the child's own CPU and peak resident set


def seed(home: Path, events: int) -> None:
    """The calendar written by a child of its own: a parent holding 100,000 events would lend
    its pages to every child it forks, and the children's peak would be the parent's."""
    subprocess.run([sys.executable, __file__, "--seed-only", str(home), "--events", str(events)],
                   check=True)


def _seed_here(home: Path, events: int) -> None:
    from tools.backends.local import LocalBackend

    backend = LocalBackend(home / "calendar.db", bb.TZ_NAME)
    if events:
        bb.seed_quickly(backend, bb.make_events(backend, events, random.Random(7)))
    backend.close()


def run(home: Path, days: int) -> tuple[float, float]:
    """(CPU seconds, peak RSS in MB) of one `agenda` child, as GNU time reports them (the
    child's own peak: `getrusage` of the children would count pages this process lends each
    child it forks)."""
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(home), "CALENDAR_ASSISTANT_TIMEZONE": bb.TZ_NAME}
    done = subprocess.run([TIME, "-f", "%U %S %M", COMMAND, "agenda", "--days", str(days),
                           "--now", "2025-10-01"], env=env, check=True, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    user, system, peak_kb = done.stderr.split()[-3:]
    return float(user) + float(system), int(peak_kb) / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--days", type=int, default=7)
    parser.add_argument("--seed-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.seed_only is not None:
        _seed_here(args.seed_only, args.events)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        empty, big = Path(tmp) / "empty", Path(tmp) / "big"
        empty.mkdir()
        big.mkdir()
        seed(empty, 0)
        seed(big, args.events)
        floor_cpu, floor_rss = run(empty, args.days)  # the smaller child first: maxrss only grows
        cpu, rss = run(big, args.days)
    print(f"agenda --days {args.days}: empty calendar {floor_cpu:.2f} s CPU, {floor_rss:.0f} MB peak; "
          f"{args.events:,} events {cpu:.2f} s CPU ({cpu / floor_cpu:.1f}x), {rss:.0f} MB peak "
          f"(aim < 100 MB: {'met' if rss < 100 else 'MISSED'})")
    return 0 if rss < 100 else 1


if __name__ == "__main__":
    sys.exit(main())
