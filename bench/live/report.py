"""The numbers a person compares models by, per request and overall, as text and as JSON.

Success is the share of runs whose calendar ended right; pass^k the share of requests right in
all k runs (tau-bench's consistency: a family assistant that is right two times out of three is
wrong every third Friday); rollbacks count the attempts the guard undid, and false rollbacks
those whose calendar had been right (the guard's cost in extra tokens and latency); tokens per
turn are the model's input and output tokens, the reflection model's included.
"""
from __future__ import annotations

from typing import Any

from bench.live.runner import CaseResult


def summary(results: list[CaseResult], k: int) -> dict[str, Any]:
    runs = [r for c in results for r in c.runs]
    total = len(runs)

    def share(part: int, whole: int) -> float:
        return round(part / whole, 4) if whole else 0.0

    return {
        "k": k, "requests": len(results), "runs": total,
        "success_rate": share(sum(r.success for r in runs), total),
        "pass_k": share(sum(c.all_right for c in results), len(results)),
        "rollbacks": sum(r.rollbacks for r in runs),
        "false_rollbacks": sum(r.false_rollbacks for r in runs),
        "tokens_per_turn": round(sum(r.tokens for r in runs) / total, 1) if total else 0.0,
        "input_tokens_per_turn": round(sum(r.input_tokens for r in runs) / total, 1) if total else 0.0,
        "output_tokens_per_turn": round(sum(r.output_tokens for r in runs) / total, 1) if total else 0.0,
        "per_request": [
            {"id": c.case_id, "request": c.request, "successes": c.successes, "runs": len(c.runs),
             "success_rate": share(c.successes, len(c.runs)), "pass_k": c.all_right,
             "rollbacks": sum(r.rollbacks for r in c.runs),
             "false_rollbacks": sum(r.false_rollbacks for r in c.runs),
             "tokens_per_turn": round(sum(r.tokens for r in c.runs) / len(c.runs), 1) if c.runs else 0.0,
             "problems": [r.problems for r in c.runs]}
            for c in results],
    }


def as_text(report: dict[str, Any]) -> str:
    k = report["k"]
    lines = [f"{'request':<28} {'right':>6} {'pass^' + str(k):>7} {'rollbacks':>9} {'false':>5} "
             f"{'tokens/turn':>11}"]
    for row in report["per_request"]:
        lines.append(f"{row['id']:<28} {row['successes']:>3}/{row['runs']:<2} "
                     f"{'yes' if row['pass_k'] else 'no':>7} {row['rollbacks']:>9} "
                     f"{row['false_rollbacks']:>5} {row['tokens_per_turn']:>11,.0f}")
        for number, problems in enumerate(row["problems"], 1):
            lines += [f"    run {number}: {p}" for p in problems]
    lines.append("")
    lines.append(f"success {report['success_rate']:.1%} of {report['runs']} runs · "
                 f"pass^{k} {report['pass_k']:.1%} of {report['requests']} requests · "
                 f"rollbacks {report['rollbacks']} (false {report['false_rollbacks']}) · "
                 f"tokens per turn {report['tokens_per_turn']:,.0f} "
                 f"(in {report['input_tokens_per_turn']:,.0f}, out {report['output_tokens_per_turn']:,.0f})")
    return "\n".join(lines)
