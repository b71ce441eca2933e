"""The default calendar: events in a SQLite file through sqlmodel, no account needed.

Recurring series are stored once, as RRULE lines, and expanded with `dateutil.rrule` when listed.
A changed or cancelled occurrence is its own row (an exception) keyed by the instance id Google
uses (`<series>_<YYYYMMDDTHHMMSSZ>`), so moving one occurrence never touches the others and ids
look the same on both backends. Deletes are soft (status `cancelled`) so an undo can put the very
same row back; a rollback of a create removes the row outright.
"""
from __future__ import annotations

import json
import re
import secrets
import threading
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Iterable

from dateutil.rrule import rrulestr
from sqlalchemy import and_, select
from sqlmodel import Field, Session, SQLModel

from tools.backend import (CalendarBackend, CalendarError, EventNotFound, EventPatch, Snapshot,
                           VersionConflict)
from tools.events import (UTC, CalendarInfo, Event, EventFieldError, as_date, format_when,
                          local_start_of, normalize_recurrence, parse_when, zone)
from tools.store import ensure_tables, sqlite_engine

INSTANCE_ID_RE = re.compile(r"^(?P<base>.+)_(?P<stamp>\d{8}(?:T\d{6}Z)?)$")
MAX_OCCURRENCES = 5000


class CalendarRow(SQLModel, table=True):
    __tablename__ = "calendars"
    id: str = Field(primary_key=True)
    name: str
    timezone: str | None = None
    is_primary: bool = False


class EventRow(SQLModel, table=True):
    """One stored event, series master or occurrence exception."""

    __tablename__ = "events"
    calendar_id: str = Field(primary_key=True)
    id: str = Field(primary_key=True)
    title: str = ""
    start: str
    end: str
    all_day: bool = False
    timezone: str = "UTC"
    location: str | None = None
    description: str | None = None
    attendees: str = "[]"
    recurrence: str | None = None
    recurring_event_id: str | None = Field(default=None, index=True)
    original_start: str | None = None
    status: str = "confirmed"
    version: int = 1
    turn_id: str | None = None
    start_utc: int = Field(index=True)  # epoch seconds: fast range queries across zones
    end_utc: int = Field(index=True)


RECORD_FIELDS = ("title", "start", "end", "all_day", "timezone", "location", "description",
                 "attendees", "recurrence", "recurring_event_id", "original_start", "status",
                 "turn_id")


def instance_stamp(original: date | datetime) -> str:
    """The suffix Google gives an occurrence: a UTC timestamp, or the date of an all-day one."""
    if isinstance(original, datetime):
        return original.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return original.strftime("%Y%m%d")


def _epoch(value: datetime) -> int:
    return int(value.timestamp())


def event_to_fields(event: Event) -> dict[str, Any]:
    """Flatten an Event into the stored columns (strings keep the offset or the date)."""
    tz = zone(event.timezone)
    start = local_start_of(event.start, tz)
    end = local_start_of(event.end, tz)
    return {
        "title": event.title,
        "start": format_when(event.start),
        "end": format_when(event.end),
        "all_day": event.all_day,
        "timezone": event.timezone,
        "location": event.location,
        "description": event.description,
        "attendees": json.dumps(list(event.attendees)),
        "recurrence": json.dumps(list(event.recurrence)) if event.recurrence else None,
        "recurring_event_id": event.recurring_event_id,
        "original_start": format_when(event.original_start) if event.original_start else None,
        "status": event.status,
        "start_utc": _epoch(start),
        "end_utc": _epoch(end),
    }


def row_to_event(row: Any) -> Event:
    tz = zone(row.timezone)
    start = parse_when(row.start, tz, "start")
    end = parse_when(row.end, tz, "end")
    return Event(
        id=row.id, title=row.title, start=start, end=end, all_day=bool(row.all_day),
        timezone=row.timezone, location=row.location, description=row.description,
        attendees=tuple(json.loads(row.attendees or "[]")),
        recurrence=tuple(json.loads(row.recurrence)) if row.recurrence else None,
        calendar_id=row.calendar_id, version=str(row.version),
        recurring_event_id=row.recurring_event_id,
        original_start=parse_when(row.original_start, tz, "original_start") if row.original_start else None,
        status=row.status,
    )


def row_record(row: EventRow) -> dict[str, Any]:
    """The snapshot record: every stored field, JSON-safe."""
    record = {name: getattr(row, name) for name in RECORD_FIELDS}
    record["version"] = str(row.version)
    return record


