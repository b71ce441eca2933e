"""Reminders and two-zone events in the words a person reads (issue 26): the event card says
"reminder 1 day and 1 hour before" and "Chicago 9:00 AM → London 10:40 PM", a change reads
before → after, and `agenda` says both; never minutes as a bare number, a zone id or ISO text."""
from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from conftest import PERSON_TZ

from assistant.cli import main
from assistant.commands.agenda import agenda_lines
from assistant.tui.formatting import card_text
from tools.backends.local import LocalBackend
from tools.calendar.events import Event, EventCard, zone
from tools.calendar.wording import reminder_words, two_zone_span

CHICAGO, LONDON = zone("America/Chicago"), zone("Europe/London")
FLIGHT = Event(id="evflight", title="Flight to London", timezone="America/Chicago",
               start=datetime(2025, 10, 23, 9, tzinfo=CHICAGO),
               end=datetime(2025, 10, 23, 22, 40, tzinfo=LONDON), end_timezone="Europe/London",
               reminders=(1500,), calendar_id="primary")
DENTIST = Event(id="evdent", title="Dentist", timezone=PERSON_TZ, calendar_id="primary",
                start=datetime(2025, 10, 23, 15, tzinfo=zone(PERSON_TZ)),
                end=datetime(2025, 10, 23, 16, tzinfo=zone(PERSON_TZ)))


@pytest.mark.parametrize(("minutes", "words"), [
    (None, None), ((), "no reminder"), ((0,), "reminder at the start"),
    ((30,), "reminder 30 minutes before"), ((60,), "reminder 1 hour before"),
    ((1500,), "reminder 1 day and 1 hour before"), ((1440, 30), "reminders 30 minutes before and 1 day before"),
    ((90, 10080, 2880), "reminders 1 hour and 30 minutes before, 2 days before and 1 week before")])
def test_reminders_in_words(minutes: tuple[int, ...] | None, words: str | None) -> None:
    assert reminder_words(minutes) == words


def test_a_flight_says_each_end_in_its_own_zone_and_the_day_it_lands_when_that_differs() -> None:
    assert two_zone_span(FLIGHT) == "Chicago 9:00 AM → London 10:40 PM"
    overnight = FLIGHT.with_changes(end=datetime(2025, 10, 24, 2, 40, tzinfo=LONDON))
    assert two_zone_span(overnight) == "Chicago 9:00 AM → Friday, October 24, London 2:40 AM"
    assert two_zone_span(DENTIST) is None


def test_the_card_of_a_created_flight_says_both_zones_and_its_reminder() -> None:
    card = card_text(EventCard("created", FLIGHT), PERSON_TZ)
    assert card.lines == ["Thursday, October 23, Chicago 9:00 AM → London 10:40 PM",
                          "reminder 1 day and 1 hour before"]
    assert card_text(EventCard("created", DENTIST), PERSON_TZ).lines == [
        "Thursday, October 23, 3:00 PM – 4:00 PM"]  # no reminders of its own: nothing said


def test_a_changed_reminder_reads_before_and_after_and_the_usual_ones_are_named() -> None:
    changed = card_text(EventCard("updated", FLIGHT.with_changes(reminders=(30, 1440)), FLIGHT), PERSON_TZ)
    assert "reminder 1 day and 1 hour before  →  reminders 30 minutes before and 1 day before" in changed.lines
    back = card_text(EventCard("updated", FLIGHT.with_changes(reminders=None), FLIGHT), PERSON_TZ)
    assert "reminder 1 day and 1 hour before  →  the calendar's usual reminders" in back.lines
    kept = card_text(EventCard("updated", FLIGHT.with_changes(title="Flight BA 296"), FLIGHT), PERSON_TZ)
    assert "reminder 1 day and 1 hour before" in kept.lines


def test_agenda_lines_say_reminders_and_both_zones() -> None:
    lines = agenda_lines([FLIGHT, DENTIST.with_changes(reminders=())], PERSON_TZ)
    assert lines == ["Thursday, October 23",
                     "  7:00 AM – 2:40 PM  Flight to London  (Chicago 9:00 AM → London 10:40 PM)"
                     "  · reminder 1 day and 1 hour before",
                     "  3:00 PM – 4:00 PM  Dentist  · no reminder"]


def test_the_agenda_command_says_them_in_words_and_its_json_keeps_them(
        home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    backend = LocalBackend(home / "calendar.db", PERSON_TZ)
    try:
        backend.create_event("primary", FLIGHT)
    finally:
        backend.close()
    assert main(["agenda", "--now", "2025-10-23T06:00:00"]) == 0
    text = capsys.readouterr().out
    assert "Flight to London  (Chicago 9:00 AM → London 10:40 PM)  · reminder 1 day and 1 hour before" in text
    assert "1500" not in text and "Europe/London" not in text and "+01:00" not in text
    assert main(["agenda", "--json", "--now", "2025-10-23T06:00:00"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert (listed["reminders"], listed["end_timezone"]) == ([1500], "Europe/London")

