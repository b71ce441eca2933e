"""What only the CalDAV backend has to get right, on a real Radicale server on 127.0.0.1: what
other clients put in an event survives our edits, one occurrence is an override or an EXDATE in
the series' own resource, a search finds events stored under other names, calendars are chosen by
name, basic auth goes with the first request, and a guarded turn (`replay`) runs on it."""
from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from datetime import datetime
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar
from zoneinfo import ZoneInfo

import icalendar
import pytest
from caldav_support import (
    PASSWORD,
    USERNAME,
    RadicaleServer,
    caldav_backend,
    new_calendar_url,
)

from tools.backends.base import CalendarError, EventPatch, VersionConflict
from tools.backends.caldav.backend import CalDAVBackend

pytestmark = pytest.mark.slow  # a real Radicale server, like the `caldav` backend parameter

LA = ZoneInfo("America/Los_Angeles")
FOREIGN_LINES = [
    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Other client//EN",
    "BEGIN:VEVENT", "UID:other-client-1@example.com", "DTSTAMP:20251001T000000Z",
    "DTSTART;TZID=America/Los_Angeles:20251020T170000",
    "DTEND;TZID=America/Los_Angeles:20251020T180000", "RRULE:FREQ=WEEKLY;COUNT=4",
    "SUMMARY:Swim lesson", "X-OTHER-CLIENT-COLOUR:teal",
    "ATTENDEE;PARTSTAT=ACCEPTED;CN=Sam:mailto:sam@example.com",
    "ATTENDEE;PARTSTAT=DECLINED:mailto:kim@example.com",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Swim", "TRIGGER:-PT30M", "END:VALARM",
    "END:VEVENT", "END:VCALENDAR", ""]
FOREIGN = "\r\n".join(FOREIGN_LINES)
FOREIGN_UID = "other-client-1@example.com"


@pytest.fixture
def cal_backend(tmp_path: Path) -> Iterator[CalDAVBackend]:
    made = caldav_backend(tmp_path)
    yield made
    made.close()


def put_raw(backend: CalDAVBackend, name: str, text: str) -> str:
    """Store a resource the way another client would: under a name of its own."""
    url = backend.primary_calendar_id().rstrip("/") + "/" + name
    response = backend.client.request(url, "PUT", text, {"Content-Type": "text/calendar"})
    assert response.status in (201, 204), response.status
    return url


def get_raw(backend: CalDAVBackend, url: str) -> icalendar.Calendar:
    response = backend.client.request(url, "GET")
    assert response.status == 200
    return icalendar.Calendar.from_ical(response.raw)


def vevents(cal: icalendar.Calendar) -> list[Any]:
    return list(cal.walk("VEVENT"))


def test_an_edit_keeps_alarms_attendee_answers_and_other_clients_properties(cal_backend):
    url = put_raw(cal_backend, "made-elsewhere.ics", FOREIGN)
    cal = cal_backend.primary_calendar_id()
    cal_backend.patch_event(cal, FOREIGN_UID, EventPatch({"title": "Swimming"}))
    [series] = vevents(get_raw(cal_backend, url))  # written back where the other client put it
    assert str(series["SUMMARY"]) == "Swimming"
    assert str(series["X-OTHER-CLIENT-COLOUR"]) == "teal"
    assert [(str(a), a.params["PARTSTAT"]) for a in series["ATTENDEE"]] == [
        ("mailto:sam@example.com", "ACCEPTED"), ("mailto:kim@example.com", "DECLINED")]
    assert [str(a["TRIGGER"].to_ical().decode()) for a in series.walk("VALARM")] == ["-PT30M"]


def test_one_occurrence_moved_is_an_override_that_keeps_the_alarm(cal_backend):
    url = put_raw(cal_backend, "made-elsewhere.ics", FOREIGN)
    cal = cal_backend.primary_calendar_id()
    occ_id = f"{FOREIGN_UID}_20251028T000000Z"  # 17:00 PDT on Oct 27 is 00:00 UTC on Oct 28
    moved = cal_backend.patch_event(cal, occ_id, EventPatch({"start": "2025-10-27T18:00:00"}))
    assert moved.to_contract()["start"] == "2025-10-27T18:00:00-07:00"
    series, override = vevents(get_raw(cal_backend, url))
    assert "RRULE" in series and "RECURRENCE-ID" not in series
    assert override["RECURRENCE-ID"].dt == datetime(2025, 10, 27, 17, tzinfo=LA)
    assert override["DTSTART"].dt == datetime(2025, 10, 27, 18, tzinfo=LA)
    assert "RRULE" not in override and [a["TRIGGER"].dt for a in override.walk("VALARM")]
    assert override["ATTENDEE"][0].params["PARTSTAT"] == "ACCEPTED"


