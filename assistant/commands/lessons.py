"""`calendar-assistant lessons`: list, resolve, forget and export lessons.

The command lives here, in `assistant`, because it needs the settings (where the state database
is) and the one-line usage errors; `reflection` offers `LessonStore` and never imports the app.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers, fail
from assistant.settings import load_settings

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    from reflection.lessons.store import Lesson, LessonStore


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("lessons", help="list, resolve, forget or export lessons")
    parser.add_argument("--json", action="store_true", help="print the lessons as a JSON list")
    parser.add_argument("--resolve", metavar="ID", type=int,
                        help="mark lesson ID resolved: no longer shown to the model")
    parser.add_argument("--forget", metavar="ID", type=int, help="delete lesson ID")
    parser.add_argument("--export", metavar="FILE",
                        help="write every lesson and the recurrence figure to FILE as JSON")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.services import Stores, open_lessons
    settings = load_settings()
    with Stores(settings) as stores:
        return _run(args, open_lessons(settings, stores.state))


def _run(args: argparse.Namespace, store: LessonStore) -> int:
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
    count = len(store.all())
    print(f"Exported {count} lesson{'' if count == 1 else 's'} to {target}.", file=sys.stderr)


def _print_table(lessons: list[Lesson]) -> None:
    if not lessons:
        print("No lessons yet.")
        return
    print(f"{'id':>4}  {'type':<10} {'seen':>4}  {'last seen':<16} {'state':<8} text")
    for lesson in lessons:
        state = "resolved" if lesson.resolved else ""
        last = lesson.last_seen.strftime("%Y-%m-%d %H:%M")
        print(f"{lesson.id:>4}  {lesson.type:<10} {lesson.seen_count:>4}  {last:<16} {state:<8} {lesson.text}")

