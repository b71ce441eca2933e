"""A family's calendar: the event pool, how people refer to each event, and calendar building.

Each pool entry says how a person names the event (nicknames, possessives through the person in its
description) and which other entries are its look-alikes, so a calendar can hold realistic
distractors (two dentist appointments for different people, a Home Depot run next to home) while
every reference the generator writes still names exactly one event.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from .zones import Setting, at, iso_offset, local, occurrence_suffix

ID_ALPHABET = "abcdefghijklmnopqrstuv0123456789"  # base32hex: valid for local and Google ids
HOMES = ("123 Maple St, Springfield", "48 Linden Ave, Portland", "7 Harbour Rd, Brighton",
         "22 Koala Crescent, Sydney", "5 Birch Lane, Cambridge")
BUSINESSES = ("Home Depot, 1200 Commerce Blvd", "Homewood Suites, 455 Airport Rd",
              "HomeGoods, 80 Market St", "Home Sweet Home Bakery, 9 Baker Ln")
HOME_WORDS = ("at our place", "at home", "at our house", "at my place")


@dataclass(frozen=True)
class Spec:
    """One kind of event a family has, and the ways its people name it."""

    key: str
    title: str
    description: str | None
    nicknames: tuple[str, ...]
    possessives: tuple[str, ...] = ()
    emoji: str = ""
    hours: tuple[int, int] = (9, 18)
    minutes: int = 60
    weekly: int | None = None  # weekday of a weekly series
    location: str | None = None  # "home" for the home address
    group: str = ""  # look-alikes share a group; nicknames then become ambiguous


POOL: tuple[Spec, ...] = (
    Spec("vet", "Vet - Biscuit", "Annual checkup for Biscuit", ("the vet", "the vet appointment", "the vet visit"),
         ("Biscuit's vet appointment", "Biscuit's checkup"), "🐶", (9, 17), 30, group="vet"),
    Spec("dentist_leo", "Dentist - Leo", "Leo - cleaning", ("the dentist", "the dentist appointment"),
         ("Leo's dentist", "Leo's dentist appointment", "Leo's cleaning"), "🦷", (8, 17), 45, group="dentist"),
    Spec("dentist_maya", "Dentist - Maya", "Maya - checkup", ("the dentist", "the dentist appointment"),
         ("Maya's dentist", "Maya's dentist appointment"), "🦷", (8, 17), 45, group="dentist"),
    Spec("soccer", "Soccer practice", "Leo - U10 team", ("soccer", "soccer practice", "the soccer practice"),
         ("Leo's soccer", "Leo's soccer practice"), "⚽", (15, 18), 90),
    Spec("piano", "Piano lesson", "Maya - weekly lesson", ("piano", "the piano lesson", "piano lesson"),
         ("Maya's piano", "Maya's piano lesson"), "🎹", (15, 18), 45, weekly=2),
    Spec("yoga", "Yoga", "Sam - studio class", ("yoga", "yoga class", "the yoga class"),
         ("Sam's yoga", "Sam's yoga class"), "🧘", (7, 19), 60, weekly=0),
    Spec("swim", "Swim class", "Leo - Saturday swim", ("swim class", "swimming", "the swim class"),
         ("Leo's swim class", "Leo's swimming"), "🏊", (9, 12), 45, weekly=5),
    Spec("book_club", "Book club", "Priya - monthly book club", ("book club", "the book club"),
         ("Priya's book club",), "📚", (18, 20), 120, location="home"),
    Spec("home_depot", "Home Depot run", "Sam - paint and screws", ("the Home Depot run", "the Home Depot trip"),
         ("Sam's Home Depot run",), "🛠️", (9, 17), 60, location=BUSINESSES[0]),
    Spec("haircut", "Haircut - Sam", "Sam - trim", ("the haircut", "the haircut appointment"),
         ("Sam's haircut",), "💇", (9, 18), 30, group="haircut"),
    Spec("garcias", "Dinner with the Garcias", None, ("dinner with the Garcias", "the Garcia dinner"),
         (), "🍝", (18, 20), 120, location="home"),
    Spec("ptc", "Parent-teacher conference", "Leo - Ms. Park",
         ("the parent-teacher conference", "the conference with Ms. Park"),
         ("Leo's parent-teacher conference",), "🏫", (15, 18), 30),
    Spec("grandpa", "Call with Grandpa", "Grandpa Joe - weekly catch-up", ("the call with Grandpa", "the Grandpa call"),
         ("Grandpa Joe's call",), "📞", (10, 19), 30),
    Spec("tennis", "Tennis with Alex", None, ("tennis", "tennis with Alex"), ("Alex's tennis match",), "🎾",
         (8, 18), 60),
    Spec("pta", "PTA meeting", "School library", ("the PTA meeting", "PTA"), (), "🏫", (18, 20), 60),
)
#: Events only the newer families place on a calendar (never drawn as random others).
EXTRA: tuple[Spec, ...] = (
    Spec("track", "Track practice", "Maya - track team", ("track practice", "track", "the track practice"),
         ("Maya's track practice", "Maya's track"), "🏃", (16, 18), 90),
    Spec("dance_show", "Dance show", "Maya - spring recital", ("the dance show", "the recital"),
         ("Maya's dance show", "Maya's recital"), "💃", (17, 19), 120),
    Spec("concert", "School concert", "Leo - band concert", ("the concert", "the school concert"),
         ("Leo's concert", "Leo's band concert"), "🎵", (16, 18), 90),
    Spec("family_dinner", "Family dinner", None, ("the dinner", "family dinner", "dinner"), (), "🍽️", (18, 20), 90),
    Spec("tutoring", "Math tutoring", "Leo - with Ms. Chen", ("tutoring", "math tutoring", "the tutoring session"),
         ("Leo's tutoring", "Leo's math tutoring"), "📐", (15, 18), 60),
)
BY_KEY: dict[str, Spec] = {s.key: s for s in POOL + EXTRA}
#: Events people create (not in the pool's calendars unless a scenario asks).
NEW_EVENTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("School pickup", ("school pickup", "pick up Leo from school")),
    ("Coffee with Dana", ("coffee with Dana",)),
    ("Flu shot", ("flu shots", "the flu shot")),
    ("Car service", ("car service", "the car in for service")),
    ("Call with the plumber", ("a call with the plumber",)),
    ("Birthday party - Noah", ("Noah's birthday party",)),
    ("Grocery run", ("a grocery run",)),
)


@dataclass
class Event:
    """A calendar event (CONTRACT §2); ``start``/``end`` are aware instants."""

    id: str
    title: str
    start: datetime
    end: datetime
    zone: str
    key: str = ""
    location: str | None = None
    description: str | None = None
    attendees: list[str] = field(default_factory=list)
    recurrence: list[str] | None = None
    all_day: bool = False
    transparent: bool = False

    def to_json(self) -> dict[str, Any]:
        """The event as CONTRACT §2 JSON, times with the zone's real offset."""
        if self.all_day:
            start: str = self.start.date().isoformat()
            end: str = self.end.date().isoformat()
        else:
            start, end = iso_offset(self.start, self.zone), iso_offset(self.end, self.zone)
        return {"id": self.id, "title": self.title, "start": start, "end": end, "all_day": self.all_day,
                "timezone": self.zone, "location": self.location, "description": self.description,
                "attendees": list(self.attendees), "recurrence": self.recurrence}

    @property
    def duration(self) -> timedelta:
        return self.end - self.start

    def occurrence(self, day: date) -> datetime:
        """The original start of this weekly series' occurrence on ``day``."""
        wall = local(self.start, self.zone).time().replace(tzinfo=None)
        return at(day, wall, self.zone)

    def occurrence_id(self, day: date) -> str:
        return f"{self.id}_{occurrence_suffix(self.occurrence(day))}"


