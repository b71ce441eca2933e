"""The snapshot journal: what a turn changed, written down before it changed it.

Before a guarded write runs, its pre-image (or "did not exist"), what the write is meant to leave
(the intent: the event as it should read afterwards, or "deleted") and the version it is based on
are committed with the turn and attempt ids; after it runs, the post-image and its version. (A
local bulk write, worked out whole under its writer lock before anything of it is committed,
commits its entries complete first, then the write: `_Record.whole`.) A write the server refused
(a version conflict, a 412, a missing event) is recorded as `refused`: it changed nothing and is
never undone.

Rolling back walks the turn's entries in reverse. Each event is restored once, to the pre-image of
the first write that touched it, and only when the event is still exactly what our writes left:
for a completed write, the post-image's version and content (or its content under a new
version); for an uncertain one (the process died between the pre-image and the post-image), the
pre-image plus our intended change, or the pre-image itself (the write never landed). Anything
else is someone else's change: it is kept and reported as a conflict, never overwritten.

Open turns carry their owner (`tools.journal.turn_owner`): start-up recovery only takes turns whose owning
process is gone, and the owner closes its turn only while it is still its own. A restore that
fails (the calendar service is down) leaves its entries as they were and the turn `unfinished`,
so the next start tries again; one unreadable entry is reported and skipped, never fatal.

What is stored, and how its JSON is written and read, is `tools.journal.entries`: here the
entries are typed values (`Entry`, `Intent`), never JSON.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from functools import cache
from typing import Any, Literal, cast

from sqlalchemy import ARRAY, Integer, any_, bindparam, func, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import configure_mappers
from sqlalchemy.sql import ColumnElement, Executable
from sqlmodel import Session, col
from sqlmodel import select as select_rows

from tools.backends.base import (
    CalendarBackend,
    CalendarError,
    EventNotFound,
    PatchItem,
    RestoreItem,
    RestoreResult,
    Snapshot,
    Transaction,
    VersionConflict,
)
from tools.calendar.events import Event, EventFieldError
from tools.calendar.patching import same_outcome
from tools.journal.entries import (
    ENTRY_STATES,
    TURN_STATES,
    Entry,
    EntryRow,
    EntryState,
    Intent,
    IntentKind,
    JournalEntry,
    JournalTurn,
    TurnState,
    Unreadable,
    completed_entry,
    new_entry,
    owner_text,
    read_owner,
    read_snapshot,
    whole_entry,
)
from tools.journal.entry_insert import insert_entries
from tools.journal.turn_owner import Owner, current_owner, is_alive
from tools.store.database import Store, is_postgresql
from tools.store.json_text import dumps

__all__ = ["ENTRY_STATES", "TURN_STATES", "Conflict", "Entry", "EntryState", "Intent", "IntentKind",
           "Journal", "JournalEntry", "JournalTurn", "RestoredEvent", "RollbackReport", "TurnState",
           "event_words", "restored_noun"]

REFUSALS = (VersionConflict, EventNotFound, EventFieldError)
"""Write failures that prove nothing was written: the server (or our own check) refused it."""

CONTENT_FIELDS = frozenset({"title", "start", "location", "description", "attendees", "recurrence"})

IMPORTED_BY = "import_calendar_file"
"""The journal's tool name for the writes of an iCalendar import (`tools.ical_import`), so a
rollback of one is summed up as "removed 6,688 imported events"."""

SUMMARY_LISTED = 3
"""Events a one-line summary names one by one; beyond that it counts them (a 100,000-event
import rolled back is "removed 100,000 imported events", not a 237 KB line)."""


Outcome = Literal["restored", "noop", "conflict", "failed", "down"]
"""What undoing one event came to; `down`: the calendar service failed, the rest waits."""


def _now() -> datetime:
    return datetime.now(UTC)


_ENTRIES = JournalEntry.__table__  # type: ignore[attr-defined]
_COMPLETE_ENTRY = update(_ENTRIES).where(_ENTRIES.c.id == bindparam("entry")).values(
    post=bindparam("b_post"), post_version=bindparam("b_post_version"),
    post_event=bindparam("b_post_event"), state=bindparam("b_state"))
# The entries marked, their ids as one value whatever their number (an IN list of fifty is a
# new statement each time, for SQLAlchemy, psycopg and the server): on PostgreSQL one array
# (`id = ANY(:b_ids)`), on SQLite one JSON array read by `json_each` (`b_ids` as its text).
_THESE_ENTRIES = {
    True: _ENTRIES.c.id == any_(bindparam("b_ids", type_=ARRAY(Integer))),
    False: _ENTRIES.c.id.in_(select(func.json_each(bindparam("b_ids")).table_valued("value").c.value))}
_MARKS = {postgresql: (update(_ENTRIES).where(these).values(state=bindparam("new_state"),
                                                            note=bindparam("new_note")),
                       update(_ENTRIES).where(these).values(note=bindparam("new_note")))
          for postgresql, these in _THESE_ENTRIES.items()}
"""The statements that mark entries (state and note, note only), by "on PostgreSQL"."""
_MARKED_AT_ONCE = 500  # ids per statement: one bounded array (or JSON text) each
_TURNS = JournalTurn.__table__  # type: ignore[attr-defined]
# A turn recorded once, whoever comes first (a second `open_turn` of the same id changes nothing):
# one statement that needs no read first, and may run inside a write's own transaction.
@cache
def _open_turn(dialect: str) -> Executable:
    """The statement for `dialect`, built on first use: importing SQLAlchemy's PostgreSQL dialect
    at start costs every command ~20 ms, and a SQLite-only install never needs it."""
    if dialect == "postgresql":
        from sqlalchemy.dialects import postgresql

        return postgresql.insert(_TURNS).on_conflict_do_nothing()
    from sqlalchemy.dialects import sqlite

    return sqlite.insert(_TURNS).on_conflict_do_nothing()
_SET_TURN = update(_TURNS).where(_TURNS.c.turn_id == bindparam("b_turn"))
_TURN_ROLLED_BACK = _SET_TURN.values(state="rolled_back", closed_at=bindparam("b_closed"))
_TURN_UNFINISHED = _SET_TURN.values(state="unfinished", closed_at=bindparam("b_closed"),
                                    owner=None, last_error=bindparam("b_error"))
_ENTRY_COLUMNS = [column for column in _ENTRIES.c]
_SELECT_ENTRIES = select(*_ENTRY_COLUMNS).where(
    _ENTRIES.c.turn_id == bindparam("b_turn"),
    _ENTRIES.c.state.in_(bindparam("b_states", expanding=True))).order_by(_ENTRIES.c.id)
_ROLLBACK_COLUMNS = [column for column in _ENTRIES.c if column.name not in ("note", "created_at")]
_SELECT_TO_ROLL_BACK = select(*_ROLLBACK_COLUMNS).where(  # what `Entry.read` reads (`EntryRow`)
    _ENTRIES.c.turn_id == bindparam("b_turn"),
    _ENTRIES.c.state.in_(("pending", "done"))).order_by(_ENTRIES.c.id)
_LAST_ENTRY = select(_ENTRIES.c.id).order_by(_ENTRIES.c.id.desc()).limit(1)


# ---------------------------------------------------------------------------- words
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_UNSAFE_RE = re.compile(r"[\x00-\x1f<>]+")


def _day_words(day: date) -> str:
    return f"{_DAYS[day.weekday()]} {day.day} {_MONTHS[day.month - 1]}"


def event_words(event: Event | None) -> str:
    """An event as a person reads it: its title and when (never its id)."""
    if event is None:
        return "an event"
    title = _UNSAFE_RE.sub(" ", event.title or "").strip()[:60] or "an untitled event"
    if event.all_day or not isinstance(event.start, datetime):
        when = _day_words(event.start if isinstance(event.start, date) else event.start.date())
    else:
        local = event.start.astimezone(event.zone)
        when = f"{_day_words(local.date())} at {local:%H:%M}"
    return f"'{title}' on {when}"


def _reason(exc: BaseException, event_id: str) -> str:
    return str(exc).replace(repr(event_id), "the event").replace(event_id, "the event")


# ---------------------------------------------------------------------------- reports
@dataclass
class RestoredEvent:
    """One event put back: `wrong` is what the undone write had left (None: it had deleted
    the event), `restored` what is there again now (None: the write had created it)."""

    event_id: str
    wrong: Event | None
    restored: Event | None
    tool: str = ""  # the tool whose write was undone (an import's events are summed up as such)


@dataclass
class Conflict:
    event_id: str
    message: str  # for the model and logs (may name the id)
    words: str = ""  # for the person: title and time, never an id

    @property
    def shown(self) -> str:
        return self.words or self.message


@dataclass
class RollbackReport:
    turn_id: str
    restored: list[RestoredEvent] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)  # someone else's change, kept
    failures: list[Conflict] = field(default_factory=list)  # our change, not yet undone
    skipped: list[Conflict] = field(default_factory=list)  # unreadable journal entries
    waiting: int = 0  # changes not tried because the calendar service failed: next start
    down_services: set[str] = field(default_factory=set)  # services (accounts) that failed
    down_failures: int = 0  # of `failures`, the ones whose service failed (the rest: the event)
    started_at: datetime | None = None
    recovered: bool = False  # undone at start-up, not by the person or the guard

    @property
    def restored_ids(self) -> list[str]:
        return [r.event_id for r in self.restored]

    @property
    def clean(self) -> bool:
        return not self.conflicts and not self.failures and not self.skipped and not self.waiting

    @property
    def complete(self) -> bool:
        """Nothing of ours is left to undo (conflicts and unreadable entries are final)."""
        return not self.failures and not self.waiting

    def summary(self) -> str:
        """What happened, in words a person reads (titles and times, never ids): an event the
        undone writes had added is "removed", one they had changed or deleted is "put back";
        past `SUMMARY_LISTED` events of a kind, they are counted."""
        parts = []
        removed = [r for r in self.restored if r.restored is None]
        back = [r for r in self.restored if r.restored is not None]
        if removed:
            parts.append(_named_or_counted("removed", [r.wrong for r in removed], removed))
        if back:
            parts.append(_named_or_counted("put back", [r.restored for r in back], back))
        kept = self.conflicts + self.failures + self.skipped
        parts += [c.shown for c in kept[:SUMMARY_LISTED]]
        if len(kept) > SUMMARY_LISTED:
            parts.append(f"{len(kept) - SUMMARY_LISTED:,} more events could not be put back "
                         "as they were")
        if self.waiting:
            parts.append(f"{self.waiting} more {'change' if self.waiting == 1 else 'changes'} "
                         "will be undone at the next start, when "
                         "the calendar service answers")
        return "; ".join(parts) or "nothing to put back"

    def notice(self) -> str:
        """One line telling the person what start-up recovery did with an unfinished request."""
        when = ""
        if self.started_at is not None:
            started = self.started_at if self.started_at.tzinfo else \
                self.started_at.replace(tzinfo=UTC)
            local = started.astimezone()
            when = f" from {_day_words(local.date())} at {local:%H:%M}"
        if not self.complete:
            head = f"An unfinished request{when} could not be fully undone"
        elif self.conflicts or self.skipped:
            head = f"An unfinished request{when} was undone except where it could not be"
        else:
            head = f"An unfinished request{when} was undone"
        return f"{head}: {self.summary()}."


def restored_noun(items: list[RestoredEvent]) -> str:
    """What counted events are called: "imported event" when an import wrote them all."""
    return "imported event" if items and all(i.tool == IMPORTED_BY for i in items) else "event"


def _named_or_counted(verb: str, events: list[Event | None], items: list[RestoredEvent]) -> str:
    """`removed 'Dentist' on Fri 31 Oct at 15:00`, or `removed 6,688 imported events`."""
    if len(events) <= SUMMARY_LISTED:
        return f"{verb} " + ", ".join(event_words(e) for e in events)
    return f"{verb} {len(events):,} {restored_noun(items)}s"


_Within = Callable[[list[RestoreResult], Transaction], None]
"""What a backend hands the restores' results in their own transaction (`restore_many_within`)."""

