"""`calendar-assistant`: one console script, one subcommand per job (CONTRACT section 1).

Bad input exits 2 with one line on stderr naming the problem, never a traceback: a person (or a
script) that typed something wrong needs to know what, not where in our code.
"""
from __future__ import annotations

import argparse
import json
import logging
import sys
from datetime import datetime
from pathlib import Path
from typing import Callable, NoReturn, Sequence

from assistant.settings import SettingsError, load_settings


class UsageError(Exception):
    """Bad input: reported in one line, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints usage too)
        raise UsageError(f"{self.prog}: {message}")


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1 or value > 3660:
        raise argparse.ArgumentTypeError(f"expected a number from 1 to 3660, got {value}")
    return value


def fixed_now(text: str | None, tz_name: str) -> datetime | None:
    """A `--now` option read as an instant (a naive value is wall time in `tz_name`, a date is
    its midnight), or None when it was not given: the commands that take one run on the clock
    otherwise."""
    if not text:
        return None
    from tools.events import local_start_of, parse_when, zone

    tz = zone(tz_name)
    return local_start_of(parse_when(text, tz, "--now"), tz).astimezone(tz)


def _existing_file(text: str) -> Path:
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return path


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="calendar-assistant",
                     description="A calendar assistant that checks its own changes before you see them.")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    sub.add_parser("chat", help="open the chat (the default)")
    demo = sub.add_parser("demo", help="the chat on a sample calendar with a scripted model")
    demo.add_argument("--script", type=_existing_file,
                      help="a demo script to play instead of the built-in one (request, model and "
                      "fallback, like fixtures/data/demo_conversation.json; replay scenarios run "
                      "with `replay`)")
    resolve = sub.add_parser("resolve", help="resolve date/time phrases (JSON out)")
    resolve.add_argument("text", nargs="?")
    resolve.add_argument("--now", help="ISO datetime; naive means wall time in --tz")
    resolve.add_argument("--tz", help="IANA time zone")
    resolve.add_argument("--batch", type=_existing_file, help="JSON Lines of {text, now, tz}")
    check = sub.add_parser("check", help="run the guard over guard cases (JSON Lines)")
    check.add_argument("file", type=_existing_file)
    check.add_argument("--llm", action="store_true", help="live reflection calls for cases without a replayed answer")
    replay = sub.add_parser("replay", help="run a scripted conversation through the agent")
    replay.add_argument("file", type=_existing_file)
    ask = sub.add_parser("ask", help="one guarded turn without the chat window")
    ask.add_argument("message")
    ask.add_argument("--json", action="store_true")
    ask.add_argument("--yes", action="store_true", help="grant confirmations of destructive calls")
    ask.add_argument("--now", help="run the turn as if it were this ISO datetime (scripts, tests)")
    sub.add_parser("tools", help="print the tool definitions the model sees")
    agenda = sub.add_parser("agenda", help="print the coming events")
    agenda.add_argument("--days", type=_positive_int, default=7)
    agenda.add_argument("--json", action="store_true")
    agenda.add_argument("--now", help="list from this ISO date or datetime instead of the clock "
                        "(naive means wall time in the configured zone)")
    lessons = sub.add_parser("lessons", help="list, resolve, forget or export lessons")
    lessons.add_argument("--json", action="store_true")
    lessons.add_argument("--resolve", metavar="ID", type=int)
    lessons.add_argument("--forget", metavar="ID", type=int)
    lessons.add_argument("--export", metavar="FILE")
    lessons.add_argument("--constitution", action="store_true", help="show the rule summary")
    stats = sub.add_parser("stats", help="what the guard did, from the turn records")
    stats.add_argument("--json", action="store_true")
    login = sub.add_parser("login", help="connect a Google account")
    login.add_argument("--client-secrets", type=_existing_file, help="OAuth client JSON from Google Cloud")
    login.add_argument("--no-browser", action="store_true")
    login.add_argument("--port", type=int, default=0)
    sub.add_parser("logout", help="forget the Google token")
    sub.add_parser("calendars", help="list the calendars of the configured backend")
    sub.add_parser("undo", help="roll back the last turn's changes")
    return parser


# ----------------------------------------------------------------------------- commands
def cmd_tools(args: argparse.Namespace) -> int:
    from tools.registry import tool_definitions

    print(json.dumps(tool_definitions(), indent=2))
    return 0


def cmd_agenda(args: argparse.Namespace) -> int:
    from assistant.services import build_services
    from tools.events import plain_text, zone
    from tools.handlers import describe_when

    settings = load_settings()
    now = fixed_now(args.now, settings.timezone) or datetime.now(zone(settings.timezone))
    services = build_services(settings)
    events = services.agenda(now, args.days)
    for skipped in getattr(services.backend, "skipped_series", lambda: [])():
        print(f"calendar-assistant: warning: the repeating event '{plain_text(skipped.title)}' is "
              "not listed: its repeat rule cannot be read", file=sys.stderr)
    if args.json:
        print(json.dumps([e.to_contract() for e in events], indent=1))
        return 0
    if not events:
        print(f"No events in the next {args.days} day(s).")
    for event in events:
        place = f"  @ {plain_text(event.location)}" if event.location else ""
        print(f"{describe_when(event):<40} {plain_text(event.title)}{place}  [{event.id}]")
    return 0


def cmd_undo(args: argparse.Namespace) -> int:
    from assistant.services import build_services

    report = build_services(load_settings()).journal.undo_last()
    if report is None:
        print("Nothing to undo.")
        return 0
    print(report.summary())
    return 0 if report.clean else 1


def _lazy(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        import importlib

        return int(getattr(importlib.import_module(module), name)(args))
    return run


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "tools": cmd_tools,
    "agenda": cmd_agenda,
    "undo": cmd_undo,
    "resolve": _lazy("assistant.resolve_command", "run"),
    "check": _lazy("assistant.check_command", "run"),
    "replay": _lazy("assistant.replay", "run"),
    "ask": _lazy("assistant.ask", "run"),
    "lessons": _lazy("reflection.lessons_command", "run"),
    "stats": _lazy("assistant.stats", "run"),
    "chat": _lazy("assistant.tui.launch", "run_chat"),
    "demo": _lazy("assistant.tui.launch", "run_demo"),
    "login": _lazy("assistant.google_commands", "login"),
    "logout": _lazy("assistant.google_commands", "logout"),
    "calendars": _lazy("assistant.google_commands", "calendars"),
}


class _RecoveryNotices(logging.Handler):
    """Start-up recovery's notices (`assistant.services.RECOVERY_LOG`), one line each on the
    stderr of the moment (not the one at install time: tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"calendar-assistant: {record.getMessage()}", file=sys.stderr)


def _show_recovery_notices() -> None:
    from assistant.services import RECOVERY_LOG

    if not any(isinstance(h, _RecoveryNotices) for h in RECOVERY_LOG.handlers):
        RECOVERY_LOG.addHandler(_RecoveryNotices())


def main(argv: Sequence[str] | None = None) -> int:
    from tools.events import EventFieldError
    from tools.store import StoreError

    try:
        args = build_parser().parse_args(argv)
        command = args.command or "chat"
        if command not in ("chat", "demo"):  # the chat shows them in its window instead
            _show_recovery_notices()
        return COMMANDS[command](args)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except (SettingsError, EventFieldError, StoreError) as exc:
        print(f"calendar-assistant: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # pragma: no cover - last resort: one line, not a traceback
        from tools.backend import CalendarError

        if isinstance(exc, CalendarError):
            print(f"calendar-assistant: {exc}", file=sys.stderr)
            return 1
        if getattr(exc, "is_usage_error", False):
            print(f"calendar-assistant: {exc}", file=sys.stderr)
            return 2
        raise


def fail(message: str) -> NoReturn:
    """For command modules: stop with a one-line usage error (exit 2)."""
    raise UsageError(f"calendar-assistant: {message}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
