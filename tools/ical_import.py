"""Importing an iCalendar file into any backend as one journaled change (CONTRACT section 8).

The file is read and checked in full first (`tools.ical.files.read_ics`); then a plan is made
against the calendar as it is, read in bulk (two `get_events`; on CalDAV one listing of the
collection's UIDs, never a UID search per event): an event whose UID is already there is
updated, not duplicated, an unchanged one is left alone. The plan is what `--dry-run` prints, in
words; applying it writes under one journal turn, so `undo` takes the whole import back: the
creates in chunks (`CHUNK`), each chunk's entries and rows written together
(`Journal.create_events`), then the updates and deletes one by one. A write that fails rolls
back everything before it, and an interrupted import is rolled back at the next start: the
calendar is never left half-imported.
"""
from __future__ import annotations

import base64
import hashlib
import uuid
from dataclasses import dataclass
from datetime import date, datetime
from typing import NoReturn

from tools.backends.base import CalendarBackend, CalendarError, EventPatch
from tools.backends.errors import person_message
from tools.calendar.events import Event, format_when
from tools.calendar.occurrences import instance_id
from tools.calendar.patching import PATCHABLE
from tools.ical.files import FileSeries
from tools.journal.changes import event_phrase
from tools.journal.entries import Intent, IntentKind
from tools.journal.journal import IMPORTED_BY, Journal, RollbackReport

IMPORT_TOOL = IMPORTED_BY
"""The journal's name for the writes of an import (shown nowhere a person reads; a rollback of
them is summed up as "removed N imported events")."""


@dataclass(frozen=True)
class Step:
    """One write of an import: create, update or delete `event_id` so it reads as `event`."""

    kind: str  # "create" | "update" | "delete"
    event_id: str
    event: Event
    fields: dict[str, object]
    words: str


def backend_id(backend: CalendarBackend, uid: str) -> str:
    """The event id a file's UID is stored under: the UID itself where the backend takes it,
    else one derived from it (the same every time, so importing again updates)."""
    if backend.id_problem(uid) is None:
        return uid
    digest = hashlib.sha256(uid.encode()).digest()[:20]
    return base64.b32hexencode(digest).decode().lower().rstrip("=")


def _fields(event: Event) -> dict[str, object]:
    contract = event.to_contract()
    return {name: contract.get(name) for name in PATCHABLE}  # absent: the default (reminders)


def _changed(current: Event, wanted: Event, names: tuple[str, ...]) -> dict[str, object]:
    have, want = current.to_contract(), wanted.to_contract()
    return {name: want.get(name) for name in names if have.get(name) != want.get(name)}


def plan_import(backend: CalendarBackend, calendar_id: str, series: list[FileSeries],
                tz_name: str) -> list[Step]:
    """The writes that make the calendar hold the file's events, in order.

    The calendar is read in two bulk reads (`get_events`), not one read per event: the file's
    events, then the occurrences they change of the ones already there. A backend reads them
    at once (local: two queries; CalDAV: one listing of the collection), where a read per
    event on CalDAV was a UID search of the whole collection for each (quadratic)."""
    ids = [backend_id(backend, item.uid) for item in series]
    currents = backend.get_events(calendar_id, ids) if ids else []
    occurrence_ids = [instance_id(event_id, original)
                      for item, event_id, current in zip(series, ids, currents, strict=True)
                      if current is not None
                      for original in [*item.excluded,
                                       *(o.original_start for o in item.overrides
                                         if o.original_start is not None)]]
    found = dict(zip(occurrence_ids, backend.get_events(calendar_id, occurrence_ids),
                     strict=True)) if occurrence_ids else {}
    steps: list[Step] = []
    for item, event_id, current in zip(series, ids, currents, strict=True):
        wanted = item.event.with_changes(id=event_id, calendar_id=calendar_id)
        said = event_phrase(wanted, tz_name)
        if current is None:
            steps.append(Step("create", event_id, wanted, _fields(wanted), f"add {said}"))
        else:
            changed = _changed(current, wanted, PATCHABLE)
            if changed:
                steps.append(Step("update", event_id, wanted, changed, f"update {said}"))
        for original in item.excluded:
            occ_id = instance_id(event_id, original)
            if current is None or found.get(occ_id) is not None:
                steps.append(Step("delete", occ_id, wanted, {},
                                  f"leave out {item.event.title!r} on {_day(original, tz_name)}"))
        for override in item.overrides:
            assert override.original_start is not None
            original = override.original_start
            occ_id = instance_id(event_id, original)
            occ_event = override.with_changes(id=occ_id, calendar_id=calendar_id,
                                              recurring_event_id=event_id)
            when = _day(original, tz_name)
            if override.status == "cancelled":
                steps.append(Step("delete", occ_id, occ_event, {},
                                  f"leave out {item.event.title!r} on {when}"))
                continue
            names = tuple(n for n in PATCHABLE if n != "recurrence")
            existing = found.get(occ_id) if current is not None else None
            changed = _changed(existing, occ_event, names) if existing is not None else \
                {n: v for n, v in _fields(occ_event).items() if n != "recurrence"}
            if current is None or changed:
                steps.append(Step("update", occ_id, occ_event, changed,
                                  f"change {item.event.title!r} on {when} to "
                                  f"{event_phrase(occ_event, tz_name)}"))
    return steps


