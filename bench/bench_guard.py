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
    args = parser.parse_args(argv)
    paths = args.corpora or sorted((ROOT / "fixtures" / "corpus").glob("guard_cases*.jsonl"))
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
