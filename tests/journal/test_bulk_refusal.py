"""A bulk update refused part-way (someone else changed its second event just before the write)
leaves nothing of its own behind, on every backend: a backend without transactions (Google,
CalDAV) had already written the first item, and that write is undone; the other person's
change is kept."""
from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from conftest import PERSON_TZ, make_context

from tools.backends.base import CalendarBackend, EventPatch
from tools.calendar.events import Event
from tools.context import ToolCall
from tools.journal.journal import Journal
from tools.registry import ToolRegistry

LA = ZoneInfo(PERSON_TZ)


def test_a_bulk_update_refused_at_its_second_item_undoes_its_first(
        backend: CalendarBackend, journal: Journal, monkeypatch: Any) -> None:
    cal = backend.primary_calendar_id()
    made = []
    for n, title in enumerate(("Swim", "Piano", "Chess")):
        start = datetime(2026, 12, 1 + n, 17, tzinfo=LA)
        made.append(backend.create_event(cal, Event(id=backend.new_event_id(), title=title, start=start,
                                                     end=start + timedelta(hours=1), timezone=PERSON_TZ,
                                                     calendar_id=cal)))
    real = Journal.patch_events

    def edited_meanwhile(self: Journal, *args: Any, **kw: Any) -> Any:
        backend.patch_event(cal, made[1].id, EventPatch({"description": "moved by Sam on his phone"}))
        return real(self, *args, **kw)

    monkeypatch.setattr(Journal, "patch_events", edited_meanwhile)
    result = ToolRegistry(make_context(backend, journal)).run(ToolCall(
        "c1", "bulk_update_calendar_events",
        {"updates": [{"event_id": e.id, "title": e.title + " (new room)"} for e in made]}))
    assert result.is_error
    after = {e.id: backend.get_event(cal, e.id) for e in made}
    assert [after[e.id].title for e in made] == ["Swim", "Piano", "Chess"]  # type: ignore[union-attr]
    assert after[made[1].id].description == "moved by Sam on his phone"  # type: ignore[union-attr]
