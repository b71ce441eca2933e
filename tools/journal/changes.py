"""The person's list of recent changes: what each request changed, undo of any that still
stands, and redo of one the person undid, all in words (titles and times, never ids).

Why a module of its own next to the journal: the journal records writes for the guard and for
start-up recovery; this module reads that record as a history a person browses, using only the
journal's public methods and tables. A person's undo is written down here (`UndoRecord`: which
entries it took back) so a redo re-applies exactly those, and never a write the guard rolled
back or recovery undid. A redo is journaled as a turn of its own, so undo takes it back again.

Entries are read through `tools.journal.entries` (typed: `Entry`, `Intent`); no JSON here.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Literal

from sqlalchemy import select
from sqlmodel import Field, Session, SQLModel, col
from sqlmodel import select as select_rows

from tools.backends.base import CalendarError, VersionConflict
from tools.calendar.events import Event, zone
from tools.calendar.wording import clock_label, day_label, event_repeats
from tools.calendar.wording import event_phrase as _one_event_phrase
from tools.journal.entries import (
    Entry,
    Intent,
    JournalEntry,
    JournalTurn,
    Unreadable,
    entry_ids_text,
    read_entry_ids,
)
from tools.journal.journal import Conflict, Journal, RestoredEvent, RollbackReport, restored_noun

Action = Literal["added", "changed", "removed"]

LISTED = 10
"""A change or an undo of more events than this is reported as counts ("Removed 6,688 imported
events"), not one line per event: a 100,000-event import must not become a 237 KB sentence."""

_COUNT_VERBS: dict[str, str] = {"added": "Added", "changed": "Changed", "removed": "Removed",
                                "added back": "Added back", "put back": "Put back"}


def counted(kinds: list[str], noun: str = "event") -> list[str]:
    """Many events as one line per kind of change, in the order first seen: `Removed 6,688
    events`, `Changed 2 events`."""
    tally: dict[str, int] = {}
    for kind in kinds:
        tally[kind] = tally.get(kind, 0) + 1
    return [f"{_COUNT_VERBS.get(kind, kind.capitalize())} {n:,} {noun}{'s' if n != 1 else ''}"
            for kind, n in tally.items()]


class UndoRecord(SQLModel, table=True):
    """One undo the person asked for: the entries it took back, and the redo turn, if any."""

    __tablename__ = "undo_records"
    turn_id: str = Field(primary_key=True)
    entry_ids: str  # the journal entries this undo rolled back (`entries.entry_ids_text`)
    undone_at: datetime = Field(default_factory=lambda: datetime.now(UTC))
    redone_as: str | None = None


@dataclass(frozen=True)
class EventChange:
    """One event of a change: before and after (None: it did not exist / no longer does)."""

    before: Event | None
    after: Event | None
    calendar_id: str = ""  # the calendar the event is on (whose, with several calendars)

    @property
    def action(self) -> Action:
        if self.before is None:
            return "added"
        if self.after is None:
            return "removed"
        return "changed"

    def words(self, tz_name: str) -> str:
        """`Added 'Dentist' on Monday, October 27 at 3:00 PM`, `Moved 'Swim lesson' from ... to ...`."""
        if self.after is None:
            assert self.before is not None
            return "Removed " + event_phrase(self.before, tz_name)
        if self.before is None:
            return "Added " + event_phrase(self.after, tz_name)
        was, now = event_phrase(self.before, tz_name), event_phrase(self.after, tz_name)
        if was == now:
            return "Changed " + now
        if self.before.title == self.after.title and " on " in was and " on " in now:
            title, old = was.split(" on ", 1)
            return f"Moved {title} from {old} to {now.split(' on ', 1)[1]}"
        return f"Changed {was} → {now}"


@dataclass(frozen=True)
class Change:
    """One request's changes as the person browses them."""

    turn_id: str
    when: datetime | None
    state: Literal["standing", "undone"]
    events: tuple[EventChange, ...]
    redoable: bool = False

    @property
    def undoable(self) -> bool:
        return self.state == "standing"

    def headline(self, tz_name: str) -> str:
        """`Tuesday, October 21, 9:15 AM · 2 changes (undone)`."""
        stamp = ""
        if self.when is not None:
            moment = (self.when if self.when.tzinfo else self.when.replace(tzinfo=UTC))
            local = moment.astimezone(zone(tz_name))
            stamp = f"{day_label(local.date())}, {clock_label(local)} · "
        count = len(self.events)
        state = " (undone)" if self.state == "undone" else ""
        return f"{stamp}{count} change{'s' if count != 1 else ''}{state}"

    def lines(self, tz_name: str) -> list[str]:
        """One sentence per event; a big change (an import) is counted instead, so a list of
        recent changes never grows to thousands of lines."""
        if len(self.events) > LISTED:
            return counted([e.action for e in self.events])
        return [e.words(tz_name) for e in self.events]


@dataclass
class RedoReport:
    """What a redo put back (as RestoredEvent: wrong = what the undo had left) and what it kept."""

    turn_id: str
    restored: list[RestoredEvent] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.conflicts


def event_phrase(event: Event, tz_name: str) -> str:
    """`'Swim lesson' on Tuesday, October 21 at 5:00 PM`; a repeating event says its rule in
    words: `'Piano lesson' every Wednesday, from Wednesday, October 22 at 4:00 PM`."""
    said = _one_event_phrase(event, tz_name)
    if event.is_recurring_series:
        title = said.split(" (repeats", 1)[0].removeprefix("every ")
        first = _one_event_phrase(event.with_changes(recurrence=None), tz_name).split(" on ", 1)[-1]
        return f"{title} {event_repeats(event)}, from {first}"
    return said


def _grouped(entries: list[JournalEntry]) -> list[list[JournalEntry]]:
    """Entries per event, in the order the events were first touched."""
    groups: dict[tuple[str, str], list[JournalEntry]] = {}
    for entry in sorted(entries, key=lambda e: e.id or 0):
        groups.setdefault((entry.calendar_id, entry.event_id), []).append(entry)
    return list(groups.values())


def _ends(group: list[JournalEntry]) -> tuple[Entry, Entry] | None:
    """The first and last entry of one event's group, read back (None: one cannot be read; the
    rollback reports such an entry, the list of changes leaves it out)."""
    try:
        return Entry.read(group[0]), Entry.read(group[-1])
    except Unreadable:
        return None


def _event_changes(entries: list[JournalEntry]) -> tuple[EventChange, ...]:
    out = []
    for group in _grouped(entries):
        ends = _ends(group)
        if ends is None:
            continue
        first, last = ends
        after = None if last.deletes else last.post_event
        if first.pre_event is None and after is None:
            continue
        out.append(EventChange(first.pre_event, after, group[0].calendar_id))
    return tuple(out)


class Changes:
    """Recent changes of one journal, with undo and redo."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        journal.store.migrate("state")

    def _record(self, turn_id: str) -> UndoRecord | None:
        with Session(self.journal.engine, expire_on_commit=False) as session:
            row = session.get(UndoRecord, turn_id)
            if row is not None:
                session.expunge(row)
            return row

    def recent(self, limit: int = 10) -> list[Change]:
        """The newest requests that changed the calendar, newest first: those whose changes
        still stand, and those the person undid (redoable until redone)."""
        with Session(self.journal.engine, expire_on_commit=False) as session:
            turns = session.exec(select_rows(JournalTurn).where(
                col(JournalTurn.backend) == self.journal.backend.name,
                col(JournalTurn.state).in_(("committed", "rolled_back"))
            ).order_by(col(JournalTurn.closed_at).desc()).limit(limit * 4)).all()
            session.expunge_all()
        out: list[Change] = []
        for turn in turns:
            if turn.state == "committed":
                events = _event_changes(self.journal.entries(turn.turn_id))
                if events:
                    out.append(Change(turn.turn_id, turn.closed_at, "standing", events))
            else:
                record = self._record(turn.turn_id)
                if record is None:
                    continue  # undone by the guard or by recovery, not by the person
                ids = read_entry_ids(record.entry_ids)
                entries = self.journal.entries(turn.turn_id, states=("rolled_back",), ids=ids)
                events = _event_changes(entries)
                if events:
                    out.append(Change(turn.turn_id, record.undone_at, "undone", events,
                                      redoable=record.redone_as is None))
            if len(out) >= limit:
                break
        return out

    def standing(self, turn_id: str) -> Change | None:
        """One request's changes that still stand (what `undo` of it would take back), or None."""
        turn = self.journal.turn(turn_id)
        if turn is None or turn.state != "committed":
            return None
        events = _event_changes(self.journal.entries(turn_id))
        return Change(turn_id, turn.closed_at, "standing", events) if events else None

    def last_undoable(self) -> str | None:
        """The request `undo` would take back (None: nothing to undo)."""
        return self.journal.last_committed_turn()

    def last_redoable(self) -> str | None:
        """The request the person undid most recently and has not redone (None: nothing)."""
        with Session(self.journal.engine) as session:
            rows = session.exec(select(UndoRecord.turn_id).where(  # type: ignore[call-overload]
                UndoRecord.redone_as.is_(None)).order_by(  # type: ignore[union-attr]
                UndoRecord.undone_at.desc())).all()  # type: ignore[attr-defined]
        for (turn_id,) in rows:
            turn = self.journal.turn(str(turn_id))
            if turn is not None and turn.state == "rolled_back" and turn.backend == self.journal.backend.name:
                return str(turn_id)
        return None

    def undo(self, turn_id: str | None = None) -> RollbackReport | None:
        """Take back one request's changes (the newest standing one when `turn_id` is None).
        None when that request has nothing left to undo."""
        turn_id = turn_id or self.last_undoable()
        if turn_id is None:
            return None
        turn = self.journal.turn(turn_id)
        standing = self.journal.entries(turn_id)
        if turn is None or turn.state != "committed" or not standing:
            return None
        ids = [e.id for e in standing if e.id is not None]
        report = self.journal.rollback(turn_id)
        undone = [e.id for e in self.journal.entries(turn_id, states=("rolled_back",), ids=ids)
                  if e.id is not None]
        if undone:
            with Session(self.journal.engine) as session:
                row = session.get(UndoRecord, turn_id) or \
                    UndoRecord(turn_id=turn_id, entry_ids=entry_ids_text([]))
                row.entry_ids = entry_ids_text(undone)
                row.undone_at = datetime.now(UTC)
                row.redone_as = None
                session.add(row)
                session.commit()
        return report

    def redo(self, turn_id: str | None = None) -> RedoReport | None:
        """Put back what an undo took back (the newest undo when `turn_id` is None), as a new
        journaled request. An event changed since the undo is someone else's: kept, reported.
        None when there is nothing to redo."""
        turn_id = turn_id or self.last_redoable()
        record = self._record(turn_id) if turn_id else None
        if turn_id is None or record is None or record.redone_as is not None:
            return None
        ids = read_entry_ids(record.entry_ids)
        entries = self.journal.entries(turn_id, states=("rolled_back",), ids=ids)
        new_turn = f"redo-{uuid.uuid4().hex}"
        report = RedoReport(new_turn)
        backend = self.journal.backend
        for group in reversed(_grouped(entries)):
            ends = _ends(group)
            if ends is None:
                report.conflicts.append(Conflict(group[-1].event_id, "journal entry unreadable",
                                                 "one record of this change could not be read, so "
                                                 "that change was left as it is"))
                continue
            first, last = ends
            if last.post is None:
                continue
            pre, post = first.pre, last.post
            was = first.pre_event
            back = last.post_event if post.exists else None
            shown = back or was
            words = event_phrase(shown, shown.timezone) if shown is not None else "an event"
            try:
                current = backend.snapshot(last.calendar_id, last.event_id)
                if not backend.same_content(current, pre):
                    report.conflicts.append(Conflict(last.event_id, "changed since the undo", words
                                                     + " was changed after the undo, so it was kept"))
                    continue
                entry = self.journal.begin(new_turn, 1, "redo", last.calendar_id, last.event_id,
                                           intent=Intent.between(pre, post, back),
                                           base_version=current.version)
                try:
                    backend.restore(post, expected_version=current.version)
                except (VersionConflict, CalendarError) as exc:
                    self.journal.abandon(entry, exc)
                    raise
                self.journal.complete(entry, back)
            except VersionConflict:
                report.conflicts.append(Conflict(last.event_id, "changed during the redo",
                                                 words + " was changed meanwhile, so it was kept"))
                continue
            except CalendarError as exc:
                report.conflicts.append(Conflict(last.event_id, str(exc),
                                                 f"{words} could not be put back ({type(exc).__name__})"))
                continue
            report.restored.append(RestoredEvent(last.event_id, was if pre.exists else None, back))
        self.journal.close_turn(new_turn, "committed")
        with Session(self.journal.engine) as session:
            row = session.get(UndoRecord, turn_id)
            if row is not None:
                row.redone_as = new_turn
                session.commit()
        return report


def restored_words(restored: list[RestoredEvent], tz_name: str) -> list[str]:
    """What an undo or redo did to each event, one sentence each (`wrong` is what was there,
    `restored` what is there now): `Removed 'Dentist' on ...`, `Put 'Swim lesson' back on ...`."""
    out = []
    for item in restored:
        now, was = item.restored, item.wrong
        if now is None and was is not None:
            out.append("Removed " + event_phrase(was, tz_name))
        elif now is not None and was is None:
            out.append("Added back " + event_phrase(now, tz_name))
        elif now is not None and was is not None:
            before, after = event_phrase(was, tz_name), event_phrase(now, tz_name)
            if before == after:
                out.append("Brought back " + after)
            elif " on " in after and not now.is_recurring_series:
                out.append(f"Put {after.split(' on ', 1)[0]} back on {after.split(' on ', 1)[-1]}"
                           + (f" (it was {before.split(' on ', 1)[-1]})" if " on " in before else ""))
            else:  # a series says its rule, not one day: both phrases whole
                out.append(f"Put back {after} (it was {before})")
    return out


def _restored_kind(item: RestoredEvent) -> str:
    if item.restored is None:
        return "removed"
    return "added back" if item.wrong is None else "put back"


def rollback_words(report: RollbackReport | RedoReport, tz_name: str) -> list[str]:
    """Every line a person reads about an undo or a redo, conflicts included; more than
    `LISTED` events are counted (`Removed 6,688 imported events`), not listed one by one."""
    if len(report.restored) > LISTED:
        lines = counted([_restored_kind(r) for r in report.restored], restored_noun(report.restored))
    else:
        lines = restored_words(report.restored, tz_name)
    extra = report.conflicts + (report.failures + report.skipped
                                if isinstance(report, RollbackReport) else [])
    lines += [c.shown for c in extra[:LISTED]]
    if len(extra) > LISTED:
        lines.append(f"and {len(extra) - LISTED:,} more events could not be put back as they were")
    if isinstance(report, RollbackReport) and report.waiting:
        lines.append(f"{report.waiting} more {'change' if report.waiting == 1 else 'changes'} "
                     "will be undone at the next start")
    return lines or ["Nothing needed putting back."]
