"""`calendar-assistant resolve`: date/time phrases to their readings (CONTRACT section 4).

TEXT alone resolves against the clock in the configured zone (`--now` and `--tz` override them,
as scripts and the contract's checks pass them). The resolver raises ValueError for input it
refuses (a text over its length cap, a bad zone) and date arithmetic can overflow near year 9999:
both are bad input here, one line and exit 2.
"""
from __future__ import annotations

import argparse
import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from assistant.commands.usage import Subparsers, existing_file, fail
from assistant.settings import load_settings
from tools.calendar.events import zone

if TYPE_CHECKING:  # loaded where used: the command line starts without them
    pass


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("resolve", help="resolve date/time phrases (JSON out)")
    parser.add_argument("text", nargs="?", help="the words to read, e.g. \"dinner next Friday at 7pm\"")
    parser.add_argument("--now", help="ISO datetime; naive means wall time in --tz (default: now)")
    parser.add_argument("--tz", help="IANA time zone (default: the configured one)")
    parser.add_argument("--batch", type=existing_file, help="JSON Lines of {text, now, tz}")
    parser.set_defaults(run=run)


def resolve_batch(path: Path) -> list[dict[str, Any]]:
    """Every line's resolution, in order; the first bad line stops the batch with its number."""
    from reflection.dates.resolver import parse_now, resolve
    outputs = []
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                fail(f"{path}, line {number}: not UTF-8 text (byte {exc.start + 1})")
            if not line.strip():
                continue
            try:
                data = json.loads(line)
            except json.JSONDecodeError as exc:
                fail(f"{path}, line {number}: not JSON ({exc.msg})")
            if not isinstance(data, dict) or not isinstance(data.get("text"), str):
                fail(f"{path}, line {number}: field 'text' missing or not a string")
            for key in ("now", "tz"):
                if not isinstance(data.get(key), str):
                    fail(f"{path}, line {number}: field '{key}' missing or not a string")
            try:
                now = parse_now(data["now"], data["tz"])
                outputs.append(resolve(data["text"], now, data["tz"]).to_json())
            except (ValueError, OverflowError) as exc:
                fail(f"{path}, line {number}: {exc}")
    return outputs


def run(args: argparse.Namespace) -> int:
    from reflection.dates.resolver import parse_now, resolve
    if args.batch:
        if args.text:
            fail("resolve: give TEXT or --batch FILE, not both")
        for out in resolve_batch(Path(args.batch)):
            print(json.dumps(out, ensure_ascii=False))
        return 0
    if args.text is None:
        fail("resolve: give TEXT (optionally with --now and --tz) or --batch FILE")
    tz_name = args.tz or load_settings().timezone
    try:
        now = parse_now(args.now, tz_name) if args.now else datetime.now(zone(tz_name))
        result = resolve(args.text, now, tz_name)
    except (ValueError, OverflowError) as exc:
        fail(f"resolve: {exc}")
    print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    return 0
