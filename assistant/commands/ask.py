"""`calendar-assistant ask MESSAGE`: one guarded turn without the TUI (scripts, cron, tests).

It prints what happened, not just the reply: the changes as cards in words, what the guard rolled
back, the findings a person needs and how sure the assistant is (the same words the chat shows),
or the turn report as JSON with `--json` (with `verified` and the `doubts` of a change nobody
could verify). Confirmations of destructive calls are refused unless `--yes` is given: a command
with no one to ask must not delete several events or email attendees on its own. The same goes
for an unverified destructive change (CONTRACT 5): it is undone, the reply asks the question
and the command exits 1; `--yes` makes it anyway.
"""
from __future__ import annotations

import argparse
import json

from assistant.commands.usage import Subparsers, fail, fixed_now
from assistant.settings import has_credentials, load_settings


def register(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser("ask", help="one guarded turn without the chat window")
    parser.add_argument("message", help="what to add, move or cancel, in your words")
    parser.add_argument("--json", action="store_true", help="print the turn report as JSON")
    parser.add_argument("--yes", action="store_true", help="grant confirmations of destructive calls")
    parser.add_argument("--now", help="run the turn as if it were this ISO datetime (scripts, tests)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    message = " ".join(str(args.message).split())
    if not message:
        fail("ask: MESSAGE is empty: say what to add, move or cancel")
    settings = load_settings()
    if not has_credentials(settings):  # said before anything heavy loads: no key, no turn
        fail("ask: no API key: set ANTHROPIC_API_KEY, or `calendar-assistant config set api_key "
             "KEY` (or ANTHROPIC_BASE_URL for a local server)")
    fixed = fixed_now(args.now, settings.timezone)
    # The agent and the model SDK load only here: every other command starts without them.
    from assistant.app import build_agent
    from assistant.tui.formatting import report_text

    agent = build_agent(settings, confirm=lambda _c: bool(args.yes),
                        now=(lambda: fixed) if fixed is not None else None, door="cli")
    with agent.services:
        report = agent.run_turn(str(args.message).strip())
    if args.json:
        print(json.dumps(report.to_json(), indent=1, ensure_ascii=False))
    else:
        print(report_text(report, settings.timezone) or "(no reply)")
    # Not done: an error, a change held for a yes (the reply asks it), an undo left unfinished.
    return 1 if report.error or report.held or report.unfinished else 0
