"""The typed event model (CONTRACT section 2) and its serializers.

Kept apart from any backend so that the local store, the Google backend, the tools and the guard
all speak one `Event`; serializers live here rather than in a service, as gcsa does.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import MISSING, dataclass, field, replace
from dataclasses import fields as dataclass_fields
from datetime import date, datetime, time, timedelta, timezone
from typing import Any, Literal, get_args
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC = timezone.utc  # noqa: UP017 - the name other modules import from here

EventStatus = Literal["confirmed", "tentative", "cancelled"]
"""An event's status, in Google Calendar's words: a cancelled event is deleted (kept as a record
so an undo can put it back), a tentative one still takes its time."""

EVENT_STATUSES: tuple[EventStatus, ...] = get_args(EventStatus)

CardAction = Literal["created", "updated", "deleted"]
"""What a tool did to the event a card shows."""


def as_status(value: object) -> EventStatus:
    """A status read from a store or a server; anything else is an ordinary event."""
    for status in EVENT_STATUSES:
        if value == status:
            return status
    return "confirmed"


class EventFieldError(ValueError):
    """A field of an event or a tool input is wrong; `field` names it for the model and the person."""

    speaks_for_itself = True
    """Its message is written for the person (`tools.backends.errors.person_message` shows it)."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field = field_name
        self.message = message


class CalendarError(Exception):
    """A backend operation failed in a way the model or the person should hear about. It lives
    with the event model, below every backend, because reading a series (`tools.calendar.
    occurrences`) can fail the same way; `tools.backends.base` hands it on with the interface."""


def zone(name: str) -> ZoneInfo:
    """A ZoneInfo or a clear error: an unknown zone must never silently become UTC."""
    try:
        return ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise EventFieldError("timezone", f"unknown time zone {name!r}") from None


_KEEP_FORMAT = frozenset({"\u200d"})  # the zero-width joiner holds emoji families together


def plain_text(value: str) -> str:
    """Other people's text made safe to show and to hand the model: control characters and
    line breaks become spaces, and invisible format characters (bidi overrides such as U+202E,
    which make a title read backwards or hide what follows it) are removed."""
    if type(value) is str and value.isascii() and value.isprintable():
        return value  # no control, line or format character in printable ASCII: most text
    out = []
    for ch in str(value):
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp"):
            out.append(" ")
        elif category == "Cf" and ch not in _KEEP_FORMAT:
            continue
        else:
            out.append(ch)
    return "".join(out)


_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_when(value: Any, tz: ZoneInfo, field_name: str) -> date | datetime:
    """Read a contract date or datetime: `YYYY-MM-DD`, RFC 3339 with offset, or naive local time.

    A naive datetime means wall time in `tz`; an offset is kept as the instant it names and then
    shown in `tz`, so a correct time written in UTC stays the same instant.
    """
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=tz)
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not value.strip():
        raise EventFieldError(field_name, f"expected an ISO 8601 date or datetime, got {value!r}")
    text = value.strip()
    try:
        if _DATE_RE.match(text):
            return date.fromisoformat(text)
        parsed = datetime.fromisoformat(text)  # Python 3.11 reads "Z" itself
    except ValueError:
        raise EventFieldError(field_name, f"not an ISO 8601 date or datetime: {value!r}") from None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=tz)
    return parsed.astimezone(tz)


def format_when(value: date | datetime) -> str:
    """RFC 3339 with the offset in force, or `YYYY-MM-DD` for a date."""
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds")
    return value.isoformat()


def local_start_of(value: date | datetime, tz: ZoneInfo) -> datetime:
    """The instant an event boundary stands for (midnight in `tz` for a date)."""
    if isinstance(value, datetime):
        return value
    return datetime.combine(value, time(0), tzinfo=tz)


def normalize_recurrence(value: Any) -> list[str] | None:
    """Recurrence as a list of RFC 5545 lines (`RRULE:...`, `EXDATE:...`), the way Google keeps it.

    Accepts one string or a list; a bare `FREQ=...` gets its `RRULE:` prefix.
    """
    if value in (None, "", []):
        return None
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
        raise EventFieldError("recurrence", "expected an RRULE string or a list of them")
    lines: list[str] = []
    for item in items:
        for line in item.strip().splitlines():
            line = line.strip()
            if not line:
                continue
            if line.upper().startswith("FREQ="):
                line = "RRULE:" + line
            if not re.match(r"^(RRULE|EXDATE|RDATE|EXRULE)[:;]", line, re.IGNORECASE):
                raise EventFieldError("recurrence", f"not an RRULE/EXDATE line: {line!r}")
            lines.append(line)
    return lines or None