def new_id(rng: random.Random) -> str:
    return "".join(rng.choice(ID_ALPHABET) for _ in range(10))


def references(spec: Spec, calendar_keys: set[str]) -> tuple[list[str], list[str]]:
    """(nicknames, possessives) that name ``spec`` alone among the calendar's events."""
    lookalike = any(BY_KEY[k].group == spec.group and k != spec.key for k in calendar_keys if spec.group)
    nicks = [] if lookalike else list(spec.nicknames)
    return nicks, list(spec.possessives)


def _overlaps(cal: list[Event], start: datetime, end: datetime) -> bool:
    return any(not e.all_day and e.start < end and start < e.end for e in cal)


def make_event(rng: random.Random, setting: Setting, spec: Spec, home: str, cal: list[Event],
               day: date | None = None, clock: time | None = None) -> Event:
    """An event of ``spec`` placed in the next days (or at ``day``/``clock``), clear of others."""
    zone = setting.zone
    location = home if spec.location == "home" else spec.location
    for _ in range(40):
        if spec.weekly is not None:
            back = (setting.today.weekday() - spec.weekly) % 7 + 7 * rng.randint(1, 5)
            start_day = setting.today - timedelta(days=back)
        else:
            start_day = day or setting.today + timedelta(days=rng.randint(1, 9))
        when = clock or time(rng.randint(*spec.hours), rng.choice((0, 0, 15, 30, 45)))
        start = at(start_day, when, zone)
        end = start + timedelta(minutes=spec.minutes)
        if clock is not None or not _clashes(cal, start, end, spec.weekly is not None):
            break
    recurrence = None
    if spec.weekly is not None:
        recurrence = [f"RRULE:FREQ=WEEKLY;BYDAY={('MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU')[spec.weekly]}"]
    return Event(new_id(rng), spec.title, start, end, zone, spec.key, location, spec.description,
                 [], recurrence)