def test_one_occurrence_deleted_is_an_exdate_and_rollback_removes_it(cal_backend):
    url = put_raw(cal_backend, "made-elsewhere.ics", FOREIGN)
    cal = cal_backend.primary_calendar_id()
    occ_id = f"{FOREIGN_UID}_20251104T010000Z"  # Nov 3, 17:00 PST
    before = cal_backend.snapshot(cal, occ_id)
    assert not before.exists  # an untouched occurrence has no record of its own
    cal_backend.delete_event(cal, occ_id)
    [series] = vevents(get_raw(cal_backend, url))
    assert [d.dt for d in series["EXDATE"].dts] == [datetime(2025, 11, 3, 17, tzinfo=LA)]
    assert cal_backend.get_event(cal, occ_id) is None
    cal_backend.restore(before, expected_version=cal_backend.snapshot(cal, occ_id).version)
    [series] = vevents(get_raw(cal_backend, url))
    assert "EXDATE" not in series
    assert cal_backend.get_event(cal, occ_id) is not None


def test_a_stale_copy_is_a_conflict_and_the_server_copy_stands(cal_backend):
    url = put_raw(cal_backend, "made-elsewhere.ics", FOREIGN)
    cal = cal_backend.primary_calendar_id()
    read = cal_backend.get_event(cal, FOREIGN_UID)
    assert read is not None
    put_raw(cal_backend, "made-elsewhere.ics", FOREIGN.replace("Swim lesson", "Changed elsewhere"))
    with pytest.raises(VersionConflict):
        cal_backend.patch_event(cal, FOREIGN_UID, EventPatch({"title": "Ours"}),
                                if_match=read.version)
    assert str(vevents(get_raw(cal_backend, url))[0]["SUMMARY"]) == "Changed elsewhere"


def test_listing_expands_an_endless_series_only_over_the_window(cal_backend):
    text = FOREIGN.replace("RRULE:FREQ=WEEKLY;COUNT=4", "RRULE:FREQ=DAILY")
    put_raw(cal_backend, "daily.ics", text)
    cal = cal_backend.primary_calendar_id()
    got = cal_backend.list_events(cal, datetime(2026, 3, 2, tzinfo=LA), datetime(2026, 3, 9, tzinfo=LA))
    assert [e.to_contract()["start"][:10] for e in got] == [f"2026-03-0{d}" for d in range(2, 9)]
    assert got[-1].to_contract()["start"] == "2026-03-08T17:00:00-07:00"  # DST began that day


def test_an_event_stored_under_another_name_is_found_by_its_uid(cal_backend, tmp_path: Path):
    put_raw(cal_backend, "made-elsewhere.ics", FOREIGN)
    # a fresh client that has not listed anything yet
    fresh = CalDAVBackend(cal_backend.url, USERNAME, PASSWORD,
                          calendar=cal_backend.primary_calendar_id(),
                          default_timezone="America/Los_Angeles")
    found = fresh.get_event(fresh.primary_calendar_id(), FOREIGN_UID)
    assert found is not None and found.title == "Swim lesson" and found.recurrence
    fresh.close()


def test_the_calendar_setting_may_be_a_display_name(radicale: RadicaleServer):
    url = new_calendar_url(radicale, name="Kids' activities")
    backend = CalDAVBackend(radicale.url, USERNAME, PASSWORD, calendar="Kids' activities")
    assert backend.primary_calendar_id() == url
    assert ("Kids' activities", url) in [(c.name, c.id) for c in backend.calendars()]
    missing = CalDAVBackend(radicale.url, USERNAME, PASSWORD, calendar="No such calendar")
    with pytest.raises(CalendarError, match="No such calendar"):
        missing.primary_calendar_id()


class _Recorder(http.server.BaseHTTPRequestHandler):
    seen: ClassVar[list[tuple[str, str | None]]] = []

    def _answer(self) -> None:
        self.seen.append((self.command, self.headers.get("Authorization")))
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_PUT = do_PROPFIND = do_REPORT = _answer

    def log_message(self, *args: Any) -> None:
        return None


def test_basic_auth_goes_with_the_first_request():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/cal/"
        backend = CalDAVBackend(url, "family", "secret", calendar=url)
        try:
            backend.get_event(url, "evmissing")
        except CalendarError:
            pass  # the recorder answers 404 to everything: only the headers matter here
        assert _Recorder.seen, "no request reached the server"
        _method, auth = _Recorder.seen[0]
        assert auth is not None and auth.startswith("Basic ")
    finally:
        server.shutdown()