@dataclass(frozen=True)
class Event:
    """One event or one occurrence of a recurring event, as tools take and return it."""

    id: str
    title: str
    start: date | datetime
    end: date | datetime
    all_day: bool = False
    timezone: str = "UTC"
    location: str | None = None
    description: str | None = None
    attendees: tuple[str, ...] = ()
    recurrence: tuple[str, ...] | None = None
    calendar_id: str = "primary"
    version: str = ""
    recurring_event_id: str | None = None
    original_start: date | datetime | None = None
    status: EventStatus = "confirmed"
    reminders: tuple[int, ...] | None = None
    """Minutes before the start at which the person is reminded, ascending; () for none; None
    for the calendar's default (or, read from a server, reminders that cannot be said so)."""
    end_timezone: str | None = None
    """The zone `end` is in when it differs from `timezone` (a flight that lands elsewhere);
    None when the event ends in its own zone. `end` then carries that zone's offset."""

    @property
    def zone(self) -> ZoneInfo:
        return zone(self.timezone)

    @property
    def end_zone(self) -> ZoneInfo:
        """The zone the end is shown in: `end_timezone` when the event has one."""
        return zone(self.end_timezone or self.timezone)

    @property
    def start_instant(self) -> datetime:
        return local_start_of(self.start, self.zone)

    @property
    def end_instant(self) -> datetime:
        return local_start_of(self.end, self.zone)

    @property
    def duration(self) -> timedelta:
        return self.end_instant - self.start_instant

    @property
    def is_recurring_series(self) -> bool:
        return bool(self.recurrence) and self.recurring_event_id is None

    def to_contract(self) -> dict[str, Any]:
        """The CONTRACT section 2 shape (plus optional `calendar_id`/`recurring_event_id`)."""
        data: dict[str, Any] = {
            "id": self.id,
            "title": self.title,
            "start": format_when(self.start),
            "end": format_when(self.end),
            "all_day": self.all_day,
            "timezone": self.timezone,
            "location": self.location,
            "description": self.description,
            "attendees": list(self.attendees),
            "recurrence": list(self.recurrence) if self.recurrence else None,
        }
        if self.reminders is not None:
            data["reminders"] = list(self.reminders)
        if self.end_timezone:
            data["end_timezone"] = self.end_timezone
        if self.recurring_event_id:
            data["recurring_event_id"] = self.recurring_event_id
        return data

    def surely_same_contract(self, other: Event) -> bool:
        """True only when `self.to_contract() == other.to_contract()`, found without building
        either: every field the contract reads is the very same object in both, or an equal
        `str` (a text is its own value there). False says nothing: build and compare. Event
        equality would not do: two datetimes are equal at the same instant in different zones,
        and their contract texts differ. A journal entry's intent is most often the event after
        (`tools.journal.entries.whole_entry`), and then both share their values."""
        mine, theirs = self.__dict__, other.__dict__
        for name in CONTRACT_FIELDS:
            a, b = mine[name], theirs[name]
            if a is not b and not (type(a) is str and type(b) is str and a == b):
                return False
        return True

    def with_changes(self, **changes: Any) -> Event:
        """A copy with these fields changed (`dataclasses.replace`, without its call of
        `__init__` through keyword arguments: the event has no `__post_init__` and no
        factories, so copying its fields and setting the changed ones is the same event)."""
        if type(self) is not Event or not changes.keys() <= _EVENT_FIELDS:
            return replace(self, **changes)  # an unknown name is refused there, as always
        return new_event(**{**self.__dict__, **changes})


_EVENT_FIELDS = frozenset(f.name for f in dataclass_fields(Event))
CONTRACT_FIELDS = ("id", "title", "start", "end", "all_day", "timezone", "location", "description",
                   "attendees", "recurrence", "reminders", "end_timezone", "recurring_event_id")
"""The fields `Event.to_contract` reads (tests/calendar holds it to them)."""
_EVENT_DEFAULTS = {f.name: f.default for f in dataclass_fields(Event) if f.default is not MISSING}
assert not hasattr(Event, "__post_init__") and all(
    f.default_factory is MISSING for f in dataclass_fields(Event)), "new_event copies fields only"


def new_event(**values: Any) -> Event:
    """`Event(**values)` for callers that name known fields (the readers of stored rows and
    texts): the frozen dataclass's `__init__` sets each of its 17 fields through
    `object.__setattr__`, which was a fifth of reading an event back. The event has no
    `__post_init__` and no factories (checked above), so its defaults and the values given are
    the very event `__init__` makes."""
    event = object.__new__(Event)
    fields_of = event.__dict__
    fields_of.update(_EVENT_DEFAULTS)
    fields_of.update(values)
    return event