_Settle = Callable[[list[tuple[Outcome, str]], Connection | None], bool]
"""What a rollback does with one chunk's outcomes (`Journal.rollback_entries`): reports them and
marks their entries, in the connection given (the restores' transaction) or on its own; True
when that chunk was the last."""


def _restore_outcome(backend: CalendarBackend, group: _Group,
                     result: Snapshot | Exception) -> tuple[Outcome, str]:
    """One `restore_many` result as an outcome: the read-back must hold the pre-image."""
    if isinstance(result, VersionConflict):
        return ("conflict", "changed by someone else during the rollback")
    if isinstance(result, EventNotFound):
        return ("failed", _reason(result, group.event_id))
    if isinstance(result, CalendarError):
        return ("down", _reason(result, group.event_id))
    if isinstance(result, Exception):
        return ("failed", f"the journal entry could not be read: {result}")
    if not backend.same_content(group.pre, result):
        return ("failed", "it was restored but does not read back as it was")
    return ("restored", "")


@dataclass
class _Group:
    """The entries of one event in one rollback: their ids, and the first and the last read
    back (the ones a rollback decides by)."""

    calendar_id: str
    event_id: str
    ids: list[int]
    first: Entry
    last: Entry
    between: list[EntryRow] = field(default_factory=list)  # the rows between, read if needed

    def left_earlier(self, same: Callable[[Snapshot, Snapshot], bool], current: Snapshot) -> bool:
        """Whether `current` is what one of our earlier writes left (not the last one): undoing
        a series on CalDAV puts its occurrences back as they were at the series' first write,
        which is a state of ours, not someone else's change."""
        for row in self.between:
            try:
                entry = Entry.read(row)
            except Unreadable:
                continue
            if entry.state == "done" and entry.post is not None and same(entry.post, current):
                return True
        return same(self.first.post, current) if self.first is not self.last and \
            self.first.state == "done" and self.first.post is not None else False

    @property
    def pre(self) -> Snapshot:
        """The event as it was before the first of our writes: what a rollback puts back."""
        return self.first.pre

    @property
    def first_event(self) -> Event | None:
        return self.first.pre_event

    @property
    def last_event(self) -> Event | None:
        """What our last write left: None when it deleted the event (undo "adds it back"), the
        last pre-image when its outcome is unknown."""
        if self.last.state == "done" and self.last.deletes:
            return None
        return self.last.post_event or self.last.pre_event

    @property
    def words(self) -> str:
        return event_words(self.first_event or self.last_event)


