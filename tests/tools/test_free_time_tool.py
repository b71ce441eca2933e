"""`find_free_time` on every backend (local, and the Google client against the fake server's
freeBusy endpoint): busy time from every chosen calendar, each event read in its own zone, daily
hours, and a calendar that could not be read named in the answer, never counted as free."""
from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

from conftest import PERSON_TZ, make_context
from google_support import fake_google_backend

from tools.backends.base import CalendarBackend, CalendarError
from tools.backends.local import LocalBackend
from tools.calendar.events import Event, zone
from tools.context import ToolCall, ToolResult
from tools.registry import ToolRegistry

LA = zone(PERSON_TZ)
FRIDAY = "2025-10-24"


def add(backend: CalendarBackend, title: str, start: datetime | date, end: datetime | date,
        calendar_id: str | None = None, tz: str = PERSON_TZ) -> Event:
    cal = calendar_id or backend.primary_calendar_id()
    event = Event(id=backend.new_event_id(), title=title, start=start, end=end,
                  all_day=not isinstance(start, datetime), timezone=tz, calendar_id=cal)
    return backend.create_event(cal, event)


def second_calendar(backend: CalendarBackend, name: str = "Kids") -> str:
    """A second calendar the backend can read (on Google, one the fake server holds)."""
    server = getattr(backend, "fake_server", None)
    if server is not None:
        server.add_calendar("kids@example.test", name, PERSON_TZ)
        return "kids@example.test"
    return backend.add_calendar("kids", name, PERSON_TZ).id


def find(backend: CalendarBackend, **args: Any) -> ToolResult:
    call = ToolCall("t1", "find_free_time", {"start": f"{FRIDAY}T09:00:00-07:00",
                                             "end": f"{FRIDAY}T17:00:00-07:00",
                                             "duration_minutes": 60, **args})
    return ToolRegistry(make_context(backend, None)).run(call)


def slots(result: ToolResult) -> list[tuple[str, str]]:
    assert not result.is_error, result.text
    return [(s["start"], s["end"]) for s in result.data["slots"]]


def t(hh: int, mm: int = 0, day: int = 24) -> datetime:
    return datetime(2025, 10, day, hh, mm, tzinfo=LA)


def test_events_block_their_time_and_touching_ones_merge(backend: CalendarBackend) -> None:
    add(backend, "Dentist", t(10), t(11))
    add(backend, "School run", t(11), t(11, 30))       # touches the dentist: one busy stretch
    add(backend, "Lunch with Sam", t(12, 15), t(13))   # leaves a 45-minute gap: too short
    result = find(backend)
    assert slots(result) == [("2025-10-24T09:00:00-07:00", "2025-10-24T10:00:00-07:00"),
                             ("2025-10-24T13:00:00-07:00", "2025-10-24T17:00:00-07:00")]
    assert "Fri 2025-10-24 13:00-17:00 (4 h)" in result.text
    assert result.data["unreadable"] == []


def test_an_event_in_another_zone_blocks_its_own_instant(backend: CalendarBackend) -> None:
    """A 15:00 New York call is 12:00 in Los Angeles."""
    ny = zone("America/New_York")
    add(backend, "Call with Gran", datetime(2025, 10, 24, 15, tzinfo=ny),
        datetime(2025, 10, 24, 16, tzinfo=ny), tz="America/New_York")
    assert slots(find(backend)) == [("2025-10-24T09:00:00-07:00", "2025-10-24T12:00:00-07:00"),
                                    ("2025-10-24T13:00:00-07:00", "2025-10-24T17:00:00-07:00")]


def test_busy_time_of_every_chosen_calendar_counts(backend: CalendarBackend) -> None:
    kids = second_calendar(backend)
    add(backend, "Dentist", t(9), t(12))
    add(backend, "Swim lesson", t(13), t(17), calendar_id=kids)
    assert slots(find(backend)) == [("2025-10-24T12:00:00-07:00", "2025-10-24T17:00:00-07:00")]
    both = find(backend, calendar_ids=[backend.primary_calendar_id(), kids])
    assert slots(both) == [("2025-10-24T12:00:00-07:00", "2025-10-24T13:00:00-07:00")]
    assert both.data["checked"] == ["Family", "Kids"]


def test_an_unreadable_calendar_is_named_and_never_counted_as_free(backend: CalendarBackend) -> None:
    add(backend, "Dentist", t(9), t(12))
    result = find(backend, calendar_ids=[backend.primary_calendar_id(), "nobody@example.test"])
    assert slots(result) == [("2025-10-24T12:00:00-07:00", "2025-10-24T17:00:00-07:00")]
    assert result.data["unreadable"] == ["nobody@example.test"]
    assert result.data["checked"] == ["Family"]
    assert "NOT CHECKED (could not be read): nobody@example.test" in result.text
    assert "never that the time is free for them" in result.text


def test_no_time_is_offered_when_no_calendar_could_be_read(backend: CalendarBackend) -> None:
    result = find(backend, calendar_ids=["nobody@example.test"])
    assert slots(result) == []
    assert result.data["unreadable"] == ["nobody@example.test"]
    assert "so no time can be called free" in result.text


