"""`calendar-assistant check FILE`: the guard over guard cases, one verdict a line (CONTRACT 5).

A bad line gives `{"id", "error"}` and the others are still checked; the exit code is 0 whenever
the file could be read. With `llm_reflection` in a case, that recorded answer is replayed through
the same parsing and filters as a live call; `--llm` makes live calls for the other cases.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.commands.usage import Subparsers, existing_file, fail

if TYPE_CHECKING:  # the guard loads in `run`: every other command starts without it
    from reflection.guard import Guard


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("check", help="run the guard over guard cases (JSON Lines)")
    parser.add_argument("file", type=existing_file, help="guard cases, one JSON object a line")
    parser.add_argument("--llm", action="store_true",
                        help="live reflection calls for cases without a replayed answer")
    parser.add_argument("--explain", action="store_true",
                        help="print each verdict and the proof of each error in words instead of JSON")
    parser.set_defaults(run=run)


def read_lines(path: Path) -> Iterator[tuple[int, str | None]]:
    """Every line of the file with its number; None for a line that is not UTF-8 (it gets an
    error verdict of its own, like any other bad line)."""
    try:
        with path.open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    yield number, raw.decode("utf-8")
                except UnicodeDecodeError:
                    yield number, None
    except OSError as exc:
        fail(f"{path}: {exc.strerror or exc}")


def verdict_line(guard: Guard, number: int, line: str | None) -> dict[str, Any]:
    """The verdict of one line; a bad line (blank, not UTF-8, not JSON, not a case) gets
    `{"id", "error"}` so the output keeps one line per input line."""
    from reflection.case import CaseError, case_from_json

    if line is None:
        return {"id": None, "error": f"line {number}: not UTF-8 text"}
    if not line.strip():
        return {"id": None, "error": f"line {number}: blank line (expected a JSON object)"}
    try:
        data = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"id": None, "error": f"line {number}: not JSON ({exc.msg})"}
    case_id = data.get("id") if isinstance(data, dict) else None
    try:
        case = case_from_json(data)
        if case.has_llm_reflection:
            run = guard.judge(case, replayed=case.llm_reflection)
        else:
            run = guard.judge(case)
    except CaseError as exc:
        return {"id": case_id, "error": f"line {number}: {exc}"}
    except ValueError as exc:  # e.g. an unknown zone inside a phrase the resolver refused
        return {"id": case_id, "error": f"line {number}: {exc}"}
    verdict: dict[str, Any] = run.verdict.to_json(case_id)
    return verdict


def _guard(live: bool) -> Guard:
    """The symbolic guard, or with `live` the guard that asks the reflection model when unsure."""
    from reflection.guard import Guard

    if not live:
        return Guard(mode="symbolic", reflect=None)
    from assistant.settings import has_credentials, load_settings

    settings = load_settings()
    if not has_credentials(settings):  # said before the SDK loads
        fail("check --llm: no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a local server)")
    from assistant.model_client import reflection_call_from_settings  # the SDK: only when asked
    return Guard(mode="auto", reflect=reflection_call_from_settings(settings))


def run(args: argparse.Namespace) -> int:
    guard = _guard(bool(args.llm))
    lines = list(read_lines(Path(args.file)))
    for number, line in lines:
        verdict = verdict_line(guard, number, line)
        print(_explained(verdict) if args.explain else json.dumps(verdict, ensure_ascii=False))
        sys.stdout.flush()
    return 0


def _explained(verdict: dict[str, Any]) -> str:
    """One verdict line in words (`--explain`)."""
    from reflection.explain import explain
    from reflection.findings import Finding, Verdict

    if "error" in verdict:
        return f"case {verdict.get('id')}: {verdict['error']}"
    parsed = Verdict(findings=[Finding.from_json(f) for f in verdict["findings"]],
                     llm_needed=verdict["llm_needed"], llm_used=verdict["llm_used"],
                     doubts=list(verdict.get("doubts") or []))
    return explain(parsed, verdict.get("id")) + "\n"
