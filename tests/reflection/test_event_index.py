"""The guard's word index (issue 25): it scores only the events that share a word, a typo or a
prefix with the message, and finds exactly the candidates that scoring every event finds."""
from __future__ import annotations

import json
import random
from collections.abc import Sequence
from datetime import datetime, timedelta
from importlib import resources
from zoneinfo import ZoneInfo

import pytest

from reflection.case import case_from_json
from reflection.reading.event_refs import (
    Candidate,
    EventIndex,
    EventProfile,
    event_index,
    find_event_refs,
    lookup_words,
    profiles,
    score_words,
    word_similarity,
)
from reflection.symbolic import check_symbolic
from tools.calendar.events import Event

TZ = ZoneInfo("America/Chicago")
TITLES = ["Dentist - Leo", "Dentist - Priya", "Vet - Biscuit", "Piano lesson", "Soccer practice",
          "Book club", "Pharmacy pick-up", "Orthodontist", "Swim class", "Haircut - Sam",
          "Grandma's birthday", "Parent-teacher conference", "Math tutoring", "Dance recital"]
PLACES = [None, "Smile Dental, 200 Oak Ave", "Riverside Park", "Library", "Home Depot"]


def _calendar(count: int, seed: int = 3) -> list[Event]:
    rng = random.Random(seed)
    out = []
    for n in range(count):
        start = datetime(2026, 3, 1, 8, tzinfo=TZ) + timedelta(hours=rng.randrange(24 * 60))
        out.append(Event(id=f"ev{n}", title=rng.choice(TITLES), start=start,
                         end=start + timedelta(hours=1), timezone="America/Chicago",
                         location=rng.choice(PLACES),
                         attendees=tuple(rng.sample(["leo.park@example.org", "sam@example.com",
                                                     "maya@example.net"], rng.randrange(3))),
                         description="Maya - weekly" if rng.random() < 0.2 else None))
    return out


def _noise(count: int) -> list[Event]:
    """Events no word of the test messages is near."""
    start = datetime(2026, 3, 2, 8, tzinfo=TZ)
    return [Event(id=f"zz{n}", title=f"Quarterly zxq{n % 7} review", start=start,
                  end=start + timedelta(hours=1), timezone="America/Chicago") for n in range(count)]


def test_a_typo_is_still_found_through_the_index() -> None:
    calendar = [
        Event(id="d1", title="Dentist - Leo", start=datetime(2026, 3, 3, 9, tzinfo=TZ),
              end=datetime(2026, 3, 3, 10, tzinfo=TZ), timezone="America/Chicago"),
        Event(id="v1", title="Vet - Biscuit", start=datetime(2026, 3, 4, 9, tzinfo=TZ),
              end=datetime(2026, 3, 4, 10, tzinfo=TZ), timezone="America/Chicago"),
    ] + _noise(500)
    refs = find_event_refs("can you move the dentsit", calendar)
    assert [c.key for c in refs[0].candidates] == ["d1"]
    index = EventIndex(calendar)
    assert [p.key for p in index.candidates(["dentsit"])] == ["d1"]  # the 500 others not scored
    assert [p.key for p in index.candidates(["bisc"])] == ["v1"]     # a prefix
    assert index.candidates(["unrelated"]) == []


def test_the_index_finds_what_scoring_every_event_finds() -> None:
    calendar = _calendar(400)
    index = EventIndex(calendar)
    every = profiles(calendar)
    said = ["dentist", "dentsit", "dentis", "leo", "leos", "piano", "pianno", "lessons", "soccer",
            "socer", "pickup", "pick", "pharmacy", "biscuit", "biscit", "orthodontist", "ortho",
            "swim", "swimming", "grandma", "gran", "birthday", "bday", "maya", "sam", "library",
            "depot", "home", "oak", "smile", "conference", "ptc", "math", "tutor", "recital",
            "recitals", "dance", "haircut", "hair", "club", "book", "bookclub", "zebra"]
    rng = random.Random(5)
    runs = [(w,) for w in said] + [tuple(rng.sample(said, rng.randrange(2, 5))) for _ in range(200)]
    for words in runs:
        assert index.score(words) == score_words(words, every), words


def test_the_index_is_built_once_per_calendar_list() -> None:
    calendar = _calendar(50)
    assert event_index(calendar) is event_index(calendar)
    assert event_index(list(calendar)) is not event_index(calendar)


def test_every_word_the_reading_scores_is_looked_up(monkeypatch: pytest.MonkeyPatch) -> None:
    """`lookup_words` (what a bounded window reaches the calendar's texts with, issue 25) holds
    every word and joined pair the reading and the checks score, on every corpus message: a
    word missing from it would leave out events the whole window scores."""
    asked: list[tuple[str, ...]] = []
    score = EventIndex.score

    def recording(self: EventIndex, words: Sequence[str]) -> list[Candidate]:
        asked.append(tuple(words))
        return score(self, words)

    monkeypatch.setattr(EventIndex, "score", recording)
    text = resources.files("fixtures").joinpath("corpus/guard_cases.jsonl").read_text(encoding="utf-8")
    checked = 0
    for line in text.splitlines():
        case = case_from_json(json.loads(line))
        asked.clear()
        check_symbolic(case)
        looked_up = lookup_words(case.user_message)
        for words in asked:
            assert set(words) <= looked_up, (case.user_message, set(words) - looked_up)
        checked += any(len(w) > 1 for w in asked)
    assert checked > 50


