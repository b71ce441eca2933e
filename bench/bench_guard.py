"""Guard benchmark on labelled corpora (run by hand):

    python bench/bench_guard.py [--json] [--misses] [CORPUS.jsonl ...]
    # default: every guard corpus under fixtures/corpus/

For each corpus, overall and per family (`expect.family`):
- **false alarms**: right changes judged invalid (the guard would roll back a right change);
- **silent misses**: wrong changes judged valid with `llm_needed` false (nothing else would look);
- **proven**: wrong changes judged invalid by code;
- **deferred**: wrong changes judged valid but sent to the reflection model (`llm_needed`);
  deferred is not caught;
- **skips model**: right changes on which `auto` mode makes no reflection call;
- **stands unreviewed**: wrong changes that would stay on the calendar with no reflection model
  at all (symbolic mode, no key, an outage): valid, and not a destructive change the attempt
  rolls back for want of a review (`reflection.guard.destructive_unverified`).

Time per case (symbolic layer, plus a replayed reflection answer where the case has one; no
network): median and p99, against the floor of parsing the same case (`case_from_json`) in the
same run.

With `--sizes 1000,10000,100000` (issue 25): the guard per check **with a calendar around it**.
A local calendar (temporary SQLite file) is filled with that many background events over ten
years (2020-2029: family titles, people, places; 1 in 200 a weekly series of 10-40 weeks); each
case's own events are written into it, and the check reads the calendar as a live attempt does
(`assistant.guard_case.guard_window`: a window of many events read in part, `BoundedWindow`:
its distinct texts, the events the message's words reach, the named events and series, the
rest on demand; a small one whole) before judging. Its time per
check (reads included; wall clock, and the process's CPU time, which another process's load on
a shared machine disturbs less) is set against the floor, the same check on the bare case (the case's own
events only), timed in the same loop: p99 and median, and the ratio of the p99s. Each verdict is
compared with the verdict on the whole window read event by event (`calendar_around`, untimed):
any difference fails the run (exit 1). How many differ from the bare case's is printed too: the
background shares the cases' titles, places and people on purpose, so a calendar around a case
may make a name ambiguous or a time taken, and the verdict rightly changes.
Once the calendar is filled, what is alive is frozen out of the collector
(`assistant.heap.settle_start_up`), as the chat and the MCP server do once built.
`--sample N` judges every k-th case so that N are judged per size.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reflection.case import case_from_json  # noqa: E402
from reflection.guard import Guard, destructive_unverified  # noqa: E402

COLUMNS = ("right", "wrong", "false_alarms", "silent", "proven", "deferred", "skips_model",
           "stands_unreviewed")


def _row() -> dict[str, int]:
    return dict.fromkeys(COLUMNS, 0)


def run(path: Path) -> dict[str, Any]:
    guard = Guard(mode="symbolic")
    cases = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    total = _row()
    families: dict[str, dict[str, int]] = {}
    times: list[float] = []
    floors: list[float] = []
    misses: list[tuple[Any, str, str]] = []
    for data in cases:
        expect = data.get("expect") or {}
        t0 = time.perf_counter()
        case = case_from_json(data)
        t1 = time.perf_counter()
        outcome = guard.judge(case, replayed=case.llm_reflection) if case.has_llm_reflection \
            else guard.judge(case)
        t2 = time.perf_counter()
        floors.append((t1 - t0) * 1000)
        times.append((t2 - t0) * 1000)
        verdict = outcome.verdict
        rows = (total, families.setdefault(str(expect.get("family", "-")), _row()))
        if expect.get("valid") is False:
            stands = verdict.valid and not (verdict.unverified and destructive_unverified(case))
            for row in rows:
                row["wrong"] += 1
                row["proven"] += not verdict.valid
                row["deferred"] += verdict.valid and verdict.llm_needed
                row["silent"] += verdict.valid and not verdict.llm_needed
                row["stands_unreviewed"] += stands
            if verdict.valid:
                how = "deferred" if verdict.llm_needed else "SILENT"
                misses.append((data.get("id"), how, data["user_message"]))
        elif expect.get("valid") is True:
            for row in rows:
                row["right"] += 1
                row["false_alarms"] += not verdict.valid
                row["skips_model"] += verdict.valid and not verdict.llm_needed
            if not verdict.valid:
                why = "; ".join(f.issue for f in verdict.errors)[:200]
                misses.append((data.get("id"), "FALSE ALARM: " + why, data["user_message"]))
    times.sort()
    return {"corpus": str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path),
            "cases": len(cases), "total": total, "families": families,
            "ms_median": round(statistics.median(times), 3) if times else None,
            "ms_p99": round(times[max(0, int(len(times) * 0.99) - 1)], 3) if times else None,
            "floor_ms_median": round(statistics.median(floors), 3) if floors else None,
            "misses": misses}


BACKGROUND_TITLES = (
    "Soccer practice", "Dentist - Leo", "Piano lesson", "Team standup", "Groceries", "Book club",
    "Parent-teacher conference", "Swim meet", "Date night", "Vet - Biscuit", "Haircut - Sam",
    "Orthodontist", "Grandma's birthday dinner", "Yoga", "Math tutoring", "Ballet - Maya",
    "School concert", "Car service", "Pharmacy pickup", "Playdate with Noah", "Budget review",
    "Dance recital", "Movie night", "Library hold pickup", "Track practice", "Family dinner")
BACKGROUND_PLACES = (None, None, None, "Riverside Park Field 3", "14 Main St", "Library",
                     "Lincoln Elementary", "Home Depot", "Smile Dental, 200 Oak Ave")
BACKGROUND_PEOPLE = ("sam@example.com", "kim@example.com", "leo.park@example.org",
                     "grandma.jo@example.net", "coach.rivera@example.com")


def background_calendar(path: Path, count: int, seed: int = 25) -> Any:
    """A local calendar of `count` events over ten years, written in one transaction (the bench
    measures reading it, not filling it)."""
    import random
    from datetime import date, datetime, timedelta
    from zoneinfo import ZoneInfo

    from tools.backends.local import LocalBackend, event_to_fields, events_table
    from tools.calendar.events import Event

    tz_name = "America/Los_Angeles"
    tz = ZoneInfo(tz_name)
    rng = random.Random(seed)
    backend = LocalBackend(path, tz_name)
    rows = []
    for n in range(count):
        day = date(2020, 1, 1) + timedelta(days=rng.randrange(3653))
        title = rng.choice(BACKGROUND_TITLES)
        common: dict[str, Any] = {"id": f"bg{n:06d}", "title": title, "timezone": tz_name,
                                  "location": rng.choice(BACKGROUND_PLACES),
                                  "attendees": tuple(rng.sample(BACKGROUND_PEOPLE, rng.randrange(3))),
                                  "description": "Bring the forms" if rng.random() < 0.1 else None}
        if rng.random() < 0.1:
            event = Event(start=day, end=day + timedelta(days=1), all_day=True, **common)
        else:
            start = datetime(day.year, day.month, day.day, rng.randrange(7, 21),
                             rng.choice((0, 15, 30, 45)), tzinfo=tz)
            rule = (f"RRULE:FREQ=WEEKLY;COUNT={rng.randrange(10, 41)}",) \
                if rng.random() < 0.005 else None
            event = Event(start=start, end=start + timedelta(minutes=rng.choice((30, 60, 90))),
                          recurrence=rule, **common)
        rows.append({"calendar_id": "primary", "id": event.id, "version": 1, "turn_id": None,
                     **event_to_fields(event)})
    with backend.engine.begin() as conn:
        conn.execute(events_table.insert(), rows)
    return backend


def _verdict(guard: Guard, case: Any) -> str:
    """The verdict as `calendar-assistant check` prints it (a replayed answer where the case has
    one), to compare two readings of one case byte for byte."""
    run = guard.judge(case, replayed=case.llm_reflection) if case.has_llm_reflection \
        else guard.judge(case)
    return json.dumps(run.verdict.to_json(case.id))


def calendar_run(paths: list[Path], sizes: list[int], sample: int) -> list[dict[str, Any]]:
    """Per size: the guard per check with the calendar around it against the bare case. The
    timed check reads the window as an attempt does (`guard_window`: in part when it holds many
    events, the rest through its distinct texts); its verdict is compared with the verdict on
    the whole window read event by event (`calendar_around`, untimed), which it must equal."""
    import dataclasses
    import tempfile

    from sqlalchemy import delete

    from assistant.guard_case import calendar_around, guard_window, named_event_ids
    from assistant.heap import settle_start_up
    from tools.backends.local import events_table

    guard = Guard(mode="symbolic")
    cases = [json.loads(line) for path in paths for line in path.read_text().splitlines()
             if line.strip()]
    step = max(1, len(cases) // sample) if sample else 1
    cases = cases[::step]
    out = []
    for size in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            backend = background_calendar(Path(tmp) / "calendar.db", size)
            settle_start_up()  # as the chat and the MCP server do once built (assistant.heap)
            with_cal: list[float] = []
            listing: list[float] = []
            cpu: list[float] = []
            listing_cpu: list[float] = []
            bare: list[float] = []
            window_sizes: list[int] = []
            read_sizes: list[int] = []
            unlike_whole: list[Any] = []
            unlike_bare = 0
            for data in cases:
                case = case_from_json(data)
                for event in case.calendar:
                    backend.upsert_event("primary", event)
                named = named_event_ids(case.tool_calls, case.catalog)
                whole = calendar_around(backend, "primary", case.now, named)
                whole_verdict = _verdict(guard, dataclasses.replace(case, calendar=list(whole.values())))
                for _ in range(2):  # the first pass warms the caches a running app would have
                    c0, t0 = time.process_time(), time.perf_counter()
                    events, window = guard_window(backend, "primary", case.now, named,
                                                  case.user_message, {})
                    c1, t1 = time.process_time(), time.perf_counter()
                    around = dataclasses.replace(case, calendar=list(events.values()), around=window)
                    verdict = _verdict(guard, around)
                    c2, t2 = time.process_time(), time.perf_counter()
                    bare_verdict = _verdict(guard, case)
                    t3 = time.perf_counter()
                with_cal.append((t2 - t0) * 1000)
                listing.append((t1 - t0) * 1000)
                cpu.append((c2 - c0) * 1000)
                listing_cpu.append((c1 - c0) * 1000)
                bare.append((t3 - t2) * 1000)
                window_sizes.append(len(whole))
                read_sizes.append(len(events))
                if verdict != whole_verdict:
                    unlike_whole.append(case.id)
                unlike_bare += verdict != bare_verdict
                with backend.engine.begin() as conn:
                    conn.execute(delete(events_table).where(
                        events_table.c.id.in_([e.id for e in case.calendar])))
            backend.close()
        out.append({"events": size, "cases": len(cases),
                    "window_events_median": statistics.median(window_sizes),
                    "read_events_median": statistics.median(read_sizes),
                    "verdicts_unlike_whole_window": unlike_whole,
                    "verdicts_unlike_bare_case": unlike_bare,
                    "ms_p99": _p99(with_cal), "ms_median": round(statistics.median(with_cal), 3),
                    "listing_ms_p99": _p99(listing),
                    "listing_ms_median": round(statistics.median(listing), 3),
                    "cpu_ms_p99": _p99(cpu), "cpu_ms_median": round(statistics.median(cpu), 3),
                    "listing_cpu_ms_p99": _p99(listing_cpu),
                    "floor_ms_p99": _p99(bare), "floor_ms_median": round(statistics.median(bare), 3)})
    return out


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return round(ordered[max(0, int(len(ordered) * 0.99) - 1)], 3)


def calendar_markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| calendar | cases | window events (median) | events read (median) "
             "| check p99 / median (reads included) "
             "| of which reads p99 | CPU: check p99 / median, reads p99 "
             "| floor: bare case p99 / median | ratio of p99s "
             "| verdicts unlike the whole window's / the bare case's |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['events']:,} events | {r['cases']} | {r['window_events_median']:.0f} | "
                     f"{r['read_events_median']:.0f} | "
                     f"{r['ms_p99']} / {r['ms_median']} ms | {r['listing_ms_p99']} ms | "
                     f"{r['cpu_ms_p99']} / {r['cpu_ms_median']} ms, {r['listing_cpu_ms_p99']} ms | "
                     f"{r['floor_ms_p99']} / {r['floor_ms_median']} ms | "
                     f"{r['ms_p99'] / r['floor_ms_p99']:.1f}x | "
                     f"{len(r['verdicts_unlike_whole_window'])} / {r['verdicts_unlike_bare_case']} |")
    return "\n".join(lines)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def markdown(result: dict[str, Any]) -> str:
    lines = [f"### {result['corpus']} ({result['cases']} cases)", "",
             "| family | right/wrong | false alarms | silent misses | proven | deferred | skips model "
             "| stands unreviewed |", "|---|---|---|---|---|---|---|---|"]
    rows = sorted(result["families"].items()) + [("**all**", result["total"])]
    for name, r in rows:
        lines.append(f"| {name} | {r['right']}/{r['wrong']} | {r['false_alarms']} | {r['silent']} | "
                     f"{r['proven']} ({_pct(r['proven'], r['wrong'])}) | {r['deferred']} | "
                     f"{r['skips_model']} ({_pct(r['skips_model'], r['right'])}) | {r['stands_unreviewed']} |")
    ratio = result["ms_median"] / result["floor_ms_median"] if result["floor_ms_median"] else 0
    lines += ["", f"guard per case: median {result['ms_median']} ms, p99 {result['ms_p99']} ms; floor "
              f"(parsing the case) median {result['floor_ms_median']} ms; ratio {ratio:.0f}x"]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("corpora", nargs="*", type=Path)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--misses", action="store_true", help="list the false alarms and misses")
    parser.add_argument("--sizes", default="",
                        help="comma-separated calendar sizes: time each check with that many events around it")
    parser.add_argument("--sample", type=int, default=0, help="with --sizes: judge about N cases per size")
    args = parser.parse_args(argv)
    paths = args.corpora or sorted((ROOT / "fixtures" / "corpus").glob("guard_cases*.jsonl"))
    if args.sizes:
        rows = calendar_run(paths, [int(x) for x in args.sizes.split(",")], args.sample)
        print(json.dumps(rows, indent=1) if args.json else calendar_markdown(rows))
        unlike = {r["events"]: r["verdicts_unlike_whole_window"] for r in rows
                  if r["verdicts_unlike_whole_window"]}
        if unlike:  # the bounded reading must judge as the whole window does
            print(f"FAIL: verdicts unlike the whole window's: {unlike}", file=sys.stderr)
            return 1
        return 0
    for path in paths:
        result = run(path)
        misses = result.pop("misses")
        print(json.dumps(result, indent=1) if args.json else markdown(result))
        if args.misses:
            for miss in misses:
                print("  ", miss)
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