def occurrences(master: Event, start: datetime, end: datetime) -> Iterable[date | datetime]:
    """Original starts of `master`'s occurrences whose span overlaps [start, end).

    Expansion runs on aware local datetimes so 17:00 stays 17:00 across a DST change.
    """
    tz = master.zone
    dtstart = local_start_of(master.start, tz)
    duration = master.duration
    try:
        rule = rrulestr("\n".join(master.recurrence or ()), dtstart=dtstart, forceset=True)
    except (ValueError, TypeError) as exc:
        raise CalendarError(f"event {master.id!r} has a recurrence that cannot be read: {exc}") from exc
    window_start = (start - duration).astimezone(tz)
    count = 0
    for occ in rule.xafter(window_start, inc=True, count=None):
        if occ >= end:
            break
        if occ + duration > start or (duration == timedelta(0) and occ >= start):
            yield occ.date() if master.all_day else occ
        count += 1
        if count > MAX_OCCURRENCES:
            break


def is_occurrence(master: Event, original: date | datetime) -> bool:
    tz = master.zone
    probe = local_start_of(original, tz)
    for occ in occurrences(master, probe, probe + timedelta(seconds=1)):
        if local_start_of(occ, tz) == probe:
            return True
    return False


def virtual_instance(master: Event, original: date | datetime) -> Event:
    tz = master.zone
    duration = master.duration
    if master.all_day:
        start: date | datetime = as_date(original)
        end: date | datetime = as_date(original) + timedelta(days=duration.days or 1)
    else:
        start = local_start_of(original, tz).astimezone(tz)
        end = (start + duration).astimezone(tz)  # type: ignore[operator]
    return master.with_changes(
        id=f"{master.id}_{instance_stamp(original)}", start=start, end=end, recurrence=None,
        recurring_event_id=master.id, original_start=original, version="0",
    )


