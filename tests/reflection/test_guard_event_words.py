"""Words that say which event is meant, read whole (fixtures/heldout9, run once before these
were fixed): a day said after the event's name when the message then says which day it goes to
("the dentist on the 14th to the 21st") tells two events of one name apart; "w/" inside a name
("facetime w/ grandpa") is "with", not a list of two events."""
from __future__ import annotations

from typing import Any

import pytest

from reflection.case import case_from_json
from reflection.findings import Verdict
from reflection.guard import Guard

BERLIN = "Europe/Berlin"


def judge(message: str, now: str, calendar: list[dict[str, Any]], *calls: dict[str, Any]) -> Verdict:
    case = {"id": "t", "user_message": message, "now": now, "timezone": BERLIN, "home_address": "Hauptstr. 1",
            "backend": "local",
            "calendar": calendar, "tool_calls": list(calls)}
    return Guard(mode="symbolic").judge(case_from_json(case)).verdict


def event(event_id: str, title: str, start: str, end: str) -> dict[str, Any]:
    return {"id": event_id, "title": title, "start": start, "end": end, "timezone": BERLIN}


def update(event_id: str, start: str, end: str) -> dict[str, Any]:
    return {"name": "update_calendar_event", "input": {"event_id": event_id, "start": start, "end": end}}


DENTISTS = [event("ev_dj", "Dentist - Jana", "2027-01-14T08:30:00+01:00", "2027-01-14T09:00:00+01:00"),
            event("ev_de", "Dentist - Emil", "2027-01-28T14:00:00+01:00", "2027-01-28T14:30:00+01:00")]
MOVE = "move the dentist on the 14th to the 21st"
NOW = "2027-01-06T10:00:00"


def test_the_other_dentist_moved_is_proven_the_wrong_event() -> None:
    verdict = judge(MOVE, NOW, DENTISTS, update("ev_de", "2027-01-21T14:00:00+01:00", "2027-01-21T14:30:00+01:00"))
    assert [f.type for f in verdict.errors] == ["event_id"], verdict.findings
    assert "Dentist - Jana" in verdict.errors[0].issue and "the 14th" in verdict.errors[0].issue


def test_the_dentist_on_the_14th_moved_to_the_21st_is_right() -> None:
    verdict = judge(MOVE, NOW, DENTISTS, update("ev_dj", "2027-01-21T08:30:00+01:00", "2027-01-21T09:00:00+01:00"))
    assert verdict.valid, verdict.findings


def test_no_dentist_on_that_day_proves_nothing_about_which_one() -> None:
    """Then the words mean something the day does not settle: no event is ruled out by it."""
    only_emil = [DENTISTS[1], event("ev_dm", "Dentist - Mia", "2027-01-20T10:00:00+01:00",
                                    "2027-01-20T10:30:00+01:00")]
    verdict = judge(MOVE, NOW, only_emil, update("ev_de", "2027-01-21T14:00:00+01:00", "2027-01-21T14:30:00+01:00"))
    assert not [f for f in verdict.errors if f.type == "event_id"], verdict.findings


FACETIME = [event("ev_ft", "FaceTime w/ Grandpa Ray", "2027-01-09T17:00:00+01:00", "2027-01-09T17:30:00+01:00"),
            event("ev_pta", "PTA meeting", "2027-01-06T18:30:00+01:00", "2027-01-06T20:00:00+01:00")]


def test_an_hour_earlier_that_moves_only_the_start_of_one_named_event_is_proven() -> None:
    """One event named in two pieces of its title is one event: the shift keeps its length."""
    verdict = judge("make the facetime w/ grandpa an hour earlier pls", "2027-01-04T09:00:00", FACETIME,
                    {"name": "update_calendar_event", "input": {"event_id": "ev_ft",
                                                                "start": "2027-01-09T16:00:00+01:00"},
                     "result": {**FACETIME[0], "start": "2027-01-09T16:00:00+01:00"}})  # the end stayed
    assert [f.type for f in verdict.errors] == ["time"], verdict.findings


