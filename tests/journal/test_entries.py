"""Journal entries as typed values (tools/journal/entries.py), and the stored format they read.

Journals written before the typed entries existed hold the same columns and the same JSON: rows
written here the old way (raw JSON strings, exactly as `Journal.begin`/`complete` stored them)
are read back through `Entry` and rolled back on every backend, and what the journal writes now
is, text for text, what it wrote then (an older process sharing the store reads it too).
"""
from __future__ import annotations

import json
from dataclasses import asdict
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from tools.backends.base import CalendarBackend, EventPatch
from tools.calendar.events import Event
from tools.calendar.patching import apply_patch
from tools.journal.entries import (
    Entry,
    Intent,
    IntentKind,
    JournalEntry,
    Unreadable,
    owner_text,
    read_entry_ids,
    read_owner,
)
from tools.journal.journal import Journal
from tools.journal.turn_owner import Owner

LA = ZoneInfo("America/Los_Angeles")
OLD = datetime(2025, 10, 20, 8, 0, tzinfo=UTC)


def _dinner(backend: CalendarBackend) -> Event:
    cal = backend.primary_calendar_id()
    return backend.create_event(cal, Event(
        id=backend.new_event_id(), title="Dinner", start=datetime(2025, 10, 23, 18, tzinfo=LA),
        end=datetime(2025, 10, 23, 19, 30, tzinfo=LA), timezone="America/Los_Angeles",
        location="123 Maple St", attendees=("sam@example.com",), calendar_id=cal))


def _write_the_old_way(journal: Journal, turn_id: str, row: dict[str, Any]) -> None:
    """A turn and one entry inserted as plain SQL with the JSON as text, no journal code."""
    columns = {"turn_id": turn_id, "attempt": 1, "tool": "update_calendar_event",
               "post": None, "post_version": None, "post_event": None, "intent": None,
               "base_version": None, "state": "done", "created_at": OLD, **row}
    names = ", ".join(columns)
    with journal.store.engine.begin() as conn:
        conn.execute(text("INSERT INTO journal_turns (turn_id, backend, state, started_at, owner, "
                          "recovery_tries) VALUES (:t, :b, 'committed', :at, NULL, 0)"),
                     {"t": turn_id, "b": journal.backend.name, "at": OLD})
        conn.execute(text(f"INSERT INTO journal_entries ({names}) VALUES "
                          f"({', '.join(':' + n for n in columns)})"), columns)


def test_an_entry_stored_the_old_way_reads_back_as_types_and_rolls_back(backend, journal: Journal):
    cal = backend.primary_calendar_id()
    made = _dinner(backend)
    pre = backend.snapshot(cal, made.id)
    patch = EventPatch({"title": "Dinner out", "location": "Cafe Rio"})
    changed = backend.patch_event(cal, made.id, patch, if_match=made.version)
    post = backend.snapshot(cal, made.id)
    _write_the_old_way(journal, "old-done", {
        "calendar_id": cal, "event_id": made.id,
        "pre": json.dumps(pre.to_json()), "pre_event": json.dumps(made.to_contract()),
        "post": json.dumps(post.to_json()), "post_version": post.version,
        "post_event": json.dumps(changed.to_contract()),
        "intent": json.dumps({"kind": "update", "event": apply_patch(made, patch).to_contract()}),
        "base_version": made.version})

    [row] = journal.entries("old-done")
    entry = Entry.read(row)
    assert (entry.pre, entry.post, entry.post_version) == (pre, post, post.version)
    assert entry.pre_event is not None and entry.pre_event.to_contract() == made.to_contract()
    assert entry.post_event is not None and entry.post_event.to_contract() == changed.to_contract()
    assert entry.intent is not None and entry.intent.kind is IntentKind.UPDATE
    assert entry.intent.event is not None and entry.intent.event.title == "Dinner out"
    assert not entry.deletes and entry.state == "done" and entry.base_version == made.version

    report = journal.rollback("old-done")
    assert report.clean and report.restored_ids == [made.id], report.summary()
    back = backend.get_event(cal, made.id)
    assert back is not None and (back.title, back.location) == ("Dinner", "123 Maple St")
    assert "put back 'Dinner'" in report.summary()


def test_a_pending_entry_stored_the_old_way_is_recognised_by_its_intent(backend, journal: Journal):
    """Killed between the write and its post-image: only the old intent's JSON, read back as an
    `Intent`, shows the event reads as our write meant to leave it (so it is ours to undo)."""
    cal = backend.primary_calendar_id()
    made = _dinner(backend)
    pre = backend.snapshot(cal, made.id)
    patch = EventPatch({"title": "Dinner out"})
    backend.patch_event(cal, made.id, patch, if_match=made.version)
    _write_the_old_way(journal, "old-pending", {
        "calendar_id": cal, "event_id": made.id, "state": "pending",
        "pre": json.dumps(pre.to_json()), "pre_event": json.dumps(made.to_contract()),
        "intent": json.dumps({"kind": "update", "event": apply_patch(made, patch).to_contract()})})

    report = journal.rollback("old-pending")
    assert report.clean and report.restored_ids == [made.id], report.summary()
    back = backend.get_event(cal, made.id)
    assert back is not None and back.title == "Dinner"


