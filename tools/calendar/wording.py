"""Events in the words a family member reads: "'Swim lesson' on Tuesday, October 21 at 5:00 PM".

Why here: a confirmation is asked by the tool registry, which may not import the app, and a
person must never be shown an id, a tool name or RRULE text. So the one place that turns an event
and its repeat rule into a phrase lives next to the event model.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, time
from typing import Protocol, cast

from tools.calendar.events import UTC, Event, as_date, zone

WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""The weekdays' names, by `date.weekday()` (Monday is 0): the one spelling every layer uses."""
_WEEKDAYS = dict(zip(("MO", "TU", "WE", "TH", "FR", "SA", "SU"), WEEKDAYS, strict=True))  # by RRULE code
_UNITS = {"DAILY": ("daily", "day"), "WEEKLY": ("weekly", "week"),
          "MONTHLY": ("monthly", "month"), "YEARLY": ("yearly", "year")}
_PART_RE = re.compile(r"([A-Z]+)=([^;]*)")
_BYDAY_RE = re.compile(r"^[+-]?\d*([A-Z]{2})$")


class _RuleParts(Protocol):
    """The parsed parts `dateutil.rrule.rrule` keeps, with the defaults it fills in from the start
    (a weekly rule's weekday, a monthly rule's day). Its stubs leave these out as private, but
    they are the only place the normalised rule can be read back from."""
    _freq: int
    _interval: int
    _count: int | None
    _until: datetime | None
    _byweekday: tuple[int, ...] | None
    _bynweekday: tuple[tuple[int, int], ...] | None
    _bymonthday: tuple[int, ...]
    _bynmonthday: tuple[int, ...]


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


_ORDINAL_WORDS = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", -1: "last",
                  -2: "second to last"}