class LocalBackend(CalendarBackend):
    """Several calendars in one SQLite file; the first one made is the primary."""

    name = "local"

    def __init__(self, path: Path | str, default_timezone: str = "UTC") -> None:
        self.path = path
        self.engine = sqlite_engine(path)
        ensure_tables(self.engine, CalendarRow, EventRow)
        self.default_timezone = default_timezone
        self._lock = threading.RLock()
        with Session(self.engine) as session:
            if session.get(CalendarRow, "primary") is None:
                session.add(CalendarRow(id="primary", name="Family", timezone=default_timezone,
                                        is_primary=True))
                session.commit()

    # ----------------------------------------------------------------- calendars
    def calendars(self) -> list[CalendarInfo]:
        with Session(self.engine) as session:
            rows = session.exec(select(CalendarRow)).scalars().all()  # type: ignore[call-overload]
            return [CalendarInfo(r.id, r.name, r.is_primary, r.timezone) for r in rows]

    def add_calendar(self, calendar_id: str, name: str, timezone: str | None = None) -> CalendarInfo:
        with Session(self.engine) as session:
            if session.get(CalendarRow, calendar_id) is None:
                session.add(CalendarRow(id=calendar_id, name=name, timezone=timezone))
                session.commit()
        return CalendarInfo(calendar_id, name, calendar_id == "primary", timezone)

    def primary_calendar_id(self) -> str:
        return "primary"

    def _require_calendar(self, session: Session, calendar_id: str) -> None:
        if session.get(CalendarRow, calendar_id) is None:
            raise CalendarError(f"calendar {calendar_id!r} does not exist")

    # ----------------------------------------------------------------- reading
    def list_events(self, calendar_id: str, start: datetime, end: datetime,
                    query: str | None = None) -> list[Event]:
        table = EventRow.__table__  # type: ignore[attr-defined]
        lo, hi = _epoch(start), _epoch(end)
        with self.engine.connect() as conn:
            single = conn.execute(select(table).where(and_(
                table.c.calendar_id == calendar_id, table.c.status == "confirmed",
                table.c.recurrence.is_(None), table.c.start_utc < hi, table.c.end_utc > lo,
            ))).all()
            masters = conn.execute(select(table).where(and_(
                table.c.calendar_id == calendar_id, table.c.status == "confirmed",
                table.c.recurrence.is_not(None), table.c.recurring_event_id.is_(None),
                table.c.start_utc < hi,
            ))).all()
            exceptions: set[str] = set()
            if masters:
                exceptions = {r.id for r in conn.execute(select(table.c.id).where(and_(
                    table.c.calendar_id == calendar_id,
                    table.c.recurring_event_id.in_([m.id for m in masters]),
                ))).all()}
        events = [row_to_event(r) for r in single]
        orphans = {e.recurring_event_id for e in events if e.recurring_event_id}
        if orphans:
            alive = {m.id for m in masters}
            for series_id in orphans - alive:
                if self.get_event(calendar_id, series_id) is None:
                    events = [e for e in events if e.recurring_event_id != series_id]
        for row in masters:
            master = row_to_event(row)
            for original in occurrences(master, start, end):
                instance = virtual_instance(master, original)
                if instance.id not in exceptions:
                    events.append(instance)
        if query:
            needle = query.casefold()
            events = [e for e in events if needle in " ".join(
                filter(None, (e.title, e.location, e.description, *e.attendees))).casefold()]
        events.sort(key=lambda e: (e.start_instant, e.id))
        return events

    def get_event(self, calendar_id: str, event_id: str) -> Event | None:
        with Session(self.engine) as session:
            row = session.get(EventRow, (calendar_id, event_id))
            if row is not None:
                return row_to_event(row) if row.status == "confirmed" else None
            return self._virtual(session, calendar_id, event_id)

    def _virtual(self, session: Session, calendar_id: str, event_id: str) -> Event | None:
        match = INSTANCE_ID_RE.match(event_id)
        if not match:
            return None
        master_row = session.get(EventRow, (calendar_id, match["base"]))
        if master_row is None or master_row.status != "confirmed" or not master_row.recurrence:
            return None
        master = row_to_event(master_row)
        stamp = match["stamp"]
        if "T" in stamp:
            original: date | datetime = datetime.strptime(stamp, "%Y%m%dT%H%M%SZ").replace(
                tzinfo=UTC).astimezone(master.zone)
        else:
            original = datetime.strptime(stamp, "%Y%m%d").date()
        if master.all_day != (not isinstance(original, datetime)) or not is_occurrence(master, original):
            return None
        return virtual_instance(master, original)

    # ----------------------------------------------------------------- writing
    def new_event_id(self) -> str:
        return "ev" + secrets.token_hex(5)

    def create_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None,
                     send_updates: bool = False) -> Event:
        with self._lock, Session(self.engine) as session:
            self._require_calendar(session, calendar_id)
            event_id = event.id or self.new_event_id()
            existing = session.get(EventRow, (calendar_id, event_id))
            if existing is not None:
                if turn_id and existing.turn_id == turn_id:
                    return row_to_event(existing)  # our own create, retried: not a duplicate
                raise CalendarError(f"an event with id {event_id!r} already exists")
            fields = event_to_fields(event.with_changes(id=event_id, status="confirmed"))
            row = EventRow(calendar_id=calendar_id, id=event_id, version=1, turn_id=turn_id, **fields)
            session.add(row)
            session.commit()
            session.refresh(row)
            return row_to_event(row)

    def patch_event(self, calendar_id: str, event_id: str, patch: EventPatch, *,
                    if_match: str | None = None, send_updates: bool = False) -> Event:
        with self._lock, Session(self.engine) as session:
            row = session.get(EventRow, (calendar_id, event_id))
            if row is None:
                virtual = self._virtual(session, calendar_id, event_id)
                if virtual is None:
                    raise EventNotFound(event_id)
                current = virtual
                row = EventRow(calendar_id=calendar_id, id=event_id, version=0,
                               **event_to_fields(virtual))
                session.add(row)
            elif row.status != "confirmed":
                raise EventNotFound(event_id)
            else:
                current = row_to_event(row)
            if if_match is not None and str(row.version) != str(if_match):
                raise VersionConflict(event_id, if_match, str(row.version))
            updated = apply_patch(current, patch)
            for key, value in event_to_fields(updated).items():
                setattr(row, key, value)
            row.version += 1
            session.commit()
            session.refresh(row)
            return row_to_event(row)

    def delete_event(self, calendar_id: str, event_id: str, *, if_match: str | None = None,
                     send_updates: bool = False) -> None:
        with self._lock, Session(self.engine) as session:
            row = session.get(EventRow, (calendar_id, event_id))
            if row is None:
                virtual = self._virtual(session, calendar_id, event_id)
                if virtual is None:
                    raise EventNotFound(event_id)
                row = EventRow(calendar_id=calendar_id, id=event_id, version=0,
                               **event_to_fields(virtual))
                session.add(row)
            elif row.status != "confirmed":
                raise EventNotFound(event_id)
            if if_match is not None and str(row.version) != str(if_match):
                raise VersionConflict(event_id, if_match, str(row.version))
            row.status = "cancelled"
            row.version += 1
            session.commit()

    # ----------------------------------------------------------------- journal support
    def snapshot(self, calendar_id: str, event_id: str) -> Snapshot:
        with Session(self.engine) as session:
            row = session.get(EventRow, (calendar_id, event_id))
            if row is None:
                return Snapshot(calendar_id, event_id, None, None)
            return Snapshot(calendar_id, event_id, row_record(row), str(row.version))

    def restore(self, snapshot: Snapshot, *, expected_version: str | None) -> Snapshot:
        with self._lock, Session(self.engine) as session:
            row = session.get(EventRow, (snapshot.calendar_id, snapshot.event_id))
            actual = str(row.version) if row is not None else None
            if expected_version is not None and actual != expected_version:
                raise VersionConflict(snapshot.event_id, expected_version, actual)
            if snapshot.record is None:
                if row is not None:
                    session.delete(row)
            else:
                record = {k: v for k, v in snapshot.record.items() if k in RECORD_FIELDS}
                event = row_to_event(_RecordView(snapshot.calendar_id, snapshot.event_id, record))
                fields = event_to_fields(event)
                fields.update({k: record[k] for k in ("start", "end", "attendees", "recurrence",
                                                      "original_start", "status", "turn_id")})
                if row is None:
                    row = EventRow(calendar_id=snapshot.calendar_id, id=snapshot.event_id,
                                   version=1, **fields)
                    session.add(row)
                else:
                    for key, value in fields.items():
                        setattr(row, key, value)
                    row.version += 1
            session.commit()
        return self.snapshot(snapshot.calendar_id, snapshot.event_id)

    def all_records(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every stored row, for exact before/after comparisons in tests and benchmarks."""
        with Session(self.engine) as session:
            rows = session.exec(select(EventRow)).scalars().all()  # type: ignore[call-overload]
            return {(r.calendar_id, r.id): row_record(r) for r in rows}


class _RecordView:
    """Lets a snapshot record be read with `row_to_event` without a database row."""

    def __init__(self, calendar_id: str, event_id: str, record: dict[str, Any]) -> None:
        self.calendar_id = calendar_id
        self.id = event_id
        self.version = 0
        for key in RECORD_FIELDS:
            setattr(self, key, record.get(key))
        self.attendees = record.get("attendees") or "[]"


PATCHABLE = ("title", "start", "end", "all_day", "timezone", "location", "description",
             "attendees", "recurrence")


def apply_patch(current: Event, patch: EventPatch) -> Event:
    """The event after a patch: only named fields change; a new start alone keeps the duration."""
    fields = dict(patch.fields)
    unknown = set(fields) - set(PATCHABLE)
    if unknown:
        raise EventFieldError(sorted(unknown)[0], "is not a field that can be changed")
    tz_name = fields.get("timezone") or current.timezone
    tz = zone(tz_name)
    all_day = bool(fields.get("all_day", current.all_day))
    start = parse_when(fields["start"], tz, "start") if "start" in fields else current.start
    if "end" in fields:
        end = parse_when(fields["end"], tz, "end")
    elif "start" in fields or "all_day" in fields:
        if all_day:
            days = max(1, (as_date(current.end) - as_date(current.start)).days) if current.all_day else 1
            end = as_date(start) + timedelta(days=days)
        else:
            duration = current.duration if not current.all_day else timedelta(hours=1)
            end = local_start_of(start, tz) + duration
    else:
        end = current.end
    if all_day:
        start, end = as_date(start), as_date(end)
    elif not isinstance(start, datetime) or not isinstance(end, datetime):
        raise EventFieldError("start", "a timed event needs a date and a time (set all_day for a date)")
    else:
        start, end = start.astimezone(tz), end.astimezone(tz)
    changed = current.with_changes(
        title=str(fields.get("title", current.title)),
        start=start, end=end, all_day=all_day, timezone=tz_name,
        location=fields.get("location", current.location),
        description=fields.get("description", current.description),
        attendees=tuple(fields["attendees"]) if "attendees" in fields else current.attendees,
        recurrence=(tuple(normalize_recurrence(fields["recurrence"]) or ()) or None)
        if "recurrence" in fields else current.recurrence,
    )
    check_times(changed)
    return changed


def check_times(event: Event) -> None:
    """End after start; an all-day end is exclusive, so it must be at least the next day."""
    if event.all_day:
        if as_date(event.end) <= as_date(event.start):
            raise EventFieldError("end", "an all-day event's end is exclusive: it must be after the start date")
    elif event.end_instant <= event.start_instant:
        raise EventFieldError("end", f"ends ({format_when(event.end)}) before it starts ({format_when(event.start)})")


def day_bounds(day: date, tz_name: str) -> tuple[datetime, datetime]:
    tz = zone(tz_name)
    return (datetime.combine(day, time(0), tzinfo=tz),
            datetime.combine(day + timedelta(days=1), time(0), tzinfo=tz))
