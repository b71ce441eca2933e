"""Usage errors and option readers shared by every command.

Bad input on the command line is the person's mistake, not ours: it is reported in one line on
stderr with exit 2 and never a traceback (CONTRACT section 1). Commands raise `UsageError` (through
`fail`) and `assistant.cli.main` prints it; this module imports nothing from the commands or the
CLI, so any command can import it at the top without a cycle.
"""
from __future__ import annotations

import argparse
from datetime import datetime
from pathlib import Path
from typing import NoReturn, TypeAlias

from tools.calendar.events import local_start_of, parse_when, zone

Subparsers: TypeAlias = "argparse._SubParsersAction[UsageParser]"
"""What `register(subparsers)` receives: `add_parser` on it makes a `UsageParser`."""


class UsageError(Exception):
    """Bad input: reported in one line, exit 2."""


def fail(message: str) -> NoReturn:
    """Stop the command with a one-line usage error (exit 2)."""
    raise UsageError(f"calendar-assistant: {message}")


class UsageParser(argparse.ArgumentParser):
    """argparse, but a bad argument raises `UsageError` (one line) instead of printing the usage
    block and exiting: `main` decides how errors are shown, in one place."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{self.prog}: {message}")


def positive_int(text: str) -> int:
    """A `--days` style count: a whole number from 1 to 3660 (ten years)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1 or value > 3660:
        raise argparse.ArgumentTypeError(f"expected a number from 1 to 3660, got {value}")
    return value


def existing_file(text: str) -> Path:
    """A file argument that must exist: named in the error when it does not."""
    path = Path(text)
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"no such file: {text}")
    return path


def fixed_now(text: str | None, tz_name: str) -> datetime | None:
    """A `--now` option read as an instant (a naive value is wall time in `tz_name`, a date is
    its midnight), or None when it was not given: the commands that take one run on the clock
    otherwise."""
    if not text:
        return None
    tz = zone(tz_name)
    return local_start_of(parse_when(text, tz, "--now"), tz).astimezone(tz)