def test_an_hour_earlier_moving_start_and_end_is_right() -> None:
    verdict = judge("make the facetime w/ grandpa an hour earlier pls", "2027-01-04T09:00:00", FACETIME,
                    update("ev_ft", "2027-01-09T16:00:00+01:00", "2027-01-09T16:30:00+01:00"))
    assert verdict.valid and not verdict.llm_needed, verdict.findings


NEW_YORK = "America/New_York"
HOLIDAYS = [{"id": "ev_hp", "title": "Holiday party - Minh's office", "start": "2026-12-11T19:00:00-05:00",
             "end": "2026-12-11T22:00:00-05:00", "timezone": NEW_YORK},
            {"id": "ev_hc", "title": "Holiday concert - Ava's school", "start": "2026-12-15T18:00:00-05:00",
             "end": "2026-12-15T19:30:00-05:00", "timezone": NEW_YORK}]
NOT_GOING = "we're not going to minh's work holiday party anymore, delete it"


def judge_ny(message: str, *calls: dict[str, Any]) -> Verdict:
    case = {"id": "t", "user_message": message, "now": "2026-12-08T09:00:00", "timezone": NEW_YORK,
            "home_address": "77 Chestnut St", "backend": "local", "calendar": HOLIDAYS, "tool_calls": list(calls)}
    return Guard(mode="symbolic").judge(case_from_json(case)).verdict


def delete(event_id: str) -> dict[str, Any]:
    return {"name": "delete_calendar_event", "input": {"event_id": event_id}}


def test_a_second_event_deleted_that_only_shares_a_word_of_the_named_one_is_proven() -> None:
    """'we're' is no nickname of an event, and 'holiday' is the office party's word here: the
    school concert deleted too is an event no part of the message refers to."""
    verdict = judge_ny(NOT_GOING, delete("ev_hp"), delete("ev_hc"))
    assert [f.type for f in verdict.errors] == ["event_id"], verdict.findings
    assert "Holiday concert" in verdict.errors[0].issue


def test_the_party_alone_deleted_is_right() -> None:
    verdict = judge_ny(NOT_GOING, delete("ev_hp"))
    assert verdict.valid, verdict.findings


def test_the_words_that_name_one_event_for_sure_are_no_evidence_for_another() -> None:
    """'Dentist - Leo' names Leo's dentist for sure (a calendar where Leo has other events too);
    its 'dentist' does not make Maya's dentist one the message may refer to, so changing Maya's
    is changing an event nobody named. (From the generated suite, bench/guard_eval.)"""
    titled = [("ev_pia", "Piano lesson", "09-23T15:00", "Maya - weekly lesson"),
              ("ev_dm", "Dentist - Maya", "10-15T15:30", "Maya - checkup"),
              ("ev_ptc", "Parent-teacher conference", "10-15T18:15", "Leo - Ms. Park"),
              ("ev_dl", "Dentist - Leo", "10-20T14:00", "Leo - cleaning"),
              ("ev_soc", "Soccer practice", "10-23T17:00", "Leo - U10 team"),
              ("ev_hair", "Haircut - Sam", "10-23T18:30", "Sam - trim")]
    calendar = [{"id": key, "title": title, "start": f"2026-{when}:00+02:00",
                 "end": f"2026-{when[:-2]}59:00+02:00", "timezone": BERLIN, "description": note}
                for key, title, when, note in titled]
    case = {"id": "t", "user_message": "Move Dentist - Leo to home", "now": "2026-10-14T10:15:00",
            "timezone": BERLIN, "home_address": "5 Birch Lane, Cambridge", "backend": "local",
            "calendar": calendar, "tool_calls": [{"name": "update_calendar_event", "input": {
                "event_id": "ev_dm", "location": "5 Birch Lane, Cambridge"}}]}
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    assert [f.type for f in verdict.errors] == ["event_id"], verdict.findings