def _clashes(cal: list[Event], start: datetime, end: datetime, weekly: bool) -> bool:
    """Overlap with another event, counting a weekly series' occurrences on the same weekday."""
    if _overlaps(cal, start, end):
        return True
    length = end - start
    for e in cal:
        if e.all_day:
            continue
        if e.recurrence is not None and local(start, e.zone).weekday() == local(e.start, e.zone).weekday():
            occ = e.occurrence(local(start, e.zone).date())
            if occ < end and start < occ + e.duration:
                return True
        if weekly and local(e.start, e.zone).weekday() == local(start, e.zone).weekday():
            mine = at(local(e.start, e.zone).date(), local(start, e.zone).time().replace(tzinfo=None), e.zone)
            if mine < e.end and e.start < mine + length:
                return True
    return False


def build_calendar(rng: random.Random, setting: Setting, must: list[str], home: str,
                   avoid: frozenset[str] = frozenset(), size: tuple[int, int] = (5, 10)) -> dict[str, Event]:
    """A calendar of 5-10 events holding ``must`` plus look-alike distractors and random others."""
    keys: list[str] = []
    for k in must:
        if k not in keys:
            keys.append(k)
    for k in list(keys):
        spec = BY_KEY[k]
        siblings = [s.key for s in POOL if s.group and s.group == spec.group and s.key != k]
        for s in siblings:
            if s not in keys and s not in avoid and rng.random() < 0.6:
                keys.append(s)
    others = [s.key for s in POOL if s.key not in keys and s.key not in avoid]
    rng.shuffle(others)
    total = rng.randint(*size)
    for k in others:
        if len(keys) >= total:
            break
        keys.append(k)
    cal: list[Event] = []
    out: dict[str, Event] = {}
    for k in keys:
        ev = make_event(rng, setting, BY_KEY[k], home, cal)
        cal.append(ev)
        out[k] = ev
    return out