def test_replay_runs_a_guarded_turn_on_caldav(radicale: RadicaleServer, tmp_path: Path):
    url = new_calendar_url(radicale, name="Replay")
    home = tmp_path / "home"
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(home),
           "CALENDAR_ASSISTANT_BACKEND": "caldav", "CALENDAR_ASSISTANT_CALDAV_URL": radicale.url,
           "CALENDAR_ASSISTANT_CALDAV_USERNAME": USERNAME,
           "CALENDAR_ASSISTANT_CALDAV_PASSWORD": PASSWORD, "CALENDAR_ASSISTANT_CALENDAR": "Replay",
           "CALENDAR_ASSISTANT_TIMEZONE": "America/Los_Angeles"}
    env.pop("ANTHROPIC_API_KEY", None)
    path = resources.files("fixtures").joinpath("conversations/wrong_weekday.json")
    proc = subprocess.run([sys.executable, "-m", "assistant.cli", "replay", str(path)], env=env, check=False,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    turn = report["turns"][0]
    assert turn["attempts"] == 2 and turn["rolled_back"] == ["ev_swim1"]
    swim = next(e for e in report["calendar"] if e["id"] == "ev_swim1")
    assert swim["start"] == "2025-10-23T17:00:00-07:00"
    stored = CalDAVBackend(radicale.url, USERNAME, PASSWORD, calendar=url).get_event(url, "ev_swim1")
    assert stored is not None and stored.to_contract()["start"] == swim["start"]


def test_calendars_command_lists_the_caldav_calendars(radicale: RadicaleServer, tmp_path: Path):
    url = new_calendar_url(radicale, name="Chores")
    env = {**os.environ, "CALENDAR_ASSISTANT_HOME": str(tmp_path / "home"),
           "CALENDAR_ASSISTANT_BACKEND": "caldav", "CALENDAR_ASSISTANT_CALDAV_URL": radicale.url,
           "CALENDAR_ASSISTANT_CALDAV_USERNAME": USERNAME,
           "CALENDAR_ASSISTANT_CALDAV_PASSWORD": PASSWORD, "CALENDAR_ASSISTANT_CALENDAR": "Chores"}
    proc = subprocess.run([sys.executable, "-m", "assistant.cli", "calendars"], env=env, check=False,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    # the calendar in use is starred, by its name, in words (never its URL)
    starred = [line.split() for line in proc.stdout.splitlines() if line.startswith("* ")]
    assert starred == [["*", "Chores", "CalDAV", "account", '"default",', "can", "be", "changed"]], proc.stdout
    assert url not in proc.stdout


def test_reminders_are_display_alarms_before_the_start_and_none_is_action_none(cal_backend):
    """Another client's alarm reads as a reminder; changing the reminders writes DISPLAY alarms
    relative to the start, `[]` RFC 9074's ACTION:NONE (no reminder, not the default), and
    None no alarm at all (the calendar's default)."""
    url = put_raw(cal_backend, "made-elsewhere.ics", FOREIGN)
    cal = cal_backend.primary_calendar_id()
    assert cal_backend.get_event(cal, FOREIGN_UID).reminders == (30,)

    def alarms() -> list[tuple[str, str]]:
        [series] = vevents(get_raw(cal_backend, url))
        return [(str(a["ACTION"]), a["TRIGGER"].to_ical().decode()) for a in series.walk("VALARM")]

    assert cal_backend.patch_event(cal, FOREIGN_UID, EventPatch({"reminders": [1440, 90]})).reminders == (90, 1440)
    assert alarms() == [("DISPLAY", "-PT1H30M"), ("DISPLAY", "-P1D")]
    assert cal_backend.patch_event(cal, FOREIGN_UID, EventPatch({"reminders": []})).reminders == ()
    assert alarms() == [("NONE", "19760401T005545Z")]
    assert cal_backend.get_event(cal, FOREIGN_UID).reminders == ()
    assert cal_backend.patch_event(cal, FOREIGN_UID, EventPatch({"reminders": None})).reminders is None
    assert alarms() == []


def test_an_end_in_another_zone_is_a_dtend_with_its_own_tzid(cal_backend):
    from tools.calendar.events import Event

    cal = cal_backend.primary_calendar_id()
    chicago, london = ZoneInfo("America/Chicago"), ZoneInfo("Europe/London")
    made = cal_backend.create_event(cal, Event(
        id=cal_backend.new_event_id(), title="Flight", timezone="America/Chicago",
        start=datetime(2025, 10, 23, 9, tzinfo=chicago), end=datetime(2025, 10, 23, 22, 40, tzinfo=london),
        end_timezone="Europe/London"))
    url = cal.rstrip("/") + f"/{made.id}.ics"
    raw = get_raw(cal_backend, url)
    [event] = vevents(raw)
    assert event["DTSTART"].params["TZID"] == "America/Chicago"
    assert event["DTEND"].params["TZID"] == "Europe/London"
    assert event["DTEND"].dt == datetime(2025, 10, 23, 22, 40, tzinfo=london)
    assert {str(z["TZID"]) for z in raw.walk("VTIMEZONE")} == {"America/Chicago", "Europe/London"}
    assert cal_backend.get_event(cal, made.id).end_timezone == "Europe/London"
