"""Google Calendar v3 event resources <-> `tools.calendar.events.Event`, and Google's id rules.

Kept apart from the service code (as gcsa keeps its serializers apart from its service) so the
conversions can be tested without HTTP and so the fake server and the backend agree on one
reading of ids and instance stamps.
"""
from __future__ import annotations

import base64
import secrets
from datetime import date, datetime
from typing import Any

from tools.calendar.events import UTC, Event, as_date, as_status, default_end, format_when, parse_when, zone
from tools.calendar.occurrences import (
    BASE32HEX_ALPHABET,
    GOOGLE_EVENT_ID_RE,
    GOOGLE_INSTANCE_ID_RE,
)

#: The private extended property that marks which turn created an event, so that a create retried
#: after a lost response can recognise its own earlier success instead of failing or duplicating.
TURN_PROPERTY = "ca_turn"

#: Fields the server owns; sending them back in an update is pointless or (sequence) an error.
SERVER_FIELDS = frozenset({"etag", "updated", "created", "sequence", "htmlLink", "kind",
                           "creator", "organizer"})


def new_event_id() -> str:
    """26 base32hex characters (130 random bits): valid for Google, unguessable, chosen up front."""
    return "".join(secrets.choice(BASE32HEX_ALPHABET) for _ in range(26))


def stable_event_id(name: str) -> str:
    """A valid Google id for a scenario or sample id such as `ev_1`, the same every time.

    A name that already is a Google id is kept; anything else is base32hex-encoded (lowercased,
    unpadded), so replays can write "ev_1" by id and find it again without a lookup table.
    """
    if id_problem(name) is None and not GOOGLE_INSTANCE_ID_RE.match(name):
        return name
    encoded = base64.b32hexencode(name.encode("utf-8")).decode("ascii").lower().rstrip("=")
    return encoded + "0" * max(0, 5 - len(encoded))


def id_problem(event_id: str) -> str | None:
    """Why `event_id` cannot name a Google event (or an occurrence of one), or None."""
    if not event_id:
        return "empty id"
    if GOOGLE_EVENT_ID_RE.match(event_id) or GOOGLE_INSTANCE_ID_RE.match(event_id):
        return None
    if "_" in event_id:
        base = event_id.rpartition("_")[0]
        if GOOGLE_EVENT_ID_RE.match(base):
            return (f"{event_id!r} is not a Google instance id: the part after '_' must be "
                    "YYYYMMDD or YYYYMMDDTHHMMSSZ")
    bad = sorted({c for c in event_id if c not in BASE32HEX_ALPHABET})
    if bad:
        return (f"{event_id!r} is not a Google event id: only lowercase a-v and digits are "
                f"allowed (found {''.join(bad)!r})")
    return f"{event_id!r} is not a Google event id: it must be 5 to 1024 characters long"


def split_instance_id(event_id: str) -> tuple[str, str] | None:
    """(series id, stamp) for an occurrence of a Google event, else None."""
    match = GOOGLE_INSTANCE_ID_RE.match(event_id)
    return (match["base"], match["stamp"]) if match else None


def time_field(value: date | datetime, tz_name: str) -> dict[str, Any]:
    """A Google `start`/`end` object: `date` for all-day, else `dateTime` plus `timeZone`.

    Every timed event carries `timeZone`: without it Google cannot expand a recurrence across
    daylight-saving changes, and other clients would show the event in the calendar's zone.
    """
    if isinstance(value, datetime):
        return {"dateTime": format_when(value.astimezone(zone(tz_name))), "timeZone": tz_name}
    return {"date": value.isoformat()}


def parse_time_field(field: dict[str, Any] | None, tz_name: str, name: str) -> date | datetime | None:
    if not field:
        return None
    if field.get("date"):
        return date.fromisoformat(field["date"])
    if field.get("dateTime"):
        return parse_when(field["dateTime"], zone(field.get("timeZone") or tz_name), name)
    return None


def event_from_google(resource: dict[str, Any], calendar_id: str, default_tz: str = "UTC") -> Event:
    """The contract Event for a Google event resource; the etag becomes `version`.

    An all-day event has no zone of its own in Google, so it takes the calendar's (`default_tz`).
    """
    start_f = resource.get("start") or {}
    end_f = resource.get("end") or {}
    tz_name = start_f.get("timeZone") or end_f.get("timeZone") or default_tz
    all_day = bool(start_f.get("date"))
    end_tz_name = end_f.get("timeZone") if not all_day and end_f.get("timeZone") != tz_name else None
    start = parse_time_field(start_f, tz_name, "start")
    end = parse_time_field(end_f, end_tz_name or tz_name, "end")
    if start is None:  # a cancelled occurrence may come without times
        start = datetime.fromtimestamp(0, UTC)
    if end is None:
        end = default_end(start, all_day)
    original = parse_time_field(resource.get("originalStartTime"), tz_name, "originalStartTime")
    attendees = tuple(a["email"] for a in resource.get("attendees") or [] if a.get("email"))
    return Event(
        id=str(resource.get("id") or ""),
        title=str(resource.get("summary") or ""),
        start=start,
        end=end,
        all_day=all_day,
        timezone=tz_name,
        location=resource.get("location"),
        description=resource.get("description"),
        attendees=attendees,
        recurrence=tuple(resource["recurrence"]) if resource.get("recurrence") else None,
        calendar_id=calendar_id,
        version=str(resource.get("etag") or ""),
        recurring_event_id=resource.get("recurringEventId"),
        original_start=original,
        status=as_status(resource.get("status")),
        reminders=reminders_from_google(resource.get("reminders")),
        end_timezone=end_tz_name or None,
    )