LONDON = "Europe/London"
THURSDAY = [{"id": "ev_phy", "title": "Physio - Rob", "start": "2026-12-17T15:00:00+00:00",
             "end": "2026-12-17T15:45:00+00:00", "timezone": LONDON},
            {"id": "ev_ins", "title": "Call w/ insurance", "start": "2026-12-17T11:00:00+00:00",
             "end": "2026-12-17T11:30:00+00:00", "timezone": LONDON},
            {"id": "ev_swim", "title": "Swim class", "start": "2026-12-18T17:00:00+00:00",
             "end": "2026-12-18T18:00:00+00:00", "timezone": LONDON}]


def judge_uk(message: str, event_id: str, start: str, end: str) -> Verdict:
    case = {"id": "t", "user_message": message, "now": "2026-12-15T19:00:00", "timezone": LONDON,
            "home_address": "14 Mill Lane", "backend": "local", "calendar": THURSDAY,
            "tool_calls": [update(event_id, start, end)]}
    return Guard(mode="symbolic").judge(case_from_json(case)).verdict


def test_the_event_named_by_its_time_is_the_one_at_that_time() -> None:
    wrong = judge_uk("the 3pm thing thursday -> 4:30pm pls", "ev_ins",
                     "2026-12-17T16:30:00+00:00", "2026-12-17T17:00:00+00:00")
    assert [f.type for f in wrong.errors] == ["event_id"], wrong.findings
    assert "15:00" in wrong.errors[0].issue and "11:00" in wrong.errors[0].issue
    right = judge_uk("the 3pm thing thursday -> 4:30pm pls", "ev_phy",
                     "2026-12-17T16:30:00+00:00", "2026-12-17T17:15:00+00:00")
    assert not [f for f in right.errors if f.type == "event_id"], right.findings


def test_a_time_chosen_or_gone_to_names_no_event() -> None:
    """'switch it to the 3pm one on friday', 'cancel it and book the 3pm one': the time is
    where it goes or what is chosen, not which event is changed."""
    verdict = judge_uk("switch it to the 3pm one on friday", "ev_swim",
                       "2026-12-18T15:00:00+00:00", "2026-12-18T16:00:00+00:00")
    assert not [f for f in verdict.errors if f.type == "event_id"], verdict.findings
    case = {"id": "t", "user_message": "cancel it and book the 3pm one instead", "now": "2026-12-15T19:00:00",
            "timezone": LONDON, "home_address": "14 Mill Lane", "backend": "local", "calendar": THURSDAY,
            "tool_calls": [{"name": "delete_calendar_event", "input": {"event_id": "ev_swim"}},
                           {"name": "create_calendar_event", "input": {
                               "title": "Swim class", "start": "2026-12-18T15:00:00+00:00",
                               "end": "2026-12-18T16:00:00+00:00"}}]}
    verdict = Guard(mode="symbolic").judge(case_from_json(case)).verdict
    assert not [f for f in verdict.errors if f.type == "event_id"], verdict.findings


def test_a_bare_hour_names_no_clock_time() -> None:
    verdict = judge_uk("the 3 thing thursday -> 4:30pm pls", "ev_ins",
                       "2026-12-17T16:30:00+00:00", "2026-12-17T17:00:00+00:00")
    assert not [f for f in verdict.errors if f.type == "event_id"], verdict.findings


@pytest.mark.parametrize("message", ["cancel my 3pm thursday", "thursday: cancel the 3pm."])
def test_a_clock_time_alone_names_the_event_it_cancels(message: str) -> None:
    def judged(event_id: str) -> Verdict:
        case = {"id": "t", "user_message": message, "now": "2026-12-15T19:00:00", "timezone": LONDON,
                "home_address": "14 Mill Lane", "backend": "local", "calendar": THURSDAY,
                "tool_calls": [{"name": "delete_calendar_event", "input": {"event_id": event_id}}]}
        return Guard(mode="symbolic").judge(case_from_json(case)).verdict

    assert [f.type for f in judged("ev_ins").errors] == ["event_id"]
    assert not [f for f in judged("ev_phy").errors if f.type == "event_id"]


