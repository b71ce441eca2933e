"""Every component of one UID (one CalDAV resource): the event or series, its RECURRENCE-ID
overrides and its EXDATEs, with the edits a backend makes to them and the journal's records.

Kept free of HTTP so the rules can be read (and tested) on their own: a change to one occurrence
becomes an override copied from the series (so its alarms and attendees' answers come along), a
deleted occurrence becomes an EXDATE, and listing expands the series with
`recurring-ical-events`, bounded by the window asked for.

Journal records (CONTRACT: a snapshot is the backend's own record of one event):
- the event or series itself: every component of the resource (`{"kind": "series",
  "components": [...]}`), so rolling back a series delete brings its overrides back too;
- one occurrence: its override and whether an EXDATE removes it (`{"kind": "occurrence",
  "override": ..., "excluded": ...}`), or None when it is untouched, so occurrences of one series
  are undone independently of each other.
"""
from __future__ import annotations

import copy
from datetime import date, datetime, timedelta
from typing import Any, cast

import icalendar
import recurring_ical_events

from tools.backends.base import CalendarError, EventNotFound
from tools.calendar.events import Event, as_date, local_start_of, zone
from tools.calendar.occurrences import instance_stamp, stamp_original
from tools.calendar.patching import EventPatch, apply_patch
from tools.ical.events import (
    RULE_PROPS,
    TURN_PROP,
    calendar_of,
    canonical,
    component_from,
    end_zone_name,
    event_of,
    exdates,
    new_component,
    prop_value,
    set_exdates,
    write_event,
)


