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
from bisect import bisect_left
from collections import OrderedDict
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import Any, Iterable

from dateutil.rrule import rrulestr
from sqlalchemy import and_, select, text
from sqlmodel import Field, Session, SQLModel

from tools.backend import (CalendarBackend, CalendarError, EventNotFound, EventPatch, Snapshot,
                           VersionConflict)
from tools.events import (UTC, CalendarInfo, Event, EventFieldError, as_date, format_when,
                          local_start_of, normalize_recurrence, parse_when, zone)
from tools.store import ensure_tables, sqlite_engine

INSTANCE_ID_RE = re.compile(r"^(?P<base>.+)_(?P<stamp>\d{8}(?:T\d{6}Z)?)$")
MAX_OCCURRENCES = 5000
DST_MARGIN = timedelta(hours=3)
EVENT_CACHE_SIZE = 8192


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


LONG_EVENT = 7 * 86400  # events longer than this are found through ix_events_span
_EXTRA_INDEXES = (
    "CREATE INDEX IF NOT EXISTS ix_events_span ON events (calendar_id, (end_utc - start_utc)) "
    "WHERE recurrence IS NULL",
    "CREATE INDEX IF NOT EXISTS ix_events_cal_start ON events (calendar_id, start_utc) "
    "WHERE recurrence IS NULL",
    "CREATE INDEX IF NOT EXISTS ix_events_masters ON events (calendar_id, start_utc) "
    "WHERE recurrence IS NOT NULL",
)
_COLUMN_NAMES = tuple(c.name for c in EventRow.__table__.columns)  # type: ignore[attr-defined]
_COLUMNS = ", ".join(f'"{name}"' for name in _COLUMN_NAMES)
_SELECT_ONE_SQL = f"SELECT {_COLUMNS} FROM events WHERE calendar_id = ? AND id = ?"
_LONG_EVENTS_SQL = text(
    f"SELECT {_COLUMNS} FROM events INDEXED BY ix_events_span WHERE calendar_id = :calendar_id "
    "AND recurrence IS NULL AND (end_utc - start_utc) > :long AND status = 'confirmed' "
    "AND start_utc < :before AND end_utc > :lo")

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


class _Expansion:
    """The occurrence starts of one series, generated once, in order, and kept for range
    look-ups: listing a month then costs a bisect instead of a walk from the series' first
    occurrence (and a fresh RRULE parse) on every call."""

    __slots__ = ("starts", "_iter", "done", "lock")

    def __init__(self, rule: Any) -> None:
        self.starts: list[datetime] = []
        self._iter = iter(rule)
        self.done = False
        self.lock = threading.Lock()

    def extend_to(self, end: datetime, series_id: str) -> None:
        """Generate starts until one is at or after `end` (or the series ends)."""
        starts = self.starts
        while not self.done and (not starts or starts[-1] < end):
            if len(starts) >= MAX_GENERATED:
                self.done = True
                break
            try:
                starts.append(next(self._iter))
            except StopIteration:
                self.done = True
            except (ValueError, TypeError, OverflowError) as exc:
                self.done = True
                raise CalendarError(f"event {series_id!r} has a recurrence that cannot be "
                                    f"expanded: {exc}") from exc


MAX_GENERATED = 200_000
_EXPANSIONS: "OrderedDict[tuple[Any, ...], _Expansion]" = OrderedDict()
_EXPANSIONS_MAX = 512
_EXPANSIONS_LOCK = threading.Lock()


def _expansion(master: Event, dtstart: datetime) -> _Expansion:
    """The cached expansion for this rule and first start (keyed by content, so an edited
    series simply gets a new entry and nothing needs invalidating)."""
    key = (master.recurrence, dtstart.isoformat(), master.timezone, master.all_day)
    with _EXPANSIONS_LOCK:
        found = _EXPANSIONS.get(key)
        if found is not None:
            _EXPANSIONS.move_to_end(key)
            return found
    try:
        rule = rrulestr("\n".join(master.recurrence or ()), dtstart=dtstart, forceset=True)
    except (ValueError, TypeError) as exc:
        raise CalendarError(f"event {master.id!r} has a recurrence that cannot be read: {exc}") from exc
    made = _Expansion(rule)
    with _EXPANSIONS_LOCK:
        made = _EXPANSIONS.setdefault(key, made)
        _EXPANSIONS.move_to_end(key)
        while len(_EXPANSIONS) > _EXPANSIONS_MAX:
            _EXPANSIONS.popitem(last=False)
    return made


