"""Right changes the guard verifies in full, moved a little: which moved ones does it still verify?

Run by hand: `python bench/guard_mutants.py [--all] CORPUS.jsonl ...`.

A silent miss (a wrong change judged verified in full, so no model looks at it) is the guard's
second-worst failure, and a corpus holds only the wrong changes its writer thought of. This takes
every right case the symbolic layer verifies in full and, for each write that has a start, makes
mutants: the start and end a day later, an hour later, a week later, and (with `--all`) the end
alone half an hour later. A mutant still verified in full is printed for a person to read: many
are right too ("next friday" is two Fridays, "afternoon" is a range, a new event's end is free
when no length is said), and the rest are kinds of silent miss. Its first use found four such
kinds and, beside them, two false alarms (the guard's commits of 2026-11-27 name them).

It imports the guard (it measures it, as bench_guard.py does); the corpora it reads do not.
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
from collections.abc import Iterator
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reflection.case import case_from_json  # noqa: E402
from reflection.guard import Guard  # noqa: E402

WRITES = ("create_calendar_event", "update_calendar_event")
MOVES: tuple[tuple[str, tuple[str, ...], timedelta], ...] = (
    ("day+1", ("start", "end"), timedelta(days=1)),
    ("hour+1", ("start", "end"), timedelta(hours=1)),
    ("day+7", ("start", "end"), timedelta(days=7)),
    ("end+30m", ("end",), timedelta(minutes=30)),
)


def shifted(value: Any, by: timedelta) -> str | None:
    """A contract date or datetime `by` later, written as it was (a date stays a date; an hour
    shift of a date is no shift: None)."""
    if not isinstance(value, str):
        return None
    if len(value) == 10:
        if by % timedelta(days=1):
            return None
        return (date.fromisoformat(value) + by).isoformat()
    zulu = value.endswith("Z")
    moved = (datetime.fromisoformat(value.replace("Z", "+00:00")) + by).isoformat()
    return moved.replace("+00:00", "Z") if zulu else moved


def mutants(case: dict[str, Any], with_end: bool = False) -> Iterator[tuple[str, dict[str, Any]]]:
    """(label, mutant) for each write with a start: the same case with that write moved, in its
    input and its result alike."""
    for index, call in enumerate(case["tool_calls"]):
        given = call.get("input", {})
        if call["name"] not in WRITES or "start" not in given:
            continue
        for label, fields, by in MOVES:
            if label == "end+30m" and (not with_end or "end" not in given):
                continue
            mutant = copy.deepcopy(case)
            moved = mutant["tool_calls"][index]
            ok = True
            for name in fields:
                if name not in given:
                    continue
                new = shifted(given[name], by)
                if new is None:
                    ok = False
                    break
                moved["input"][name] = new
                result = moved.get("result")
                if isinstance(result, dict) and isinstance(result.get(name), str):
                    result[name] = shifted(result[name], by) or result[name]
            if ok:
                yield f"{label}@{index}", mutant


def verified(case: dict[str, Any]) -> bool:
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    return verdict.valid and not verdict.llm_needed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpora", nargs="+", type=Path)
    parser.add_argument("--all", action="store_true", help="also move the end alone by half an hour")
    args = parser.parse_args(argv)
    made = kept = 0
    for corpus in args.corpora:
        for line in corpus.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            case = json.loads(line)
            if case.get("expect", {}).get("valid") is not True or not verified(case):
                continue
            for label, mutant in mutants(case, args.all):
                made += 1
                if verified(mutant):
                    kept += 1
                    print(f"{case['id']}\t{label}\t{case['user_message'][:120]}")
    print(f"{kept} of {made} mutants still verified in full", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
