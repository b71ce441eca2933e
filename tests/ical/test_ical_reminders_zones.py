"""Reminders (VALARM) and an end in its own zone (a DTEND whose TZID is not DTSTART's) through
`import` and `export` (issue 26): read from a file, kept by every backend, written back out, and
read again the same; a file that changes only an event's alarms is an update."""
from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from conftest import PERSON_TZ, listed

from assistant.commands.export import export_bytes
from tools.backends.base import CalendarBackend
from tools.calendar.events import Event
from tools.ical.files import day_span, read_ics
from tools.ical_import import apply_import, plan_import
from tools.journal.journal import Journal
from tools.store.database import Store

SPAN = day_span(date(2025, 1, 1), date(2026, 12, 31), ZoneInfo(PERSON_TZ))
FLIGHT_UID = "flight-ba296@example.com"
DINNER_UID = "dinner-1@example.com"
SWIM_UID = "swim-1@example.com"
QUIET_UID = "quiet-1@example.com"
FILE = "\r\n".join([
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other client//EN",
    "BEGIN:VEVENT", f"UID:{FLIGHT_UID}", "DTSTAMP:20251001T000000Z", "SUMMARY:Flight BA 296",
    "DTSTART;TZID=America/Chicago:20251023T090000", "DTEND;TZID=Europe/London:20251023T224000",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Leave for the airport", "TRIGGER:-PT3H", "END:VALARM",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Pack", "TRIGGER:-P1D", "END:VALARM",
    "END:VEVENT",
    "BEGIN:VEVENT", f"UID:{DINNER_UID}", "DTSTAMP:20251001T000000Z", "SUMMARY:Family dinner",
    "DTSTART;TZID=America/Los_Angeles:20251024T180000", "DTEND;TZID=America/Los_Angeles:20251024T193000",
    "END:VEVENT",
    "BEGIN:VEVENT", f"UID:{QUIET_UID}", "DTSTAMP:20251001T000000Z", "SUMMARY:Quiet reading",
    "DTSTART;TZID=America/Los_Angeles:20251025T200000", "DTEND;TZID=America/Los_Angeles:20251025T210000",
    "BEGIN:VALARM", "ACTION:NONE", "TRIGGER;VALUE=DATE-TIME:19760401T005545Z", "END:VALARM",
    "END:VEVENT",
    "BEGIN:VEVENT", f"UID:{SWIM_UID}", "DTSTAMP:20251001T000000Z", "SUMMARY:Swim lesson",
    "DTSTART;TZID=America/Los_Angeles:20251020T170000", "DTEND;TZID=America/Los_Angeles:20251020T174500",
    "RRULE:FREQ=WEEKLY;COUNT=3",
    "BEGIN:VALARM", "ACTION:AUDIO", "TRIGGER;RELATED=START:-PT15M", "END:VALARM",
    "END:VEVENT",
    "END:VCALENDAR", ""])


def _file(tmp_path: Path, text: str = FILE, name: str = "trips.ics") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode())
    return path