def occurrences(master: Event, start: datetime, end: datetime) -> Iterable[date | datetime]:
    """Original starts of `master`'s occurrences whose span overlaps [start, end).

    Expansion runs on aware local datetimes so 17:00 stays 17:00 across a DST change.
    """
    tz = master.zone
    dtstart = local_start_of(master.start, tz)
    duration = master.duration
    expansion = _expansion(master, dtstart)
    # starts are compared by wall clock (they share the zone), so reach back past a DST gap:
    # an occurrence at a skipped time (02:30 on spring-forward day) sorts before its instant.
    window_start = (start - duration - DST_MARGIN).astimezone(tz)
    with expansion.lock:
        expansion.extend_to(end, master.id)
        starts = expansion.starts
        first = bisect_left(starts, window_start)
        picked = []
        for occ in starts[first:first + MAX_OCCURRENCES + 1]:
            if occ >= end:
                break
            if occ + duration > start or (duration == timedelta(0) and occ >= start):
                picked.append(occ.date() if master.all_day else occ)
    return picked


def is_occurrence(master: Event, original: date | datetime) -> bool:
    tz = master.zone
    # Compare instants in UTC: two datetimes sharing a ZoneInfo compare by wall clock, which
    # disagrees with the instant for a time skipped by a DST change (02:30 on spring-forward day).
    probe = local_start_of(original, tz).astimezone(UTC)
    for occ in occurrences(master, probe, probe + timedelta(seconds=1)):
        if local_start_of(occ, tz).astimezone(UTC) == probe:
            return True
    return False


def virtual_instance(master: Event, original: date | datetime) -> Event:
    return virtual_instances(master, [original])[0]


def virtual_instances(master: Event, originals: Iterable[date | datetime]) -> list[Event]:
    """The occurrences of `master` starting at `originals` (zone and length worked out once)."""
    tz = master.zone
    duration = master.duration
    days = timedelta(days=duration.days or 1)
    made = []
    for original in originals:
        if master.all_day:
            start: date | datetime = as_date(original)
            end: date | datetime = start + days
        else:
            start = local_start_of(original, tz).astimezone(tz)
            end = (start + duration).astimezone(tz)  # type: ignore[operator]
        made.append(Event(  # built directly: dataclasses.replace costs more in a listing
            id=f"{master.id}_{instance_stamp(original)}", title=master.title, start=start,
            end=end, all_day=master.all_day, timezone=master.timezone, location=master.location,
            description=master.description, attendees=master.attendees, recurrence=None,
            calendar_id=master.calendar_id, version="0", recurring_event_id=master.id,
            original_start=original, status=master.status))
    return made


def _start_key(event: Event) -> tuple[datetime, str]:
    start = event.start
    if not isinstance(start, datetime):
        start = datetime.combine(start, time(0), tzinfo=zone(event.timezone))
    return (start, event.id)