def _scored_word_by_word(words: Sequence[str], profs: Sequence[EventProfile],
                         df: dict[str, int]) -> list[Candidate]:
    """`score_words` as it was written before it looked up each said word's similar words once:
    every word of every profile compared with every said word, the first best kept."""
    out: list[Candidate] = []
    for prof in profs:
        score, matched, named = 0.0, 0, False
        used: set[str] = set()
        exact: set[str] = set()
        covered: set[str] = set()
        for said in words:
            best, best_word = 0.0, ""
            for own, weight in prof.weighted:
                value = word_similarity(said, own) * weight
                if value > best:
                    best, best_word = value, own
            if best and best_word not in used:
                used.add(best_word)
                score += best / df.get(best_word, 1)
                matched += 1
                named = named or best_word in prof.title_words or best_word in prof.people
                covered.add(said)
                if best >= 1.0 and best_word in prof.title_words:
                    exact.add(said)
        if score > 0:
            out.append(Candidate(prof.key, prof.title, round(score, 3), matched, named,
                                 frozenset(exact), frozenset(covered)))
    out.sort(key=lambda c: -c.score)
    return [c for c in out if c.score >= out[0].score * 0.5] if out else out


def test_scoring_is_the_word_by_word_comparison() -> None:
    """Scoring looks up each said word's similar words once instead of comparing it with every
    word of every profile (issue 25); the candidates, scores, ties and their order are those
    of the comparison word by word, on profiles holding several similar words at once (a place
    word also a title word, a typo and its word: the first best is kept)."""
    extra = [Event(id=f"x{n}", title=title, start=datetime(2026, 3, 5, 9, tzinfo=TZ),
                   end=datetime(2026, 3, 5, 10, tzinfo=TZ), timezone="America/Chicago",
                   location=place, attendees=guests)
             for n, (title, place, guests) in enumerate([
                 ("Library book club", "Library", ()), ("Dentist dentists", "Dental", ()),
                 ("Sam's swim", "Swim center", ("sam@example.com", "sammy@example.com")),
                 ("Piano pianos lesson", None, ("maya@example.net",)),
                 ("Swimmer swimmar", None, ()), ("Swimmer", None, ())])]
    # "swimmr" is a typo of both words of the first (a tie, the first best kept; their document
    # frequencies differ, so keeping the other would change the score)
    calendar = _calendar(300, seed=11) + extra
    every = profiles(calendar)
    df: dict[str, int] = {}
    for prof in every:
        for word in prof.all_words:
            df[word] = df.get(word, 0) + 1
    said = ["swimmr", "dentist", "dentsit", "dental", "library", "book", "club", "sam", "sammy", "swim",
            "piano", "pianos", "lesson", "maya", "leo", "park", "oak", "smile", "home", "zebra",
            "bookclub", "pickup", "grandma", "birthday", "math"]
    rng = random.Random(8)
    runs = [(w,) for w in said] + [tuple(rng.sample(said, rng.randrange(2, 6))) for _ in range(300)]
    for words in runs:
        assert score_words(words, every, df) == _scored_word_by_word(words, every, df), words
        assert score_words(words, every) == _scored_word_by_word(words, every, df), words


def test_profiles_alike_in_what_is_said_score_alike_only_in_the_same_order() -> None:
    """Scoring scores once the profiles alike in the words a said word reaches (issue 25), and
    their order is part of that likeness: a said word reaching two words of a profile keeps the
    first best in the profile's own order, so two profiles with the same words in another order
    may score differently ("swimmr" is a typo of both "swimmer" and "swimmar", whose document
    frequencies differ)."""
    def profile(key: str, title: frozenset[str], order: tuple[str, ...], guests: frozenset[str]) -> EventProfile:
        return EventProfile(key, key, title, guests, frozenset(), title | guests,
                            tuple((w, 1.0) for w in order))

    both = frozenset({"swimmer", "swimmar"})
    profs = [profile("a", both, ("swimmer", "swimmar"), frozenset()),
             profile("b", both, ("swimmar", "swimmer"), frozenset()),
             profile("c", both, ("swimmer", "kim", "swimmar"), frozenset({"kim"})),
             profile("d", frozenset({"swimmer"}), ("swimmer",), frozenset())]
    df = {"swimmer": 3, "swimmar": 2, "kim": 1}
    for words in [("swimmr",), ("swimmr", "kim"), ("kim", "swimmr")]:
        scored = score_words(words, profs, df)
        assert scored == _scored_word_by_word(words, profs, df), words
    assert {c.key: c.score for c in score_words(("swimmr",), profs, df)} == \
        {"a": round(0.85 / 3, 3), "b": round(0.85 / 2, 3), "c": round(0.85 / 3, 3), "d": round(0.85 / 3, 3)}
