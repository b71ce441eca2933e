"""`calendar-assistant replay FILE`: a scripted conversation through the real agent loop
(CONTRACT section 6). The engine is `assistant.replay`; this is its command line."""
from __future__ import annotations

import argparse
import json
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.commands.usage import Subparsers, existing_file, fail
from assistant.settings import load_settings

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("replay", help="run a scripted conversation through the agent")
    parser.add_argument("file", type=existing_file, help="a scripted conversation (JSON)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from assistant.replay import ScenarioError, load_scenario, replay_settings, run_scenario
    try:
        scenario = load_scenario(Path(args.file))
    except ScenarioError as exc:
        fail(str(exc))
    settings = replay_settings(load_settings(), scenario)
    with tempfile.TemporaryDirectory(prefix="calendar-replay-") as tmp:
        result = run_scenario(scenario, settings, Path(tmp))
    print(json.dumps(result, indent=1, ensure_ascii=False))
    return 1 if result.get("script_errors") else 0