MAX_REMINDERS = 5
"""Google keeps at most five reminders on an event; every backend holds the same limit, so an
event reads the same wherever it is written."""
MAX_REMINDER_MINUTES = 40320
"""Four weeks: the longest reminder Google takes."""


def normalize_reminders(value: Any) -> tuple[int, ...] | None:
    """Reminders as the event model keeps them: minutes before the start, ascending, each once;
    `[]` is "no reminder" and None the calendar's default. Anything else names the field."""
    if value is None:
        return None
    if not isinstance(value, (list, tuple)):
        raise EventFieldError("reminders", "expected a list of minutes before the start, "
                              f"e.g. [30] or [1440]; got {value!r}")
    minutes: set[int] = set()
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int):
            raise EventFieldError("reminders", f"each reminder is a whole number of minutes, got {item!r}")
        if not 0 <= item <= MAX_REMINDER_MINUTES:
            raise EventFieldError("reminders", f"{item} minutes: a reminder is 0 to "
                                  f"{MAX_REMINDER_MINUTES} minutes (four weeks) before the start")
        minutes.add(item)
    if len(minutes) > MAX_REMINDERS:
        raise EventFieldError("reminders", f"at most {MAX_REMINDERS} reminders per event")
    return tuple(sorted(minutes))


def normalize_end_timezone(value: Any, tz_name: str, all_day: bool) -> str | None:
    """The end's own zone, or None when it is the event's zone (or the event is all day, whose
    dates have no zone): one spelling of "ends where it starts", so comparisons hold."""
    if value in (None, "") or all_day:
        return None
    try:
        zone(value)  # an unknown zone is an error, never silently the start's
    except EventFieldError as exc:
        raise EventFieldError("end_timezone", exc.message) from None
    name = str(value)
    return None if name == tz_name else name


def default_end(start: date | datetime, all_day: bool) -> date | datetime:
    """The end of an event written without one: the next day for an all-day event, an hour after
    a timed start (as the tools' schema tells the model)."""
    return as_date(start) + timedelta(days=1) if all_day else start + timedelta(hours=1)


def event_from_contract(data: dict[str, Any], default_tz: str, calendar_id: str = "primary") -> Event:
    """Build an Event from the contract shape (sample calendars, guard cases, replay scenarios)."""
    tz_name = data.get("timezone") or default_tz
    tz = zone(tz_name)
    if "start" not in data:
        raise EventFieldError("start", "missing")
    start = parse_when(data["start"], tz, "start")
    all_day = bool(data.get("all_day")) or (isinstance(start, date) and not isinstance(start, datetime))
    end_tz_name = normalize_end_timezone(data.get("end_timezone"), tz_name, all_day)
    end_raw = data.get("end")
    if end_raw is None:
        end = default_end(start, all_day)
    else:
        end = parse_when(end_raw, zone(end_tz_name or tz_name), "end")
    if all_day:
        start, end = as_date(start), as_date(end)
    elif end_tz_name and isinstance(end, datetime):
        end = end.astimezone(zone(end_tz_name))
    attendees = data.get("attendees")
    return new_event(
        id=str(data.get("id") or ""),
        title=str(data.get("title") or ""),
        start=start,
        end=end,
        all_day=all_day,
        timezone=tz_name,
        location=data.get("location"),
        description=data.get("description"),
        attendees=tuple(str(a) for a in attendees) if attendees else (),
        recurrence=tuple(normalize_recurrence(data.get("recurrence")) or ()) or None,
        calendar_id=str(data.get("calendar_id") or calendar_id),
        recurring_event_id=data.get("recurring_event_id"),
        reminders=normalize_reminders(data.get("reminders")),
        end_timezone=end_tz_name,
    )


def as_date(value: date | datetime) -> date:
    return value.date() if isinstance(value, datetime) else value


@dataclass(frozen=True)
class EventCard:
    """What the app shows for one event a tool created, changed or removed."""

    action: CardAction
    after: Event | None
    before: Event | None = None
    calendar: str | None = None
    """The short name of the event's calendar ("Leo") when the person reads several; None
    with one calendar, where naming it would only be noise."""

    @property
    def event(self) -> Event:
        return self.after or self.before  # type: ignore[return-value]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action": self.action,
            "before": self.before.to_contract() if self.before else None,
            "after": self.after.to_contract() if self.after else None,
        }
        if self.calendar:
            out["calendar"] = self.calendar
        return out


@dataclass(frozen=True)
class CalendarInfo:
    id: str
    name: str
    primary: bool = False
    timezone: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
