"""`agenda` over several calendars against one calendar's (issue 27 aim: 4 calendars of 10,000
events each within 2x of one calendar's), run by hand:

    .venv/bin/python bench/bench_accounts.py [--events 10000] [--runs 15] [--process-runs 5]

Three homes in a temporary folder, each a real config.toml and store, seeded with the events of
`bench_backend.make_events` (two years of a family's calendar, ~2% recurring series):

- `one`: no `[[accounts]]`, one calendar of N events (the app as it was);
- `one, 4N`: the same with 4N events in its one calendar (the same events as `four` in all);
- `four`: two local accounts (`home`: Family, Leo; `work`: Dad, Mom, a SQLite file of its own),
  four calendars of N events each, all four read.

Timed: the whole `agenda` command for 7 days from a fixed Monday, in process
(`assistant.cli.main`, output discarded: the settings read, the services built and recovery
checked, each calendar listed, the lines made), CPU time, median of `--runs` after one warm-up;
and the listing alone (`Services.agenda_listing`); and the command as a new process (CPU time of
the child, median of `--process-runs`), which adds Python's start and the imports. CPU time, not
wall: on a shared 2-core VM the wall clock moves with the neighbours, the process's own work less.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


from bench.bench_backend import TZ, TZ_NAME, make_events, seed_quickly
from tools.backends.local import LocalBackend

NOW = "2025-10-20T08:00:00"  # a Monday inside the events' two years
DAYS = "7"

FOUR = """\
calendars = ["home/Family", "home/Leo", "work/Dad", "work/Mom"]
default_calendar = "home/Family"

[[accounts]]
name = "home"
backend = "local"
calendars = ["Family", "Leo"]

[[accounts]]
name = "work"
backend = "local"
path = "work.db"
calendars = ["Dad", "Mom"]
"""


def seed(backend: LocalBackend, calendar_id: str, name: str, n: int, rng: random.Random) -> None:
    """`n` events written straight into one calendar (`seed_quickly`: seeding is not what is
    measured)."""
    backend.add_calendar(calendar_id, name, TZ_NAME)
    seed_quickly(backend, make_events(backend, n, rng), calendar_id)


def make_homes(folder: Path, n: int, seed_value: int) -> dict[str, Path]:
    rng = random.Random(seed_value)
    homes = {"one": folder / "one", "one, 4N": folder / "one4", "four": folder / "four"}
    for home in homes.values():
        home.mkdir()
    with contextlib.closing(LocalBackend(homes["one"] / "calendar.db", TZ_NAME)) as one:
        seed(one, "primary", "Family", n, rng)
    with contextlib.closing(LocalBackend(homes["one, 4N"] / "calendar.db", TZ_NAME)) as big:
        seed(big, "primary", "Family", 4 * n, rng)
    (homes["four"] / "config.toml").write_text(FOUR, encoding="utf-8")
    with contextlib.closing(LocalBackend(homes["four"] / "calendar.db", TZ_NAME)) as home:
        seed(home, "primary", "Family", n, rng)
        seed(home, "leo", "Leo", n, rng)
    with contextlib.closing(LocalBackend(homes["four"] / "work.db", TZ_NAME)) as work:
        seed(work, "dad", "Dad", n, rng)
        seed(work, "mom", "Mom", n, rng)
    return homes


def cpu_median(work: Callable[[], object], runs: int) -> float:
    work()  # warm-up: imports and the stores' first open
    times = []
    for _ in range(runs):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def in_process(home: Path, runs: int) -> tuple[float, float, int]:
    """(CPU of the whole command, CPU of the listing alone, events listed)."""
    from assistant.cli import main
    from assistant.services import build_services
    from assistant.settings import load_settings
    from tools.calendar.events import parse_when

    os.environ["CALENDAR_ASSISTANT_HOME"] = str(home)

    def command() -> None:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["agenda", "--now", NOW, "--days", DAYS]) == 0

    whole = cpu_median(command, runs)
    now = parse_when(NOW, TZ, "now")
    with build_services(load_settings()) as services:
        listed = len(services.agenda(now, int(DAYS)))  # type: ignore[arg-type]
        listing = cpu_median(lambda: services.agenda(now, int(DAYS)), runs)  # type: ignore[arg-type]
    return whole, listing, listed


def as_process(home: Path, runs: int) -> float:
    """Median CPU time (user + sys) of `agenda` as a new process."""
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(home)}
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([sys.executable, "-m", "assistant.cli", "agenda", "--now", NOW, "--days", DAYS],
                       env=env, check=True, capture_output=True, cwd=tempfile.gettempdir())
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000, help="events per calendar (N)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--process-runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    os.environ.setdefault("CALENDAR_ASSISTANT_TIMEZONE", TZ_NAME)
    for name in ("CALENDAR_ASSISTANT_BACKEND", "CALENDAR_ASSISTANT_CALENDAR", "DATABASE_URL"):
        os.environ.pop(name, None)
    with tempfile.TemporaryDirectory(prefix="bench-accounts-") as folder:
        homes = make_homes(Path(folder), args.events, args.seed)
        rows = {}
        for label, home in homes.items():
            whole, listing, listed = in_process(home, args.runs)
            process = as_process(home, args.process_runs) if args.process_runs else 0.0
            rows[label] = (whole, listing, listed, process)
    base = rows["one"]
    print(f"agenda, {DAYS} days from {NOW}; N = {args.events:,} events per calendar; CPU time, "
          f"medians ({args.runs} in process, {args.process_runs} as a process)")
    print("| home | events listed | listing | whole command, in process | ratio to one | "
          "as a new process | ratio to one |")
    print("|---|---|---|---|---|---|---|")
    for label, (whole, listing, listed, process) in rows.items():
        ratio = whole / base[0] if base[0] else float("nan")
        pratio = process / base[3] if base[3] else float("nan")
        print(f"| {label} | {listed} | {listing * 1000:.1f} ms | {whole * 1000:.1f} ms | {ratio:.2f}x | "
              f"{process * 1000:.0f} ms | {pratio:.2f}x |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
