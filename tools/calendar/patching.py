"""What an update changes: the patch a tool asks for, the event it leaves, and the time checks.

Every backend applies a patch the same way (the local one to its row, Google's to the resource
it read), the handlers apply it to predict a write, and the journal records that prediction, so
the rule lives here, next to the event model, and not inside one backend.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

from tools.calendar.events import (
    Event,
    EventFieldError,
    as_date,
    format_when,
    local_start_of,
    normalize_end_timezone,
    normalize_recurrence,
    normalize_reminders,
    parse_when,
    zone,
)

PATCHABLE = ("title", "start", "end", "all_day", "timezone", "location", "description",
             "attendees", "recurrence", "reminders", "end_timezone")
"""The event fields an update may name."""


@dataclass
class EventPatch:
    """The fields an update names; everything left out stays as it is."""

    fields: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.fields)


def _new_end(current: Event, start: date | datetime, all_day: bool,
             tz_name: str) -> date | datetime:
    """The end when only the start (or all_day) changes: the event keeps its length (in the
    start's zone; `apply_patch` then shows it in the end's own zone)."""
    if all_day:
        days = max(1, (as_date(current.end) - as_date(current.start)).days) if current.all_day else 1
        return as_date(start) + timedelta(days=days)
    duration = current.duration if not current.all_day else timedelta(hours=1)
    return local_start_of(start, zone(tz_name)) + duration


def apply_patch(current: Event, patch: EventPatch) -> Event:
    """The event after a patch: only named fields change; a new start alone keeps the duration."""
    fields = dict(patch.fields)
    unknown = set(fields) - set(PATCHABLE)
    if unknown:
        raise EventFieldError(min(unknown), "is not a field that can be changed")
    tz_name = fields.get("timezone") or current.timezone
    tz = zone(tz_name)
    all_day = bool(fields.get("all_day", current.all_day))
    # the end's zone: the one named, else the event's own end zone (kept when only the start's
    # zone changes, so a flight still lands in London time); an event that ends in its own zone
    # goes on doing so in its new one
    end_tz_name = normalize_end_timezone(
        fields["end_timezone"] if "end_timezone" in fields else current.end_timezone,
        tz_name, all_day)
    end_tz = zone(end_tz_name or tz_name)
    start = parse_when(fields["start"], tz, "start") if "start" in fields else current.start
    if "end" in fields:
        end = parse_when(fields["end"], end_tz, "end")
    elif "start" in fields or "all_day" in fields:
        end = _new_end(current, start, all_day, tz_name)
    else:
        end = current.end
    if all_day:
        start, end = as_date(start), as_date(end)
    elif not isinstance(start, datetime) or not isinstance(end, datetime):
        raise EventFieldError("start", "a timed event needs a date and a time (set all_day for a date)")
    else:
        start, end = start.astimezone(tz), end.astimezone(end_tz)
    changed = current.with_changes(
        title=str(fields.get("title", current.title)),
        start=start, end=end, all_day=all_day, timezone=tz_name,
        location=fields.get("location", current.location),
        description=fields.get("description", current.description),
        attendees=tuple(fields["attendees"]) if "attendees" in fields else current.attendees,
        recurrence=(tuple(normalize_recurrence(fields["recurrence"]) or ()) or None)
        if "recurrence" in fields else current.recurrence,
        reminders=normalize_reminders(fields["reminders"]) if "reminders" in fields
        else current.reminders,
        end_timezone=end_tz_name,
    )
    check_times(changed)
    return changed


def check_times(event: Event) -> None:
    """End after start; an all-day end is exclusive, so it must be at least the next day."""
    if event.all_day:
        if as_date(event.end) <= as_date(event.start):
            raise EventFieldError("end", "an all-day event's end is exclusive: it must be after "
                                  "the start date")
    elif event.end_instant <= event.start_instant:
        raise EventFieldError("end", f"ends ({format_when(event.end)}) before it starts "
                              f"({format_when(event.start)})")


def same_outcome(wanted: Event, got: Event, fields: set[str]) -> bool:
    """Whether `got` already shows the changes `wanted` names (used after a lost response)."""
    for name in fields:
        if name in ("start", "end", "all_day", "timezone", "end_timezone"):
            if (wanted.start_instant, wanted.end_instant, wanted.all_day) != (
                    got.start_instant, got.end_instant, got.all_day):
                return False
            if not wanted.all_day and (wanted.timezone, wanted.end_timezone) != (
                    got.timezone, got.end_timezone):
                return False
        elif getattr(wanted, name) != getattr(got, name):
            return False
    return True
