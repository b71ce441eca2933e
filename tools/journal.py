"""The snapshot journal: what a turn changed, written down before it changed it.

Before a guarded write runs, its pre-image (or "did not exist") is committed with the turn and
attempt ids; after it runs, the post-image and its version. That ordering is what makes rollback
exact and durable: a process killed between the write and its rollback leaves an open turn whose
entries say what to put back, and `recover()` on the next start does it.

Rolling back walks the turn's entries in reverse. Each event is restored once, to the pre-image of
the first write that touched it, and only if its current version is still the one our last write
left; otherwise someone else changed it since, and their change is kept and reported.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import select
from sqlmodel import Field, Session, SQLModel

from tools.backend import CalendarBackend, CalendarError, Snapshot, VersionConflict
from tools.events import Event, event_from_contract
from tools.store import ensure_tables


def _now() -> datetime:
    return datetime.now(timezone.utc)


class JournalTurn(SQLModel, table=True):
    __tablename__ = "journal_turns"
    turn_id: str = Field(primary_key=True)
    backend: str = "local"
    state: str = "open"  # open | committed | rolled_back
    started_at: datetime = Field(default_factory=_now)
    closed_at: datetime | None = None


class JournalEntry(SQLModel, table=True):
    __tablename__ = "journal_entries"
    id: int | None = Field(default=None, primary_key=True)
    turn_id: str = Field(index=True)
    attempt: int = 1
    tool: str
    calendar_id: str
    event_id: str
    pre: str  # Snapshot JSON
    pre_event: str | None = None  # contract JSON of the event before, for cards
    post: str | None = None
    post_version: str | None = None
    post_event: str | None = None
    state: str = "pending"  # pending | done | noop | rolled_back | conflict | failed
    created_at: datetime = Field(default_factory=_now)


@dataclass
class RestoredEvent:
    event_id: str
    before: Event | None  # what our write had left
    after: Event | None   # what is there again now


@dataclass
class Conflict:
    event_id: str
    message: str


@dataclass
class RollbackReport:
    turn_id: str
    restored: list[RestoredEvent] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    failures: list[Conflict] = field(default_factory=list)

    @property
    def restored_ids(self) -> list[str]:
        return [r.event_id for r in self.restored]

    @property
    def clean(self) -> bool:
        return not self.conflicts and not self.failures

    def summary(self) -> str:
        parts = []
        if self.restored:
            parts.append("restored " + ", ".join(self.restored_ids))
        for c in self.conflicts + self.failures:
            parts.append(c.message)
        return "; ".join(parts) or "nothing to restore"


def _event_json(event: Event | None) -> str | None:
    return json.dumps(event.to_contract()) if event else None


def _event_from(text: str | None, calendar_id: str) -> Event | None:
    if not text:
        return None
    data = json.loads(text)
    return event_from_contract(data, data.get("timezone") or "UTC", calendar_id)


class Journal:
    """Durable pre/post images of guarded writes, and their exact undo."""

    def __init__(self, engine: Any, backend: CalendarBackend) -> None:
        self.engine = engine
        self.backend = backend
        ensure_tables(engine, JournalTurn, JournalEntry)

    # ------------------------------------------------------------ turns
    def open_turn(self, turn_id: str) -> None:
        with Session(self.engine) as session:
            if session.get(JournalTurn, turn_id) is None:
                session.add(JournalTurn(turn_id=turn_id, backend=self.backend.name))
                session.commit()

    def close_turn(self, turn_id: str, state: str = "committed") -> None:
        with Session(self.engine) as session:
            turn = session.get(JournalTurn, turn_id)
            if turn is not None:
                turn.state = state
                turn.closed_at = _now()
                session.commit()

    def open_turns(self) -> list[str]:
        with Session(self.engine) as session:
            rows = session.exec(select(JournalTurn.turn_id).where(  # type: ignore[call-overload]
                JournalTurn.state == "open", JournalTurn.backend == self.backend.name)).all()
            return [r[0] for r in rows]

    def last_committed_turn(self) -> str | None:
        """The newest turn whose changes still stand (the one `undo` takes back)."""
        with Session(self.engine) as session:
            rows = session.exec(select(JournalTurn.turn_id).where(  # type: ignore[call-overload]
                JournalTurn.state == "committed", JournalTurn.backend == self.backend.name
            ).order_by(JournalTurn.closed_at.desc())).all()  # type: ignore[union-attr]
            for (turn_id,) in rows:
                if self.entries(turn_id, states=("done", "pending")):
                    return turn_id
            return None

    # ------------------------------------------------------------ writes
    def begin(self, turn_id: str, attempt: int, tool: str, calendar_id: str, event_id: str) -> int:
        """Commit the pre-image before the write; returns the entry id for `complete`."""
        self.open_turn(turn_id)
        pre = self.backend.snapshot(calendar_id, event_id)
        pre_event = self.backend.get_event(calendar_id, event_id) if pre.exists else None
        with Session(self.engine) as session:
            entry = JournalEntry(turn_id=turn_id, attempt=attempt, tool=tool,
                                 calendar_id=calendar_id, event_id=event_id,
                                 pre=json.dumps(pre.to_json()), pre_event=_event_json(pre_event))
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
            entry.post = json.dumps(post.to_json())
            entry.post_version = post.version
            entry.post_event = _event_json(post_event)
            entry.state = "done"
            session.commit()

    def abandon(self, entry_id: int) -> None:
        """The write failed: keep the entry pending unless the event is provably untouched."""
        with Session(self.engine) as session:
            entry = session.get(JournalEntry, entry_id)
            assert entry is not None
            pre = Snapshot.from_json(json.loads(entry.pre))
            current = self.backend.snapshot(entry.calendar_id, entry.event_id)
            if CalendarBackend.same_content(pre, current) and pre.version == current.version:
                entry.state = "noop"
                session.commit()

    def entries(self, turn_id: str, attempt: int | None = None,
                states: tuple[str, ...] = ("pending", "done"),
                ids: list[int] | None = None) -> list[JournalEntry]:
        with Session(self.engine) as session:
            stmt = select(JournalEntry).where(JournalEntry.turn_id == turn_id,
                                              JournalEntry.state.in_(states))  # type: ignore[attr-defined]
            if ids is not None:
                stmt = stmt.where(JournalEntry.id.in_(ids))  # type: ignore[union-attr]
            if attempt is not None:
                stmt = stmt.where(JournalEntry.attempt == attempt)
            rows = session.exec(stmt.order_by(JournalEntry.id)).scalars().all()  # type: ignore[call-overload]
            session.expunge_all()
            return list(rows)

    # ------------------------------------------------------------ rollback
    def rollback(self, turn_id: str, attempt: int | None = None) -> RollbackReport:
        """Undo the turn's (or one attempt's) writes, newest first, touching nothing else."""
        report = self.rollback_entries(turn_id, self.entries(turn_id, attempt))
        if attempt is None:
            self.close_turn(turn_id, "rolled_back")
        return report

    def rollback_entries(self, turn_id: str, entries: list[JournalEntry]) -> RollbackReport:
        """Undo exactly these entries (a whole turn, one attempt, or one failed bulk call)."""
        report = RollbackReport(turn_id)
        by_event: dict[tuple[str, str], list[JournalEntry]] = {}
        for entry in entries:
            by_event.setdefault((entry.calendar_id, entry.event_id), []).append(entry)
        order = sorted(by_event.items(), key=lambda kv: kv[1][-1].id or 0, reverse=True)
        for (calendar_id, event_id), group in order:
            first, last = group[0], group[-1]
            pre = Snapshot.from_json(json.loads(first.pre))
            outcome = self._undo_event(calendar_id, event_id, pre, last)
            state = {"restored": "rolled_back", "noop": "rolled_back",
                     "conflict": "conflict", "failed": "failed"}[outcome[0]]
            self._mark([e.id for e in group if e.id is not None], state)
            if outcome[0] == "restored":
                report.restored.append(RestoredEvent(
                    event_id, _event_from(last.post_event, calendar_id),
                    _event_from(first.pre_event, calendar_id)))
            elif outcome[0] == "conflict":
                report.conflicts.append(Conflict(event_id, outcome[1]))
            elif outcome[0] == "failed":
                report.failures.append(Conflict(event_id, outcome[1]))
        return report

    def _undo_event(self, calendar_id: str, event_id: str, pre: Snapshot,
                    last: JournalEntry) -> tuple[str, str]:
        current = self.backend.snapshot(calendar_id, event_id)
        if last.state == "pending":
            # The process died (or the call failed) between pre-image and post-image.
            if CalendarBackend.same_content(pre, current):
                return ("noop", "")
            expected = current.version
        else:
            expected = last.post_version
            if current.version != expected:
                post = Snapshot.from_json(json.loads(last.post)) if last.post else None
                if post is None or not CalendarBackend.same_content(post, current):
                    return ("conflict", f"{event_id} was changed by someone else after this turn; "
                                        "their change was kept")
                # Same content under a new version: a server-side stamp (Google re-tags an
                # occurrence when its series is restored), not someone else's change.
                expected = current.version
        try:
            back = self.backend.restore(pre, expected_version=expected)
        except VersionConflict:
            return ("conflict", f"{event_id} was changed by someone else during the rollback; "
                                "their change was kept")
        except CalendarError as exc:
            return ("failed", f"{event_id} could not be restored: {exc}")
        if not CalendarBackend.same_content(pre, back):
            return ("failed", f"{event_id} was restored but does not read back as it was")
        return ("restored", "")

    def _mark(self, ids: list[int], state: str) -> None:
        # plain sqlite3, not the ORM: this runs once per restored event of a rollback
        with self.engine.connect() as conn:
            raw = conn.connection.dbapi_connection
            raw.execute(f"UPDATE journal_entries SET state = ? WHERE id IN ({', '.join('?' * len(ids))})",
                        (state, *ids))
            raw.commit()

    def undo_last(self) -> RollbackReport | None:
        """Roll back the newest turn whose changes still stand (None when there is none)."""
        turn = self.last_committed_turn()
        return self.rollback(turn) if turn else None

    def recover(self) -> list[RollbackReport]:
        """Roll back every turn a killed process left open (run at start-up)."""
        return [self.rollback(turn_id) for turn_id in self.open_turns()]
