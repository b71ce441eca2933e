"""The listing passes over a series that ended before its window without reading its row
(issue 25: a ten-year calendar keeps hundreds of finished series), and a series whose rule is
changed afterwards is expanded again: the end it remembers is keyed by the columns it follows
from (start, end, zone, all-day, rule), not by the series' id."""
from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from sqlalchemy import event as sa_event

from tools.backends.local import LocalBackend
from tools.calendar.events import Event

TZ_NAME = "America/Los_Angeles"
TZ = ZoneInfo(TZ_NAME)
START = datetime(2025, 1, 6, 17, tzinfo=TZ)
WINDOW = (datetime(2025, 10, 1, tzinfo=TZ), datetime(2025, 12, 1, tzinfo=TZ))


def _series(count: int) -> Event:
    return Event(id="swim", title="Swim class", start=START, end=START + timedelta(hours=1),
                 timezone=TZ_NAME, recurrence=(f"RRULE:FREQ=WEEKLY;COUNT={count}",))


def _rows_read(backend: LocalBackend) -> list[str]:
    """The ids whose full rows the next listing reads by key."""
    read: list[str] = []

    def capture(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if "events.id IN" in statement:
            read.extend(p for p in parameters if isinstance(p, str) and p not in ("primary", "confirmed"))

    sa_event.listen(backend.engine, "before_cursor_execute", capture)
    backend.list_events("primary", *WINDOW)
    sa_event.remove(backend.engine, "before_cursor_execute", capture)
    return read


def test_a_finished_series_is_passed_over_and_a_lengthened_one_listed_again(tmp_path: Path) -> None:
    backend = LocalBackend(tmp_path / "calendar.db", TZ_NAME)
    backend.upsert_event("primary", _series(5))  # January to February
    assert backend.list_events("primary", *WINDOW) == []
    assert "swim" not in _rows_read(backend)  # its end is known: its row is not read again
    backend.upsert_event("primary", _series(52))  # the whole year now
    listed = backend.list_events("primary", *WINDOW)
    assert listed and all(e.recurring_event_id == "swim" for e in listed)
    assert {e.start.month for e in listed} == {10, 11}
