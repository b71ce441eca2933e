"""The default calendar: events in a SQLite file (or the `DATABASE_URL` database) through
SQLAlchemy Core, no account needed.

Recurring series are stored once, as RRULE lines, and expanded by `tools.calendar.occurrences` when
listed. A changed or cancelled occurrence is its own row (an exception) keyed by the occurrence
id (`<series>_<YYYYMMDDTHHMMSSZ>`), so moving one occurrence never touches the others and ids
look the same on both backends. Deletes are soft (status `cancelled`) so an undo can put the very
same row back; a rollback of a create removes the row outright.

Every statement is built with SQLAlchemy Core on the tables below. A write is one transaction
that first shuts out other writers (`tools.store.database.writer_lock`: `BEGIN IMMEDIATE` on SQLite, an
advisory lock on PostgreSQL), so its version check and its write cannot be split by another
process's write, and a bulk patch writes all its items or none. Instants are kept as epoch
seconds (`start_utc`, `end_utc`: the same integers and index arithmetic on every database), the
wall-clock times as written (`start`, `end`: ISO text with the offset, or a date for all-day
events) and the IANA zone in its own column, so nothing depends on a server's session zone.
"""
from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime, time
from functools import lru_cache
from pathlib import Path
from typing import Any

from sqlalchemy import (
    ARRAY,
    Boolean,
    Column,
    Integer,
    MetaData,
    String,
    Table,
    and_,
    any_,
    bindparam,
    delete,
    distinct,
    func,
    insert,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection
from sqlalchemy.sql import Select
from sqlalchemy.sql.elements import ColumnClause

from tools.backends.base import (
    ITEM_FAILURES,
    CalendarBackend,
    CalendarError,
    Decide,
    EventNotFound,
    EventPatch,
    PatchItem,
    RestoreItem,
    RestoreResult,
    Snapshot,
    Transaction,
    VersionConflict,
    WriteRecord,
)
from tools.calendar.events import (
    CalendarInfo,
    Event,
    as_status,
    format_when,
    local_start_of,
    new_event,
    parse_when,
    zone,
)
from tools.calendar.occurrences import (
    instance_parts,
    is_occurrence,
    occurrences,
    series_end,
    stamp_original,
    virtual_instance,
    virtual_instances,
)
from tools.calendar.patching import apply_patch
from tools.store.database import Store, writer_lock
from tools.store.direct import DirectMany, DirectSelect
from tools.store.json_text import dumps, loads

LONG_EVENT = 7 * 86400  # events longer than this are found through ix_events_span
EVENT_CACHE_SIZE = 8192
INSTANCES_CACHE_SIZE = 2048  # (series row, window) pairs

metadata = MetaData()
"""The local calendar's own tables (same names, columns and indexes as the files older versions
wrote with sqlmodel, so those files open unchanged); created and upgraded by the `calendar`
migrations (tools/store/migrations/versions), which keep their own frozen copy."""

calendars_table = Table(
    "calendars", metadata,
    Column("id", String, primary_key=True),
    Column("name", String, nullable=False),
    Column("timezone", String),
    Column("is_primary", Boolean, nullable=False, default=False),
)

events_table = Table(
    "events", metadata,
    Column("calendar_id", String, primary_key=True),
    Column("id", String, primary_key=True),
    Column("title", String, nullable=False, default=""),
    Column("start", String, nullable=False),
    Column("end", String, nullable=False),
    Column("all_day", Boolean, nullable=False, default=False),
    Column("timezone", String, nullable=False, default="UTC"),
    Column("location", String),
    Column("description", String),
    Column("attendees", String, nullable=False, default="[]"),
    Column("recurrence", String),
    Column("recurring_event_id", String, index=True),
    Column("original_start", String),
    Column("status", String, nullable=False, default="confirmed"),
    Column("version", Integer, nullable=False, default=1),
    Column("turn_id", String),
    Column("start_utc", Integer, nullable=False, index=True),  # epoch seconds: ranges across zones
    Column("end_utc", Integer, nullable=False, index=True),
    Column("reminders", String),  # JSON minutes before the start; NULL: the calendar's default (c0002)
    Column("end_timezone", String),  # the end's own zone when it differs (c0002)
)
_E = events_table.c
_SINGLE = _E.recurrence.is_(None)
# Listing reads events starting at most LONG_EVENT before the window through ix_events_cal_start,
# the few longer ones through their length (ix_events_span), and series masters apart
# (ix_events_masters); the migration (c0001) creates them. They are not declared again here:
# their `postgresql_where` would make SQLAlchemy load its PostgreSQL dialect at every start.

RECORD_FIELDS = ("title", "start", "end", "all_day", "timezone", "location", "description",
                 "attendees", "recurrence", "recurring_event_id", "original_start", "status",
                 "turn_id", "reminders", "end_timezone")
_STORED_AS_GIVEN = ("start", "end", "attendees", "recurrence", "original_start", "status",
                    "turn_id", "reminders", "end_timezone")
_PLAIN_COLUMNS = frozenset({"title", "location", "description", "version"})
"""Columns `row_to_event` takes as they are stored (the version as text)."""
_TIMES_AND_LISTS = ("start", "end", "all_day", "timezone", "end_timezone", "original_start",
                    "attendees", "recurrence", "reminders")
"""The columns a record is read through (parsed, or decoded from JSON), and the ones the
instants `start_utc` and `end_utc` follow from: a restore whose record holds the same values as
the row it lands on writes none of them, and keeps the row's instants."""


def _epoch(value: datetime) -> int:
    return int(value.timestamp())


def event_to_fields(event: Event) -> dict[str, Any]:
    """Flatten an Event into the stored columns (strings keep the offset or the date)."""
    tz = zone(event.timezone)
    return {
        "title": event.title,
        "start": format_when(event.start),
        "end": format_when(event.end),
        "all_day": event.all_day,
        "timezone": event.timezone,
        "location": event.location,
        "description": event.description,
        "attendees": _list_json(tuple(event.attendees)),
        "recurrence": _list_json(tuple(event.recurrence)) if event.recurrence else None,
        "recurring_event_id": event.recurring_event_id,
        "original_start": format_when(event.original_start) if event.original_start else None,
        "status": event.status,
        "start_utc": _epoch(local_start_of(event.start, tz)),
        "end_utc": _epoch(local_start_of(event.end, tz)),
        "reminders": dumps(sorted(set(event.reminders))) if event.reminders is not None else None,
        "end_timezone": event.end_timezone,
    }


def row_to_event(row: Mapping[Any, Any]) -> Event:
    """The Event a stored row (or a snapshot record with its keys) holds."""
    tz = zone(row["timezone"])
    original = row["original_start"]
    end_tz_name = row.get("end_timezone")  # a snapshot written before c0002 has none
    reminders = row.get("reminders")
    return new_event(
        id=row["id"], title=row["title"], start=parse_when(row["start"], tz, "start"),
        end=parse_when(row["end"], zone(end_tz_name) if end_tz_name else tz, "end"),
        all_day=bool(row["all_day"]),
        timezone=row["timezone"], location=row["location"], description=row["description"],
        attendees=tuple(loads(row["attendees"] or "[]")),
        recurrence=tuple(loads(row["recurrence"])) if row["recurrence"] else None,
        calendar_id=row["calendar_id"], version=str(row["version"]),
        recurring_event_id=row["recurring_event_id"],
        original_start=parse_when(original, tz, "original_start") if original else None,
        status=as_status(row["status"]),
        reminders=tuple(loads(reminders)) if reminders is not None else None,
        end_timezone=end_tz_name or None,
    )


def _as_dict(row: Any) -> dict[str, Any]:
    """A full row of `events` (every column, in the table's order, as `select(events_table)`
    fetches it) as a plain dict: read by name many times over, a dict is several times quicker
    than the row's own mapping (`_changed` compares every column)."""
    return dict(zip(_EVENT_COLUMNS, row, strict=True))


def _list_json(items: tuple[Any, ...]) -> str:
    """`json.dumps(list(items))` (through `tools.store.json_text.dumps`, the same text),
    remembered for lists of strings (guests, rules): the same few are written again and again.
    Only strings: values that are equal but written differently (1, 1.0, True) must not share a
    text. No guests (most events) is `[]` at once."""
    if not items:
        return "[]"
    for item in items:
        if type(item) is not str:
            return dumps(list(items))
    return _strings_json(items)


@lru_cache(maxsize=4096)
def _strings_json(items: tuple[str, ...]) -> str:
    return dumps(list(items))


def _record_of(row: Mapping[Any, Any]) -> dict[str, Any]:
    """The snapshot record: every stored field, JSON-safe, the version as text."""
    record = {name: row[name] for name in RECORD_FIELDS}
    record["all_day"] = bool(record["all_day"])
    record["version"] = str(row["version"])
    return record


def _snapshot_of(calendar_id: str, event_id: str, row: Mapping[Any, Any] | None) -> Snapshot:
    if row is None:
        return Snapshot(calendar_id, event_id, None, None)
    record = _record_of(row)
    return Snapshot(calendar_id, event_id, record, record["version"])


def listing_key(event: Event) -> tuple[datetime, str]:
    """Where an event sits in a listing: by start (a date at midnight in its zone), then id."""
    start = event.start
    if not isinstance(start, datetime):
        start = datetime.combine(start, time(0), tzinfo=zone(event.timezone))
    return (start, event.id)


# Statements built once, with bound parameters: building and cache-keying a Core statement
# per call was most of the cost of a bulk update and its rollback (bench/RESULTS_backend.md).
_PK = and_(_E.calendar_id == bindparam("b_cal"), _E.id == bindparam("b_id"))
_SELECT_ROW = select(events_table).where(_PK)
# The ids as one value, so the statement is the same whatever their number: an IN list of
# fifty bound values is expanded into a statement of its own on every call (SQLAlchemy renders
# it anew; psycopg caches no statement of more than fifty parameters, the server plans it
# again). On PostgreSQL one array, its ids joined to the rows (`unnest`), on SQLite one JSON
# array read by `json_each`, the rows found through the primary key either way. (PostgreSQL
# plans `id = ANY(:b_ids)` of a thousand ids, the series a month listing reads at 100,000
# events, as a scan of the whole table: 12 ms; the join, as a thousand key look-ups: 4 ms.)
_WANTED_IDS = func.unnest(bindparam("b_ids", type_=ARRAY(String))).table_valued("id").render_derived(name="wanted")
_SELECT_ROWS_ANY = select(events_table).select_from(_WANTED_IDS.join(
    events_table, and_(_E.calendar_id == bindparam("b_cal"), _E.id == _WANTED_IDS.c.id)))
_SELECT_ROWS_EACH = DirectSelect(select(events_table).where(_E.calendar_id == bindparam("b_cal"), _E.id.in_(
    select(func.json_each(bindparam("b_ids_json")).table_valued("value").c.value))))
_SELECT_LIVE = select(_E.id).where(_E.calendar_id == bindparam("b_cal"), _E.status == "confirmed",
                                   _E.id.in_(bindparam("b_ids", expanding=True)))
_UPDATE_ROW = update(events_table).where(_PK)  # SET: the columns named in the parameters
_DELETE_ROW = delete(events_table).where(_PK)
_AT_VERSION = and_(_PK, _E.version == bindparam("b_version"))
_UPDATE_AT = update(events_table).where(_AT_VERSION)  # a restore: still the version it checked
_DELETE_AT = delete(events_table).where(_AT_VERSION)
_INSERT_ROW = insert(events_table)
_UPDATE_ROWS, _UPDATE_ROWS_AT, _DELETE_ROWS_AT, _INSERT_ROWS = (
    DirectMany(_UPDATE_ROW), DirectMany(_UPDATE_AT), DirectMany(_DELETE_AT), DirectMany(_INSERT_ROW))
"""The same statements over many rows at once (a bulk update's, a restore's), on SQLite's cursor."""
_SELECT_CALENDAR = select(calendars_table.c.id).where(calendars_table.c.id == bindparam("b_cal"))


# A listing: events starting at most LONG_EVENT before the window (ix_events_cal_start), the few
# longer ones through their length (ix_events_span: `start_utc + 0` keeps the planner from
# scanning ix_events_cal_start for them instead, 10x slower on 10k events), series masters apart.
_LIVE = and_(_E.calendar_id == bindparam("b_cal"), _E.status == "confirmed")
_LIST_SINGLE = select(events_table).where(
    _LIVE, _SINGLE, _E.start_utc >= bindparam("b_near"), _E.start_utc < bindparam("b_hi"),
    _E.end_utc > bindparam("b_lo"))
_LIST_SINGLE_TEXTS = DirectSelect(select(func.json_array(*events_table.columns)).where(
    _LIVE, _SINGLE, _E.start_utc >= bindparam("b_near"), _E.start_utc < bindparam("b_hi"),
    _E.end_utc > bindparam("b_lo")))
"""`_LIST_SINGLE` with each row as one JSON text of its columns (SQLite: `_event_of_text`)."""
_LIST_LONG = DirectSelect(select(events_table).where(
    _LIVE, _SINGLE, _E.end_utc - _E.start_utc > LONG_EVENT, _E.start_utc + 0 < bindparam("b_near"),
    _E.end_utc > bindparam("b_lo")))

# A bounded listing (issue 25, the guard's window): the same, its single events only those a
# filter names (series occurrences and exceptions all, as before); and the window's distinct
# texts, read without reading its events. `b_skip`: ids left out (what the attempt wrote).
_FOUND = or_(_E.recurring_event_id.is_not(None), _E.id.in_(bindparam("b_ids", expanding=True)),
             _E.title.in_(bindparam("b_titles", expanding=True)),
             _E.location.in_(bindparam("b_places", expanding=True)),
             _E.attendees.in_(bindparam("b_guests", expanding=True)),
             _E.description.in_(bindparam("b_descriptions", expanding=True)))
_LIST_FOUND_IDS = select(_E.id).where(  # from ix_events_window_texts alone, then rows by key
    _LIVE, _SINGLE, _E.start_utc >= bindparam("b_near"), _E.start_utc < bindparam("b_hi"),
    _E.end_utc > bindparam("b_lo"), _FOUND)
_ROWID: ColumnClause[int] = literal_column("events.rowid", Integer)
_EVENT_COLUMNS = tuple(column.name for column in events_table.columns)
_FILTERED = {"b_ids": _E.id, "b_titles": _E.title, "b_places": _E.location, "b_guests": _E.attendees,
             "b_descriptions": _E.description}


@lru_cache(maxsize=64)
def _list_found_rows(filters: tuple[str, ...]) -> Select[Any]:
    """SQLite: the found rows' rowids from the window's index, then the rows by rowid, each as
    one JSON text. `filters`: the filters that name something (an empty list is left out, not
    tested on every row of the window as an empty subquery)."""
    found = or_(_E.recurring_event_id.is_not(None),
                *(_FILTERED[name].in_(bindparam(name, expanding=True)) for name in filters))
    return select(func.json_array(*events_table.columns)).where(_ROWID.in_(
        select(_ROWID).select_from(events_table).where(
            _LIVE, _SINGLE, _E.start_utc >= bindparam("b_near"), _E.start_utc < bindparam("b_hi"),
            _E.end_utc > bindparam("b_lo"), found)))


_IN_WINDOW_TEXTS = and_(_LIVE, _SINGLE, _E.recurring_event_id.is_(None),
                        _E.start_utc >= bindparam("b_near"), _E.start_utc < bindparam("b_hi"),
                        _E.end_utc > bindparam("b_lo"), _E.id.not_in(bindparam("b_skip", expanding=True)))
_WINDOW_SIZE = select(func.count()).select_from(events_table).where(
    _LIVE, _SINGLE, _E.start_utc >= bindparam("b_near"), _E.start_utc < bindparam("b_hi"),
    _E.end_utc > bindparam("b_lo"))
_WINDOW_SINGLE_IDS = select(_E.id).where(
    _LIVE, _SINGLE, _E.recurring_event_id.is_(None), _E.start_utc >= bindparam("b_near"),
    _E.start_utc < bindparam("b_hi"), _E.end_utc > bindparam("b_lo"),
    _E.id.in_(bindparam("b_ids", expanding=True)))
_WINDOW_TITLED = select(_E.title, _E.description).distinct().where(_IN_WINDOW_TEXTS)
_WINDOW_PLACES = select(_E.location).distinct().where(_IN_WINDOW_TEXTS, _E.location.is_not(None))
_WINDOW_GUESTS = select(_E.attendees).distinct().where(_IN_WINDOW_TEXTS)
# The same four answers (the window's size, its distinct texts) in one pass over
# ix_events_window_texts (SQLite): each distinct set an aggregate of its own, filtered as the
# statements above, returned as one JSON array each (one row instead of three scans and ~80
# rows; 0.8 ms instead of 1.6 at 100,000 events).


def _window_outline(skip: bool) -> Select[Any]:
    """`skip`: with the `b_skip` ids left out of the texts (without it, no empty subquery is
    tested on every row)."""
    texts_only = and_(_E.recurring_event_id.is_(None),
                      *([_E.id.not_in(bindparam("b_skip", expanding=True))] if skip else []))
    return select(
        func.count(),
        func.json_group_array(distinct(func.json_array(_E.title, _E.description))).filter(texts_only),
        func.json_group_array(distinct(_E.location)).filter(texts_only, _E.location.is_not(None)),
        func.json_group_array(distinct(_E.attendees)).filter(texts_only),
    ).select_from(events_table).where(
        _LIVE, _SINGLE, _E.start_utc >= bindparam("b_near"), _E.start_utc < bindparam("b_hi"),
        _E.end_utc > bindparam("b_lo"))


_WINDOW_OUTLINE = {skip: _window_outline(skip) for skip in (False, True)}
_RULE_COLUMNS = (_E.start, _E.end, _E.timezone, _E.all_day, _E.recurrence)  # `_rule_of`'s order
_LIST_MASTER_RULES = DirectSelect(select(_E.id, *_RULE_COLUMNS).where(  # ix_events_master_rules alone
    _LIVE, _E.recurrence.is_not(None), _E.recurring_event_id.is_(None),
    _E.start_utc < bindparam("b_hi")))


def _rule_of(row: Any) -> tuple[Any, ...]:
    """What a series' end follows from (`occurrences.series_end`: its start, length, zone and
    rule): the key its end is remembered by, the same for its full row and its rule's row."""
    return (row.start, row.end, row.timezone, bool(row.all_day), row.recurrence)


_LIST_EXCEPTIONS = select(_E.id).where(_E.calendar_id == bindparam("b_cal"),
                                       _E.recurring_event_id.in_(bindparam("b_ids", expanding=True)))
_LIST_EXCEPTIONS_EACH = DirectSelect(select(_E.id).where(
    _E.calendar_id == bindparam("b_cal"), _E.recurring_event_id.in_(
        select(func.json_each(bindparam("b_ids_json")).table_valued("value").c.value))))
"""`_LIST_EXCEPTIONS` on SQLite: the series' ids as one JSON array, one statement whatever
their number (run on the driver's cursor, `DirectSelect`)."""
_LIST_EXCEPTIONS_ANY = select(_E.id).where(
    _E.calendar_id == bindparam("b_cal"), _E.recurring_event_id == any_(bindparam("b_ids", type_=ARRAY(String))))
"""`_LIST_EXCEPTIONS` on PostgreSQL: the series' ids as one array, not a statement of a
thousand parameters rendered, sent and planned anew (3.5 ms at 100,000 events)."""


def _pk(calendar_id: str, event_id: str) -> dict[str, str]:
    return {"b_cal": calendar_id, "b_id": event_id}


def _changed(stored: Mapping[str, Any], fields: dict[str, Any]) -> dict[str, Any]:
    """The columns of `fields` whose value differs from the stored row's, and the version
    always. An UPDATE that names a column rewrites every index on it even when the value is the
    same: naming all fifteen made a 50-event title change write ~4x the pages of one naming the
    three that changed (1.6 ms against 0.4 ms on a 10,000-event file)."""
    changed = {k: v for k, v in fields.items() if k not in stored or stored[k] != v}
    changed["version"] = fields["version"]
    return changed


_MMAP_PRAGMA = "PRAGMA mmap_size=268435456"  # 256 MB of address space, not of memory


def _map_the_file(dbapi_conn: Any, _record: Any) -> None:
    """Read the calendar through a memory map (shared with the OS page cache, no heap per
    connection): a month listing's row lookups cost a third less at the p95 (bench_backend)."""
    dbapi_conn.execute(_MMAP_PRAGMA)


class _RestoreBatch:
    """The statements of one `restore_many`, gathered per kind and run as one executemany each.

    Each item is checked as it is added (`add`: its version against the one read under the
    writer lock, which no other writer can change before the commit); each UPDATE and DELETE
    also names that version in its WHERE clause, and when the driver counts the rows of an
    executemany, a count short of the rows meant fails the whole transaction (nothing is
    restored) rather than passing a row that was not written."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn
        self.keys: set[tuple[str, str]] = set()
        self.deletes: list[dict[str, Any]] = []
        self.inserts: list[dict[str, Any]] = []
        self.updates: list[dict[str, Any]] = []

    def add(self, item: RestoreItem, version: int | None,
            stored: Mapping[str, Any] | None = None) -> int | None:
        """Queue the write of one snapshot over the row stored under `version` (None: no row)
        after its version check; the row's version afterwards (None: no row). `stored`: that
        row as read under the lock, when it is still the row the write lands on (only the
        columns that differ from it are written)."""
        snapshot, expected = item.snapshot, item.expected_version
        cal, event_id = snapshot.calendar_id, snapshot.event_id
        actual = str(version) if version is not None else None
        if expected is not None and actual != expected:
            raise VersionConflict(event_id, expected, actual)
        if snapshot.record is None:
            if version is not None:
                self.deletes.append({**_pk(cal, event_id), "b_version": version})
                self.keys.add((cal, event_id))
            return None
        record = {k: snapshot.record.get(k) for k in RECORD_FIELDS}
        record["attendees"] = record["attendees"] or "[]"
        if stored is not None and all(record[k] == stored[k] for k in _TIMES_AND_LISTS):
            # the times and lists are the row's own already: only its plain texts (a title, a
            # place, a status) come back; the instants the times stand for are the row's
            fields = {**record, "all_day": bool(record["all_day"]),
                      "start_utc": stored["start_utc"], "end_utc": stored["end_utc"]}
        else:  # read as an event and written back: a record that cannot be is refused here
            fields = event_to_fields(row_to_event(
                {**record, "calendar_id": cal, "id": event_id, "version": 0}))
            fields.update({k: record[k] for k in _STORED_AS_GIVEN})
        fields["version"] = 1 if version is None else version + 1
        if version is None:
            self.inserts.append({"calendar_id": cal, "id": event_id, **fields})
        else:
            self.updates.append({**_pk(cal, event_id), "b_version": version,
                                 **(_changed(stored, fields) if stored is not None else fields)})
        self.keys.add((cal, event_id))
        return int(fields["version"])

    def flush(self) -> None:
        for statement, rows, counted in ((_DELETE_ROWS_AT, self.deletes, True),
                                         (_INSERT_ROWS, self.inserts, False),
                                         (_UPDATE_ROWS_AT, self.updates, True)):
            if not rows:
                continue
            matched = statement.run(self.conn, rows)
            if counted and self.conn.dialect.supports_sane_multi_rowcount \
                    and matched != len(rows):
                raise CalendarError(f"a restore found {len(rows) - matched} row(s) "
                                    "changed under the writer lock; nothing was restored")
        self.keys.clear()
        self.deletes, self.inserts, self.updates = [], [], []


def _ids_by_calendar(items: Sequence[RestoreItem]) -> dict[str, list[str]]:
    by_calendar: dict[str, list[str]] = {}
    for item in items:
        by_calendar.setdefault(item.snapshot.calendar_id, []).append(item.snapshot.event_id)
    return by_calendar


class LocalBackend(CalendarBackend):
    """Several calendars in one store (a SQLite file, or the `DATABASE_URL` database); the
    first one made is the primary.

    The store is passed in by whoever assembled the app (`assistant.services`), which also
    closes it; a path instead opens a store of the backend's own, closed with the backend (tests,
    benchmarks, a replay's private calendar). `close_store` overrides which of the two holds."""

    name = "local"
    restores_are_independent = True  # one row per event: a restore touches its own row only

    def __init__(self, store: Store | Path | str, default_timezone: str = "UTC", *,
                 close_store: bool | None = None, memory_map: bool = True) -> None:
        """`memory_map`: read the file through a map, for a process that lists again and again
        (the chat, the MCP server); a command that reads each page once gains nothing from it,
        and the pages it maps count in its resident memory (26 MB of a 100,000-event agenda)."""
        self.store = store if isinstance(store, Store) else Store.sqlite(store)
        self._close_store = not isinstance(store, Store) if close_store is None else close_store
        self.engine = self.store.engine
        if memory_map and not self.store.is_postgresql and \
                not sa_event.contains(self.engine, "connect", _map_the_file):
            sa_event.listen(self.engine, "connect", _map_the_file)
            self.engine.dispose()  # the connections opened so far reconnect with the map
        self.store.migrate("calendar")
        self.default_timezone = default_timezone
        self._lock = threading.RLock()
        self._cache_lock = threading.Lock()
        self._events_cache: OrderedDict[tuple[Any, ...], Event] = OrderedDict()
        self._text_events: OrderedDict[str, Event] = OrderedDict()  # `_event_of_text`
        self._instances_cache: OrderedDict[tuple[Any, ...], list[Event]] = OrderedDict()
        self._series_ends: dict[tuple[Any, ...], datetime] = {}
        """When each finished series ended, by the columns its end follows from (`_rule_of`): a
        listing skips those that ended before its window instead of reading their rows and
        walking their rules again (the masters query returns every series begun before the
        window's end, finished or not: 266 of them at 100,000 events, 26 still running)."""
        self._listing = threading.local()  # per thread: what its last listing had to leave out
        self._within = threading.local()  # per thread: `restore_many_within`'s callback
        self.add_calendar("primary", "Family", default_timezone)

    def close(self) -> None:
        """Close the store too when it is the backend's own (opened from a path)."""
        if self._close_store:
            self.store.close()

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """One write transaction, the only writer from before its first read (`writer_lock`),
        so what a write checks cannot change before it writes, in this process or another;
        committed at the end, undone on error."""
        with self._lock, self.engine.connect() as conn:
            writer_lock(conn)
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            conn.commit()

    # ----------------------------------------------------------------- calendars
    def calendars(self) -> list[CalendarInfo]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(calendars_table)).mappings().all()
        return [CalendarInfo(r["id"], r["name"], bool(r["is_primary"]), r["timezone"]) for r in rows]

    def add_calendar(self, calendar_id: str, name: str,
                     timezone: str | None = None) -> CalendarInfo:
        primary = calendar_id == "primary"
        with self._writing() as conn:
            if conn.execute(_SELECT_CALENDAR, {"b_cal": calendar_id}).first() is None:
                conn.execute(insert(calendars_table).values(
                    id=calendar_id, name=name, timezone=timezone, is_primary=primary))
        return CalendarInfo(calendar_id, name, primary, timezone)

    def primary_calendar_id(self) -> str:
        return "primary"

    @staticmethod
    def _require_calendar(conn: Connection, calendar_id: str) -> None:
        if conn.execute(_SELECT_CALENDAR, {"b_cal": calendar_id}).first() is None:
            raise CalendarError(f"calendar {calendar_id!r} does not exist")

    # ----------------------------------------------------------------- reading
    def list_events(self, calendar_id: str, start: datetime, end: datetime,
                    query: str | None = None) -> list[Event]:
        return self._list(calendar_id, start, end, self._singles, {}, query)[0]

    def list_window(self, calendar_id: str, start: datetime, end: datetime, *,
                    ids: Iterable[str] = (), titles: Iterable[str] = (), places: Iterable[str] = (),
                    guests: Iterable[str] = (), descriptions: Iterable[str] = ()) -> list[Event]:
        """`list_events` with only the single events these ids or stored texts name (`guests`:
        the stored attendees text), every series occurrence and exception as before, in the
        same order: the part of a window the guard needs one by one, its rows read through
        the (calendar, start) index and only the matching ones turned into events."""
        return self.list_window_series(calendar_id, start, end, ids=ids, titles=titles, places=places,
                                       guests=guests, descriptions=descriptions)[0]

    def list_window_series(self, calendar_id: str, start: datetime, end: datetime, *,
                           ids: Iterable[str] = (), titles: Iterable[str] = (),
                           places: Iterable[str] = (), guests: Iterable[str] = (),
                           descriptions: Iterable[str] = ()) -> tuple[list[Event], dict[str, Event]]:
        """`list_window` and the series whose occurrences it lists, by id: the listing read
        their rows to expand them, so whoever needs them as events (the guard: every
        occurrence's series) need not read them again."""
        found = {"b_ids": list(ids), "b_titles": list(titles), "b_places": list(places),
                 "b_guests": list(guests), "b_descriptions": list(descriptions)}
        return self._list(calendar_id, start, end, self._found_singles, found, None)

    def window_texts(self, calendar_id: str, start: datetime, end: datetime,
                     skip: Iterable[str] = ()) -> tuple[set[tuple[str, str | None]], set[str], set[str]]:
        """The distinct (title, description) pairs, places and stored attendees texts of the
        window's single events (`list_events`' singles, occurrence exceptions left out, and the
        `skip` ids): what the guard reads of the events it does not list, a few rows however
        many events the window holds."""
        window = {"b_cal": calendar_id, "b_lo": _epoch(start), "b_hi": _epoch(end),
                  "b_near": _epoch(start) - LONG_EVENT, "b_skip": list(skip)}
        with self.engine.connect() as conn:
            titled = {(r.title, r.description) for r in conn.execute(_WINDOW_TITLED, window)}
            places = set(conn.execute(_WINDOW_PLACES, window).scalars())
            guests = set(conn.execute(_WINDOW_GUESTS, window).scalars())
        return titled, places, guests

    def window_outline(self, calendar_id: str, start: datetime, end: datetime, skip: Iterable[str] = ()
                       ) -> tuple[int, tuple[set[tuple[str, str | None]], set[str], set[str]]]:
        """`window_size` and `window_texts` of one window together: on SQLite one pass over
        the window's covering index answers both."""
        if self.store.is_postgresql:  # its own plans: the four statements
            return (self.window_size(calendar_id, start, end),
                    self.window_texts(calendar_id, start, end, skip))
        window = {"b_cal": calendar_id, "b_lo": _epoch(start), "b_hi": _epoch(end),
                  "b_near": _epoch(start) - LONG_EVENT, "b_skip": list(skip)}
        with self.engine.connect() as conn:
            size, titled, places, guests = conn.execute(_WINDOW_OUTLINE[bool(window["b_skip"])], window).one()
        return int(size), ({(title, description) for title, description in loads(titled)},
                           set(loads(places)), set(loads(guests)))

    def window_size(self, calendar_id: str, start: datetime, end: datetime) -> int:
        """How many single events (and occurrence exceptions) a listing of the window reads,
        counted in the index: whether reading the window whole costs less than reading it in
        part."""
        window = {"b_cal": calendar_id, "b_lo": _epoch(start), "b_hi": _epoch(end),
                  "b_near": _epoch(start) - LONG_EVENT}
        with self.engine.connect() as conn:
            return int(conn.execute(_WINDOW_SIZE, window).scalar_one())

    def window_single_ids(self, calendar_id: str, start: datetime, end: datetime,
                          event_ids: Sequence[str]) -> set[str]:
        """Which of these ids are single events (not of a series) a listing of the window reads
        through the (calendar, start) index."""
        window = {"b_cal": calendar_id, "b_lo": _epoch(start), "b_hi": _epoch(end),
                  "b_near": _epoch(start) - LONG_EVENT, "b_ids": list(event_ids)}
        with self.engine.connect() as conn:
            return set(conn.execute(_WINDOW_SINGLE_IDS, window).scalars())

    def list_singles(self, calendar_id: str, start: datetime, end: datetime) -> list[Event]:
        """The single events (not of a series) overlapping [start, end), in listing order."""
        window = {"b_cal": calendar_id, "b_lo": _epoch(start), "b_hi": _epoch(end),
                  "b_near": _epoch(start) - LONG_EVENT}
        with self.engine.connect() as conn:
            rows = list(conn.execute(_LIST_SINGLE, window).all())
            rows += _LIST_LONG.rows(conn, window)
        events = [self._event_of(r) for r in rows if r.recurring_event_id is None]
        events.sort(key=listing_key)
        return events

    def _singles(self, conn: Connection, window: dict[str, Any]) -> list[Event]:
        """The window's single events (and occurrence exceptions). On SQLite each row comes as
        one JSON text of its columns and its event is remembered by that text, as the found
        rows are (`_found_singles`): one Python object per row instead of twenty, and no
        twenty-column key to hash (issue 25: the 1,781 rows of a 69-day window at 100,000
        events in 4.0 ms CPU instead of 7.2; the guard reads the whole window for a change the
        message does not ask for, and a month listing is this)."""
        if not self.store.is_postgresql:
            return [self._event_of_text(text) for text in _LIST_SINGLE_TEXTS.scalars(conn, window)]
        return [self._event_of(row) for row in conn.execute(_LIST_SINGLE, window)]

    def _found_singles(self, conn: Connection, window: dict[str, Any]) -> list[Event]:
        """The ids from the window's index first, then their rows by key: in one statement
        SQLite reads every row of the window to test the filter. On SQLite that is still one
        statement, the rows fetched by the rowids the index holds and each returned as one
        JSON text of its columns (`_list_found_rows`: no id list sent back, no primary-key
        search per row, one Python object per row instead of twenty): 1.2 ms instead of 2.8
        for 600 rows at 100,000 events, the events then found by that text (`_event_of_text`)."""
        if not self.store.is_postgresql:
            rows = _list_found_rows(tuple(name for name in _FILTERED if window[name]))
            return [self._event_of_text(text) for text in conn.execute(rows, window).scalars().all()]
        ids = list(conn.execute(_LIST_FOUND_IDS, window).scalars())
        return [self._event_of(row) for row in self._rows(conn, window["b_cal"], ids).values()]

    def _list(self, calendar_id: str, start: datetime, end: datetime,
              singles: Callable[[Connection, dict[str, Any]], list[Event]], params: dict[str, Any],
              query: str | None) -> tuple[list[Event], dict[str, Event]]:
        """The window's events and the series listed (expanded), by id."""
        window = {"b_cal": calendar_id, "b_lo": _epoch(start), "b_hi": _epoch(end),
                  "b_near": _epoch(start) - LONG_EVENT, **params}
        with self.engine.connect() as conn:
            events = singles(conn, window)
            events += [self._event_of(row) for row in _LIST_LONG.rows(conn, window)]
            masters = _LIST_MASTER_RULES.rows(conn, window)
            ends = self._series_ends  # by `_rule_of`, which is a rule row's columns after its id
            current = [m.id for m in masters if (ended := ends.get(m[1:])) is None or ended > start]
            full = self._rows(conn, calendar_id, current)  # finished series: no row read in full
            expanded: list[tuple[str, list[Event]]] = []
            skipped: list[Event] = []
            for row in (full[i] for i in current if i in full):
                try:
                    instances = self._instances_of(row, start, end)
                except CalendarError:  # one unreadable rule must not hide the whole calendar
                    skipped.append(self._event_of(row))
                    continue
                if instances:
                    expanded.append((row.id, instances))
            self._listing.skipped = skipped
            exceptions: set[str] = set()
            if expanded and self.store.is_postgresql:
                exceptions = set(conn.execute(_LIST_EXCEPTIONS_ANY, {
                    "b_cal": calendar_id, "b_ids": [m for m, _ in expanded]}).scalars())
            elif expanded:
                exceptions = set(_LIST_EXCEPTIONS_EACH.scalars(conn, {
                    "b_cal": calendar_id, "b_ids_json": dumps([m for m, _ in expanded])}))
        orphans = {e.recurring_event_id for e in events if e.recurring_event_id}
        if orphans:
            alive = {row.id for row in masters}
            for series_id in orphans - alive:
                if self.get_event(calendar_id, series_id) is None:
                    events = [e for e in events if e.recurring_event_id != series_id]
        for _, instances in expanded:
            events.extend(i for i in instances if i.id not in exceptions)
        if query:
            needle = query.casefold()
            events = [e for e in events if needle in " ".join(
                filter(None, (e.title, e.location, e.description, *e.attendees))).casefold()]
        events.sort(key=listing_key)
        return events, {series_id: self._event_of(full[series_id]) for series_id, _ in expanded}

    def skipped_series(self) -> list[Event]:
        return list(getattr(self._listing, "skipped", []))

    def _event_of(self, row: Any) -> Event:
        """`row_to_event`, remembered per full row (every column, the version included), so
        repeated listings read each unchanged row into an Event once (bench/RESULTS_backend.md:
        a month listing spends most of its time parsing rows without it)."""
        key = tuple(row)
        cache = self._events_cache
        found = cache.get(key)
        if found is None:
            found = row_to_event(_as_dict(row))
            with self._cache_lock:
                cache[key] = found
                if len(cache) > EVENT_CACHE_SIZE:
                    cache.popitem(last=False)
        return found

    def _event_of_text(self, text: str) -> Event:
        """`_event_of` for a row read as the JSON array of its columns (`_list_found_rows`),
        remembered by that text: the text holds every column (the version included), each
        value quoted apart, so an unchanged row gives the same text and a changed one another."""
        cache = self._text_events
        found = cache.get(text)
        if found is None:
            found = row_to_event(dict(zip(_EVENT_COLUMNS, loads(text), strict=True)))
            with self._cache_lock:
                cache[text] = found
                if len(cache) > EVENT_CACHE_SIZE:
                    cache.popitem(last=False)
        return found

    def _instances_of(self, row: Any, start: datetime, end: datetime) -> list[Event]:
        """A series' occurrences in [start, end), remembered per full row and window, so a
        month listed again builds none of them anew (bench/RESULTS_backend.md: building the
        occurrences was a quarter of a warm listing)."""
        key = (tuple(row), start, end)
        found = self._instances_cache.get(key)
        if found is None:
            master = self._event_of(row)
            found = virtual_instances(master, occurrences(master, start, end))
            ended = series_end(master)
            with self._cache_lock:
                self._instances_cache[key] = found
                if ended is not None:
                    self._series_ends[_rule_of(row)] = ended
                    if len(self._series_ends) > EVENT_CACHE_SIZE:
                        self._series_ends.pop(next(iter(self._series_ends)))
                if len(self._instances_cache) > INSTANCES_CACHE_SIZE:
                    self._instances_cache.popitem(last=False)
        return found

    def get_event(self, calendar_id: str, event_id: str) -> Event | None:
        return self.get_events(calendar_id, [event_id])[0]

    def get_events(self, calendar_id: str, event_ids: Sequence[str]) -> list[Event | None]:
        """Several events in two queries (their rows, then whether their series stand): the
        checks of a bulk update read all its events at once."""
        with self.engine.connect() as conn:
            rows = self._rows(conn, calendar_id, event_ids)
            live = self._live_ids(conn, calendar_id, rows.values())
            return [self._event_of(rows[event_id]) if event_id in live
                    else None if event_id in rows else self._virtual(conn, calendar_id, event_id)
                    for event_id in event_ids]

    @staticmethod
    def _row(conn: Connection, calendar_id: str, event_id: str) -> Mapping[Any, Any] | None:
        return conn.execute(_SELECT_ROW, _pk(calendar_id, event_id)).mappings().first()

    @staticmethod
    def _rows(conn: Connection, calendar_id: str, event_ids: Sequence[str]) -> dict[str, Any]:
        """The stored rows of these events, by id (an untouched occurrence has none)."""
        if not event_ids:
            return {}
        if conn.dialect.name == "postgresql":
            found = conn.execute(_SELECT_ROWS_ANY, {"b_cal": calendar_id,
                                                    "b_ids": list(event_ids)}).all()
        else:
            found = _SELECT_ROWS_EACH.rows(conn, {"b_cal": calendar_id,
                                                  "b_ids_json": dumps(list(event_ids))})
        return {row.id: row for row in found}

    @staticmethod
    def _live_ids(conn: Connection, calendar_id: str, rows: Iterable[Any]) -> set[str]:
        """The ids of the rows that are confirmed and (for an occurrence exception) whose series
        still exists: deleting a series takes its moved occurrences with it, as on Google."""
        confirmed = [row for row in rows if row.status == "confirmed"]
        series = list({row.recurring_event_id for row in confirmed if row.recurring_event_id})
        standing = set(conn.execute(_SELECT_LIVE, {"b_cal": calendar_id, "b_ids": series})
                       .scalars()) if series else set()
        return {row.id for row in confirmed
                if not row.recurring_event_id or row.recurring_event_id in standing}

    def _virtual(self, conn: Connection, calendar_id: str, event_id: str) -> Event | None:
        """An occurrence of a series that has no row of its own, or None."""
        parts = instance_parts(event_id)
        if parts is None:
            return None
        master_row = self._row(conn, calendar_id, parts[0])
        if master_row is None or master_row["status"] != "confirmed" or not master_row["recurrence"]:
            return None
        master = row_to_event(master_row)
        original = stamp_original(parts[1])
        if isinstance(original, datetime):
            original = original.astimezone(master.zone)
        if master.all_day == isinstance(original, datetime) or not is_occurrence(master, original):
            return None
        return virtual_instance(master, original)

    # ----------------------------------------------------------------- writing
    def new_event_id(self) -> str:
        return "ev" + secrets.token_hex(5)

    def create_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None,
                     send_updates: bool = False) -> Event:
        event_id = event.id or self.new_event_id()
        with self._writing() as conn:
            self._require_calendar(conn, calendar_id)
            existing = self._row(conn, calendar_id, event_id)
            if existing is not None:
                if turn_id and existing["turn_id"] == turn_id:
                    return row_to_event(existing)  # our own create, retried: not a duplicate
                raise CalendarError(f"an event with id {event_id!r} already exists")
            values = {"calendar_id": calendar_id, "id": event_id, "version": 1, "turn_id": turn_id,
                      **event_to_fields(event.with_changes(id=event_id, status="confirmed"))}
            conn.execute(_INSERT_ROW, values)
        return row_to_event(values)

    def create_events_recorded(self, calendar_id: str, events: Sequence[Event],
                               record: WriteRecord, *, turn_id: str | None = None) -> list[Event]:
        """Every create in one transaction and one executemany: an import's chunk costs one
        statement, not a transaction per event. The ids are checked free under the writer lock
        (one query), the record is offered the transaction before the INSERT (a journal on
        this same store writes its entries in it: entries and rows commit together or not at
        all), and the post-images are the rows written (no read-back). A taken id fails the
        whole chunk, as `create_event` fails: nothing of it is written."""
        made = [event.with_changes(id=event.id or self.new_event_id(), status="confirmed")
                for event in events]
        rows = [{"calendar_id": calendar_id, "id": event.id, "version": 1, "turn_id": turn_id,
                 **event_to_fields(event)} for event in made]
        written = [row_to_event(row) for row in rows]  # as stored, as `create_event` returns
        posts = [_snapshot_of(calendar_id, row["id"], row) for row in rows]
        with self._writing() as conn:
            within = Transaction(self.store, conn)
            self._require_calendar(conn, calendar_id)
            taken = self._rows(conn, calendar_id, [event.id for event in made])
            if taken:
                raise CalendarError(f"an event with id {next(iter(taken))!r} already exists")
            joined = record.before([Snapshot(calendar_id, event.id, None, None)
                                    for event in made], within)
            if rows:
                conn.execute(_INSERT_ROW, rows)
            if joined:
                record.after(posts, written, within)
        if not joined:
            record.after(posts, written, None)
        return written

    def upsert_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None) -> Event:
        with self._writing() as conn:
            self._require_calendar(conn, calendar_id)
            conn.execute(_DELETE_ROW, _pk(calendar_id, event.id))
            values = {"calendar_id": calendar_id, "id": event.id, "version": 1, "turn_id": turn_id,
                      **event_to_fields(event.with_changes(status="confirmed"))}
            conn.execute(_INSERT_ROW, values)
        return row_to_event(values)

    def _row_for_write(self, conn: Connection, calendar_id: str, event_id: str,
                       rows: dict[str, Any] | None = None) -> tuple[int, Event]:
        """(stored version, event) of what a write changes (`rows`: already read in this
        transaction); an untouched occurrence gets its exception row here (version 0), so
        changing or cancelling it leaves the others alone."""
        if rows is None:
            rows = self._rows(conn, calendar_id, [event_id])
        row = rows.get(event_id)
        if row is None:
            virtual = self._virtual(conn, calendar_id, event_id)
            if virtual is None:
                raise EventNotFound(event_id)
            conn.execute(_INSERT_ROW, {"calendar_id": calendar_id, "id": event_id, "version": 0,
                                       **event_to_fields(virtual)})
            return 0, virtual
        if (row.status != "confirmed" or row.recurring_event_id) and \
                event_id not in self._live_ids(conn, calendar_id, [row]):
            raise EventNotFound(event_id)  # cancelled, or an occurrence whose series is gone
        return int(row.version), self._event_of(row)

    def patch_event(self, calendar_id: str, event_id: str, patch: EventPatch, *,
                    if_match: str | None = None, send_updates: bool = False) -> Event:
        return self._patch_all(calendar_id, [PatchItem(event_id, patch, if_match)])[0]

    def patch_events(self, calendar_id: str, items: Sequence[PatchItem], *,
                     send_updates: bool = False) -> list[Event]:
        """Every item in one transaction: all of them are written, or (on any failure) none."""
        return self._patch_all(calendar_id, items)

    def patch_events_recorded(self, calendar_id: str, items: Sequence[PatchItem],
                              record: WriteRecord, *, send_updates: bool = False) -> list[Event]:
        """`patch_events` with its record, in the write's one transaction: the pre-images are
        the rows this transaction read under the writer lock (no read of its own before it),
        the post-images the values about to be written (no read-back: a read after the commit
        could take another process's later write for ours). Every item is checked and worked
        out first; then the record gets both images, with the transaction, before anything of
        the write is committed (`WriteRecord.whole`): a journal on this same store inserts its
        entries in it (they commit with the write or not at all), a journal elsewhere commits
        them first, whole, in one transaction, and the write, all or nothing, follows."""
        return self._patch_all(calendar_id, items, record)

    def _patch_all(self, calendar_id: str, items: Sequence[PatchItem],
                   record: WriteRecord | None = None) -> list[Event]:
        """The items' rows read in one query and written in one executemany, in one
        transaction. An item carrying the event it was read as (`read`, same as the row found
        under its `if_match`) and its outcome (`expected`) is written as that outcome, not
        patched again."""
        written: list[Event] = []
        posts: list[Snapshot] = []
        with self._writing() as conn:
            rows = self._rows(conn, calendar_id, [item.event_id for item in items])
            stored_rows = {event_id: _as_dict(row) for event_id, row in rows.items()}
            pres = [_snapshot_of(calendar_id, item.event_id, stored_rows.get(item.event_id))
                    for item in items] if record is not None else []
            params: list[dict[str, Any]] = []
            done: set[str] = set()
            for item in items:
                if item.event_id in done:
                    # the same event again: write what is pending, then read it anew
                    _UPDATE_ROWS.run(conn, params)
                    params = []
                    fresh = self._rows(conn, calendar_id, [item.event_id])
                    rows.update(fresh)
                    stored_rows.update({i: _as_dict(r) for i, r in fresh.items()})
                done.add(item.event_id)
                version, current = self._row_for_write(conn, calendar_id, item.event_id, rows)
                if item.if_match is not None and str(version) != str(item.if_match):
                    raise VersionConflict(item.event_id, item.if_match, str(version))
                after = item.expected if item.expected is not None and item.read is not None \
                    and item.if_match is not None and (current is item.read or current == item.read) \
                    else apply_patch(current, item.patch)
                fields = {**event_to_fields(after), "version": version + 1}
                row = stored_rows.get(item.event_id)
                changed = _changed(row, fields) if row is not None else fields
                params.append({**_pk(calendar_id, item.event_id), **changed})
                stored = {"calendar_id": calendar_id, "id": item.event_id,
                          "turn_id": row["turn_id"] if row is not None else None, **fields}
                if row is not None and changed.keys() <= _PLAIN_COLUMNS:
                    # only texts an event holds as stored changed: the event read from the row
                    # (`current` is `row_to_event` of it) with them is the event stored
                    written.append(current.with_changes(
                        **{k: v for k, v in changed.items() if k != "version"},
                        version=str(changed["version"])))
                else:
                    written.append(row_to_event(stored))
                posts.append(_snapshot_of(calendar_id, item.event_id, stored))
            if record is not None and items:
                record.whole(pres, posts, written, Transaction(self.store, conn))
            _UPDATE_ROWS.run(conn, params)
        return written

    def delete_event(self, calendar_id: str, event_id: str, *, if_match: str | None = None,
                     send_updates: bool = False) -> None:
        with self._writing() as conn:
            version, _ = self._row_for_write(conn, calendar_id, event_id)
            if if_match is not None and str(version) != str(if_match):
                raise VersionConflict(event_id, if_match, str(version))
            conn.execute(_UPDATE_ROW, {**_pk(calendar_id, event_id), "status": "cancelled",
                                       "version": version + 1})

    # ----------------------------------------------------------------- journal support
    def snapshot(self, calendar_id: str, event_id: str) -> Snapshot:
        with self.engine.connect() as conn:
            return _snapshot_of(calendar_id, event_id, self._row(conn, calendar_id, event_id))

    def snapshots(self, calendar_id: str, event_ids: Sequence[str]) -> list[Snapshot]:
        """One query for several events (a bulk update's pre- and post-images)."""
        with self.engine.connect() as conn:
            rows = self._rows(conn, calendar_id, event_ids)
        return [_snapshot_of(calendar_id, event_id,
                             _as_dict(rows[event_id]) if event_id in rows else None)
                for event_id in event_ids]

    def restore(self, snapshot: Snapshot, *, expected_version: str | None) -> Snapshot:
        result = self._restore_all([RestoreItem(snapshot, expected_version)])[0]
        if isinstance(result, Exception):
            raise result
        return result

    def restore_many(self, items: Sequence[RestoreItem]) -> list[RestoreResult]:
        """Every restore in one transaction, each under its own version check (a refused one
        leaves its event alone and the others go on), then every restored event read back in
        that same transaction. A failing database raises: nothing was restored."""
        return self._restore_all(items, getattr(self._within, "callback", None))

    def restore_many_within(self, items: Sequence[RestoreItem],
                            within: Callable[[list[RestoreResult], Transaction], None]
                            ) -> list[RestoreResult]:
        """`restore_many`, `within` handed the results before the transaction commits. Through
        `restore_many` itself, so a subclass that overrides it (a calendar made to fail, in
        tests) is still the one asked."""
        self._within.callback = within
        try:
            return self.restore_many(items)
        finally:
            self._within.callback = None

    decides_restores_under_lock = True

    def restore_many_deciding(self, items: Sequence[RestoreItem], decide: Decide,
                              within: Callable[[list[RestoreResult], Transaction], None]
                              ) -> list[RestoreResult]:
        """`restore_many_within`, each restore decided on the row read under the writer lock
        (`_restore_all`): the rollback's separate read before it is not needed. Through
        `restore_many` itself, as `restore_many_within` is."""
        self._within.callback, self._within.decide = within, decide
        try:
            return self.restore_many(items)
        finally:
            self._within.callback = self._within.decide = None

    def _restore_all(self, items: Sequence[RestoreItem],
                     within: Callable[[list[RestoreResult], Transaction], None] | None = None
                     ) -> list[RestoreResult]:
        """The restores checked one by one against the versions read under the writer lock, then
        written as one executemany per kind of statement (delete, insert, update), each row's
        statement conditioned on its version once more; an event named twice flushes what is
        pending first, so the second restore sees the first. With a decision to make
        (`restore_many_deciding`), the items are the events to decide on (each named once),
        and the restores the ones it returns for the rows read here."""
        outcomes: list[Exception | None] = []
        decide: Decide | None = getattr(self._within, "decide", None)
        with self._writing() as conn:
            by_calendar = _ids_by_calendar(items)
            read: dict[tuple[str, str], Mapping[str, Any] | None] = {
                (cal, event_id): _as_dict(row) for cal, ids in by_calendar.items()
                for event_id, row in self._rows(conn, cal, ids).items()}
            if decide is not None:
                keys = [(item.snapshot.calendar_id, item.snapshot.event_id) for item in items]
                if len(set(keys)) != len(keys):
                    raise ValueError("a restore decided under the lock names each event once")
                chosen = decide([_snapshot_of(cal, event_id, read.get((cal, event_id)))
                                 for cal, event_id in keys])
                items = [item for item in chosen if item is not None]
                by_calendar = _ids_by_calendar(items)
            versions: dict[tuple[str, str], int | None] = {
                key: int(row["version"]) for key, row in read.items() if row is not None}
            batch = _RestoreBatch(conn)
            for item in items:
                key = (item.snapshot.calendar_id, item.snapshot.event_id)
                if key in batch.keys:
                    batch.flush()
                try:
                    versions[key] = batch.add(item, versions.get(key), read.get(key))
                    read[key] = None  # written: a second restore of it compares with nothing
                    outcomes.append(None)
                except ITEM_FAILURES as exc:
                    outcomes.append(exc)
            batch.flush()
            back = {(cal, event_id): _as_dict(row) for cal, ids in by_calendar.items()
                    for event_id, row in self._rows(conn, cal, ids).items()}
            results: list[RestoreResult] = [outcome if outcome is not None else _snapshot_of(
                item.snapshot.calendar_id, item.snapshot.event_id,
                back.get((item.snapshot.calendar_id, item.snapshot.event_id)))
                for item, outcome in zip(items, outcomes, strict=False)]
            if within is not None:
                within(results, Transaction(self.store, conn))
        return results

    def all_records(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every stored row, for exact before/after comparisons in tests and benchmarks."""
        with self.engine.connect() as conn:
            rows = conn.execute(select(events_table)).mappings().all()
        return {(r["calendar_id"], r["id"]): _record_of(r) for r in rows}
