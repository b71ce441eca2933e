"""`calculate_datetime` answered by the resolver, so the model and the guard share one reading of
every phrase (the tool lives in `tools`, which may not import `reflection`; the app wires it)."""
from __future__ import annotations

from collections.abc import Callable
from datetime import date, datetime
from typing import Any

from reflection.dates.resolver import Resolution, resolve
from tools.backends.base import CalendarError
from tools.calendar.events import parse_when, zone
from tools.calendar.wording import WEEKDAYS


def _say(value: date | datetime) -> str:
    if isinstance(value, datetime):
        return f"{WEEKDAYS[value.weekday()]} {value.isoformat(timespec='minutes')}"
    return f"{WEEKDAYS[value.weekday()]} {value.isoformat()}"


class DateOutOfRange(CalendarError):
    """The arithmetic left the range of dates a calendar can hold (years 1 to 9999)."""


Resolver = Callable[[str, datetime, str], Resolution]
"""Reads a phrase from a moment in a zone (`reflection.dates.resolver.resolve`)."""


def date_calculator(tz_name: str, now: Callable[[], datetime],
                    reader: Resolver = resolve) -> Callable[[str, str | None], dict[str, Any]]:
    """`calculate_datetime` for the zone `tz_name` and the clock `now`, phrases read by `reader`
    (the guard's own resolver; a test hands in one that overflows)."""
    def calculate(expression: str, reference: str | None) -> dict[str, Any]:
        try:
            return _calculate(expression, reference)
        except (OverflowError, MemoryError) as exc:
            raise DateOutOfRange(f"{expression!r} goes beyond the dates a calendar can hold "
                                 f"(years 1 to 9999); ask the person what they mean") from exc

    def _calculate(expression: str, reference: str | None) -> dict[str, Any]:
        base = now()
        if reference:
            ref = parse_when(reference, zone(tz_name), "reference")
            base = ref if isinstance(ref, datetime) else datetime.combine(ref, base.timetz())
        result = reader(expression, base, tz_name)
        data = result.to_json()
        if not result.expressions:
            data["text"] = (f"No date or time found in {expression!r} (from {_say(base)}). "
                            "Ask the person what they mean.")
            return data
        lines = [f"From {_say(base)} in {tz_name}:"]
        for expr in result.expressions:
            if expr.contradiction:
                lines.append(f"'{expr.span}': impossible ({expr.contradiction}); ask the person.")
                continue
            readings = []
            for cand in expr.candidates:
                text = _say(cand.start)
                if cand.end is not None:
                    text += f" to {_say(cand.end)}"
                readings.append(f"{text} ({cand.reading})")
            label = "AMBIGUOUS, ask which: " if expr.ambiguous else ""
            lines.append(f"'{expr.span}' = {label}" + " | ".join(readings))
            if expr.recurrence:
                lines.append(f"  recurrence: {expr.recurrence}")
        data["text"] = "\n".join(lines)
        return data

    return calculate

