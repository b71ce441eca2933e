"""Guard benchmark on a labelled corpus (run by hand):

    python bench/bench_guard.py [CORPUS.jsonl ...]      # default: fixtures/corpus/guard_cases.jsonl

Reports, per corpus: error recall (wrong cases judged invalid), false-positive rate (correct cases
judged invalid), the share of correct guarded cases on which `auto` mode skips the model call
(llm_needed false), recall per expected error type, and time per `check` case (symbolic layer plus
any replayed reflection answer; no network).
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from reflection.case import case_from_json  # noqa: E402
from reflection.guard import Guard  # noqa: E402


def run(path: Path) -> dict:
    guard = Guard(mode="symbolic")
    cases = [json.loads(l) for l in path.read_text().splitlines() if l.strip()]
    wrong = caught = correct = false_pos = skipped = 0
    per_type: dict[str, list[int]] = {}
    times = []
    misses = []
    for data in cases:
        expect = data.get("expect") or {}
        case = case_from_json(data)
        t0 = time.perf_counter()
        run = guard.judge(case, replayed=case.llm_reflection) if case.has_llm_reflection else guard.judge(case)
        times.append((time.perf_counter() - t0) * 1000)
        verdict = run.verdict
        if expect.get("valid") is False:
            wrong += 1
            caught += not verdict.valid
            got = {f.type for f in verdict.errors}
            for t in expect.get("error_types", []):
                per_type.setdefault(t, [0, 0])
                per_type[t][1] += 1
                per_type[t][0] += t in got
            if verdict.valid:
                misses.append((data.get("id"), "missed", data["user_message"]))
        elif expect.get("valid") is True:
            correct += 1
            if not verdict.valid:
                false_pos += 1
                misses.append((data.get("id"), "false alarm: " + "; ".join(f.issue for f in verdict.errors)[:160],
                               data["user_message"]))
            elif not verdict.llm_needed:
                skipped += 1
    times.sort()
    return {
        "corpus": str(path), "cases": len(cases), "wrong": wrong, "correct": correct,
        "error_recall": round(caught / wrong, 4) if wrong else None,
        "false_positive_rate": round(false_pos / correct, 4) if correct else None,
        "auto_skips_model_on_correct": round(skipped / correct, 4) if correct else None,
        "recall_by_type": {t: f"{a}/{b}" for t, (a, b) in sorted(per_type.items())},
        "ms_per_case_median": round(statistics.median(times), 3),
        "ms_per_case_p95": round(times[int(len(times) * 0.95) - 1], 3),
        "ms_per_case_max": round(times[-1], 3),
        "misses": misses,
    }


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or [ROOT / "fixtures" / "corpus" / "guard_cases.jsonl"]
    for p in paths:
        result = run(p)
        misses = result.pop("misses")
        print(json.dumps(result, indent=1))
        for m in misses:
            print("  ", m)
