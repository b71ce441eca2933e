"""`calendar-assistant demo`: the chat on a sample calendar with a scripted model, so a person can
watch the guard catch a wrong date without an API key or their own calendar."""
from __future__ import annotations

import argparse
from pathlib import Path

from assistant.commands.usage import Subparsers, existing_file


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("demo", help="the chat on a sample calendar with a scripted model")
    parser.add_argument("--script", type=existing_file,
                        help="a demo script to play instead of the built-in one (request, model and "
                        "fallback, like assistant/scripted/data/demo_conversation.json; replay "
                        "scenarios run with `replay`)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.tui.launch import demo_rig  # Textual loads only when a window opens

    rig = demo_rig(script_path=Path(args.script) if args.script else None)
    try:
        result = rig.app.run()
    finally:
        rig.close()
    return int(result or 0)