def _ordinal(n: int) -> str:
    """`1st`, `2nd`, `23rd`, `11th`."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _joined(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def repeat_words(rules: Iterable[str] | None, start: date | datetime | None = None) -> str | None:
    """A repeat rule as a person says it: `every Wednesday`, `every other Tuesday until June 2`,
    `every weekday`, `every month on the second Tuesday`, `every year on October 23, 5 times`.

    The rule is parsed by `dateutil` (the reader the backends expand it with), from the event's
    first `start` when given, so a weekly rule without BYDAY is named by the start's weekday.
    None when there is no RRULE line or it cannot be read: the caller then says only that the
    event repeats, never the raw text.
    """
    from dateutil.rrule import DAILY, MONTHLY, WEEKLY, YEARLY, rrule, rrulestr

    line = next((r for r in rules or () if r.upper().startswith("RRULE")), None)
    if line is None:
        return None
    body = line.partition(":")[2] if ":" in line else line
    if isinstance(start, datetime):
        first = start.replace(tzinfo=None)
    elif isinstance(start, date):
        first = datetime.combine(start, time(0))
    else:
        first = datetime(2001, 1, 1)  # a Monday; the days below then come only from BYDAY
    try:
        parsed = rrulestr(body, dtstart=first, ignoretz=True)
    except (ValueError, TypeError, KeyError, IndexError, OverflowError):
        return None
    if not isinstance(parsed, rrule):  # one RRULE line always parses to an rrule, never a set
        return None
    rule = cast(_RuleParts, parsed)
    freq, interval = rule._freq, max(1, int(rule._interval or 1))
    said_days = start is not None or "BYDAY=" in body.upper()
    weekdays = sorted(rule._byweekday or ()) if said_days else []
    nth = sorted(rule._bynweekday or ())
    if freq == DAILY:
        said = "every day" if interval == 1 else "every other day" if interval == 2 else f"every {interval} days"
    elif freq == WEEKLY:
        if weekdays == [0, 1, 2, 3, 4] and interval == 1:
            said = "every weekday"
        elif weekdays:
            names = _joined([WEEKDAYS[d] for d in weekdays])
            said = (f"every {names}" if interval == 1 else f"every other {names}" if interval == 2
                    else f"every {interval} weeks on {names}")
        else:
            said = "every week" if interval == 1 else "every other week" if interval == 2 else f"every {interval} weeks"
    elif freq == MONTHLY:
        said = "every month" if interval == 1 else "every other month" if interval == 2 else f"every {interval} months"
        if nth:
            said += " on the " + _joined([f"{_ORDINAL_WORDS.get(n, _ordinal(n))} {WEEKDAYS[d]}"
                                          for d, n in nth])
        elif rule._bymonthday and (start is not None or "BYMONTHDAY=" in body.upper()):
            said += " on the " + _joined([_ordinal(d) for d in sorted(rule._bymonthday)])
        elif rule._bynmonthday:
            said += " on the last day"
    elif freq == YEARLY:
        said = "every year" if interval == 1 else f"every {interval} years"
        if start is not None:
            said += f" on {first:%B} {first.day}"
    else:
        return None
    if rule._until is not None:
        until = rule._until
        if isinstance(start, datetime) and start.tzinfo is not None and \
                re.search(r"UNTIL=\d{8}T\d{6}Z", body, re.IGNORECASE):
            # a UTC end, said on the series' own clock: 01:00Z on the 30th is 5 PM on the 29th
            until = until.replace(tzinfo=UTC).astimezone(start.tzinfo)
        said += f" until {until:%B} {until.day}" + (f", {until.year}" if until.year != first.year else "")
    elif rule._count:
        said += f", {rule._count} times"
    return said


def event_repeats(event: Event) -> str | None:
    """`every Wednesday` for a repeating event (from its own first start), else None."""
    if not event.recurrence:
        return None
    start = event.start_instant.astimezone(event.zone) if not event.all_day else as_date(event.start)
    return repeat_words(event.recurrence, start) or "repeats (a rule I cannot put in words)"


def amount_words(minutes: int) -> str:
    """A length of time as people say it: `30 minutes`, `1 hour`, `1 day and 1 hour`, `2 weeks`."""
    if minutes and minutes % 10080 == 0:
        return _counted(minutes // 10080, "week")
    days, rest = divmod(minutes, 1440)
    hours, mins = divmod(rest, 60)
    parts = [_counted(n, unit) for n, unit in ((days, "day"), (hours, "hour"), (mins, "minute")) if n]
    return _joined(parts) if parts else "0 minutes"


def _counted(count: int, unit: str) -> str:
    return f"{count} {unit}" if count == 1 else f"{count} {unit}s"


def reminder_words(reminders: Iterable[int] | None) -> str | None:
    """An event's reminders in words: `reminder 1 day and 1 hour before`, `reminders 30 minutes
    before and 1 day before`, `reminder at the start`, `no reminder`; None for the calendar's
    default (nothing of the event's own to say). Each reminder keeps its own `before`, so two of
    them never read as one amount."""
    if reminders is None:
        return None
    minutes = sorted(set(reminders))
    if not minutes:
        return "no reminder"
    said = [f"{amount_words(m)} before" if m else "at the start" for m in minutes]
    return ("reminder " if len(said) == 1 else "reminders ") + _joined(said)


def zone_place(tz_name: str) -> str:
    """The place a zone is named after, as people say it: `Chicago` for America/Chicago,
    `Buenos Aires` for America/Argentina/Buenos_Aires, `UTC` as itself."""
    if tz_name in ("UTC", "Etc/UTC", "Etc/Universal", "Etc/Zulu"):
        return "UTC"
    return tz_name.rsplit("/", 1)[-1].replace("_", " ")


def two_zone_span(event: Event) -> str | None:
    """The span of an event that ends in another zone, each end in its own zone's time:
    `Chicago 9:00 AM → London 10:40 PM` (`→ Friday, October 24, London 2:40 AM` when it lands
    on another day there); None for an event that ends in its own zone."""
    if event.all_day or not event.end_timezone:
        return None
    start = event.start_instant.astimezone(event.zone)
    end = event.end_instant.astimezone(event.end_zone)
    lands = f"{day_label(end.date())}, " if end.date() != start.date() else ""
    return (f"{zone_place(event.timezone)} {clock_label(start)} → "
            f"{lands}{zone_place(event.end_timezone)} {clock_label(end)}")
