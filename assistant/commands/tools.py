"""`calendar-assistant tools`: the tool definitions the model sees (CONTRACT section 3)."""
from __future__ import annotations

import argparse
import json

from assistant.commands.usage import Subparsers
from tools.registry import tool_definitions


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("tools", help="print the tool definitions the model sees")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    print(json.dumps(tool_definitions(), indent=2))
    return 0