def _seen(events: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """What a person would check after a round trip: when, and the reminders, ids aside."""
    return [(e["title"], e["start"], e["end"], e.get("end_timezone"), e.get("reminders")) for e in events]


def _import(backend: CalendarBackend, journal: Journal, path: Path) -> str:
    cal = backend.primary_calendar_id()
    return apply_import(journal, cal, plan_import(backend, cal, read_ics(path, PERSON_TZ), PERSON_TZ))


def _export(backend: CalendarBackend) -> bytes:
    cal = backend.primary_calendar_id()
    events = backend.list_events(cal, *SPAN)
    masters = {e.recurring_event_id: backend.get_event(cal, e.recurring_event_id)
               for e in events if e.recurring_event_id}
    return export_bytes(events, {k: v for k, v in masters.items() if k and v}, *SPAN)


def test_a_file_reads_its_alarms_as_reminders_and_a_dtend_zone_as_the_end_zone(tmp_path: Path):
    by_uid = {s.uid: s.event for s in read_ics(_file(tmp_path), PERSON_TZ)}
    flight = by_uid[FLIGHT_UID]
    assert flight.reminders == (180, 1440)
    assert (flight.timezone, flight.end_timezone) == ("America/Chicago", "Europe/London")
    assert flight.to_contract()["end"] == "2025-10-23T22:40:00+01:00"
    assert by_uid[DINNER_UID].reminders is None and by_uid[DINNER_UID].end_timezone is None
    assert by_uid[QUIET_UID].reminders == ()  # RFC 9074: no reminder, not the default
    assert by_uid[SWIM_UID].reminders == (15,)  # a sound is a reminder too


def test_import_keeps_them_on_every_backend_and_export_writes_them_back(
        backend: CalendarBackend, journal: Journal, tmp_path: Path):
    turn = _import(backend, journal, _file(tmp_path))
    first = listed(backend, start=SPAN[0], end=SPAN[1])
    assert ("Flight BA 296", "2025-10-23T09:00:00-05:00", "2025-10-23T22:40:00+01:00",
            "Europe/London", [180, 1440]) in _seen(first)
    assert [e.get("reminders") for e in first if e["title"] == "Swim lesson"] == [[15]] * 3
    text = _export(backend).decode()
    assert "DTEND;TZID=Europe/London:20251023T224000" in text
    assert "TRIGGER:-PT3H" in text and "TRIGGER:-P1D" in text and "ACTION:NONE" in text
    assert "BEGIN:VTIMEZONE\r\nTZID:Europe/London" in text
    back = {s.uid: s.event for s in read_ics(_file(tmp_path, text, "out.ics"), PERSON_TZ)}
    by_title = {e.title: e for e in back.values()}
    assert by_title["Flight BA 296"].reminders == (180, 1440)
    assert by_title["Flight BA 296"].end_timezone == "Europe/London"
    assert by_title["Quiet reading"].reminders == ()
    assert by_title["Family dinner"].reminders is None
    assert by_title["Swim lesson"].reminders == (15,)
    from tools.backends.local import LocalBackend

    other = LocalBackend(tmp_path / "other.db", PERSON_TZ)
    _import(other, Journal(Store.sqlite(tmp_path / "other-journal.db"), other), tmp_path / "out.ics")
    assert _seen(listed(other, start=SPAN[0], end=SPAN[1])) == _seen(first)
    report = journal.rollback(turn)
    assert report.clean, report.summary()
    assert listed(backend, start=SPAN[0], end=SPAN[1]) == []


def test_a_file_that_changes_only_an_alarm_is_an_update_of_the_reminders(local, tmp_path: Path):
    journal = Journal(Store.sqlite(tmp_path / "j.db"), local)
    _import(local, journal, _file(tmp_path))
    changed = _file(tmp_path, FILE.replace("TRIGGER:-PT3H", "TRIGGER:-PT2H"), "changed.ics")
    steps = plan_import(local, "primary", read_ics(changed, PERSON_TZ), PERSON_TZ)
    assert [(s.kind, s.fields) for s in steps] == [("update", {"reminders": [120, 1440]})]
    apply_import(journal, "primary", steps)
    [flight] = [e for e in listed(local) if e["title"] == "Flight BA 296"]
    assert flight["reminders"] == [120, 1440] and flight["end_timezone"] == "Europe/London"
    assert plan_import(local, "primary", read_ics(changed, PERSON_TZ), PERSON_TZ) == []


@pytest.mark.parametrize("reminders", [None, (), (0,), (30, 1440, 10080)])
def test_what_export_writes_import_reads_the_same(local, tmp_path: Path, reminders: Any):
    local.create_event("primary", Event(
        id="evtrip", title="Trip", timezone="Asia/Tokyo", end_timezone="America/Los_Angeles",
        start=datetime(2025, 11, 2, 17, tzinfo=ZoneInfo("Asia/Tokyo")),
        end=datetime(2025, 11, 2, 10, tzinfo=ZoneInfo("America/Los_Angeles")), reminders=reminders))
    [read] = read_ics(_file(tmp_path, _export(local).decode(), "trip.ics"), PERSON_TZ)
    assert read.event.reminders == reminders
    assert read.event.end_timezone == "America/Los_Angeles"
    assert read.event.to_contract()["end"] == "2025-11-02T10:00:00-08:00"


def test_alarms_that_minutes_before_cannot_say_are_kept_until_the_reminders_change():
    """An alarm relative to the end or at a set moment is no 'minutes before the start': the
    event reads as having the calendar's default, and an edit that leaves reminders alone
    leaves that alarm as another client wrote it; setting reminders replaces it."""
    from tools.ical.events import component_from, event_of, write_event

    text = "\r\n".join([
        "BEGIN:VEVENT", "UID:odd-alarm@example.com", "DTSTAMP:20251001T000000Z", "SUMMARY:Match",
        "DTSTART;TZID=America/Los_Angeles:20251026T100000", "DTEND;TZID=America/Los_Angeles:20251026T120000",
        "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Fetch the kit", "TRIGGER;RELATED=END:-PT5M",
        "END:VALARM", "END:VEVENT", ""])
    component = component_from(text)
    event = event_of(component, "primary", "", PERSON_TZ)
    assert event.reminders is None
    write_event(component, event.with_changes(title="Match (home)"))
    assert [a["TRIGGER"].to_ical().decode() for a in component.walk("VALARM")] == ["-PT5M"]
    write_event(component, event.with_changes(reminders=(45,)))
    assert [a["TRIGGER"].to_ical().decode() for a in component.walk("VALARM")] == ["-PT45M"]
    assert event_of(component, "primary", "", PERSON_TZ).reminders == (45,)
