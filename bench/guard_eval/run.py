"""Measure the guard on the generated cases: ``python bench/guard_eval/run.py``.

Runs the installed ``calendar-assistant check`` as a subprocess (an outsider's view: nothing of the
project is imported) and prints, per family, false alarms, recall, deferred and silent misses, and
the share of correct cases that skip the reflection model.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench.guard_eval.generate import DEFAULT_COUNT, DEFAULT_SEED, generate, write


def command() -> str:
    """The ``calendar-assistant`` next to this interpreter, else the one on PATH."""
    here = Path(sys.executable).parent / "calendar-assistant"
    if here.exists():
        return str(here)
    found = shutil.which("calendar-assistant")
    if found is None:
        raise FileNotFoundError("calendar-assistant is not installed next to python nor on PATH")
    return found


@dataclass
class Row:
    """Counts for one family (or the total)."""

    correct: int = 0
    wrong: int = 0
    false_alarms: int = 0
    caught: int = 0
    deferred: int = 0
    silent: int = 0
    skip_model: int = 0
    warn_expected: int = 0
    warn_seen: int = 0
    err_expected: int = 0
    err_exact: int = 0
    errors: int = 0
    fa_examples: list[str] = field(default_factory=list)
    miss_examples: list[str] = field(default_factory=list)

    def add(self, case: dict[str, Any], verdict: dict[str, Any]) -> None:
        exp = case["expect"]
        if "error" in verdict or "valid" not in verdict:
            self.errors += 1
        valid = bool(verdict.get("valid", True))
        needed = bool(verdict.get("llm_needed", True))
        example = f"{case['id']}: {case['user_message']!r} (mutation: {exp['mutation']}, form: {exp['form']})"
        if exp["valid"]:
            self.correct += 1
            if not valid:
                self.false_alarms += 1
                if len(self.fa_examples) < 5:
                    kinds = [f"{f.get('type')}:{f.get('issue', '')}" for f in verdict.get("findings", [])
                             if f.get("severity") == "error"]
                    self.fa_examples.append(f"{example}\n      {'; '.join(kinds)[:300]}")
            elif not needed:
                self.skip_model += 1
            wanted = exp.get("expect_warning_types")
            if wanted:
                self.warn_expected += 1
                types = {f.get("type") for f in verdict.get("findings", [])}
                self.warn_seen += set(wanted) <= types
        else:
            self.wrong += 1
            wanted_errors = exp.get("error_types")
            if wanted_errors:
                # the one problem reported once, with its type: the error findings are exactly those
                self.err_expected += 1
                got = sorted(str(f.get("type")) for f in verdict.get("findings", []) if f.get("severity") == "error")
                self.err_exact += got == sorted(wanted_errors)
            if not valid:
                self.caught += 1
            elif needed:
                self.deferred += 1
            else:
                self.silent += 1
                if len(self.miss_examples) < 5:
                    self.miss_examples.append(example)


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "-"


def table(rows: dict[str, Row], total: Row, per_case_ms: float) -> str:
    """The per-family Markdown table."""
    head = ("| family | cases (correct/wrong) | false alarms | caught (recall) | deferred | silent misses "
            "| recall incl. deferred | correct skipping model | expected warnings seen | error types exact |")
    lines = [head, "|" + "---|" * 10]
    for name, r in [*sorted(rows.items()), ("**total**", total)]:
        lines.append(
            f"| {name} | {r.correct + r.wrong} ({r.correct}/{r.wrong}) "
            f"| {r.false_alarms} ({_pct(r.false_alarms, r.correct)}) "
            f"| {r.caught} ({_pct(r.caught, r.wrong)}) | {r.deferred} | {r.silent} ({_pct(r.silent, r.wrong)}) "
            f"| {_pct(r.caught + r.deferred, r.wrong)} | {_pct(r.skip_model, r.correct)} "
            f"| {f'{r.warn_seen}/{r.warn_expected}' if r.warn_expected else '-'} "
            f"| {f'{r.err_exact}/{r.err_expected}' if r.err_expected else '-'} |")
    lines.append("")
    lines.append(f"Check time per case: {per_case_ms:.2f} ms (wall time of one `calendar-assistant check` run / cases)."
                 + (f" Verdict lines with an error: {total.errors}." if total.errors else ""))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run calendar-assistant check on the generated guard cases.")
    parser.add_argument("--cases", type=Path, help="cases.jsonl (default: generate into a temp dir)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--count", type=int, default=DEFAULT_COUNT)
    parser.add_argument("--markdown", type=Path, help="also write the table to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.cases or write(generate(args.seed, args.count), Path(tmp))
        try:
            cases = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        except (OSError, json.JSONDecodeError) as exc:
            print(f"run: cannot read {path}: {exc}", file=sys.stderr)
            return 2
        try:
            exe = command()
            t0 = time.perf_counter()
            proc = subprocess.run([exe, "check", str(path)], capture_output=True, text=True, check=False,
                                  env={**__import__("os").environ, "CALENDAR_ASSISTANT_HOME": tmp})
            elapsed = time.perf_counter() - t0
        except OSError as exc:
            print(f"run: cannot run calendar-assistant check: {exc}", file=sys.stderr)
            return 1
    if proc.returncode != 0:
        print(f"run: calendar-assistant check exited {proc.returncode}: {proc.stderr.strip()[:500]}", file=sys.stderr)
        return 1
    verdicts = {v.get("id"): v for v in map(json.loads, proc.stdout.splitlines())}
    rows: dict[str, Row] = defaultdict(Row)
    total = Row()
    for c in cases:
        v = verdicts.get(c["id"], {"error": "no verdict"})
        rows[c["expect"]["family"]].add(c, v)
        total.add(c, v)
    out = table(rows, total, 1000 * elapsed / max(len(cases), 1))
    print(out)
    for name, r in sorted(rows.items()):
        if r.fa_examples or r.miss_examples:
            print(f"\n## {name}")
            for e in r.fa_examples:
                print(f"  false alarm  {e}")
            for e in r.miss_examples:
                print(f"  silent miss  {e}")
    if args.markdown:
        args.markdown.write_text(out + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
