"""`calendar-assistant resolve`: date/time phrases to their readings (CONTRACT section 4).

The resolver raises ValueError for input it refuses (a text over its length cap, a bad zone) and
date arithmetic can overflow near year 9999: both are bad input here, one line and exit 2.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

from reflection.resolver import parse_now, resolve


def run(args: argparse.Namespace) -> int:
    from assistant.cli import fail

    if args.batch:
        if args.text:
            fail("resolve: give TEXT or --batch FILE, not both")
        outputs = []
        with Path(args.batch).open("rb") as handle:
            for number, raw in enumerate(handle, 1):
                try:
                    line = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    fail(f"{args.batch}, line {number}: not UTF-8 text (byte {exc.start + 1})")
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as exc:
                    fail(f"{args.batch}, line {number}: not JSON ({exc.msg})")
                if not isinstance(data, dict) or not isinstance(data.get("text"), str):
                    fail(f"{args.batch}, line {number}: field 'text' missing or not a string")
                for key in ("now", "tz"):
                    if not isinstance(data.get(key), str):
                        fail(f"{args.batch}, line {number}: field '{key}' missing or not a string")
                try:
                    now = parse_now(data["now"], data["tz"])
                    outputs.append(resolve(data["text"], now, data["tz"]).to_json())
                except (ValueError, OverflowError) as exc:
                    fail(f"{args.batch}, line {number}: {exc}")
        for out in outputs:
            print(json.dumps(out, ensure_ascii=False))
        return 0
    if args.text is None:
        fail("resolve: give TEXT (with --now and --tz) or --batch FILE")
    if not args.now or not args.tz:
        fail("resolve: --now and --tz are required with TEXT")
    try:
        now = parse_now(args.now, args.tz)
        result = resolve(args.text, now, args.tz)
    except (ValueError, OverflowError) as exc:
        fail(f"resolve: {exc}")
    print(json.dumps(result.to_json(), ensure_ascii=False, indent=1))
    return 0
