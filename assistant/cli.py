"""`calendar-assistant`: one console script, one subcommand per job (CONTRACT section 1).

Each subcommand is a module of `assistant.commands` with `register(subparsers)` and `run(args)`;
this module only builds the parser from them, dispatches, and turns errors into exit codes. Bad
input exits 2 with one line on stderr naming the problem, never a traceback: a person (or a
script) that typed something wrong needs to know what, not where in our code.
"""
from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

from assistant.commands import (
    agenda,
    ask,
    calendars,
    chat,
    check,
    completion,
    config,
    demo,
    export,
    import_,
    lessons,
    login,
    logout,
    mcp,
    replay,
    resolve,
    setup,
    stats,
    tools,
    undo,
)
from assistant.commands.usage import Subparsers, UsageError, UsageParser
from assistant.logfile import open_log
from assistant.settings import SettingsError, home_dir
from tools.calendar.events import CalendarError, EventFieldError
from tools.masking import mask_secrets

RECOVERY_LOG = logging.getLogger("calendar_assistant.recovery")
"""Start-up recovery's notices (the logger `assistant.services` writes them to); named here so
the command line starts without loading the store."""


class Command(Protocol):
    """What every module of `assistant.commands` offers."""

    def register(self, subparsers: Subparsers) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


COMMANDS: tuple[Command, ...] = (chat, demo, resolve, check, replay, ask, tools, agenda, lessons,
                                 stats, login, logout, setup, calendars, export, import_, undo, mcp,
                                 config, completion)
"""In the order `--help` lists them."""

WINDOWED: tuple[Command, ...] = (chat, demo)
"""Commands that show start-up recovery's notices in their window instead of on stderr."""


def build_parser() -> argparse.ArgumentParser:
    parser = UsageParser(prog="calendar-assistant",
                         description="A calendar assistant that checks its own changes before you see them.")
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    subparsers = parser.add_subparsers(dest="command", parser_class=UsageParser)
    for command in COMMANDS:
        command.register(subparsers)
    return parser


def package_version() -> str:
    """The installed version (importlib.metadata loads here: only `--version` needs it)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("calendar-assistant")
    except PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown"


class _RecoveryNotices(logging.Handler):
    """Start-up recovery's notices (`assistant.services.RECOVERY_LOG`), one line each on the
    stderr of the moment (not the one at install time: tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        print(f"calendar-assistant: {record.getMessage()}", file=sys.stderr)


def _show_recovery_notices() -> None:
    if not any(isinstance(h, _RecoveryNotices) for h in RECOVERY_LOG.handlers):
        RECOVERY_LOG.addHandler(_RecoveryNotices())


def main(argv: Sequence[str] | None = None) -> int:
    try:
        if list(argv if argv is not None else sys.argv[1:]) == ["--version"]:
            print(f"calendar-assistant {package_version()}")  # before any command module loads
            return 0
        parser = build_parser()
        completion.autocomplete(parser)  # answers the shell's completion request, then exits
        args = parser.parse_args(argv)
        if args.version:
            print(f"calendar-assistant {package_version()}")
            return 0
        run: Callable[[argparse.Namespace], int] = getattr(args, "run", chat.run)
        if not any(run == command.run for command in WINDOWED):
            _show_recovery_notices()
        open_log(home_dir())  # opened on the first line written: a quiet command leaves no file
        return run(args)
    except UsageError as exc:
        _say(str(exc))
        return 2
    except (SettingsError, EventFieldError) as exc:
        _say(f"calendar-assistant: {exc}")
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except CalendarError as exc:  # the calendar service refused or is down: in words, not a traceback
        _say(f"calendar-assistant: {exc}")
        return 1
    except Exception as exc:  # a store, errors that declare themselves bad input, a database down
        from tools.backends.errors import is_database_failure, service_error
        from tools.store.database import StoreError  # loaded by then whenever a store was opened

        if isinstance(exc, StoreError) or getattr(exc, "is_usage_error", False):
            _say(f"calendar-assistant: {exc}")
            return 2
        if is_database_failure(exc):
            _say(f"calendar-assistant: {service_error('database', exc)}")
            return 1
        raise


def _say(line: str) -> None:
    """One line on stderr, with every secret in it masked (`tools.masking`)."""
    print(mask_secrets(line), file=sys.stderr)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
