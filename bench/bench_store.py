"""The store on PostgreSQL against SQLite (issue 19), run by hand:

    .venv/bin/python bench/bench_store.py [--events 10000] [--seed 7]

Runs bench_backend's measurements twice on the same generated calendar: on temporary SQLite
files, then on a throwaway PostgreSQL server started for the run (fixtures/postgres.py, durable
settings: fsync and synchronous commit on, the calendar and journal in one database as
`DATABASE_URL` puts them, over TCP on 127.0.0.1). Aim: a month listing of the 10,000-event
calendar (median and p95) and a 50-event bulk update and its rollback (medians) on PostgreSQL
within 2x of SQLite. Then, on the same server, the ratios of issue 25 at `--events`: the bulk
update and its rollback against their floors (`bench_backend.ratio_row`: one raw executemany of
the same UPDATEs in one transaction), on SQLite and on PostgreSQL.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
for folder in (ROOT, ROOT / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

from bench_backend import measure, ms, p95, print_ratios, ratio_row  # noqa: E402

from fixtures.postgres import start_postgres  # noqa: E402

Statistic = Callable[[list[float]], float]
FIGURES: list[tuple[str, str, Statistic]] = [
    ("month listing, median", "list_times", statistics.median),
    ("month listing, p95", "list_times", p95),
    ("50-event bulk update, median", "bulk_times", statistics.median),
    ("its rollback, median", "rollback_times", statistics.median),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--synchronous-commit", choices=("on", "off"), default="on",
                        help="off: commits return before their WAL is flushed, the durability "
                             "SQLite's WAL with synchronous=NORMAL gives (a crash may lose the "
                             "last commits, never corrupts)")
    args = parser.parse_args(argv)
    sqlite = measure(argparse.Namespace(events=args.events, seed=args.seed, database_url=None))
    server = start_postgres(durable=True,
                            settings=f"-c synchronous_commit={args.synchronous_commit}")
    try:
        url = server.url(server.create_database("bench"))
        pg = measure(argparse.Namespace(events=args.events, seed=args.seed, database_url=url))
        ratios = [ratio_row("SQLite", args.events, None, 20, args.seed),
                  ratio_row("PostgreSQL", args.events,
                            lambda: server.url(server.create_database("ratios")), 20, args.seed)]
    finally:
        server.stop()
    print(f"calendar: {args.events} events; PostgreSQL {url.split('@')[1]}, "
          f"synchronous_commit={args.synchronous_commit}")
    print(f"{'':32}{'SQLite':>12}{'PostgreSQL':>14}{'ratio':>8}")
    met = True
    for label, key, stat in FIGURES:
        a, b = stat(sqlite[key]), stat(pg[key])
        ratio = b / a if a else float("inf")
        met = met and ratio <= 2.0
        print(f"{label:32}{ms(a):>12}{ms(b):>14}{ratio:>7.2f}x")
    for label, key in (("create, per event", "create_total"), ("patch, per event", "patch_total")):
        n = args.events if key == "create_total" else sqlite["patched"]
        print(f"{label:32}{ms(sqlite[key] / n):>12}{ms(pg[key] / n):>14}"
              f"{pg[key] / sqlite[key]:>7.2f}x")
    print(f"aim {'met' if met else 'MISSED'}: listing, bulk update and rollback on PostgreSQL "
          "within 2x of SQLite")
    return max(0 if met else 1, print_ratios(ratios))


if __name__ == "__main__":
    sys.exit(main())