def _day(original: date | datetime, tz_name: str) -> str:
    from tools.calendar.events import zone

    if isinstance(original, datetime):
        local = original.astimezone(zone(tz_name))
        return f"{local:%A, %B} {local.day} at {local:%H:%M}"
    return f"{original:%A, %B} {original.day}"


class ImportFailed(CalendarError):
    """A step of the import failed; the steps before it were rolled back."""

    def __init__(self, message: str, report: RollbackReport) -> None:
        super().__init__(message)
        self.report = report


CHUNK = 250
"""Creates an import writes, and journals, in one go: one statement of entries and one of rows
per chunk instead of three transactions per event, while a chunk's entries stay a bounded
batch (a 100,000-event file is 400 chunks, never one giant transaction)."""


def apply_import(journal: Journal, calendar_id: str, steps: list[Step],
                 turn_id: str | None = None, *, chunk: int = CHUNK) -> str:
    """Write the steps as one journal turn (the one `undo` takes back); the turn id.

    The creates go first, `chunk` at a time through `Journal.create_events` (a series is
    always created before its occurrences are changed, so the order within each event holds);
    the updates and deletes follow one by one, each read at its current version and written
    under it. A failing write rolls back the whole turn, chunks before it included."""
    turn_id = turn_id or f"import-{uuid.uuid4().hex[:16]}"
    journal.open_turn(turn_id)
    creates = [step for step in steps if step.kind == "create"]
    for start in range(0, len(creates), max(1, chunk)):
        run = creates[start:start + max(1, chunk)]
        try:
            journal.create_events(turn_id, 1, IMPORT_TOOL, calendar_id, [s.event for s in run])
        except Exception as exc:
            named = getattr(exc, "event_id", None)
            failed = next((s for s in run if s.event_id == named), None)
            _failed(journal, turn_id, exc, failed.words if failed is not None else
                    run[0].words if len(run) == 1 else f"adding {len(run):,} events")
    for step in steps:
        if step.kind != "create":
            _write_one(journal, calendar_id, turn_id, step)
    journal.close_turn(turn_id)
    return turn_id


def _write_one(journal: Journal, calendar_id: str, turn_id: str, step: Step) -> None:
    """One update or delete, journaled around it, under the version read just before."""
    backend = journal.backend
    current = backend.get_event(calendar_id, step.event_id)
    base = current.version if current is not None else None
    entry = journal.begin(turn_id, 1, IMPORT_TOOL, calendar_id, step.event_id,
                          intent=Intent(IntentKind(step.kind), None if step.kind == "delete"
                                        else step.event), base_version=base)
    try:
        written: Event | None
        if step.kind == "update":
            written = backend.patch_event(calendar_id, step.event_id,
                                          EventPatch(dict(step.fields)), if_match=base)
        else:
            backend.delete_event(calendar_id, step.event_id, if_match=base)
            written = None
    except Exception as exc:
        journal.abandon(entry, exc)
        _failed(journal, turn_id, exc, step.words)
    journal.complete(entry, written)


def _failed(journal: Journal, turn_id: str, exc: Exception, words: str) -> NoReturn:
    """Roll the whole import back and say so: `words` (what was being written) failed."""
    report = journal.rollback(turn_id)
    why = person_message(exc, "import the file")
    raise ImportFailed(f"{words} failed ({why}); nothing was imported" if report.complete
                       else f"{words} failed ({why}); {report.summary()}", report) from exc


__all__ = ["CHUNK", "ImportFailed", "Step", "apply_import", "backend_id", "format_when", "plan_import"]