def _read_group(calendar_id: str, event_id: str, rows: list[EntryRow]) -> _Group:
    """The group of one event's rows; `Unreadable` when its first or last cannot be read (an
    event written once has one row, read once: it is both)."""
    first = Entry.read(rows[0])
    return _Group(calendar_id, event_id, [r.id for r in rows if r.id is not None], first,
                  first if len(rows) == 1 else Entry.read(rows[-1]), rows[1:-1])


class _Record:
    """A write's journal entries around it (`tools.backends.base.WriteRecord`), for a bulk
    update or a chunk of creates: the entries (`_rows`: pre-image, event before, intent) before
    the write, their post-images after.

    Offered the write's own transaction on the journal's store, it joins it: each entry is
    inserted once, complete, after the write and before the commit (one statement, no pending
    state that could outlive the write). Otherwise the entries are committed pending before the
    write (`pending`, the ids to abandon if it fails), and the ones `after` is given (all, or the
    prefix a backend without transactions wrote before a failure) are completed; the rest stay
    in `pending`. A backend with transactions that works the write out before committing it
    (local) hands both images at once (`whole`): the entries are inserted complete, in its
    transaction on this store, else committed on their own just before the write is."""

    def __init__(self, journal: Journal, turn_id: str, attempt: int, tool: str,
                 calendar_id: str) -> None:
        self.journal = journal
        self.turn_id, self.attempt, self.tool, self.calendar_id = turn_id, attempt, tool, calendar_id
        self.rows: list[dict[str, object]] = []
        self.ids: list[int] = []
        """The entries committed (or, joined, committing with the write)."""
        self.pending: list[int] = []
        """The entries committed before the write, to be abandoned if it fails."""

    def _facts(self, pres: list[Snapshot]) -> list[tuple[str, Snapshot, Event | None, Intent | None,
                                                      str | None]]:
        """Each entry's event id, pre-image, event before, intent and base version."""
        raise NotImplementedError

    def _rows(self, pres: list[Snapshot]) -> list[dict[str, object]]:
        return [new_entry(self.turn_id, self.attempt, self.tool, self.calendar_id, *facts)
                for facts in self._facts(pres)]

    def before(self, pres: list[Snapshot], within: Transaction | None) -> bool:
        self.rows = self._rows(pres)
        if within is not None and within.store is self.journal.store:
            return True
        if self.rows:
            with self.journal.engine.begin() as conn:
                self.journal.open_turn(self.turn_id, conn)
                self.pending = insert_entries(conn, self.rows)
            self.ids += self.pending
        return False

    def after(self, posts: list[Snapshot], written: list[Event],
              within: Transaction | None) -> None:
        done = [completed_entry(post, event) for post, event in zip(posts, written, strict=True)]
        if within is not None:
            self.journal.open_turn(self.turn_id, within.conn)
            self.ids += insert_entries(
                within.conn, [{**row, **end} for row, end in zip(self.rows, done, strict=True)])
            return
        finished, self.pending = self.pending[:len(done)], self.pending[len(done):]
        if finished:
            with self.journal.engine.begin() as conn:
                conn.execute(_COMPLETE_ENTRY, [
                    {"entry": entry, **{f"b_{k}": v for k, v in end.items()}}
                    for entry, end in zip(finished, done, strict=True)])

    def whole(self, pres: list[Snapshot], posts: list[Snapshot], written: list[Event],
              within: Transaction) -> None:
        """Each entry inserted once, complete (`done`, pre- and post-image), before the write
        it records is committed: in the write's own transaction on this journal's store, else
        in one journal transaction of its own committed first, while the backend holds its
        writer lock (`pending` keeps their ids, for `abandon` if the write then fails). A
        process killed between the two commits leaves `done` entries over events that still
        read as their pre-images: a rollback finds nothing to undo there (`Journal._decide`)."""
        rows = [whole_entry(self.turn_id, self.attempt, self.tool, self.calendar_id, *facts,
                            post, event)
                for facts, post, event in zip(self._facts(pres), posts, written, strict=True)]
        if not rows:
            return
        if within.store is self.journal.store:
            self.journal.open_turn(self.turn_id, within.conn)
            self.ids += insert_entries(within.conn, rows)
            return
        with self.journal.engine.begin() as conn:
            self.journal.open_turn(self.turn_id, conn)
            self.pending = insert_entries(conn, rows)
        self.ids += self.pending


