"""Start-up recovery undoes unfinished turns newest first, as `undo` would: an event two of them
changed gets back what the older one found, not what the newer one found."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from conftest import PERSON_TZ

from assistant.services import build_services
from assistant.settings import load_settings
from tools.calendar.events import Event
from tools.context import ToolCall, ToolContext
from tools.registry import ToolRegistry

LA = ZoneInfo(PERSON_TZ)


def test_two_unfinished_turns_on_one_event_give_back_what_the_older_found(home: Path) -> None:
    with build_services(load_settings()) as services:
        event = services.backend.create_event(services.calendar_id, Event(
            id=services.backend.new_event_id(), title="Dinner", timezone=PERSON_TZ,
            start=datetime(2025, 10, 23, 18, tzinfo=LA), end=datetime(2025, 10, 23, 19, tzinfo=LA)))
        for turn, title in (("turn-older", "Dinner at Gran's"), ("turn-newer", "Dinner out")):
            context = ToolContext(backend=services.backend, journal=services.journal,
                                  calendar_id=services.calendar_id, timezone=PERSON_TZ,
                                  locations=services.locations, turn_id=turn)
            result = ToolRegistry(context).run(ToolCall("1", "update_calendar_event",
                                                        {"event_id": event.id, "title": title}))
            assert not result.is_error, result.text
            services.journal.keep_for_recovery(turn, "its process died")
    with build_services(load_settings()) as services:  # the next start
        back = services.backend.get_event(services.calendar_id, event.id)
        assert back is not None and back.title == "Dinner"
        assert all(r.clean for r in services.recovered), [r.summary() for r in services.recovered]
        assert [r.turn_id for r in services.recovered] == ["turn-newer", "turn-older"]
