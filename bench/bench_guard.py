"""Guard benchmark on a labelled corpus (run by hand):

    python bench/bench_guard.py [CORPUS.jsonl ...]
    # default: fixtures/corpus/guard_cases.jsonl and guard_cases_people.jsonl

Reports, per corpus: error recall (wrong cases judged invalid), deferred (wrong cases judged valid
but sent to the model: llm_needed), silent misses (wrong, valid, llm_needed false: nothing else
would look), false-positive rate (correct cases judged invalid), the share of correct guarded cases
on which `auto` mode skips the model call, recall per expected error type, per-family figures when
cases carry `expect.family`, and time per case (symbolic layer plus any replayed reflection
answer; no network), median and p99.
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
    wrong = caught = correct = false_pos = skipped = deferred = silent = 0
    families: dict[str, dict[str, int]] = {}
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
        fam = families.setdefault(str(expect.get("family", "-")),
                                  {"correct": 0, "wrong": 0, "false_alarms": 0, "caught": 0, "deferred": 0,
                                   "silent_misses": 0, "skips_model": 0})
        if expect.get("valid") is False:
            wrong += 1
            fam["wrong"] += 1
            caught += not verdict.valid
            fam["caught"] += not verdict.valid
            if verdict.valid and verdict.llm_needed:
                deferred += 1
                fam["deferred"] += 1
            elif verdict.valid:
                silent += 1
                fam["silent_misses"] += 1
            got = {f.type for f in verdict.errors}
            for t in expect.get("error_types", []):
                per_type.setdefault(t, [0, 0])
                per_type[t][1] += 1
                per_type[t][0] += t in got
            if verdict.valid:
                misses.append((data.get("id"), "missed", data["user_message"]))
        elif expect.get("valid") is True:
            correct += 1
            fam["correct"] += 1
            if not verdict.valid:
                false_pos += 1
                fam["false_alarms"] += 1
                misses.append((data.get("id"), "false alarm: " + "; ".join(f.issue for f in verdict.errors)[:160],
                               data["user_message"]))
            elif not verdict.llm_needed:
                skipped += 1
                fam["skips_model"] += 1
    times.sort()
    return {
        "corpus": str(path), "cases": len(cases), "wrong": wrong, "correct": correct,
        "error_recall": round(caught / wrong, 4) if wrong else None,
        "deferred_to_model": deferred, "silent_misses": silent,
        "recall_counting_deferred": round((caught + deferred) / wrong, 4) if wrong else None,
        "false_positive_rate": round(false_pos / correct, 4) if correct else None,
        "auto_skips_model_on_correct": round(skipped / correct, 4) if correct else None,
        "recall_by_type": {t: f"{a}/{b}" for t, (a, b) in sorted(per_type.items())},
        "ms_per_case_median": round(statistics.median(times), 3),
        "ms_per_case_p95": round(times[int(len(times) * 0.95) - 1], 3),
        "ms_per_case_p99": round(times[max(0, int(len(times) * 0.99) - 1)], 3),
        "ms_per_case_max": round(times[-1], 3),
        "families": families if len(families) > 1 else None,
        "misses": misses,
    }


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or [ROOT / "fixtures" / "corpus" / "guard_cases.jsonl",
                                                ROOT / "fixtures" / "corpus" / "guard_cases_people.jsonl"]
    for p in paths:
        result = run(p)
        misses = result.pop("misses")
        print(json.dumps(result, indent=1))
        for m in misses:
            print("  ", m)
