"""Importing an iCalendar file into any backend as one journaled change (CONTRACT section 8).

The file is read and checked in full first (`tools.ical.files.read_ics`); then a plan is made
against the calendar as it is: an event whose UID is already there is updated, not duplicated,
an unchanged one is left alone. The plan is what `--dry-run` prints, in words; applying it writes
each step through the backend under one journal turn, so `undo` takes the whole import back, and
a step that fails rolls back the steps before it: the calendar is never left half-imported.
"""
from __future__ import annotations

import base64
import hashlib
import uuid
from dataclasses import dataclass
from datetime import date, datetime

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
    """The writes that make the calendar hold the file's events, in order."""
    steps: list[Step] = []
    for item in series:
        event_id = backend_id(backend, item.uid)
        wanted = item.event.with_changes(id=event_id, calendar_id=calendar_id)
        current = backend.get_event(calendar_id, event_id)
        said = event_phrase(wanted, tz_name)
        if current is None:
            steps.append(Step("create", event_id, wanted, _fields(wanted), f"add {said}"))
        else:
            changed = _changed(current, wanted, PATCHABLE)
            if changed:
                steps.append(Step("update", event_id, wanted, changed, f"update {said}"))
        for original in item.excluded:
            occ_id = instance_id(event_id, original)
            occ = backend.get_event(calendar_id, occ_id) if current is not None else occ_id
            if occ is not None:
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
            existing = backend.get_event(calendar_id, occ_id) if current is not None else None
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


def apply_import(journal: Journal, calendar_id: str, steps: list[Step],
                 turn_id: str | None = None) -> str:
    """Write the steps as one journal turn (the one `undo` takes back); the turn id."""
    backend = journal.backend
    turn_id = turn_id or f"import-{uuid.uuid4().hex[:16]}"
    journal.open_turn(turn_id)
    for step in steps:
        current = backend.get_event(calendar_id, step.event_id) if step.kind != "create" else None
        base = current.version if current is not None else None
        entry = journal.begin(turn_id, 1, IMPORT_TOOL, calendar_id, step.event_id,
                              intent=Intent(IntentKind(step.kind), None if step.kind == "delete"
                                            else step.event), base_version=base)
        try:
            written: Event | None
            if step.kind == "create":
                written = backend.create_event(calendar_id, step.event, turn_id=turn_id)
            elif step.kind == "update":
                written = backend.patch_event(calendar_id, step.event_id,
                                              EventPatch(dict(step.fields)), if_match=base)
            else:
                backend.delete_event(calendar_id, step.event_id, if_match=base)
                written = None
        except Exception as exc:
            journal.abandon(entry, exc)
            report = journal.rollback(turn_id)
            why = person_message(exc, "import the file")
            raise ImportFailed(f"{step.words} failed ({why}); nothing was imported"
                               if report.complete else f"{step.words} failed ({why}); "
                               f"{report.summary()}", report) from exc
        journal.complete(entry, written)
    journal.close_turn(turn_id)
    return turn_id


__all__ = ["ImportFailed", "Step", "apply_import", "backend_id", "format_when", "plan_import"]
