"""The person's list of recent changes, undo of a chosen request, and redo (tools/journal/changes.py),
on the real local backend and journal; plus repeat rules in words (tools/calendar/wording.py)."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from tools.backends.local import LocalBackend
from tools.calendar.events import Event, event_from_contract, zone
from tools.calendar.patching import EventPatch
from tools.calendar.wording import repeat_words
from tools.journal.changes import Changes, rollback_words
from tools.journal.entries import Intent
from tools.journal.journal import Journal
from tools.store.database import Store

TZ = "America/Los_Angeles"


def make(tmp_path: Path) -> tuple[LocalBackend, Journal, str]:
    backend = LocalBackend(tmp_path / "cal.db", TZ)
    journal = Journal(Store.sqlite(tmp_path / "state.db"), backend)
    return backend, journal, backend.primary_calendar_id()


def event(cal: str, event_id: str, title: str, start: str, end: str) -> Event:
    return event_from_contract({"id": event_id, "title": title, "start": start, "end": end,
                                "timezone": TZ}, TZ, cal)


def create(journal: Journal, backend: LocalBackend, cal: str, turn: str, ev: Event) -> None:
    entry = journal.begin(turn, 1, "create_calendar_event", cal, ev.id, intent=Intent.create(ev))
    journal.complete(entry, backend.create_event(cal, ev))
    journal.close_turn(turn)


def move(journal: Journal, backend: LocalBackend, cal: str, turn: str, event_id: str, start: datetime,
         end: datetime) -> None:
    entry = journal.begin(turn, 1, "update_calendar_event", cal, event_id, intent=Intent.update(None))
    journal.complete(entry, backend.patch_event(cal, event_id, EventPatch({"start": start, "end": end})))
    journal.close_turn(turn)


def test_recent_changes_are_in_words_newest_first_and_undo_redo_round_trip(tmp_path: Path) -> None:
    backend, journal, cal = make(tmp_path)
    swim = event(cal, "ev_swim", "Swim lesson", "2025-10-21T17:00:00-07:00", "2025-10-21T17:45:00-07:00")
    create(journal, backend, cal, "t1", swim)
    thursday = datetime(2025, 10, 23, 17, tzinfo=zone(TZ))
    move(journal, backend, cal, "t2", "ev_swim", thursday, thursday.replace(minute=45))
    changes = Changes(journal)
    listed = changes.recent()
    assert [c.turn_id for c in listed] == ["t2", "t1"]
    assert listed[0].lines(TZ) == ["Moved 'Swim lesson' from Tuesday, October 21 at 5:00 PM to "
                                   "Thursday, October 23 at 5:00 PM"]
    assert listed[1].lines(TZ) == ["Added 'Swim lesson' on Tuesday, October 21 at 5:00 PM"]
    assert all("ev_swim" not in line for c in listed for line in c.lines(TZ))

    # undo the OLDER request (the create): the event is gone, though a later move touched it
    # -> the move is someone else's change from t1's point of view: kept, reported as a conflict
    report = changes.undo("t1")
    assert report is not None and report.conflicts and backend.get_event(cal, "ev_swim") is not None

    # undo the newest: back to Tuesday, in words, never the id
    report = changes.undo("t2")
    assert report is not None and report.clean
    assert backend.get_event(cal, "ev_swim").start_instant.day == 21  # type: ignore[union-attr]
    words = rollback_words(report, TZ)
    assert words == ["Put 'Swim lesson' back on Tuesday, October 21 at 5:00 PM "
                     "(it was Thursday, October 23 at 5:00 PM)"]
    undone = changes.recent()[0]
    assert undone.state == "undone" and undone.redoable and not undone.undoable

    redo = changes.redo()
    assert redo is not None and redo.clean
    assert backend.get_event(cal, "ev_swim").start_instant.day == 23  # type: ignore[union-attr]
    assert changes.redo() is None  # redone once
    # the redo is a request of its own: undo takes it back
    again = changes.undo()
    assert again is not None and again.clean
    assert backend.get_event(cal, "ev_swim").start_instant.day == 21  # type: ignore[union-attr]


def test_undo_of_an_added_event_says_removed(tmp_path: Path) -> None:
    backend, journal, cal = make(tmp_path)
    dentist = event(cal, "ev_dent", "Dentist", "2025-10-27T15:00:00-07:00", "2025-10-27T16:00:00-07:00")
    create(journal, backend, cal, "t1", dentist)
    report = Changes(journal).undo()
    assert report is not None
    assert rollback_words(report, TZ) == ["Removed 'Dentist' on Monday, October 27 at 3:00 PM"]
    assert backend.get_event(cal, "ev_dent") is None


def test_nothing_to_undo_or_redo_is_none(tmp_path: Path) -> None:
    _, journal, _ = make(tmp_path)
    changes = Changes(journal)
    assert changes.last_undoable() is None and changes.undo() is None and changes.redo() is None
    assert changes.recent() == []


def test_redo_keeps_a_change_made_after_the_undo(tmp_path: Path) -> None:
    backend, journal, cal = make(tmp_path)
    swim = event(cal, "ev_swim", "Swim lesson", "2025-10-21T17:00:00-07:00", "2025-10-21T17:45:00-07:00")
    create(journal, backend, cal, "t0", swim)
    friday = datetime(2025, 10, 24, 17, tzinfo=zone(TZ))
    move(journal, backend, cal, "t1", "ev_swim", friday, friday.replace(minute=45))
    changes = Changes(journal)
    changes.undo("t1")
    backend.patch_event(cal, "ev_swim", EventPatch({"title": "Swim (phone edit)"}))
    redo = changes.redo()
    assert redo is not None and not redo.clean and not redo.restored
    assert backend.get_event(cal, "ev_swim").title == "Swim (phone edit)"  # type: ignore[union-attr]
    assert "ev_swim" not in " ".join(rollback_words(redo, TZ))


@pytest.mark.parametrize("rule, start, said", [
    ("RRULE:FREQ=WEEKLY;BYDAY=WE", None, "every Wednesday"),
    ("RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20260602T070000Z", datetime(2026, 1, 6, 17),
     "every other Tuesday until June 2"),
    ("RRULE:FREQ=WEEKLY", datetime(2025, 10, 21, 17), "every Tuesday"),
    ("RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", None, "every weekday"),
    ("RRULE:FREQ=WEEKLY;BYDAY=MO,WE", None, "every Monday and Wednesday"),
    ("RRULE:FREQ=WEEKLY;INTERVAL=3;BYDAY=FR", None, "every 3 weeks on Friday"),
    ("RRULE:FREQ=MONTHLY;BYDAY=2TU", None, "every month on the second Tuesday"),
    ("RRULE:FREQ=MONTHLY;BYDAY=-1FR", None, "every month on the last Friday"),
    ("RRULE:FREQ=MONTHLY", datetime(2025, 10, 3, 9), "every month on the 3rd"),
    ("RRULE:FREQ=YEARLY;COUNT=5", datetime(2025, 10, 23, 9), "every year on October 23, 5 times"),
    ("RRULE:FREQ=DAILY", None, "every day"),
    ("RRULE:FREQ=DAILY;INTERVAL=2", None, "every other day"),
])
def test_repeat_rules_in_words(rule: str, start: datetime | None, said: str) -> None:
    assert repeat_words([rule], start) == said


def test_an_unreadable_rule_has_no_words_rather_than_raw_text() -> None:
    assert repeat_words(["RRULE:FREQ=SOMETIMES"]) is None
    assert repeat_words(["EXDATE:20251022T170000"]) is None


def test_a_utc_end_of_a_series_is_said_on_its_own_clock() -> None:
    """01:00 UTC on December 30 is the evening of the 29th in Los Angeles: the last lesson."""
    start = datetime(2026, 9, 1, 17, tzinfo=zone("America/Los_Angeles"))
    assert repeat_words(["RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20261230T010000Z"], start) == \
        "every Tuesday until December 29"


def test_undoing_a_series_end_says_the_rule_put_back_not_the_same_words_twice() -> None:
    from tools.journal.changes import restored_words
    from tools.journal.journal import RestoredEvent

    start = datetime(2026, 9, 1, 17, tzinfo=zone("America/Los_Angeles"))
    whole = Event(id="evp", title="Piano", start=start, end=start.replace(hour=18),
                  timezone="America/Los_Angeles", recurrence=("RRULE:FREQ=WEEKLY;BYDAY=TU",))
    ended = whole.with_changes(recurrence=("RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20261230T010000Z",))
    [line] = restored_words([RestoredEvent("evp", ended, whole)], "America/Los_Angeles")
    assert line == ("Put back 'Piano' every Tuesday, from Tuesday, September 1 at 5:00 PM "
                    "(it was 'Piano' every Tuesday until December 29, from Tuesday, September 1 "
                    "at 5:00 PM)")