def test_what_the_journal_writes_is_the_json_it_always_wrote(backend, journal: Journal):
    cal = backend.primary_calendar_id()
    made = _dinner(backend)
    pre, before = backend.snapshot(cal, made.id), backend.get_event(cal, made.id)
    assert before is not None
    meant = apply_patch(made, EventPatch({"title": "Dinner out"}))
    entry_id = journal.begin("t-new", 1, "update_calendar_event", cal, made.id,
                             intent=Intent.update(meant), base_version=made.version)
    written = backend.patch_event(cal, made.id, EventPatch({"title": "Dinner out"}))
    journal.complete(entry_id, written)
    post = backend.snapshot(cal, made.id)

    [row] = journal.entries("t-new")
    assert row.pre == json.dumps(pre.to_json())
    assert row.pre_event == json.dumps(before.to_contract())
    assert row.intent == json.dumps({"kind": "update", "event": meant.to_contract()})
    assert (row.post, row.post_version) == (json.dumps(post.to_json()), post.version)
    assert row.post_event == json.dumps(written.to_contract())
    turn = journal.turn("t-new")
    assert turn is not None and turn.owner == json.dumps(asdict(journal.owner), sort_keys=True)


def test_a_bulk_update_writes_the_json_it_always_wrote(backend, journal: Journal):
    """A bulk update's entries, recorded whole (pre- and post-image at once, the event after
    serialized once for both the intent and the event after), hold the very texts `begin` and
    `complete` write, and read back as the same types."""
    from conftest import make_context

    from tools.context import ToolCall
    from tools.registry import ToolRegistry

    cal = backend.primary_calendar_id()
    made = [_dinner(backend), _dinner(backend)]
    pres = [backend.snapshot(cal, e.id) for e in made]
    befores = [backend.get_event(cal, e.id) for e in made]
    patches = [{"title": "Dinner out"}, {"description": "bring wine", "location": "Cafe Rio"}]
    result = ToolRegistry(make_context(backend, journal, "t-bulk")).run(ToolCall(
        "b", "bulk_update_calendar_events",
        {"updates": [{"event_id": e.id, **p} for e, p in zip(made, patches, strict=True)]}))
    assert not result.is_error, result.text

    rows = journal.entries("t-bulk")
    assert [r.event_id for r in rows] == [e.id for e in made]
    for row, pre, before, patch in zip(rows, pres, befores, patches, strict=True):
        assert before is not None
        post, after = backend.snapshot(cal, row.event_id), backend.get_event(cal, row.event_id)
        assert after is not None
        meant = apply_patch(before, EventPatch(patch))
        assert row.state == "done"
        assert row.pre == json.dumps(pre.to_json())
        assert row.pre_event == json.dumps(before.to_contract())
        assert row.intent == json.dumps({"kind": "update", "event": meant.to_contract()})
        assert (row.post, row.post_version) == (json.dumps(post.to_json()), post.version)
        assert row.post_event == json.dumps(after.to_contract())
        assert row.base_version == before.version
        entry = Entry.read(row)
        assert entry.intent == Intent.update(Entry.read(row).post_event)
        assert entry.post_event is not None and entry.post_event.to_contract() == after.to_contract()


def test_an_intent_that_is_not_the_event_after_is_read_on_its_own() -> None:
    """The intent is read from its own text, not taken for the event after, whenever the two
    texts differ (a delete's intent, or an update whose outcome was not the event after)."""
    after = '{"id": "ev1", "title": "Dinner out", "start": "2025-10-23T18:00:00-07:00"}'
    meant = '{"id": "ev1", "title": "Dinner in", "start": "2025-10-23T18:00:00-07:00"}'
    entry = Entry.read(_row(post_event=after, intent='{"kind": "update", "event": ' + meant + '}'))
    assert entry.post_event is not None and entry.post_event.title == "Dinner out"
    assert entry.intent is not None and entry.intent.event is not None
    assert entry.intent.event.title == "Dinner in"
    entry = Entry.read(_row(post_event=after, intent='{"kind": "delete", "event": ' + after + '}'))
    assert entry.intent is not None and entry.intent.kind is IntentKind.DELETE


# ----------------------------------------------------------------------------- the values alone
def _row(**columns: Any) -> JournalEntry:
    base = {"id": 1, "turn_id": "t", "tool": "update_calendar_event", "calendar_id": "primary",
            "event_id": "ev1", "pre": '{"calendar_id": "primary", "event_id": "ev1", "record": null, '
            '"version": null}'}
    return JournalEntry(**{**base, **columns})


def test_an_entry_from_before_intents_has_none() -> None:
    entry = Entry.read(_row())
    assert entry.intent is None and entry.pre_event is None and entry.post is None
    assert not entry.pre.exists and not entry.deletes


@pytest.mark.parametrize("column, value, named", [
    ("pre", "{not json", "pre-image"),
    ("pre", '{"record": null}', "pre-image"),
    ("post", "[1, 2]", "post-image"),
    ("pre_event", '{"title": "no start"}', "event before"),
    ("post_event", '"a string"', "event after"),
    ("intent", '{"kind": "move", "event": null}', "intent"),
    ("intent", '["update"]', "intent"),
    ("intent", '{"kind": "update", "event": {"title": "no start"}}', "intent event"),
])
def test_text_that_cannot_be_read_is_unreadable_and_says_where(column: str, value: str,
                                                               named: str) -> None:
    with pytest.raises(Unreadable, match=named):
        Entry.read(_row(**{column: value}))


def test_a_delete_intent_round_trips_and_says_it_deletes() -> None:
    stored = Intent.delete().to_text()
    assert stored == '{"kind": "delete", "event": null}'
    entry = Entry.read(_row(intent=stored))
    assert entry.intent == Intent(IntentKind.DELETE) and entry.deletes


def test_owners_and_undo_records_keep_their_text() -> None:
    owner = Owner("laptop", "b00t", 4242, "1234")
    stored = owner_text(owner)
    assert stored == '{"boot": "b00t", "host": "laptop", "pid": 4242, "started": "1234"}'
    assert read_owner(stored) == owner
    assert read_owner(None) is None and read_owner("{not json") is None
    assert read_entry_ids("[3, 5]") == [3, 5]
    with pytest.raises(Unreadable):
        read_entry_ids('{"ids": 1}')