class _BulkRecord(_Record):
    """A bulk update's entries: each item's pre-image, the event it was read as and its intent."""

    def __init__(self, journal: Journal, turn_id: str, attempt: int, tool: str, calendar_id: str,
                 items: list[PatchItem], intents: list[Intent]) -> None:
        super().__init__(journal, turn_id, attempt, tool, calendar_id)
        self.items, self.intents = items, intents

    def _facts(self, pres: list[Snapshot]) -> list[tuple[str, Snapshot, Event | None, Intent | None,
                                                      str | None]]:
        return [(item.event_id, pre, item.read, intent, item.if_match)
                for item, pre, intent in zip(self.items, pres, self.intents, strict=True)]


class _CreateRecord(_Record):
    """A chunk of creates' entries (`CalendarBackend.create_events_recorded`): an import's
    events, each entry's pre-image "did not exist" and its intent the event as it should read."""

    def __init__(self, journal: Journal, turn_id: str, attempt: int, tool: str,
                 calendar_id: str, events: list[Event]) -> None:
        super().__init__(journal, turn_id, attempt, tool, calendar_id)
        self.events = events

    def _facts(self, pres: list[Snapshot]) -> list[tuple[str, Snapshot, Event | None, Intent | None,
                                                      str | None]]:
        return [(pre.event_id, pre, None, Intent.create(event), None)
                for pre, event in zip(pres, self.events, strict=True)]


