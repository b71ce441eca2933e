"""The one interface every calendar backend implements (local SQLite, Google, the test fake).

The journal only needs `snapshot` and `restore` on top of the ordinary operations, so rollback
works the same way on every backend: a snapshot is the backend's own stored record of one event
(or the fact that it did not exist), and `restore` puts exactly that back under a version check.
"""
from __future__ import annotations

import abc
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from tools.calendar.events import CalendarError, CalendarInfo, Event
from tools.calendar.free_time import FreeBusy, busy_intervals
from tools.calendar.patching import EventPatch

if TYPE_CHECKING:  # the store imports this module's errors: names only, for the annotations
    from sqlalchemy.engine import Connection

    from tools.store.database import Store

__all__ = [
    "ITEM_FAILURES",
    "VOLATILE_KEYS",
    "CalendarBackend",
    "CalendarError",
    "Decide",
    "EventNotFound",
    "EventPatch",
    "FreeBusy",
    "PatchItem",
    "RestoreItem",
    "RestoreResult",
    "Snapshot",
    "Transaction",
    "VersionConflict",
    "WriteRecord",
    "strip_volatile",
]


class EventNotFound(CalendarError):
    def __init__(self, event_id: str) -> None:
        super().__init__(f"event {event_id!r} not found")
        self.event_id = event_id


class VersionConflict(CalendarError):
    """Someone else changed the event since we read it: we keep their change."""

    def __init__(self, event_id: str, expected: str | None, actual: str | None) -> None:
        super().__init__(
            f"event {event_id!r} was changed by someone else (version {actual}, expected {expected})"
        )
        self.event_id = event_id
        self.expected = expected
        self.actual = actual


@dataclass(frozen=True)
class Snapshot:
    """The stored state of one event at one moment, in the backend's own terms.

    `record` is JSON-serializable and opaque to everyone but the backend that made it; `None`
    means the event did not exist (or was cancelled) then.
    """

    calendar_id: str
    event_id: str
    record: dict[str, Any] | None
    version: str | None

    @property
    def exists(self) -> bool:
        return self.record is not None

    def to_json(self) -> dict[str, Any]:
        return {"calendar_id": self.calendar_id, "event_id": self.event_id,
                "record": self.record, "version": self.version}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Snapshot:
        return cls(data["calendar_id"], data["event_id"], data.get("record"), data.get("version"))


@dataclass(frozen=True)
class PatchItem:
    """One change of a bulk update: the event, its patch, and the version it is based on."""

    event_id: str
    patch: EventPatch
    if_match: str | None = None
    read: Event | None = None
    """The event as the caller read it, at the version `if_match` names."""
    expected: Event | None = None
    """`read` with the patch applied, worked out by the caller: a backend that finds the event
    still exactly as `read` may write this instead of applying the patch a second time."""


@dataclass(frozen=True)
class Transaction:
    """A backend's write transaction, still open, offered to whoever records the write: a
    journal on the same store writes its entries in it, so entries and write commit together
    or not at all."""

    store: Store
    conn: Connection


class WriteRecord(Protocol):
    """What records a write of several events around it (the journal): the stored records
    before (`before`, committed before the write can land) and after (`after`)."""

    def before(self, pres: list[Snapshot], within: Transaction | None) -> bool:
        """Record the pre-images before anything is written. `within`: the write's own open
        transaction, when the backend has one to offer. True when the record joined it (its
        entries then commit with the write, and `after` is called inside it too); False when
        it committed them on its own."""

    def after(self, posts: list[Snapshot], written: list[Event],
              within: Transaction | None) -> None:
        """Record the post-images: inside the write's transaction when `before` joined it,
        else after the write committed (`within` None)."""

    def whole(self, pres: list[Snapshot], posts: list[Snapshot], written: list[Event],
              within: Transaction) -> None:
        """Record the pre- and post-images of a write worked out but not made yet, before it
        is made: in `within`, the write's own open transaction, when the record keeps its
        entries in the same store (they commit with the write or not at all), else committed on
        their own first. For a backend whose write then lands exactly as recorded or not at all
        (one transaction): a rollback tells a write that never landed by the event still
        reading as its pre-image, not as the post-image recorded."""


