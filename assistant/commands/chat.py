"""`calendar-assistant` / `calendar-assistant chat`: the chat window on the configured calendar."""
from __future__ import annotations

import argparse

from assistant.commands.usage import Subparsers
from assistant.settings import load_settings


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("chat", help="open the chat (the default)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.heap import settle_start_up
    from assistant.tui.launch import chat_app  # Textual loads only when a window opens

    result = chat_app(load_settings(), settle=settle_start_up).run()
    return int(result or 0)
