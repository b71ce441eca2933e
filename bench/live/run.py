"""Run the live evaluation: ``python bench/live/run.py --k 3 [--base-url URL] [--model M]``.

For people with ANTHROPIC_API_KEY, or a local Anthropic-compatible server (``--base-url``):
every request of ``requests.jsonl`` k times, each on a fresh seeded calendar in a temporary
directory, through the agent loop ``calendar-assistant ask`` runs. Prints per request and overall
the end-state success rate, pass^k, guard rollbacks, false rollbacks and tokens per turn;
``--json FILE`` also writes them as JSON. Nothing is written into the checkout.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.live.cases import REQUESTS, CaseError, load_cases
from bench.live.report import as_text, summary
from bench.live.runner import Options, run_case


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k", type=int, default=3, help="runs per request (pass^k needs all k right)")
    parser.add_argument("--base-url", help="an Anthropic-compatible server (default: the SDK's, "
                        "or ANTHROPIC_BASE_URL)")
    parser.add_argument("--model", help="the model to evaluate (default: the project's default)")
    parser.add_argument("--reflection-model", help="the guard's second opinion (default: the project's)")
    parser.add_argument("--reflection-mode", choices=("auto", "always", "symbolic"),
                        help="the guard's mode (default: auto, as configured out of the box)")
    parser.add_argument("--requests", type=Path, default=REQUESTS, help="the cases (JSON Lines)")
    parser.add_argument("--only", action="append", metavar="ID", help="run only this case (repeatable)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON here")
    parser.add_argument("--max-retries", type=int, default=2, help="the SDK's retries per model call")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    base_url = args.base_url or os.environ.get("ANTHROPIC_BASE_URL")
    key = os.environ.get("ANTHROPIC_API_KEY") or ("local" if base_url else "")
    if not key:
        print("bench/live: set ANTHROPIC_API_KEY, or give --base-url for a local server", file=sys.stderr)
        return 2
    if args.k < 1:
        print("bench/live: --k must be at least 1", file=sys.stderr)
        return 2
    try:
        cases = load_cases(args.requests, args.only)
    except (CaseError, OSError) as exc:
        print(f"bench/live: {exc}", file=sys.stderr)
        return 2
    options = Options(key, base_url, args.model, args.reflection_model, args.reflection_mode,
                      args.max_retries)
    results = []
    for case in cases:
        print(f"{case.id}: {case.request}", file=sys.stderr)
        results.append(run_case(case, args.k, options))
    report = summary(results, args.k)
    print(as_text(report))
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