def reminders_from_google(value: Any) -> tuple[int, ...] | None:
    """`reminders` as minutes: the overrides' (any method: a reminder is a reminder), () when the
    calendar's defaults are off and none is set, None for the calendar's defaults (or no field)."""
    if not isinstance(value, dict) or value.get("useDefault", True):
        return None
    return tuple(sorted({int(o["minutes"]) for o in value.get("overrides") or []
                         if isinstance(o, dict) and isinstance(o.get("minutes"), int)}))


def reminders_body(reminders: tuple[int, ...] | None,
                   existing: dict[str, Any] | None = None) -> dict[str, Any]:
    """Google's `reminders` for `reminders`: the calendar's defaults for None, else popups (a
    reminder already there keeps its method, so an email one stays an email). `overrides` is
    null with the defaults, which a patch reads as "remove them"."""
    if reminders is None:
        return {"useDefault": True, "overrides": None}
    methods = {o.get("minutes"): o.get("method") for o in (existing or {}).get("overrides") or []
               if isinstance(o, dict)}
    return {"useDefault": False,
            "overrides": [{"method": methods.get(m) or "popup", "minutes": m} for m in sorted(set(reminders))]}


def attendee_list(emails: tuple[str, ...], existing: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Attendee objects for `emails`, keeping what Google knows (responses, names) about kept ones."""
    known = {a.get("email"): a for a in existing or [] if a.get("email")}
    return [dict(known[e]) if e in known else {"email": e} for e in emails]


def event_body(event: Event, *, existing: dict[str, Any] | None = None,
               turn_id: str | None = None) -> dict[str, Any]:
    """A full insert/update body for `event` (no nulls), merged over `existing` server fields."""
    body: dict[str, Any] = {
        "summary": event.title,
        "start": time_field(event.start if not event.all_day else as_date(event.start), event.timezone),
        "end": time_field(event.end if not event.all_day else as_date(event.end),
                          event.end_timezone or event.timezone),
    }
    if event.reminders is not None:
        body["reminders"] = reminders_body(event.reminders, (existing or {}).get("reminders"))
    else:
        body["reminders"] = {"useDefault": True}
    if event.location:
        body["location"] = event.location
    if event.description:
        body["description"] = event.description
    if event.attendees:
        body["attendees"] = attendee_list(event.attendees, (existing or {}).get("attendees"))
    if event.recurrence:
        body["recurrence"] = list(event.recurrence)
    if turn_id:
        body["extendedProperties"] = {"private": {TURN_PROPERTY: turn_id}}
    return body


def patch_body(current: dict[str, Any], before: Event, after: Event) -> dict[str, Any]:
    """Only the Google fields that differ between `before` and `after` (null clears a field).

    Switching between all-day and timed nulls the other kind of time explicitly, because patch
    semantics merge nested objects and a leftover `date` next to a new `dateTime` is invalid.
    """
    body: dict[str, Any] = {}
    if after.title != before.title:
        body["summary"] = after.title
    if after.location != before.location:
        body["location"] = after.location or None
    if after.description != before.description:
        body["description"] = after.description or None
    if after.attendees != before.attendees:
        body["attendees"] = attendee_list(after.attendees, current.get("attendees"))
    if after.recurrence != before.recurrence:
        body["recurrence"] = list(after.recurrence) if after.recurrence else None
    if after.reminders != before.reminders:
        body["reminders"] = reminders_body(after.reminders, current.get("reminders"))
    if (after.all_day != before.all_day or after.timezone != before.timezone
            or after.end_timezone != before.end_timezone
            or after.start_instant != before.start_instant or after.end_instant != before.end_instant):
        for key, value, tz_name in (("start", after.start, after.timezone),
                                    ("end", after.end, after.end_timezone or after.timezone)):
            field = time_field(as_date(value) if after.all_day else value, tz_name)
            if after.all_day:
                field.update({"dateTime": None, "timeZone": None})
            else:
                field["date"] = None
            body[key] = field
    return body


def update_body(record: dict[str, Any]) -> dict[str, Any]:
    """A snapshot record made fit to send back as a full update (server-owned fields dropped)."""
    return {k: v for k, v in record.items() if k not in SERVER_FIELDS}


def turn_of(resource: dict[str, Any]) -> str | None:
    return ((resource.get("extendedProperties") or {}).get("private") or {}).get(TURN_PROPERTY)
