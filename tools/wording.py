"""Events in the words a family member reads: "'Swim lesson' on Tuesday, October 21 at 5:00 PM".

Why here: a confirmation is asked by the tool registry, which may not import the app, and a
person must never be shown an id, a tool name or RRULE text. So the one place that turns an event
and its repeat rule into a phrase lives next to the event model.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, time

from tools.events import Event, as_date, zone

_WEEKDAYS = {"MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday",
             "FR": "Friday", "SA": "Saturday", "SU": "Sunday"}
_UNITS = {"DAILY": ("daily", "day"), "WEEKLY": ("weekly", "week"),
          "MONTHLY": ("monthly", "month"), "YEARLY": ("yearly", "year")}
_PART_RE = re.compile(r"([A-Z]+)=([^;]*)")
_BYDAY_RE = re.compile(r"^[+-]?\d*([A-Z]{2})$")


def day_label(day: date) -> str:
    """`Thursday, October 23`: the weekday is spelled out so a wrong one shows."""
    return f"{day:%A}, {day:%B} {day.day}"


def clock_label(moment: time | datetime) -> str:
    """`5:00 PM`, with no leading zero: how people write times."""
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment.minute:02d} {'AM' if moment.hour < 12 else 'PM'}"


def repeat_label(rules: Iterable[str] | None) -> str | None:
    """`weekly`, `every 2 weeks on Tuesday`, `monthly`; None for no readable RRULE line."""
    for line in rules or ():
        head, _, body = line.partition(":")
        if head.upper() != "RRULE":
            continue
        parts = {k.upper(): v for k, v in _PART_RE.findall(body.upper())}
        unit = _UNITS.get(parts.get("FREQ", ""))
        if unit is None:
            return None
        interval = int(parts["INTERVAL"]) if parts.get("INTERVAL", "").isdigit() else 1
        said = unit[0] if interval <= 1 else f"every {interval} {unit[1]}s"
        days = [_WEEKDAYS[m.group(1)] for d in parts.get("BYDAY", "").split(",")
                if (m := _BYDAY_RE.match(d.strip())) and m.group(1) in _WEEKDAYS]
        if days and (interval > 1 or len(days) > 1):
            said += " on " + (", ".join(days[:-1]) + " and " + days[-1] if len(days) > 1 else days[0])
        return said
    return None


def when_phrase(event: Event, person_tz: str) -> str:
    """`on Tuesday, October 21 at 5:00 PM` in the person's zone, or `on Saturday, October 25`."""
    if event.all_day:
        return "on " + day_label(as_date(event.start))
    local = event.start_instant.astimezone(zone(person_tz))
    return f"on {day_label(local.date())} at {clock_label(local)}"


def event_phrase(event: Event, person_tz: str) -> str:
    """`'Swim lesson' on Tuesday, October 21 at 5:00 PM`; a whole series is
    `every 'Piano lesson' (repeats weekly)`."""
    title = f"'{' '.join(event.title.split())[:80]}'"
    if event.is_recurring_series:
        repeats = repeat_label(event.recurrence)
        return f"every {title} " + (f"(repeats {repeats})" if repeats else "(a repeating event)")
    return f"{title} {when_phrase(event, person_tz)}"
