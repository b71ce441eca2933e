"""`calendar-assistant stats [--json]`: what the guard did, counted from the turn records."""
from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from assistant.commands.usage import Subparsers
from assistant.settings import load_settings

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("stats", help="what the guard did, from the turn records")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.set_defaults(run=run)


def collect() -> dict[str, Any]:
    """The turn records' figures, with how often a surfaced lesson's mistake came back."""
    from assistant.records import TurnRecorder, summarize
    from assistant.services import Stores
    from reflection.lessons.store import LessonStore
    with Stores(load_settings()) as stores:
        figures: dict[str, Any] = summarize(TurnRecorder(stores.state).all())
        figures["lessons"] = LessonStore(stores.state).recurrence_after_surfacing()
    return figures


def text_lines(figures: dict[str, Any]) -> list[str]:
    share = figures["reflection_token_share"]
    median = figures["median_guard_ms"]
    lines = [
        f"turns recorded:               {figures['turns']}",
        f"turns that changed things:    {figures['guarded_turns']}",
        f"errors caught by the guard:   {figures['errors_caught']}",
        f"rollbacks:                    {figures['rollbacks']}  (conflicts: {figures['rollback_conflicts']})",
        f"retries / fixed by the retry: {figures['retries']} / {figures['retries_that_fixed_the_error']}",
        f"confidence:                   {figures['confidence'] or '-'}",
        f"reflection model calls:       {figures['reflection_calls']}",
        f"reflection tokens vs main:    {figures['reflection_tokens']} vs {figures['main_tokens']}"
        + (f" ({share:.1%})" if share is not None else ""),
        f"median guard time (ms):       {'-' if median is None else median}",
    ]
    lessons = figures.get("lessons")
    if isinstance(lessons, dict):
        rate = lessons.get("rate")
        lines.append(f"surfaced lessons whose mistake came back: {lessons.get('recurred', 0)} of "
                     f"{lessons.get('surfaced_turns', 0)} turns"
                     + (f" ({rate:.0%})" if isinstance(rate, (int, float)) else ""))
    return lines


def run(args: argparse.Namespace) -> int:
    figures = collect()
    if args.json:
        print(json.dumps(figures, indent=1))
        return 0
    print("\n".join(text_lines(figures)))
    return 0
