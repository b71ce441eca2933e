"""Usage errors and option readers shared by every command.

Bad input on the command line is the person's mistake, not ours: it is reported in one line on
stderr with exit 2 and never a traceback (CONTRACT section 1). Commands raise `UsageError` (through
`fail`) and `assistant.cli.main` prints it; this module imports nothing from the commands or the
CLI, so any command can import it at the top without a cycle.
"""
from __future__ import annotations

import argparse
import re
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import NoReturn, TypeAlias

from tools.calendar.events import local_start_of, parse_when, zone
from tools.calendar.wording import day_label

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


# ----------------------------------------------------------------------------- days in words
# `agenda friday`, `agenda next week`, `export --from "next monday"`, as khal and gcalcli users
# type them. The words are read by the project's own resolver (`reflection.dates.resolver`,
# CONTRACT section 4), so the command line and the guard agree on what "next Friday" means. A
# phrase the policy calls ambiguous ("next Friday" said early in the week) is read as its first
# reading and the command says so on stderr, naming the other, so nobody is silently shown the
# wrong week. Words the resolver does not read are a usage error (exit 2) rather than a guess.
# The resolver loads only when a phrase is given: a plain `agenda` starts without it.

FILLER = frozenset({"on", "for", "during", "from", "until", "to", "and"})
"""Words around a date phrase that say nothing more ("agenda on friday")."""

EXAMPLES = "tomorrow, friday, next week, nov 3 or 2025-11-03"


@dataclass(frozen=True)
class Days:
    """The days a phrase names (both included), and a note when it was ambiguous."""

    first: date
    last: date
    note: str | None = None


def _day(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


def span_words(days: Days) -> str:
    """`Friday, October 24` or `Monday, October 27 – Sunday, November 2`."""
    if days.first == days.last:
        return day_label(days.first)
    return f"{day_label(days.first)} – {day_label(days.last)}"


def read_days(phrase: str, now: datetime, tz_name: str, what: str) -> Days:
    """The days `phrase` names, said at `now` in `tz_name`; `what` names the option or argument
    in the one-line error (`agenda`, `export --from`).

    A date (or a date with a time) is that day; a range ("next week", "this weekend", "tonight")
    is its days. An ISO date is read first, as typed.
    """
    text = " ".join(phrase.split())
    if not text:
        fail(f"{what}: expected a day ({EXAMPLES})")
    try:
        day = date.fromisoformat(text)
        return Days(day, day)
    except ValueError:
        pass
    from reflection.dates.resolver import resolve

    expressions = [e for e in resolve(text, now, tz_name).expressions if e.candidates]
    unread = text
    for expression in expressions:
        width = expression.end_index - expression.start_index
        unread = unread[:expression.start_index] + " " * width + unread[expression.end_index:]
    leftover = [w for w in re.findall(r"[\w/'-]+", unread) if w.lower() not in FILLER]
    if not expressions or leftover:
        words = f"'{' '.join(leftover)}' in " if expressions and leftover else ""
        fail(f"{what}: cannot read {words}{text!r} as a day or days (try {EXAMPLES})")
    if len(expressions) > 1:
        fail(f"{what}: {text!r} names more than one day; give one (or a span such as 'next week')")
    [expression] = expressions
    if expression.kind not in ("date", "datetime", "range"):
        fail(f"{what}: {expression.span!r} is a {expression.kind}, not a day (try {EXAMPLES})")
    readings = [Days(_day(c.start), _day(c.end if c.end is not None else c.start))
                for c in expression.candidates]
    chosen = readings[0]
    others = [r for r in readings[1:] if r != chosen]
    if not others:
        return chosen
    note = (f"{what}: '{expression.span}' could be {span_words(chosen)} or "
            + " or ".join(span_words(o) for o in others)
            + f"; showing {span_words(chosen)} (give the date for the other)")
    return Days(chosen.first, chosen.last, note)
