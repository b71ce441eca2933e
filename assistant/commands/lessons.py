"""`calendar-assistant lessons`: list, resolve, forget and export lessons; show the constitution.

The command lives here, in `assistant`, because it needs the settings (where the state database
is) and the one-line usage errors; `reflection` offers `LessonStore` and never imports the app.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from assistant.commands.usage import Subparsers, fail
from assistant.settings import load_settings
from reflection.constitution import SYMBOLIC_RULES
from reflection.lessons import Lesson, LessonStore
from tools.store import sqlite_engine


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("lessons", help="list, resolve, forget or export lessons")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--resolve", metavar="ID", type=int)
    parser.add_argument("--forget", metavar="ID", type=int)
    parser.add_argument("--export", metavar="FILE")
    parser.add_argument("--constitution", action="store_true", help="show the rule summary")
    parser.set_defaults(run=run)


def open_store() -> LessonStore:
    """The configured lesson store (the state database, the configured selection knobs)."""
    settings = load_settings()
    return LessonStore(sqlite_engine(settings.state_db), recency_days=settings.lesson_recency_days,
                       min_seen=settings.lesson_min_seen, max_surfaced=settings.lessons_max_surfaced,
                       constitution_every=settings.constitution_every)


def run(args: argparse.Namespace) -> int:
    store = open_store()
    acted = False
    as_json = bool(args.json)
    if args.resolve is not None:
        if not store.resolve(args.resolve):
            fail(f"lessons --resolve: no lesson with id {args.resolve}")
        if not as_json:
            print(f"Lesson {args.resolve} marked resolved.")
        acted = True
    if args.forget is not None:
        if not store.forget(args.forget):
            fail(f"lessons --forget: no lesson with id {args.forget}")
        if not as_json:
            print(f"Lesson {args.forget} forgotten.")
        acted = True
    if args.export:
        _export(store, args.export)
        acted = True
    if args.constitution:
        _print_constitution(store, as_json)
        return 0
    if as_json:
        print(json.dumps([lesson.to_contract() for lesson in store.all()], indent=1, ensure_ascii=False))
    elif not acted:
        _print_table(store.all())
    return 0


def _export(store: LessonStore, target: str) -> None:
    text = json.dumps(store.export(), indent=1, ensure_ascii=False) + "\n"
    if target == "-":
        sys.stdout.write(text)
        return
    try:
        Path(target).write_text(text, encoding="utf-8")
    except OSError as exc:
        fail(f"lessons --export: cannot write {target}: {exc.strerror or exc}")
    print(f"Exported {len(store.all())} lesson(s) to {target}.", file=sys.stderr)


def _print_table(lessons: list[Lesson]) -> None:
    if not lessons:
        print("No lessons yet.")
        return
    print(f"{'id':>4}  {'type':<10} {'seen':>4}  {'last seen':<16} {'state':<8} text")
    for lesson in lessons:
        state = "resolved" if lesson.resolved else ""
        last = lesson.last_seen.strftime("%Y-%m-%d %H:%M")
        print(f"{lesson.id:>4}  {lesson.type:<10} {lesson.seen_count:>4}  {last:<16} {state:<8} {lesson.text}")


def _print_constitution(store: LessonStore, as_json: bool) -> None:
    constitution = store.constitution()
    if as_json:
        data: dict[str, Any] = {"constitution": constitution.to_json() if constitution else None,
                                "symbolic_rules": [{"category": c, "rule": r} for c, r in SYMBOLIC_RULES]}
        print(json.dumps(data, indent=1, ensure_ascii=False))
        return
    if constitution is None:
        print("No constitution yet (one is written every few new lessons).")
    else:
        print(f"Constitution v{constitution.version} ({constitution.created_at:%Y-%m-%d %H:%M} UTC):")
        for category in ("dates", "events", "locations"):
            rules = [r for r in constitution.rule_list if r.category == category]
            if not rules:
                continue
            print(f"  {category}:")
            for rule in rules:
                cited = ", ".join(f"#{i}" for i in rule.evidence)
                kept = " (kept from before)" if rule.carried_over else ""
                print(f"    - {rule.text}  [lessons {cited}]{kept}")
    print("Checked in code by the symbolic guard:")
    for category, text in SYMBOLIC_RULES:
        print(f"  {category}: {text}")