DINNERS = [event("ev_dt", "Dîner avec Tom & Ana", "2027-01-08T19:00:00+01:00", "2027-01-08T21:30:00+01:00"),
           event("ev_dl", "Dinner Luigi's", "2027-01-08T19:30:00+01:00", "2027-01-08T21:30:00+01:00"),
           event("ev_ju", "Judo - Hugo", "2027-01-08T17:00:00+01:00", "2027-01-08T18:00:00+01:00")]


@pytest.mark.parametrize("message", ["merge the two dinner things on friday into one, 7pm at luigi's",
                                     "both dinners on friday are one now, keep it at 7 at luigi's"])
def test_events_the_message_counts_out_may_be_ones_it_does_not_name(message: str) -> None:
    """'the two dinner things': the French-titled dinner is the second of them, though its title
    shares no word with the message."""
    verdict = judge(message, "2027-01-04T12:00:00", DINNERS,
                    {"name": "update_calendar_event", "input": {"event_id": "ev_dt", "location": "Luigi's"}},
                    delete("ev_dl"))
    assert not [f for f in verdict.errors if f.type == "event_id"], verdict.findings
    assert verdict.llm_needed


def test_a_count_the_named_events_fill_leaves_another_event_unreferenced() -> None:
    """Two dinners counted, two named: judo, which the message never names, is still proven."""
    verdict = judge("move both dinners on friday, luigi's and dîner avec tom, to 8pm", "2027-01-04T12:00:00",
                    DINNERS, update("ev_ju", "2027-01-08T20:00:00+01:00", "2027-01-08T21:00:00+01:00"))
    assert "event_id" in [f.type for f in verdict.errors], verdict.findings


@pytest.mark.parametrize("message", ["so sorry to bother you again but remove judo from the calendar",
                                     "leo's cleaning and dinner luigi's are both cancelled"])
def test_a_count_no_unnamed_event_fills_still_proves_the_unnamed_one(message: str) -> None:
    """"bother" holds no "both"; and "both" said of two events the message names counts none
    beyond them: the French dinner deleted is still an event no part of the message refers to."""
    verdict = judge(message, "2027-01-04T12:00:00", DINNERS, delete("ev_ju"), delete("ev_dt"))
    assert "event_id" in [f.type for f in verdict.errors], verdict.findings


def test_a_word_that_only_begins_a_description_sentence_is_no_persons_name() -> None:
    from reflection.reading.event_refs import _people_of
    assert _people_of((), "Snack duty: Miller family") == frozenset({"miller"})
    assert "maya" in _people_of((), "Maya - weekly lesson")


GAMES = [event("ev_g12", "Jake - football game", "2027-01-09T10:00:00+01:00", "2027-01-09T11:30:00+01:00"),
         {**event("ev_g19", "Jake - football game", "2027-01-16T10:00:00+01:00", "2027-01-16T11:30:00+01:00"),
          "description": "vs Rams. Snack duty: Miller family"}]


def test_a_reason_sharing_a_word_with_a_description_does_not_name_that_event() -> None:
    """"i need to bring the snacks" is why, not which game: the reminder on the other Saturday's
    game is not verified."""
    verdict = judge("remind me 30 min before jake's game saturday, i need to bring the snacks", "2027-01-06T20:00:00",
                    GAMES, {"name": "update_calendar_event", "input": {"event_id": "ev_g19", "reminders": [30]}})
    assert verdict.llm_needed, verdict


PIANOS = [event("ev_pl", "Leo - piano (Mrs Tan)", "2027-01-05T16:45:00+01:00", "2027-01-05T17:30:00+01:00"),
          event("ev_pm", "Maya - piano (Mrs Tan)", "2027-01-05T16:00:00+01:00", "2027-01-05T16:45:00+01:00"),
          event("ev_visit", "Outing - Taronga", "2027-01-06T15:00:00+01:00", "2027-01-06T17:00:00+01:00")]