def test_daily_hours_apply_each_day_in_the_persons_zone_across_dst(backend: CalendarBackend) -> None:
    """Saturday 2025-11-01 is PDT, Sunday 2025-11-02 is PST after the fall back: 09:00-11:00 each
    local day, the offsets following the day."""
    add(backend, "Soccer", t(9, 0, day=1).replace(month=11), t(10, 0, day=1).replace(month=11))
    result = find(backend, start="2025-11-01", end="2025-11-03", between="09:00-11:00")
    assert slots(result) == [("2025-11-01T10:00:00-07:00", "2025-11-01T11:00:00-07:00"),
                             ("2025-11-02T09:00:00-08:00", "2025-11-02T11:00:00-08:00")]
    assert "within 09:00-11:00 each day" in result.text


def test_bad_daily_hours_are_a_field_error(backend: CalendarBackend) -> None:
    result = find(backend, between="25:00-26:00")
    assert result.is_error and "between" in result.text


def test_a_range_that_ends_before_it_starts_is_refused(backend: CalendarBackend) -> None:
    result = find(backend, start=f"{FRIDAY}T17:00:00-07:00", end=f"{FRIDAY}T09:00:00-07:00")
    assert result.is_error and "end" in result.text


# --------------------------------------------------------------------------- all-day events
def test_an_all_day_event_blocks_no_time_on_the_local_calendar(local: LocalBackend) -> None:
    add(local, "Grandma visiting", date(2025, 10, 24), date(2025, 10, 25))
    assert slots(find(local)) == [("2025-10-24T09:00:00-07:00", "2025-10-24T17:00:00-07:00")]


def test_google_counts_an_all_day_event_only_when_it_shows_as_busy(tmp_path: Path) -> None:
    """Google's free/busy honours each event's "Show as" mark, all-day events included."""
    backend = fake_google_backend(tmp_path / "home", time_zone=PERSON_TZ)
    try:
        server = backend.fake_server  # type: ignore[attr-defined]
        server.put_event("primary", {"summary": "Grandma visiting", "transparency": "transparent",
                                     "start": {"date": "2025-10-24"}, "end": {"date": "2025-10-25"}})
        assert slots(find(backend)) == [("2025-10-24T09:00:00-07:00", "2025-10-24T17:00:00-07:00")]
        server.put_event("primary", {"summary": "Moving day", "start": {"date": "2025-10-24"},
                                     "end": {"date": "2025-10-25"}})
        assert slots(find(backend)) == []
    finally:
        backend.close()


# --------------------------------------------------------------------------- read failures
class FailingLocal(LocalBackend):
    """A local calendar whose second calendar cannot be listed, or whose repeat rule is unread."""

    fail_on: str = "kids"
    skipping: tuple[Event, ...] = ()

    def list_events(self, calendar_id: str, start: datetime, end: datetime,
                    query: str | None = None) -> list[Event]:
        if calendar_id == self.fail_on:
            raise CalendarError("the disk is unreadable")
        return super().list_events(calendar_id, start, end, query)

    def skipped_series(self) -> list[Event]:
        return list(self.skipping) or super().skipped_series()


def test_a_listing_that_fails_makes_its_calendar_unreadable(tmp_path: Path) -> None:
    backend = FailingLocal(tmp_path / "c.db", PERSON_TZ)
    backend.add_calendar("kids", "Kids", PERSON_TZ)
    result = find(backend, calendar_ids=["primary", "kids"])
    assert result.data["unreadable"] == ["Kids"]
    assert result.data["reasons"] == {"Kids": "the disk is unreadable"}
    assert "Kids (the disk is unreadable)" in result.text


def test_a_repeating_event_that_cannot_be_read_makes_its_calendar_unreadable(tmp_path: Path) -> None:
    backend = FailingLocal(tmp_path / "c.db", PERSON_TZ)
    backend.skipping = (Event(id="s1", title="Piano", start=t(9), end=t(10), timezone=PERSON_TZ),)
    result = find(backend)
    assert slots(result) == [] and result.data["unreadable"] == ["Family"]
    assert "'Piano'" in result.data["reasons"]["Family"]


def test_google_reports_a_calendar_it_could_not_read(tmp_path: Path) -> None:
    """An existing calendar Google answers with `errors` (here a backend failure) is not free."""
    backend = fake_google_backend(tmp_path / "home", time_zone=PERSON_TZ)
    try:
        server = backend.fake_server  # type: ignore[attr-defined]
        server.add_calendar("dad@example.test", "Dad", PERSON_TZ)
        server.free_busy_errors["dad@example.test"] = "backendError"
        result = find(backend, calendar_ids=["primary", "dad@example.test"])
        assert result.data["unreadable"] == ["Dad"]
        assert result.data["reasons"] == {"Dad": "backendError"}
        assert len(server.requests_to("POST", "freeBusy")) == 1  # one query for all calendars
        server.inject(status=500, path_contains="freeBusy", times=10)
        failed = find(backend, calendar_ids=["primary", "dad@example.test"])
        assert failed.data["unreadable"] == ["Family", "Dad"] and slots(failed) == []
    finally:
        backend.close()


def test_the_default_calendar_is_the_configured_one(backend: CalendarBackend) -> None:
    kids = second_calendar(backend)
    add(backend, "Swim lesson", t(9), t(17), calendar_id=kids)
    assert slots(find(backend)) == [("2025-10-24T09:00:00-07:00", "2025-10-24T17:00:00-07:00")]