@dataclass(frozen=True)
class RestoreItem:
    """One restore of a rollback: put `snapshot` back if the event's version is `expected_version`."""

    snapshot: Snapshot
    expected_version: str | None
    left: Snapshot | None = None
    """What the rollback's own last write left, when known: a backend whose record of one event
    also holds others' parts (a CalDAV series and its occurrences) tells by it which parts changed
    since, so that only those are kept."""


RestoreResult = Snapshot | Exception
"""What one restore of `restore_many` came to: the snapshot read back, or why not: refused
(`VersionConflict`, `EventNotFound`), a snapshot that cannot be written (`ValueError`,
`KeyError`, `TypeError`), or a failing service (any other `CalendarError`)."""

Decide = Callable[[list[Snapshot]], list[RestoreItem | None]]
"""A rollback's decision, made under the restores' writer lock (`restore_many_deciding`): for
the events as they are, per event the restore to make, or None."""

ITEM_FAILURES = (VersionConflict, EventNotFound, ValueError, KeyError, TypeError)
"""Restore failures of one item only: `restore_many` goes on with the next."""


class CalendarBackend(abc.ABC):
    """List a range, get, create, patch, delete, and snapshot/restore for the journal.

    This is the whole interface: callers never probe a backend for optional methods.
    """

    name: str = "abstract"
    restores_are_independent: bool = False
    """Whether restoring one event never changes another event's version, so a rollback may read
    every event first and restore them together. False for Google, whose server re-tags a
    series' occurrences when the series is restored; True for a store of one row per event."""

    def service_of(self, calendar_id: str) -> str:
        """The service (account) a calendar lives on. A rollback that finds one service down
        still undoes the events on the others; one backend is one service."""
        return ""

    def restores_independent_on(self, calendar_id: str) -> bool:
        """`restores_are_independent` for the service the calendar lives on."""
        return self.restores_are_independent

    @abc.abstractmethod
    def calendars(self) -> list[CalendarInfo]: ...

    @abc.abstractmethod
    def primary_calendar_id(self) -> str: ...

    @abc.abstractmethod
    def add_calendar(self, calendar_id: str, name: str,
                     timezone: str | None = None) -> CalendarInfo:
        """Make a calendar (nothing happens when `calendar_id` exists). A backend whose server
        names calendars itself (Google) returns the server's id in the CalendarInfo."""

    @abc.abstractmethod
    def list_events(self, calendar_id: str, start: datetime, end: datetime,
                    query: str | None = None) -> list[Event]:
        """Events (recurring series expanded into occurrences) overlapping [start, end)."""

    @abc.abstractmethod
    def skipped_series(self) -> list[Event]:
        """The recurring series the calling thread's last `list_events` left out because their
        rule cannot be read (a backend that expands series itself never leaves one out);
        callers report them instead of failing the whole listing."""

    @abc.abstractmethod
    def get_event(self, calendar_id: str, event_id: str) -> Event | None:
        """The event or occurrence with this id, or None when it does not exist or was cancelled."""

    @abc.abstractmethod
    def new_event_id(self) -> str:
        """An id chosen before the create, so the journal can name the event before it exists."""

    @abc.abstractmethod
    def create_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None,
                     send_updates: bool = False) -> Event:
        """Create `event` under `event.id`; retried safely (a second create of the same id by the
        same turn returns the first one instead of a duplicate)."""

    @abc.abstractmethod
    def patch_event(self, calendar_id: str, event_id: str, patch: EventPatch, *,
                    if_match: str | None = None, send_updates: bool = False) -> Event:
        """Change only the fields in `patch`; `if_match` guards against a concurrent edit."""

    @abc.abstractmethod
    def patch_events(self, calendar_id: str, items: Sequence[PatchItem], *,
                     send_updates: bool = False) -> list[Event]:
        """Patch several events, in order; the events as written. On a failure it raises: a
        backend that can (local) writes nothing then, one that cannot (Google) may have written
        the items before the failing one, which the journal's entries then undo."""

    def patch_events_recorded(self, calendar_id: str, items: Sequence[PatchItem],
                              record: WriteRecord, *, send_updates: bool = False) -> list[Event]:
        """`patch_events` with its record around it: the pre-images read and handed to
        `record.before` (committed) before anything is written, the post-images after. This
        default reads each side with `snapshots`; a backend with transactions (local) takes
        both from the write's own transaction and offers it to the record. A failure raises,
        as `patch_events` does; the record's entries then say what may have landed."""
        record.before(self.snapshots(calendar_id, [item.event_id for item in items]), None)
        written = self.patch_events(calendar_id, items, send_updates=send_updates)
        record.after(self.snapshots(calendar_id, [event.id for event in written]), written, None)
        return written

    def create_events_recorded(self, calendar_id: str, events: Sequence[Event],
                               record: WriteRecord, *, turn_id: str | None = None) -> list[Event]:
        """Create several events (an import's chunk), in order, with their record around them.

        The pre-images handed to `record.before` are "did not exist", read from nowhere: each
        create is itself conditioned on its id being free (a taken one is refused), so a create
        that lands proves it, and one that is refused wrote nothing. No read before the write
        means no per-event lookup (on CalDAV a UID search of the whole collection). The
        post-images are the records the backend wrote. This default creates the events one by
        one and reads each back; when one fails, `record.after` gets the ones written before it
        (a prefix) and the failure is raised, the rest untried. A backend with transactions
        (local) writes them all or none, offering its transaction to the record."""
        record.before([Snapshot(calendar_id, event.id, None, None) for event in events], None)
        written: list[Event] = []
        try:
            for event in events:
                written.append(self.create_event(calendar_id, event, turn_id=turn_id))
        finally:
            if written:
                record.after(self.snapshots(calendar_id, [e.id for e in written]), written, None)
        return written

    @abc.abstractmethod
    def upsert_event(self, calendar_id: str, event: Event, *, turn_id: str | None = None) -> Event:
        """Write `event` under its id whatever is there, even a deleted event (replay seeding);
        no notifications."""

    @abc.abstractmethod
    def delete_event(self, calendar_id: str, event_id: str, *, if_match: str | None = None,
                     send_updates: bool = False) -> None: ...

    @abc.abstractmethod
    def snapshot(self, calendar_id: str, event_id: str) -> Snapshot: ...

    @abc.abstractmethod
    def restore(self, snapshot: Snapshot, *, expected_version: str | None) -> Snapshot:
        """Put `snapshot` back when the event's current version is `expected_version`
        (None: "must not exist now" is not required; any state may be replaced). Raises
        VersionConflict otherwise. Returns the snapshot read back after the restore."""

    def restore_many(self, items: Sequence[RestoreItem]) -> list[RestoreResult]:
        """`restore` of several events, in order, each under its own version check: one result
        per item, a failure of one item (`ITEM_FAILURES`) never stopping the others. After any
        other `CalendarError` (the service is down) the rest is not tried: the list is shorter.
        A backend may write them in one transaction; each result is read back after the write."""
        results: list[RestoreResult] = []
        for item in items:
            try:
                results.append(self.restore_item(item))
            except ITEM_FAILURES as exc:
                results.append(exc)
            except CalendarError as exc:
                results.append(exc)
                break
        return results

    def restore_many_within(self, items: Sequence[RestoreItem],
                            within: Callable[[list[RestoreResult], Transaction], None]
                            ) -> list[RestoreResult]:
        """`restore_many`, its results also handed to `within` inside the restores' own
        transaction, before it commits, by a backend that has one (local): what `within`
        writes there (a journal on the same store marking its entries) commits with the
        restores or not at all. A backend without transactions never calls it."""
        return self.restore_many(items)

    decides_restores_under_lock: bool = False
    """Whether `restore_many_deciding` reads the events under the restores' own writer lock
    (local): a rollback then decides each restore on those rows instead of reading first."""

    def restore_many_deciding(self, items: Sequence[RestoreItem], decide: Decide,
                              within: Callable[[list[RestoreResult], Transaction], None]
                              ) -> list[RestoreResult]:
        """`restore_many_within` of the items `decide` keeps: handed the events as they are
        (one snapshot per item, in order), read in the restores' own transaction under its
        writer lock, it returns per item the restore to make (None: none). No other writer
        can change an event between that read and the write, so no read is needed before.
        The results are those of the kept items, in order. Only a backend that says
        `decides_restores_under_lock` implements it."""
        raise NotImplementedError

    def restore_item(self, item: RestoreItem) -> Snapshot:
        """One restore of `restore_many` (a backend that reads `item.left` overrides it)."""
        return self.restore(item.snapshot, expected_version=item.expected_version)

    def get_events(self, calendar_id: str, event_ids: Sequence[str]) -> list[Event | None]:
        """`get_event` of several events, in order (a backend may read them at once)."""
        return [self.get_event(calendar_id, event_id) for event_id in event_ids]

    def snapshots(self, calendar_id: str, event_ids: Sequence[str]) -> list[Snapshot]:
        """`snapshot` of several events, in order (a backend may read them at once)."""
        return [self.snapshot(calendar_id, event_id) for event_id in event_ids]

    def free_busy(self, calendar_ids: Sequence[str], start: datetime, end: datetime) -> FreeBusy:
        """Busy times of each calendar over [start, end), worked out here from `list_events` (a
        backend with a server-side free/busy query may override it).

        A calendar that is not one of this backend's, whose listing failed, or whose listing left
        out a repeating event it could not expand, is unreadable, with the reason: a failed read
        must never look like free time. Any exception counts, not only `CalendarError`: whatever
        stopped the read, the calendar's busy times are unknown."""
        try:
            known: set[str] | None = {c.id for c in self.calendars()} | {self.primary_calendar_id()}
        except Exception:  # noqa: BLE001 - the listing below will say what is wrong
            known = None
        busy: dict[str, tuple[tuple[datetime, datetime], ...]] = {}
        unreadable: dict[str, str] = {}
        for calendar_id in dict.fromkeys(calendar_ids):
            if known is not None and calendar_id not in known:
                unreadable[calendar_id] = "no such calendar"
                continue
            try:
                events = self.list_events(calendar_id, start, end)
            except Exception as exc:  # noqa: BLE001 - reported as unreadable, never as free
                unreadable[calendar_id] = str(exc) or type(exc).__name__
                continue
            skipped = self.skipped_series()
            if skipped:
                unreadable[calendar_id] = "the repeat rule of " + ", ".join(
                    repr(e.title) for e in skipped) + " cannot be read"
                continue
            busy[calendar_id] = busy_intervals(events)
        return FreeBusy(busy, unreadable)

    def id_problem(self, event_id: str) -> str | None:
        """Why `event_id` cannot be an id of this backend, or None when it can."""
        return None if event_id else "empty id"

    @staticmethod
    def same_content(a: Snapshot, b: Snapshot) -> bool:
        """Whether two snapshots hold the same event, versions and server stamps aside:
        `strip_volatile(a.record) == strip_volatile(b.record)`, asked twice per event of every
        rollback. Each record with every stamp set to one marker is equal exactly when both
        without them are (the stamps are alike by construction), and a dict merge in C is a
        third of the time of the stripping comprehension."""
        mine, theirs = a.record, b.record
        if mine is None or theirs is None:
            return mine is theirs
        return {**mine, **_STAMPS_BLANKED} == {**theirs, **_STAMPS_BLANKED}

    def close(self) -> None:  # pragma: no cover - default no-op
        return None


VOLATILE_KEYS = frozenset({"version", "etag", "updated", "sequence", "htmlLink", "iCalUID",
                           "created", "kind", "creator", "organizer"})
"""Server stamps: not part of what an event is. (`reminders` is: the event's own, since issue 26,
so a rollback that left them changed is not a clean one.)"""


_STAMPS_BLANKED: dict[str, Any] = dict.fromkeys(VOLATILE_KEYS, object())
"""Every server stamp set to one marker (`CalendarBackend.same_content`)."""


def strip_volatile(record: dict[str, Any] | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {k: v for k, v in record.items() if k not in VOLATILE_KEYS}