class Journal:
    """Durable pre/post images of guarded writes, and their exact undo."""

    def __init__(self, store: Store, backend: CalendarBackend, owner: Owner | None = None) -> None:
        self.store = store
        self.engine = store.engine
        self.backend = backend
        self.owner = owner or current_owner()
        store.migrate("state")
        configure_mappers()  # `entries` builds its values with `model_construct`, which needs them

    # ------------------------------------------------------------ turns
    def open_turn(self, turn_id: str, conn: Connection | None = None) -> None:
        """Record the turn as open and owned by this process (once; a turn already recorded is
        left as it is). `conn`: inside that open transaction (a bulk write's own), else in a
        transaction of its own."""
        if conn is None:
            with self.engine.begin() as own:
                self.open_turn(turn_id, own)
            return
        conn.execute(_open_turn("postgresql" if is_postgresql(conn) else "sqlite"),
                     {"turn_id": turn_id, "backend": self.backend.name, "state": "open",
                      "started_at": _now(), "owner": owner_text(self.owner), "recovery_tries": 0})

    def close_turn(self, turn_id: str, state: TurnState = "committed") -> bool:
        """Close our own open turn. False when it is no longer open and ours: start-up recovery
        in another process took it (and rolled its changes back)."""
        table = JournalTurn.__table__  # type: ignore[attr-defined]
        with self.engine.begin() as conn:
            result = conn.execute(update(table).where(
                table.c.turn_id == turn_id, table.c.state == "open",
                or_(table.c.owner == owner_text(self.owner), table.c.owner.is_(None)),
            ).values(state=state, closed_at=_now()))
            return bool(result.rowcount)

    def owns(self, turn_id: str) -> bool:
        """Whether the turn is still open and ours."""
        with Session(self.engine) as session:
            turn = session.get(JournalTurn, turn_id)
            return turn is not None and turn.state == "open" and turn.owner in (None, owner_text(self.owner))

    def _set_state(self, turn_id: str, state: TurnState, *, release: bool = False,
                   error: str | None = None) -> None:
        values: dict[str, object] = {"state": state, "closed_at": _now()}
        if release:
            values["owner"] = None
        if error is not None:
            values["last_error"] = error[:500]
        with self.engine.begin() as conn:
            conn.execute(_SET_TURN.values(**values), {"b_turn": turn_id})

    def keep_for_recovery(self, turn_id: str, why: str) -> bool:
        """An attempt's rollback could not finish (the calendar service failed): leave our own
        open turn `unfinished` and released, so the next start (of any process) finishes the
        undo, instead of closing it as if its changes stood. False when the turn is no longer
        open and ours (recovery elsewhere took it)."""
        table = JournalTurn.__table__  # type: ignore[attr-defined]
        with self.engine.begin() as conn:
            result = conn.execute(update(table).where(
                table.c.turn_id == turn_id, table.c.state == "open",
                or_(table.c.owner == owner_text(self.owner), table.c.owner.is_(None)),
            ).values(state="unfinished", closed_at=_now(), owner=None, last_error=why[:500]))
            return bool(result.rowcount)

    def open_turns(self) -> list[str]:
        """Every open turn of this backend, live or not."""
        with Session(self.engine) as session:
            rows = session.exec(select(JournalTurn.turn_id).where(  # type: ignore[call-overload]
                JournalTurn.state == "open", JournalTurn.backend == self.backend.name)).all()
            return [r[0] for r in rows]

    def turn(self, turn_id: str) -> JournalTurn | None:
        with Session(self.engine, expire_on_commit=False) as session:
            found = session.get(JournalTurn, turn_id)
            if found is not None:
                session.expunge(found)
            return found

    def recoverable_turns(self) -> list[JournalTurn]:
        """Open turns whose owner is gone, and rollbacks left unfinished, newest first: undone in
        the reverse of the order they were made, as `undo` does, so an event two of them
        changed gets back what the older one found."""
        return self._left_by_the_dead(col(JournalTurn.backend) == self.backend.name)

    def stranded_turns(self) -> list[JournalTurn]:
        """Unfinished turns of a dead process made with other calendar settings (before the
        accounts were set up, or on another backend): this backend cannot undo them, and they
        wait for those settings to come back, so start-up says so instead of keeping quiet."""
        return self._left_by_the_dead(col(JournalTurn.backend) != self.backend.name)

    def _left_by_the_dead(self, backend_is: ColumnElement[bool]) -> list[JournalTurn]:
        """Open or unfinished turns matching `backend_is` whose owner is gone, newest first."""
        with Session(self.engine, expire_on_commit=False) as session:
            rows = session.exec(select_rows(JournalTurn).where(
                col(JournalTurn.state).in_(("open", "unfinished")), backend_is,
            ).order_by(col(JournalTurn.started_at).desc())).all()
            session.expunge_all()
        return [t for t in rows if not is_alive(read_owner(t.owner))]

    def _claim(self, turn: JournalTurn) -> bool:
        """Take a dead owner's turn, atomically: of two processes starting at once, one wins."""
        table = JournalTurn.__table__  # type: ignore[attr-defined]
        same_owner = table.c.owner.is_(None) if turn.owner is None else table.c.owner == turn.owner
        with self.engine.begin() as conn:
            result = conn.execute(update(table).where(
                table.c.turn_id == turn.turn_id, table.c.state == turn.state, same_owner,
            ).values(owner=owner_text(self.owner), recovery_tries=table.c.recovery_tries + 1))
            return bool(result.rowcount)

    def last_committed_turn(self) -> str | None:
        """The newest turn whose changes still stand (the one `undo` takes back)."""
        with Session(self.engine) as session:
            rows = session.exec(select(JournalTurn.turn_id).where(  # type: ignore[call-overload]
                JournalTurn.state == "committed", JournalTurn.backend == self.backend.name
            ).order_by(JournalTurn.closed_at.desc())).all()  # type: ignore[union-attr]
            for (turn_id,) in rows:
                if self.entries(turn_id, states=("done", "pending")):
                    return str(turn_id)
            return None

    # ------------------------------------------------------------ writes
    def begin(self, turn_id: str, attempt: int, tool: str, calendar_id: str, event_id: str,
              intent: Intent | None = None, base_version: str | None = None) -> int:
        """Commit the pre-image (and what the write means to leave) before the write; returns
        the entry id for `complete`/`abandon`."""
        self.open_turn(turn_id)
        pre = self.backend.snapshot(calendar_id, event_id)
        creating = intent is not None and intent.kind is IntentKind.CREATE
        # an occurrence never changed before has no stored record, but it is an event to name
        pre_event = self.backend.get_event(calendar_id, event_id) \
            if pre.exists or (intent is not None and not creating) else None
        with Session(self.engine) as session:
            entry = JournalEntry(**new_entry(turn_id, attempt, tool, calendar_id, event_id, pre,
                                             pre_event, intent, base_version))
            session.add(entry)
            session.commit()
            assert entry.id is not None
            return entry.id

    def complete(self, entry_id: int, post_event: Event | None = None) -> None:
        """Commit the post-image after the write succeeded."""
        with Session(self.engine) as session:
            entry = session.get(JournalEntry, entry_id)
            assert entry is not None
            post = self.backend.snapshot(entry.calendar_id, entry.event_id)
            for column, value in completed_entry(post, post_event).items():
                setattr(entry, column, value)
            session.commit()

    def begin_many(self, turn_id: str, attempt: int, tool: str, calendar_id: str,
                   writes: list[tuple[Event, Intent, str | None]]) -> list[int]:
        """`begin` for the updates of one bulk call, each (event before, intent, base version):
        every pre-image read at once and committed in one transaction before any is written."""
        self.open_turn(turn_id)
        pres = self.backend.snapshots(calendar_id, [event.id for event, _, _ in writes])
        rows = [new_entry(turn_id, attempt, tool, calendar_id, event.id, pre, event, intent, base)
                for (event, intent, base), pre in zip(writes, pres, strict=False)]
        if not rows:
            return []
        with self.engine.begin() as conn:
            return insert_entries(conn, rows)

    def complete_many(self, calendar_id: str, entry_ids: list[int],
                      written: list[Event]) -> None:
        """`complete` for the entries of `begin_many`, in order: post-images read at once and
        committed in one transaction."""
        posts = self.backend.snapshots(calendar_id, [event.id for event in written])
        if not entry_ids:
            return
        with self.engine.begin() as conn:
            conn.execute(_COMPLETE_ENTRY,
                [{"entry": entry, **{f"b_{k}": v for k, v in completed_entry(post, event).items()}}
                 for entry, post, event in zip(entry_ids, posts, written, strict=False)])

    def patch_events(self, turn_id: str, attempt: int, tool: str, calendar_id: str,
                     items: list[PatchItem], intents: list[Intent], *, send_updates: bool = False,
                     started: list[int] | None = None,
                     backend: CalendarBackend | None = None) -> list[Event]:
        """A bulk write journaled: the backend's `patch_events_recorded`, with this journal's
        entries around it (`_BulkRecord`). On a store shared with the backend (the local
        calendar on one `DATABASE_URL`) the entries are written, already complete, in the
        write's own transaction: both land or neither does, which is the journal's ordering
        with nothing in between to recover. On SQLite files apart, the entries are committed
        complete just before the write is (`_Record.whole`). A backend without transactions
        has the pre-images committed before the write and the post-images after it, as
        `begin_many` and `complete_many` do. `started`
        collects the ids of entries committed before the write, even when it fails (a caller
        undoing several writes also covers one that may have landed); a failed write is
        `abandon`ed. `backend`: the one the caller writes through (the journal's own by
        default)."""
        record = _BulkRecord(self, turn_id, attempt, tool, calendar_id, items, intents)
        try:
            return (backend or self.backend).patch_events_recorded(calendar_id, items, record,
                                                                   send_updates=send_updates)
        except Exception as exc:
            # A refusal proves only that its own item was not written: a backend without
            # transactions (Google, CalDAV) wrote the items before it, which must stay ours to
            # undo (untouched ones are found so by `abandon` and marked as such).
            refused = getattr(exc, "event_id", None) if isinstance(exc, REFUSALS) else None
            for entry, item in zip(record.pending, items, strict=False):
                self.abandon(entry, exc if refused is not None and item.event_id == refused else None)
            raise
        finally:
            if started is not None:
                started += record.ids

    def create_events(self, turn_id: str, attempt: int, tool: str, calendar_id: str,
                      events: list[Event], *, started: list[int] | None = None) -> list[Event]:
        """Creates journaled in bulk (an import's chunk): the backend's
        `create_events_recorded` with this journal's entries around it (`_CreateRecord`).

        A create's pre-image is "did not exist" without a read: the create is refused when its
        id is taken, so one that lands proves it. That saves the read per event a create's
        `begin` makes, which on CalDAV is a UID search of the whole collection for an id another
        client chose. A failure abandons the entries of the events not written (refused, or
        left for the rollback to judge by their intent, as `abandon` says). `started` collects
        the ids of the entries committed, even when the write fails."""
        record = _CreateRecord(self, turn_id, attempt, tool, calendar_id, events)
        try:
            return self.backend.create_events_recorded(calendar_id, events, record,
                                                       turn_id=turn_id)
        except Exception as exc:
            for entry in record.pending:
                self.abandon(entry, exc)
            raise
        finally:
            if started is not None:
                started += record.ids

    def abandon(self, entry_id: int, error: BaseException | None = None) -> None:
        """The write failed. Refused (`REFUSALS`): recorded as not applied. Otherwise it may have
        landed (a lost reply, a 5xx): it stays pending unless the event is provably untouched,
        and a rollback restores it only if the event reads as our intended change."""
        with Session(self.engine) as session:
            entry = session.get(JournalEntry, entry_id)
            assert entry is not None
            if isinstance(error, REFUSALS):
                entry.state = "refused"
                entry.note = str(error)[:500]
                session.commit()
                return
            try:
                pre = read_snapshot(entry.pre)
                current = self.backend.snapshot(entry.calendar_id, entry.event_id)
            except CalendarError:
                return  # cannot tell now: pending, and the rollback decides from the intent
            if self.backend.same_content(pre, current) and pre.version == current.version:
                entry.state = "noop"
                session.commit()

    def entries(self, turn_id: str, attempt: int | None = None,
                states: tuple[EntryState, ...] = ("pending", "done"),
                ids: list[int] | None = None) -> list[JournalEntry]:
        """The turn's entries in these states (of one attempt, or these ids), oldest first: one
        prebuilt Core query, each row made a `JournalEntry` value without an ORM session."""
        with self.engine.connect() as conn:
            rows = conn.execute(_SELECT_ENTRIES, {"b_turn": turn_id, "b_states": list(states)}).all()
        wanted = set(ids) if ids is not None else None
        return [JournalEntry.model_construct(**row._mapping) for row in rows
                if (attempt is None or row.attempt == attempt)
                and (wanted is None or row.id in wanted)]

    def _entry_rows(self, turn_id: str, attempt: int | None = None) -> list[EntryRow]:
        """`entries` of the turn (or one attempt) as the rows fetched, for a rollback that only
        reads them: no `JournalEntry` made of each."""
        with self.engine.connect() as conn:
            rows = conn.execute(_SELECT_TO_ROLL_BACK, {"b_turn": turn_id}).all()
        return [cast(EntryRow, row) for row in rows if attempt is None or row.attempt == attempt]

    def last_entry_id(self) -> int:
        """The newest entry id (0 when none): a call's own entries are the ones after it."""
        with self.engine.connect() as conn:
            found = conn.execute(_LAST_ENTRY).scalar()
        return int(found) if found is not None else 0

    def entries_after(self, turn_id: str, after_id: int) -> list[JournalEntry]:
        return [e for e in self.entries(turn_id) if (e.id or 0) > after_id]

    # ------------------------------------------------------------ rollback
    def rollback(self, turn_id: str, attempt: int | None = None, *,
                 skip: frozenset[str] = frozenset()) -> RollbackReport:
        """Undo the turn's (or one attempt's) writes, newest first, touching nothing else. A
        whole-turn rollback closes the turn, or leaves it `unfinished` for the next start when
        something of ours could not be undone yet."""
        return self.rollback_entries(turn_id, self._entry_rows(turn_id, attempt),
                                     close=attempt is None, skip=skip)

    @staticmethod
    def _turn_state(turn_id: str, report: RollbackReport) -> tuple[Executable, dict[str, object]]:
        """What a whole-turn rollback leaves its turn as: `rolled_back`, or `unfinished` and
        released for the next start when something of ours could not be undone yet."""
        if report.complete:
            return _TURN_ROLLED_BACK, {"b_turn": turn_id, "b_closed": _now()}
        return _TURN_UNFINISHED, {"b_turn": turn_id, "b_closed": _now(),
                                  "b_error": report.summary()[:500]}

    def rollback_entries(self, turn_id: str, entries: Sequence[EntryRow], *,
                         close: bool = False, skip: frozenset[str] = frozenset()) -> RollbackReport:
        """Undo exactly these entries (a whole turn, one attempt, or one failed bulk call).
        After a failure of a calendar service the rest of that service's events is left for
        later (`waiting`) and the other services' events are still undone: an event's writes
        all sit on one service, so nothing of one depends on another. `skip`: services already
        found down (by start-up, in a newer turn), whose events wait untried.
        `close`: these are the whole turn's, and the turn is closed as `rollback` says, in the
        same journal transaction as the last marks.

        A backend whose restores are independent (`restores_are_independent`) has every event
        read at once, restored in one `restore_many` and its entries marked in one transaction;
        any other is taken event by event, each read after the previous restore."""
        report = RollbackReport(turn_id)
        by_event: dict[tuple[str, str], list[EntryRow]] = {}
        for entry in entries:
            by_event.setdefault((entry.calendar_id, entry.event_id), []).append(entry)
        order = sorted(by_event.items(), key=lambda kv: kv[1][-1].id or 0, reverse=True)
        groups: list[_Group] = []
        for (calendar_id, event_id), raw in order:
            try:
                groups.append(_read_group(calendar_id, event_id, raw))
            except Unreadable as exc:
                self._mark([([e.id for e in raw if e.id is not None], "unreadable", str(exc))])
                report.skipped.append(Conflict(event_id, f"journal entry for {event_id} unreadable: {exc}",
                                               "one record of this request could not be read, so "
                                               "that change was left as it is"))
        services: dict[str, list[_Group]] = {}
        for group in groups:  # events on different services are independent of each other
            services.setdefault(self.backend.service_of(group.calendar_id), []).append(group)
        held: list[tuple[list[int], EntryState | None, str | None]] = []
        ended = False  # the last marks and the turn's state are written already
        for service, part in services.items():
            if service in skip:  # found down earlier (start-up): left for the next start
                report.waiting += len(part)
                report.down_services.add(service)
                continue
            independent = self.backend.restores_independent_on(part[0].calendar_id)
            size = max(1, len(part)) if independent else 1
            for start in range(0, len(part), size):
                chunk = part[start:start + size]

                def marks_of(outcomes: list[tuple[Outcome, str]], chunk: list[_Group] = chunk,
                             start: int = start, part: list[_Group] = part, service: str = service
                             ) -> tuple[list[tuple[list[int], EntryState | None, str | None]], bool]:
                    """The chunk's outcomes into the report; the marks they give, and whether
                    this service failed (the rest of its events wait; the others go on)."""
                    marks = [self._report(group, outcome, why, report)
                             for group, (outcome, why) in zip(chunk, outcomes, strict=False)]
                    down = len(outcomes) < len(chunk) or any(o == "down" for o, _ in outcomes)
                    if down:
                        report.waiting += len(part) - start - len(outcomes)
                        report.down_services.add(service)
                    return marks, down

                def settle(outcomes: list[tuple[Outcome, str]], conn: Connection | None,
                           held: list[tuple[list[int], EntryState | None, str | None]] = held,
                           marks_of: Callable[..., Any] = marks_of) -> bool:
                    """The last chunk of the only service: its marks, the ones held and the
                    turn's state written in the restores' own transaction (one store)."""
                    marks, _ = marks_of(outcomes)
                    self._mark(held + marks, self._turn_state(turn_id, report) if close else None,
                               conn)
                    return True

                final = len(services) == 1 and start + size >= len(part)
                outcomes, settled = self._undo_groups(chunk, settle if final else None)
                if settled:
                    ended = True
                    break
                self._mark(held)
                held, down = marks_of(outcomes)
                if down:
                    break
        if not ended:  # the last marks and the turn's state in one transaction
            self._mark(held, self._turn_state(turn_id, report) if close else None)
        return report

    @staticmethod
    def _report(group: _Group, outcome: Outcome, why: str,
                report: RollbackReport) -> tuple[list[int], EntryState | None, str | None]:
        """Add one event's outcome to the report; the marks its entries get."""
        event_id = group.event_id
        if outcome == "restored":
            report.restored.append(RestoredEvent(event_id, group.last_event, group.first_event,
                                                 group.last.tool))
        if outcome in ("restored", "noop"):
            return (group.ids, "rolled_back", None)
        if outcome == "conflict":
            report.conflicts.append(Conflict(
                event_id, f"{event_id} was changed by someone else after this turn; their "
                          "change was kept",
                f"{group.words} was changed by someone else meanwhile, so their version was kept"))
            return (group.ids, "conflict", why)
        # failed or down: the entries stay as they are, to be retried
        report.down_failures += outcome == "down"
        report.failures.append(Conflict(
            event_id, f"{event_id} could not be restored: {why}",
            f"{group.words} could not be put back ({why})"))
        return (group.ids, None, why)

    def _undo_groups(self, groups: list[_Group], settle: _Settle | None
                     ) -> tuple[list[tuple[Outcome, str]], bool | None]:
        """Each group's outcome, in order: read every event, decide, restore the ones to restore
        together, check each read-back (on a backend that reads under its restores' writer
        lock, completed writes are decided on that read: `_undo_under_lock`). Shorter than
        `groups` when the calendar service failed (the last outcome is `down`, the rest was not
        tried). With them, what `settle` returned when the restores' transaction took it (None:
        it has not run)."""
        if self.backend.decides_restores_under_lock and all(g.last.state == "done" for g in groups):
            return self._undo_under_lock(groups, settle)
        return self._read_and_decide(groups, settle)

    def _read_and_decide(self, groups: list[_Group], settle: _Settle | None,
                         failed: CalendarError | None = None
                         ) -> tuple[list[tuple[Outcome, str]], bool | None]:
        """Read every event, decide each group on it, then restore the ones to restore
        (`_finish`; `failed`: the restore failed so already, nothing was written)."""
        try:
            currents = self._currents(groups)
        except CalendarError as exc:
            return [("down", _reason(exc, groups[0].event_id))], None
        decided: list[tuple[Outcome, str] | RestoreItem] = []
        for group, current in zip(groups, currents, strict=False):
            try:
                decided.append(self._decide(group, current))
            except CalendarError as exc:  # the ones decided so far are restored, then stop
                outcomes, _ = self._finish(groups, decided, None, failed)
                if len(outcomes) == len(decided) and all(o != "down" for o, _ in outcomes):
                    outcomes.append(("down", _reason(exc, group.event_id)))
                return outcomes, None
            except (ValueError, KeyError, TypeError) as exc:
                decided.append(("failed", f"the journal entry could not be read: {exc}"))
        return self._finish(groups, decided, settle, failed)

    def _undo_under_lock(self, groups: list[_Group], settle: _Settle | None
                         ) -> tuple[list[tuple[Outcome, str]], bool | None]:
        """`_undo_groups` for writes that all completed (`done`: deciding reads nothing more)
        on a backend that reads the events under the restores' own writer lock: each group
        decided on the row read there (`restore_many_deciding`), so no read is made before
        and no other writer can change an event between the decision and its restore. The
        same decisions (`_decide`), outcomes and marks as reading first."""
        decided: list[tuple[Outcome, str] | RestoreItem] = []

        def decide(currents: list[Snapshot]) -> list[RestoreItem | None]:
            decided.clear()
            for group, current in zip(groups, currents, strict=True):
                try:
                    decided.append(self._decide(group, current))
                except (ValueError, KeyError, TypeError) as exc:
                    decided.append(("failed", f"the journal entry could not be read: {exc}"))
            return [d if isinstance(d, RestoreItem) else None for d in decided]

        provisional = [RestoreItem(group.pre, None, group.last.post) for group in groups]
        return self._finish(groups, decided, settle, restore=lambda within: (
            self.backend.restore_many_deciding(provisional, decide, within)),
            undecided=lambda exc: self._read_and_decide(groups, settle, exc))

    def _finish(self, groups: list[_Group], decided: list[tuple[Outcome, str] | RestoreItem],
                settle: _Settle | None, failed: CalendarError | None = None,
                restore: Callable[[_Within], list[RestoreResult]] | None = None,
                undecided: Callable[[CalendarError], tuple[list[tuple[Outcome, str]], bool | None]]
                | None = None) -> tuple[list[tuple[Outcome, str]], bool | None]:
        """Restore the decided items in one `restore_many` and turn every decision and result
        into an outcome, in order; stops at the first failure of the service. `settle`: handed
        the outcomes inside the restores' own transaction when the backend has one on this
        journal's store (the marks then commit with the restores), and what it returned.
        `failed`: the restore failed already (nothing written). `restore`: makes the restores
        and fills `decided` itself, under its lock (`_undo_under_lock`); `undecided`: what
        to do when it failed before deciding (read, decide, and report that failure)."""
        settled: list[bool] = []

        def outcomes_of(results: Sequence[RestoreResult]) -> list[tuple[Outcome, str]]:
            outcomes: list[tuple[Outcome, str]] = []
            done = iter(results)
            for group, decision in zip(groups, decided, strict=False):
                if not isinstance(decision, RestoreItem):
                    outcomes.append(decision)
                    continue
                result = next(done, None)
                if result is None:
                    break  # not tried: the service failed before it
                outcomes.append(_restore_outcome(self.backend, group, result))
                if outcomes[-1][0] == "down":
                    break
            return outcomes

        def within(results: list[RestoreResult], transaction: Transaction) -> None:
            if settle is not None and transaction.store is self.store:
                settled.append(settle(outcomes_of(results), transaction.conn))

        try:
            if failed is not None:
                raise failed
            if restore is not None:
                results = restore(within)
            else:
                items = [d for d in decided if isinstance(d, RestoreItem)]
                results = self.backend.restore_many_within(items, within) if items else []
        except CalendarError as exc:  # nothing was restored
            if restore is not None and undecided is not None and not decided:
                return undecided(exc)  # failed before deciding: decide as reading first does
            results = [exc]
        return outcomes_of(results), settled[0] if settled else None

    def _currents(self, groups: list[_Group]) -> list[Snapshot]:
        """The events as they are now, one read per calendar."""
        by_calendar: dict[str, list[str]] = {}
        for group in groups:
            by_calendar.setdefault(group.calendar_id, []).append(group.event_id)
        read = {(cal, snap.event_id): snap for cal, ids in by_calendar.items()
                for snap in self.backend.snapshots(cal, ids)}
        return [read[(group.calendar_id, group.event_id)] for group in groups]

    def _decide(self, group: _Group, current: Snapshot) -> tuple[Outcome, str] | RestoreItem:
        """Whether the event is still exactly what our writes left: then the restore to make
        (under the version it has now), else why not."""
        last = group.last
        if last.state == "pending":
            # Died (or failed) between pre-image and post-image: ours only if the event reads
            # as before that write, or as that write meant to leave it.
            if self.backend.same_content(group.pre, current):
                return ("noop", "")
            if not (self.backend.same_content(last.pre, current)
                    or self._reads_as_intended(last, current)):
                return ("conflict", "changed by someone else before our write was recorded")
            return RestoreItem(group.pre, current.version)
        post = last.post
        ours = post is not None and self.backend.same_content(post, current)
        if current.version != last.post_version or not ours:
            # Not the version our write left, or that version without its content: a write
            # recorded whole before it was committed (`_Record.whole`) that never landed, whose
            # version another writer then reached with a change of its own.
            if not ours:
                if self.backend.same_content(group.pre, current):
                    # Already back as it was (a rollback that stopped before marking its
                    # entries), or our write never landed: nothing to undo, and nobody's
                    # change to keep.
                    return ("noop", "")
                if not group.left_earlier(self.backend.same_content, current):
                    return ("conflict", "changed by someone else after our write")
            # Same content under a new version: a server-side stamp (Google re-tags an
            # occurrence when its series is restored), not someone else's change.
        return RestoreItem(group.pre, current.version, post)

    def _reads_as_intended(self, entry: Entry, current: Snapshot) -> bool:
        """Whether the event now reads exactly as the pending write meant to leave it."""
        if entry.intent is None:
            return False  # an entry from before intents were recorded: cannot prove it is ours
        if entry.deletes:  # gone, or kept as a cancelled record (soft delete)
            return self.backend.get_event(entry.calendar_id, entry.event_id) is None
        wanted = entry.intent.event
        if wanted is None or not current.exists:
            return False
        got = self.backend.get_event(entry.calendar_id, entry.event_id)
        return got is not None and same_outcome(wanted, got, set(CONTENT_FIELDS))

    def _mark(self, marks: list[tuple[list[int], EntryState | None, str | None]],
              turn: tuple[Executable, dict[str, object]] | None = None,
              conn: Connection | None = None) -> None:
        """Set the entries' state (None: keep it) and note, for every (ids, state, note), and
        the turn's state when given (`_turn_state`), in one transaction: `conn`'s, still open
        (a restore's on this journal's store), else one of its own."""
        if conn is None:
            if any(ids for ids, _, _ in marks) or turn is not None:
                with self.engine.begin() as own:
                    self._mark(marks, turn, own)
            return
        alike: dict[tuple[EntryState | None, str | None], list[int]] = {}
        for ids, state, note in marks:
            alike.setdefault((state, note[:500] if note else None), []).extend(ids)
        # one UPDATE per (state, note) and chunk of ids: a rollback's fifty entries all
        # `rolled_back` are one statement, not fifty
        postgresql = is_postgresql(conn)
        mark, note_only = _MARKS[postgresql]
        for (state, note), ids in alike.items():
            for start in range(0, len(ids), _MARKED_AT_ONCE):
                some = ids[start:start + _MARKED_AT_ONCE]
                chunk = {"b_ids": some if postgresql else dumps(some), "new_note": note}
                if state is None:
                    conn.execute(note_only, chunk)
                else:
                    conn.execute(mark, {**chunk, "new_state": state})
        if turn is not None:
            conn.execute(*turn)

    def undo_last(self) -> RollbackReport | None:
        """Roll back the newest turn whose changes still stand (None when there is none)."""
        turn = self.last_committed_turn()
        return self.rollback(turn) if turn else None

    def recover(self) -> list[RollbackReport]:
        """Roll back the turns whose process died, and retry unfinished rollbacks (start-up).

        A turn owned by a live process (another window mid-turn) is left alone. When a calendar
        service (an account) fails, its events in this and every older turn wait for the next
        start and the other services' events are undone now; any other failure stops the pass,
        the older turns waiting behind it. A turn that cannot even be read is reported and
        skipped.
        """
        reports: list[RollbackReport] = []
        down: frozenset[str] = frozenset()
        for turn in self.recoverable_turns():
            if not self._claim(turn):
                continue
            try:
                report = self.rollback(turn.turn_id, skip=down)
            except Exception as exc:  # noqa: BLE001 - one bad turn must not stop the start
                self._set_state(turn.turn_id, "unfinished", release=True, error=str(exc))
                report = RollbackReport(turn.turn_id, failures=[Conflict(
                    "", f"turn {turn.turn_id} could not be rolled back: {exc}",
                    f"its changes could not be undone ({type(exc).__name__})")])
            report.started_at = turn.started_at
            report.recovered = True
            reports.append(report)
            if len(report.failures) > report.down_failures or (
                    not report.complete and not report.down_services):
                break  # something of ours could not be undone: the older turns wait behind it
            # a service found down: older turns' events there wait too (an older write to one
            # of them must not be judged before the newer one is undone); the others go on
            down |= report.down_services
        return reports