@pytest.mark.parametrize("message", ["leo's piano today push back 30 min pls, school bus running late",
                                     "push leo's piano back 30 min today, the coach emailed about traffic"])
def test_a_reason_told_beside_the_request_names_no_event(message: str) -> None:
    """"school bus running late" is why: Maya's piano moved instead of Leo's is proven."""
    verdict = judge(message, "2027-01-05T07:30:00", PIANOS,
                    update("ev_pm", "2027-01-05T16:30:00+01:00", "2027-01-05T17:15:00+01:00"))
    assert "event_id" in [f.type for f in verdict.errors], verdict.findings


def test_a_nickname_said_with_its_new_state_may_still_name_the_event() -> None:
    """"the zoo trip is at 4 now": said of an event the calendar calls otherwise, never proven
    unreferenced."""
    verdict = judge("leo's piano is fine. the zoo trip is at 4 now", "2027-01-05T07:30:00", PIANOS,
                    update("ev_visit", "2027-01-06T16:00:00+01:00", "2027-01-06T18:00:00+01:00"))
    assert not [f for f in verdict.errors if f.type == "event_id"], verdict.findings


DENTISTS_TWO = [event("ev_dn", "Dentist - Noah", "2027-01-05T08:30:00+01:00", "2027-01-05T09:15:00+01:00"),
                event("ev_da", "Dentist - Ava", "2027-01-07T08:30:00+01:00", "2027-01-07T09:15:00+01:00")]


@pytest.mark.parametrize("moved, errors", [("ev_dn", []), ("ev_da", ["event_id"])])
def test_someone_elses_plans_told_as_a_reason_are_no_target_nor_a_name(moved: str, errors: list[str]) -> None:
    """"he has a test in the morning" is why; "in the morning" is no time asked, and "he ... test"
    names no event: Ava's dentist moved instead of Noah's is proven."""
    day = "2027-01-05" if moved == "ev_dn" else "2027-01-07"
    verdict = judge("move noah's dentist to 4pm, he has a test in the morning", "2027-01-04T07:45:00",
                    DENTISTS_TWO, update(moved, f"{day}T16:00:00+01:00", f"{day}T16:45:00+01:00"))
    assert [f.type for f in verdict.errors] == errors, verdict.findings


@pytest.mark.parametrize("message, said", [
    ("move noah's dentist to 4pm, he has a test in the morning", "in the morning"),
    ("switch the two dentists, leo has a test at 3", "3")])
def test_a_time_of_someone_elses_plans_is_how_things_are_not_where_the_change_goes(message: str, said: str) -> None:
    from reflection.dates.resolver import resolve
    from reflection.reading.request import read_request
    reading = read_request(message, resolve(message, "2027-01-04T07:45:00", BERLIN), [])
    assert [p.role for p in reading.phrases if p.text == said] == ["current"]


@pytest.mark.parametrize("message", ["jake's piano tmrw is at 6 instead, just this once",
                                     "jake's piano needs to be at 6 tmrw only"])
def test_scope_words_are_no_nickname_of_an_event(message: str) -> None:
    """"once", "only", "instead" name nothing: Maya's piano changed instead of Jake's is proven."""
    pianos = [event("ev_pj", "Jake - piano", "2027-01-05T16:00:00+01:00", "2027-01-05T16:45:00+01:00"),
              event("ev_pm2", "Maya - piano", "2027-01-05T17:00:00+01:00", "2027-01-05T17:45:00+01:00")]
    verdict = judge(message, "2027-01-04T20:00:00", pianos,
                    update("ev_pm2", "2027-01-05T18:00:00+01:00", "2027-01-05T18:45:00+01:00"))
    assert "event_id" in [f.type for f in verdict.errors], verdict.findings