class LocalBackend(CalendarBackend):
    """Several calendars in one SQLite file; the first one made is the primary."""

    name = "local"

    def __init__(self, path: Path | str, default_timezone: str = "UTC") -> None:
        self.path = path
        self.engine = sqlite_engine(path)
        ensure_tables(self.engine, CalendarRow, EventRow)
        with self.engine.begin() as conn:  # indexes added to older files too
            for ddl in _EXTRA_INDEXES:
                conn.execute(text(ddl))
        self.default_timezone = default_timezone
        self._lock = threading.RLock()
        self._cache_lock = threading.Lock()
        self._events_cache: OrderedDict[tuple[Any, ...], Event] = OrderedDict()
        self._listing = threading.local()  # per thread: what its last listing had to leave out
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
            # Two index range scans instead of one scan of everything that starts before `hi`:
            # events starting at most LONG_EVENT before the window, and the few longer ones
            # (through the index on their length) that start earlier still.
            single = conn.execute(select(table).where(and_(
                table.c.calendar_id == calendar_id, table.c.status == "confirmed",
                table.c.recurrence.is_(None), table.c.start_utc >= lo - LONG_EVENT,
                table.c.start_utc < hi, table.c.end_utc > lo,
            ))).all()
            single += conn.execute(_LONG_EVENTS_SQL, {
                "calendar_id": calendar_id, "long": LONG_EVENT, "before": lo - LONG_EVENT,
                "lo": lo}).all()
            masters = conn.execute(select(table).where(and_(
                table.c.calendar_id == calendar_id, table.c.status == "confirmed",
                table.c.recurrence.is_not(None), table.c.recurring_event_id.is_(None),
                table.c.start_utc < hi,
            ))).all()
            expanded = []
            skipped: list[Event] = []
            for row in masters:
                master = self._event_of(row)
                try:
                    originals = occurrences(master, start, end)
                except CalendarError:  # one unreadable rule must not hide the whole calendar
                    skipped.append(master)
                    continue
                if originals:
                    expanded.append((master, originals))
            self._listing.skipped = skipped
            exceptions: set[str] = set()
            if expanded:
                exceptions = {r.id for r in conn.execute(select(table.c.id).where(and_(
                    table.c.calendar_id == calendar_id,
                    table.c.recurring_event_id.in_([m.id for m, _ in expanded]),
                ))).all()}
        events = [self._event_of(r) for r in single]
        orphans = {e.recurring_event_id for e in events if e.recurring_event_id}
        if orphans:
            alive = {m.id for m in masters}
            for series_id in orphans - alive:
                if self.get_event(calendar_id, series_id) is None:
                    events = [e for e in events if e.recurring_event_id != series_id]
        for master, originals in expanded:
            events.extend(i for i in virtual_instances(master, originals) if i.id not in exceptions)
        if query:
            needle = query.casefold()
            events = [e for e in events if needle in " ".join(
                filter(None, (e.title, e.location, e.description, *e.attendees))).casefold()]
        events.sort(key=_start_key)
        return events

    def skipped_series(self) -> list[Event]:
        """The recurring series the calling thread's last `list_events` left out because their
        rule cannot be read (stored before rules were checked at write time, or imported);
        callers report them instead of failing the whole listing."""
        return list(getattr(self._listing, "skipped", []))

    def _event_of(self, row: Any) -> Event:
        """`row_to_event`, remembered per full row (every column, the version included), so a
        listing reads each unchanged row into an Event once; a changed row is a new key."""
        key = tuple(row)
        cache = self._events_cache
        found = cache.get(key)
        if found is None:
            found = row_to_event(row)
            with self._cache_lock:
                cache[key] = found
                if len(cache) > EVENT_CACHE_SIZE:
                    cache.popitem(last=False)
        return found

    def get_event(self, calendar_id: str, event_id: str) -> Event | None:
        with Session(self.engine) as session:
            row = session.get(EventRow, (calendar_id, event_id))
            if row is not None:
                return row_to_event(row) if self._live(session, row) else None
            return self._virtual(session, calendar_id, event_id)

    @staticmethod
    def _live(session: Session, row: EventRow) -> bool:
        """Confirmed, and (for an occurrence exception) its series still exists: deleting a
        series takes its moved occurrences with it, as on Google."""
        if row.status != "confirmed":
            return False
        if row.recurring_event_id:
            master = session.get(EventRow, (row.calendar_id, row.recurring_event_id))
            return master is not None and master.status == "confirmed"
        return True

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

    def _row_for_write(self, session: Session, calendar_id: str, event_id: str) -> tuple[EventRow, Event]:
        """The stored row a write changes; an untouched occurrence gets its exception row here
        (version 0), so changing or cancelling it leaves the other occurrences alone."""
        row = session.get(EventRow, (calendar_id, event_id))
        if row is None:
            virtual = self._virtual(session, calendar_id, event_id)
            if virtual is None:
                raise EventNotFound(event_id)
            row = EventRow(calendar_id=calendar_id, id=event_id, version=0, **event_to_fields(virtual))
            session.add(row)
            return row, virtual
        if not self._live(session, row):
            raise EventNotFound(event_id)
        return row, row_to_event(row)

    def patch_event(self, calendar_id: str, event_id: str, patch: EventPatch, *,
                    if_match: str | None = None, send_updates: bool = False) -> Event:
        with self._lock, Session(self.engine) as session:
            row, current = self._row_for_write(session, calendar_id, event_id)
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
            row, _ = self._row_for_write(session, calendar_id, event_id)
            if if_match is not None and str(row.version) != str(if_match):
                raise VersionConflict(event_id, if_match, str(row.version))
            row.status = "cancelled"
            row.version += 1
            session.commit()

    # ----------------------------------------------------------------- journal support
    # Snapshot and restore talk to sqlite3 directly with fixed SQL: a rollback runs both for
    # every event a turn touched, and SQLAlchemy's per-statement overhead (ORM or Core) was
    # nearly all of its cost. The write is one BEGIN IMMEDIATE transaction, so the version
    # check and the write cannot be split by another process's write.
    @staticmethod
    def _fetch(raw: Any, calendar_id: str, event_id: str) -> dict[str, Any] | None:
        found = raw.execute(_SELECT_ONE_SQL, (calendar_id, event_id)).fetchone()
        return dict(zip(_COLUMN_NAMES, found)) if found is not None else None

    def snapshot(self, calendar_id: str, event_id: str) -> Snapshot:
        with self.engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            return _snapshot_of(calendar_id, event_id, self._fetch(raw, calendar_id, event_id))

    def restore(self, snapshot: Snapshot, *, expected_version: str | None) -> Snapshot:
        cal, event_id = snapshot.calendar_id, snapshot.event_id
        with self._lock, self.engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            raw.execute("BEGIN IMMEDIATE")
            try:
                row = self._fetch(raw, cal, event_id)
                actual = str(row["version"]) if row is not None else None
                if expected_version is not None and actual != expected_version:
                    raise VersionConflict(event_id, expected_version, actual)
                if snapshot.record is None:
                    if row is not None:
                        raw.execute("DELETE FROM events WHERE calendar_id = ? AND id = ?", (cal, event_id))
                else:
                    record = {k: v for k, v in snapshot.record.items() if k in RECORD_FIELDS}
                    event = row_to_event(_RecordView(cal, event_id, record))
                    fields = event_to_fields(event)
                    fields.update({k: record[k] for k in ("start", "end", "attendees", "recurrence",
                                                          "original_start", "status", "turn_id")})
                    fields["version"] = 1 if row is None else row["version"] + 1
                    names = list(fields)
                    values = [int(v) if isinstance(v, bool) else v for v in fields.values()]
                    if row is None:
                        raw.execute(f"INSERT INTO events (calendar_id, id, {', '.join(map(_quote, names))}) "
                                    f"VALUES (?, ?{', ?' * len(names)})", (cal, event_id, *values))
                    else:
                        raw.execute(f"UPDATE events SET {', '.join(_quote(n) + ' = ?' for n in names)} "
                                    "WHERE calendar_id = ? AND id = ?", (*values, cal, event_id))
                back = _snapshot_of(cal, event_id, self._fetch(raw, cal, event_id))
                raw.commit()
            except BaseException:
                raw.rollback()
                raise
        return back

    def all_records(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every stored row, for exact before/after comparisons in tests and benchmarks."""
        with Session(self.engine) as session:
            rows = session.exec(select(EventRow)).scalars().all()  # type: ignore[call-overload]
            return {(r.calendar_id, r.id): row_record(r) for r in rows}


def _snapshot_of(calendar_id: str, event_id: str, row: dict[str, Any] | None) -> Snapshot:
    if row is None:
        return Snapshot(calendar_id, event_id, None, None)
    record = {name: row[name] for name in RECORD_FIELDS}
    record["all_day"] = bool(record["all_day"])
    record["version"] = str(row["version"])
    return Snapshot(calendar_id, event_id, record, record["version"])


def _quote(name: str) -> str:
    return f'"{name}"'


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
