"""`calendar-assistant tools`: the tool definitions the model sees (CONTRACT section 3)."""
from __future__ import annotations

import argparse
import json

from assistant.commands.usage import Subparsers


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("tools", help="print the tool definitions the model sees")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tools.specs import all_specs  # the catalog alone: no handler, no store

    print(json.dumps([spec.definition() for spec in all_specs()], indent=2))
    return 0
