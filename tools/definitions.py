"""The schema pieces the tools share (event fields, the datetime wording, the free-time limit).

The tools themselves, each with its description and input schema, are `tools.specs`; the formats
the schemas name are enforced by `tools.registry`. Descriptions are written for the model: they say
which zone to use, that datetimes carry an offset, that an update changes only the fields it
names, and when to ask the person first.
"""
from __future__ import annotations

from typing import Any

FREE_TIME_MAX_DAYS = 60
"""Longest range `find_free_time` searches at once (Google's free/busy query refuses much longer
ones)."""

WHEN = ("ISO 8601. A timed value is 'YYYY-MM-DDTHH:MM:SS' with the UTC offset in force on that "
         "date in the person's zone (e.g. 2025-10-24T19:00:00-07:00); without an offset it means "
         "wall-clock time in the event's timezone. An all-day value is 'YYYY-MM-DD'.")

EVENT_FIELDS: dict[str, Any] = {
    "title": {"type": "string", "minLength": 1, "maxLength": 500,
              "description": "Short title, as the person would say it."},
    "start": {"type": "string", "description": "Start. " + WHEN},
    "end": {"type": "string", "description": "End. " + WHEN + " For an all-day event the end is "
            "EXCLUSIVE: a one-day event on 2025-10-25 ends 2025-10-26. Defaults to one hour "
            "after a timed start, or the next day for an all-day event."},
    "all_day": {"type": "boolean", "description": "True for an all-day event (dates, no times)."},
    "timezone": {"type": "string", "description": "IANA zone of the event, e.g. "
                 "'America/Los_Angeles'. Defaults to the person's zone."},
    "location": {"type": ["string", "null"], "maxLength": 1000,
                 "description": "An address or place name. 'home' and the person's saved place "
                 "names are written as their saved address by the tool."},
    "description": {"type": ["string", "null"], "maxLength": 8000},
    "attendees": {"type": "array", "items": {"type": "string", "format": "email"},
                  "description": "Email addresses."},
    "recurrence": {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}},
                             {"type": "null"}],
                   "description": "RFC 5545 rule, e.g. 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU' "
                   "for every other Tuesday."},
    "end_timezone": {"type": "string", "description": "Zone of the end if not the start's "
                     "(a flight); a naive end is wall time there."},
    "reminders": {"type": "array", "maxItems": 5,
                  "items": {"type": "integer", "minimum": 0, "maximum": 40320},
                  "description": "Minutes before the start (1440: the day before); [] none; "
                  "omit to keep (create: calendar default)."},
    "calendar_id": {"type": "string", "description": "Calendar to use; defaults to the person's."},
    "notify_attendees": {"type": "boolean", "description": "Send email updates to attendees. "
                         "Only when the person asked for it: no rollback can unsend an email."},
}

SCOPE: dict[str, Any] = {
    "type": "string", "enum": ["occurrence", "following", "series"],
    "description": "Recurring event: 'occurrence' (the one the id names; 'just this once'), "
    "'following' (that one and all later: 'from now on', 'from January'), 'series' (all, past "
    "too: 'all of them'). Default: occurrence for an occurrence id, series for a series id. "
    "Not said: ask."}

UPDATE_PROPS: dict[str, Any] = {
    "event_id": {"type": "string", "minLength": 1,
                 "description": "Id from list_events. An occurrence id ('<series>_<stamp>') "
                 "changes only that occurrence; the series id changes every occurrence."},
    **EVENT_FIELDS,
    "scope": SCOPE}

BULK_ITEM_PROPS: dict[str, Any] = {**UPDATE_PROPS, "scope": {"type": "string", "enum": SCOPE["enum"]}}
"""A bulk item names its scope without the words (they are on update_calendar_event once)."""