class Series:
    """The master component of one UID (absent for a lone override) and its overrides by stamp."""

    def __init__(self, uid: str, components: list[icalendar.Event], default_tz: str) -> None:
        self.uid = uid
        self.default_tz = default_tz
        self.master: icalendar.Event | None = None
        self.overrides: dict[str, icalendar.Event] = {}
        for component in components:
            rid = component.get("RECURRENCE-ID")
            if rid is None:
                self.master = component
            else:
                self.overrides[instance_stamp(_aware(rid.dt, component, default_tz))] = component

    # ------------------------------------------------------------------ building
    @classmethod
    def parse(cls, text: str | bytes, default_tz: str) -> list[Series]:
        """The series of one iCalendar text (a resource holds one; a file may hold many)."""
        cal = icalendar.Calendar.from_ical(text)
        by_uid: dict[str, list[icalendar.Event]] = {}
        for component in cal.walk("VEVENT"):
            by_uid.setdefault(str(component.get("UID", "")), []).append(
                cast(icalendar.Event, component))
        return [cls(uid, comps, default_tz) for uid, comps in by_uid.items()]

    @classmethod
    def of_event(cls, event: Event, turn_id: str | None, default_tz: str) -> Series:
        return cls(event.id, [new_component(event, event.id, turn_id=turn_id)], default_tz)

    def components(self) -> list[icalendar.Event]:
        head = [self.master] if self.master is not None else []
        return head + [self.overrides[k] for k in sorted(self.overrides)]

    def to_ical(self) -> bytes:
        return cast(bytes, calendar_of(self.components()).to_ical())

    @property
    def turn_id(self) -> str | None:
        value = self.master.get(TURN_PROP) if self.master is not None else None
        return str(value) if value is not None else None

    @property
    def recurring(self) -> bool:
        return self.master is not None and any(n in self.master for n in RULE_PROPS)

    # ------------------------------------------------------------------ reading
    def event(self, calendar_id: str, version: str) -> Event | None:
        """The event or series itself (None when cancelled or only overrides are stored)."""
        if self.master is None:
            return None
        made = event_of(self.master, calendar_id, version, self.default_tz)
        return made if made.status == "confirmed" else None

    def occurrence(self, stamp: str, calendar_id: str, version: str) -> Event | None:
        """The occurrence originally starting at `stamp`, as it reads now, or None."""
        override = self.overrides.get(stamp)
        if override is not None:
            made = event_of(override, calendar_id, version, self.default_tz)
            return made if made.status == "confirmed" and self.event(calendar_id, version) else None
        if not self.recurring or stamp in exdates(cast(icalendar.Event, self.master)):
            return None
        original = stamp_original(stamp)
        master = cast(icalendar.Event, self.master)
        if isinstance(original, datetime) != isinstance(prop_value(master, "DTSTART"), datetime):
            return None
        probe_end: date | datetime = original + timedelta(days=1) \
            if not isinstance(original, datetime) else original + timedelta(seconds=1)
        for occ in recurring_ical_events.of(calendar_of([copy.deepcopy(master)])).between(
                original, probe_end):
            made = self._end_in_its_zone(event_of(occ, calendar_id, version, self.default_tz))
            if made.original_start is not None and instance_stamp(made.original_start) == stamp:
                return made.with_changes(id=f"{self.uid}_{stamp}")
        return None

    def between(self, start: datetime, end: datetime, calendar_id: str,
                version: str) -> list[Event]:
        """Every event or occurrence overlapping [start, end), cancelled ones left out."""
        if self.master is None:
            return []
        if not self.recurring and not self.overrides:
            event = self.event(calendar_id, version)
            return [event] if event is not None and _overlaps(event, start, end) else []
        found = recurring_ical_events.of(calendar_of(self.components())).between(start, end)
        events = []
        for occ in found:
            made = event_of(occ, calendar_id, version, self.default_tz)
            if made.status == "confirmed" and _overlaps(made, start, end):
                events.append(self._end_in_its_zone(made))
        return events

    def _end_in_its_zone(self, made: Event) -> Event:
        """An expanded occurrence with its end in the zone its component's DTEND names: the
        expansion writes every occurrence's end in the start's zone, so a weekly flight would
        otherwise lose where it lands."""
        if made.all_day or made.original_start is None:
            return made
        source = self.overrides.get(instance_stamp(made.original_start)) or self.master
        name = end_zone_name(source) if source is not None else None
        if not name or name in (made.timezone, made.end_timezone) or not isinstance(made.end, datetime):
            return made
        return made.with_changes(end=made.end.astimezone(zone(name)), end_timezone=name)

    # ------------------------------------------------------------------ writing
    def patch(self, stamp: str | None, patch: EventPatch, calendar_id: str) -> Event:
        """Apply `patch` to the series (stamp None) or to one occurrence; the event after it."""
        if stamp is None:
            current = self.event(calendar_id, "")
            if current is None:
                raise EventNotFound(self.uid)
            changed = apply_patch(current, patch)
            write_event(cast(icalendar.Event, self.master), changed)
            return changed
        current = self.occurrence(stamp, calendar_id, "")
        if current is None:
            raise EventNotFound(f"{self.uid}_{stamp}")
        fields = {k: v for k, v in patch.fields.items() if k != "recurrence"}
        changed = apply_patch(current, EventPatch(fields))
        override = self.overrides.get(stamp)
        if override is None:
            override = self._override_from_master(stamp, changed)
            self.overrides[stamp] = override
        write_event(override, changed, override=True)
        return changed

    def _override_from_master(self, stamp: str, occurrence: Event) -> icalendar.Event:
        """A copy of the series for one occurrence: alarms, attendees' answers and other
        properties come along; its rules do not."""
        override = copy.deepcopy(cast(icalendar.Event, self.master))
        for name in (*RULE_PROPS, "EXDATE", TURN_PROP, "RECURRENCE-ID"):
            override.pop(name, None)
        original = stamp_original(stamp)
        if isinstance(original, datetime):
            override.add("RECURRENCE-ID", original.astimezone(occurrence.zone)
                         if occurrence.timezone != "UTC" else original)
        else:
            override.add("RECURRENCE-ID", original)
        return override

    def delete_occurrence(self, stamp: str) -> None:
        """Remove one occurrence: its override goes and an EXDATE keeps it from coming back."""
        master = cast(icalendar.Event, self.master)
        self.overrides.pop(stamp, None)
        self._set_excluded(stamp, True)
        if master is None:  # pragma: no cover - callers check the occurrence exists first
            raise EventNotFound(f"{self.uid}_{stamp}")

    def _set_excluded(self, stamp: str, excluded: bool) -> None:
        master = cast(icalendar.Event, self.master)
        stamps = exdates(master)
        if (stamp in stamps) == excluded:
            return
        stamps = stamps | {stamp} if excluded else stamps - {stamp}
        tz_name = event_of(master, "", "", self.default_tz).timezone
        set_exdates(master, [stamp_original(s) for s in stamps], tz_name)

    # ------------------------------------------------------------------ journal records
    def record(self) -> dict[str, Any]:
        return {"kind": "series", "components": sorted(canonical(c) for c in self.components())}

    def records(self) -> dict[str, dict[str, Any]]:
        """The event itself (EXDATEs aside) and each changed or removed occurrence, by id."""
        out: dict[str, dict[str, Any]] = {}
        if self.master is not None:
            master = copy.deepcopy(self.master)
            master.pop("EXDATE", None)
            out[self.uid] = {"kind": "series", "components": [canonical(master)]}
            for stamp in sorted(set(self.overrides) | exdates(self.master)):
                record = self.occurrence_record(stamp)
                if record is not None:
                    out[f"{self.uid}_{stamp}"] = record
        return out

    def occurrence_record(self, stamp: str) -> dict[str, Any] | None:
        override = self.overrides.get(stamp)
        excluded = self.master is not None and stamp in exdates(self.master)
        if override is None and not excluded:
            return None
        return {"kind": "occurrence", "override": canonical(override) if override else None,
                "excluded": excluded}

    @staticmethod
    def own_part(record: dict[str, Any] | None) -> Any:
        """What of a journal record belongs to the id it was taken for: for a series, its master
        component without EXDATEs (each override and removed occurrence is its occurrence id's
        own record, undone on its own); an occurrence's record is all its own.

        Occurrences of one series share a resource and an ETag, so a series' full record also
        changes when the same turn's write to one of its occurrences is undone: comparing only
        the series' own part keeps that from looking like someone else's change."""
        if record is None or record.get("kind") != "series":
            return record
        for text in record.get("components", []):
            component = component_from(text)
            if component.get("RECURRENCE-ID") is None:
                component.pop("EXDATE", None)
                return {"kind": "series", "master": canonical(component)}
        return {"kind": "series", "master": None}

    def put_series_record(self, record: dict[str, Any], left: dict[str, Any] | None) -> None:
        """Put the series back as `record` holds it, while the resource is there. Its master comes
        back whole; each occurrence's part (its override, its EXDATE) comes back from `record`
        only where it still reads as `left`, what our own last write to the series left: a part
        changed since was changed by an undo of a later write to that occurrence (already put
        back) or by someone else, and is kept. Without `left`, every part comes from `record`."""
        wanted = Series.from_record(self.uid, record, self.default_tz)
        if wanted.master is None:
            raise CalendarError(f"the journal record of {self.uid} holds no series")
        after = Series.from_record(self.uid, left, self.default_tz) if left and left.get("components") else None
        stamps = set(self.overrides) | set(wanted.overrides)
        stamps |= (exdates(self.master) if self.master is not None else set()) | exdates(wanted.master)
        if after is not None:
            stamps |= set(after.overrides) | (exdates(after.master) if after.master is not None else set())
        parts = {}
        for stamp in stamps:
            ours = after is None or self.occurrence_record(stamp) == after.occurrence_record(stamp)
            parts[stamp] = wanted.occurrence_record(stamp) if ours else self.occurrence_record(stamp)
        self.master = copy.deepcopy(wanted.master)
        self.overrides = {}
        self.master.pop("EXDATE", None)
        for stamp, part in parts.items():
            if part is not None and part.get("override"):
                self.overrides[stamp] = component_from(part["override"])
        excluded = {stamp for stamp, part in parts.items() if part is not None and part.get("excluded")}
        if excluded:
            self._set_excluded_all(excluded)

    def _set_excluded_all(self, stamps: set[str]) -> None:
        master = cast(icalendar.Event, self.master)
        tz_name = event_of(master, "", "", self.default_tz).timezone
        set_exdates(master, [stamp_original(s) for s in stamps], tz_name)

    @classmethod
    def from_record(cls, uid: str, record: dict[str, Any], default_tz: str) -> Series:
        return cls(uid, [component_from(text) for text in record["components"]], default_tz)

    def put_occurrence_record(self, stamp: str, record: dict[str, Any] | None) -> None:
        """Make one occurrence read as `record` says, leaving the others as they are."""
        if self.master is None:
            raise CalendarError(f"the series of occurrence {self.uid}_{stamp} is gone")
        override = record.get("override") if record else None
        if override:
            self.overrides[stamp] = component_from(override)
        else:
            self.overrides.pop(stamp, None)
        self._set_excluded(stamp, bool(record and record.get("excluded")))


def _aware(value: date | datetime, component: icalendar.Event, default_tz: str) -> date | datetime:
    if isinstance(value, datetime) and value.tzinfo is None:
        start = component.get("DTSTART")
        tz = start.dt.tzinfo if start is not None and isinstance(start.dt, datetime) else None
        return value.replace(tzinfo=tz or zone(default_tz))
    return value


def _overlaps(event: Event, start: datetime, end: datetime) -> bool:
    """Whether `event` overlaps [start, end) (a zero-length event when it starts inside)."""
    first = local_start_of(event.start, event.zone)
    last = local_start_of(event.end, event.zone)
    if event.all_day:
        first = local_start_of(as_date(event.start), event.zone)
    if last == first:
        return start <= first < end
    return first < end and last > start

