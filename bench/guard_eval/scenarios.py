"""Scenario templates: one request on one calendar, with its correct calls and its readings.

Each builder writes the message from the generator's intent, so the truth (which event, which
instants the date policy allows) is known without parsing anything.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from . import text
from .model import Call, Scenario, Target
from .phrases import (
    MISSPELLED,
    MONTHS,
    TEXT_TOMORROW,
    TEXT_TONIGHT,
    WEEKDAY_ABBR,
    WEEKDAYS,
    DayPhrase,
    TimePhrase,
    day_phrase,
    month_day_date,
    next_weekday_set,
    ordinal,
    ordinal_phrase,
    range_phrase,
    time_phrase,
    weekday_set,
)
from .world import (
    BUSINESSES,
    BY_KEY,
    HOMES,
    NEW_EVENTS,
    POOL,
    Event,
    Spec,
    build_calendar,
    make_event,
    new_id,
    references,
)
from .zones import Setting, at, local, pick_setting, shift_wall

CITIES = (("Tokyo", "Asia/Tokyo"), ("London", "Europe/London"), ("New York", "America/New_York"),
          ("Sydney", "Australia/Sydney"), ("Berlin", "Europe/Berlin"), ("LA", "America/Los_Angeles"),
          ("Chicago", "America/Chicago"), ("Mumbai", "Asia/Kolkata"), ("Paris", "Europe/Paris"))
AMOUNTS = (("30 min", 30), ("half an hour", 30), ("15 minutes", 15), ("45 minutes", 45), ("an hour", 60),
           ("1 hour", 60), ("two hours", 120), ("90 minutes", 90))


class Ctx:
    """Shared state of one scenario being built."""

    def __init__(self, rng: random.Random, family: str) -> None:
        self.rng = rng
        self.family = family
        self.setting: Setting = pick_setting(rng)
        self.home = rng.choice(HOMES)

    @property
    def zone(self) -> str:
        return self.setting.zone

    @property
    def today(self) -> date:
        return self.setting.today

    def future_day(self, lo: int = 1, hi: int = 12, avoid: date | None = None) -> date:
        while True:
            d = self.today + timedelta(days=self.rng.randint(lo, hi))
            if d != avoid:
                return d

    def clock(self, hours: tuple[int, int] = (8, 19), words: bool = False) -> time:
        minutes = (15, 30, 45, 30) if words else (0, 0, 0, 15, 30, 30, 45)
        return time(self.rng.randint(*hours), self.rng.choice(minutes))

    def time_style(self, title: str = "") -> str:
        """A time phrase style; meal and night titles get exact times, since a person reads
        "dinner at 8:30" as evening although the date policy lets a bare 8:30 be morning."""
        if any(w in title.lower() for w in ("dinner", "night", "lunch", "breakfast", "party")):
            return "exact"
        if self.family == "clock_words":
            return self.rng.choice(("words", "words", "words", "bare", "bare", "part"))
        return self.rng.choice(("exact",) * 7 + ("bare", "part", "part"))

    def ref(self, spec: Spec, keys: set[str]) -> str:
        """How the message names the event, by family."""
        nicks, poss = references(spec, keys)
        rng, fam = self.rng, self.family
        if fam == "plain":
            return spec.title
        if fam == "nickname":
            return rng.choice(nicks or poss)
        if fam == "possessive":
            return rng.choice(poss or nicks)
        if fam == "typo":
            return text.typo(rng, rng.choice(nicks + poss or [spec.title]))
        if fam == "casing_emoji":
            return text.casing_emoji(rng, rng.choice(nicks + poss + [spec.title]), spec.emoji)
        return rng.choice(nicks + poss + [spec.title])

    def calendar(self, must: list[str], avoid: frozenset[str] = frozenset(),
                 size: tuple[int, int] = (5, 10)) -> dict[str, Event]:
        return build_calendar(self.rng, self.setting, must, self.home, avoid, size)

    def pick_spec(self, weekly: bool = False, exclude: frozenset[str] = frozenset()) -> Spec:
        specs = [s for s in POOL if (s.weekly is not None) == weekly and s.key not in exclude]
        if self.family == "possessive":
            specs = [s for s in specs if s.possessives]
            if self.rng.random() < 0.5:
                specs = [s for s in specs if s.group] or specs
        return self.rng.choice(specs)

    def scenario(self, name: str, message: str, cal: dict[str, Event], calls: list[Call],
                 targets: list[Target], referenced: set[str], **info: object) -> Scenario:
        events = sorted(cal.values(), key=lambda e: e.start)
        return Scenario(self.family, name, message, self.setting, self.home, events, calls, targets,
                        referenced, dict(info))


def _readings(days: tuple[date, ...], times: tuple[time, ...], zone: str) -> tuple[datetime, ...]:
    out: list[datetime] = []
    for d in days:
        for t in times:
            inst = at(d, t, zone)
            if inst not in out:
                out.append(inst)
    return tuple(out)


def _when(dp: DayPhrase | None, tp: TimePhrase | None) -> tuple[str, str]:
    """(after "to"/"for", standalone) renderings of a day and/or time phrase."""
    t = tp.text if tp else ""
    if dp is None:
        return t.removeprefix("at ").strip(), t
    bare = dp.bare if dp.bare is not None else dp.prep
    return f"{bare} {t}".strip(), f"{dp.prep} {t}".strip()


def _pick(rng: random.Random, imperative: list[str], statements: list[str], family: str) -> tuple[str, bool]:
    """A sentence shape; politeness needs an imperative core to wrap."""
    if family == "politeness" or not statements or rng.random() < 0.6:
        return rng.choice(imperative), True
    return rng.choice(statements), False


def _finish(ctx: Ctx, shape: str, imperative: bool, **parts: str) -> str:
    msg = shape.format(**parts)
    msg = text.capitalize(msg) if not imperative or ctx.family != "politeness" else msg
    if ctx.family == "politeness" and imperative:
        return text.polite(ctx.rng, msg)
    if ctx.family == "casing_emoji":
        return text.message_case(ctx.rng, msg)
    return msg


def _update(ev: Event, zone: str | None = None, **fields: object) -> Call:
    return Call("update_calendar_event", {"event_id": ev.id, **fields}, zone or ev.zone)


# ---------------------------------------------------------------- single-event templates

def move(ctx: Ctx, spec: Spec | None = None, mode: str | None = None,
         city: tuple[str, str] | None = None) -> Scenario:
    """Move one event to a day and/or time ("move the vet to Friday at 3pm")."""
    rng = ctx.rng
    spec = spec or ctx.pick_spec()
    cal = ctx.calendar([spec.key])
    ev = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    ev_local = local(ev.start, ev.zone)
    modes = ("date_time", "time_only") if ctx.family == "clock_words" else ("date_time", "date_time", "date_only",
                                                                             "time_only")
    mode = mode or rng.choice(modes)
    zone = city[1] if city else ctx.zone
    dp: DayPhrase | None = None
    tp: TimePhrase | None = None
    if mode != "time_only":
        dp = day_phrase(rng, ctx.today, ctx.future_day(avoid=ev_local.date()), need_bare=True)
    if mode != "date_only":
        clock = ctx.clock(words=ctx.family == "clock_words")
        while clock == ev_local.time().replace(tzinfo=None):
            clock = ctx.clock()
        tp = time_phrase(rng, clock, "exact" if city and rng.random() < 0.8 else ctx.time_style(spec.title))
    days = dp.allowed if dp else (ev_local.date(),)
    times = tp.allowed if tp else (ev_local.time().replace(tzinfo=None),)
    allowed = _readings(days, times, zone)
    to, prep = _when(dp, tp)
    if city:
        suffix = f" {city[0]} time"
        to, prep = to + suffix, prep + suffix
    shape, imp = _pick(rng, ["move {ref} to {to}", "reschedule {ref} for {to}", "change {ref} to {to}",
                             "push {ref} to {to}", "shift {ref} to {to}", "please move {ref} to {to}"],
                       ["{ref} is now {prep}", "{ref} got moved to {to}, please update it",
                        "{ref} needs to be {prep} instead", "can you move {ref} to {to}?"], ctx.family)
    msg = _finish(ctx, shape, imp, ref=ref, to=to, prep=prep)
    start = allowed[0]
    call = _update(ev, zone, start=start, end=start + ev.duration)
    target = Target(0, allowed, ev.duration, bool(tp and tp.ampm_fixed), phrase_zone=zone)
    sc = ctx.scenario("move", msg, cal, [call], [target], {ev.id}, moved=ev, city=city)
    if dp and dp.relative:
        sc.relative_phrases.append(dp.prep)
    return sc


def create(ctx: Ctx, city: tuple[str, str] | None = None, place: str | None = None,
           title_ref: tuple[str, tuple[str, ...]] | None = None) -> Scenario:
    """Create an event ("add school pickup on Monday at 3:15")."""
    rng = ctx.rng
    title, refs = title_ref or rng.choice(NEW_EVENTS)
    name = rng.choice(refs)
    cal = ctx.calendar([])
    dp = day_phrase(rng, ctx.today, ctx.future_day(1, 14))
    hours = (7, 20) if city else (8, 19)
    tp = time_phrase(rng, ctx.clock(hours, words=ctx.family == "clock_words"),
                     "exact" if city and rng.random() < 0.8 else ctx.time_style(title))
    zone = city[1] if city else ctx.zone
    allowed = _readings(dp.allowed, tp.allowed, zone)
    to, prep = _when(dp, tp)
    where = ""
    if city:
        if rng.random() < 0.3:
            name = f"{name} in {city[0]}"
            to, prep = to + " his time", prep + " his time"
        else:
            to, prep = to + f" {city[0]} time", prep + f" {city[0]} time"
    if place:
        where = f" {place}"
    if rng.random() < 0.5:
        shape, imp = _pick(rng, ["add {name}{where} {prep}", "put {name}{where} on the calendar {prep}",
                                 "schedule {name}{where} for {to}", "book {name}{where} {prep}"],
                           ["{name}{where} {prep}, please add it", "new event: {name}{where}, {to}",
                            "we have {name}{where} {prep}"], ctx.family)
    else:
        shape, imp = _pick(rng, ["add {name}{where} {prep}", "can you add {name}{where} {prep}"],
                           ["{name}{where} {prep}", "there's {name}{where} {prep}, put it in"], ctx.family)
    msg = _finish(ctx, shape, imp, name=name, where=where, to=to, prep=prep)
    start = allowed[0]
    inp: dict[str, object] = {"title": title, "start": start}
    if rng.random() < 0.7:
        inp["end"] = start + timedelta(minutes=rng.choice((30, 60, 60, 90)))
    target = Target(0, allowed, None, tp.ampm_fixed, phrase_zone=zone)
    sc = ctx.scenario("create", msg, cal, [Call("create_calendar_event", inp, zone)], [target], set(),
                      created=True, city=city)
    if dp.relative:
        sc.relative_phrases.append(dp.prep)
    return sc


def shift(ctx: Ctx, spec: Spec | None = None) -> Scenario:
    """Shift an event relative to its own start ("push it back 30 min", "same time next week")."""
    rng = ctx.rng
    spec = spec or ctx.pick_spec()
    cal = ctx.calendar([spec.key])
    ev = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    kind = rng.choice(("later", "later", "earlier", "day", "week"))
    if kind in ("later", "earlier"):
        amount, minutes = rng.choice(AMOUNTS)
        delta = timedelta(minutes=minutes if kind == "later" else -minutes)
        if kind == "later":
            shapes = (["push {ref} back {amt}", "move {ref} {amt} later", "make {ref} {amt} later",
                       "delay {ref} by {amt}", "bump {ref} {amt} later"],
                      ["{ref} is running late, push it back {amt}", "{ref} starts {amt} later now",
                       "can we do {ref} {amt} later?"])
        else:
            shapes = (["move {ref} {amt} earlier", "make {ref} {amt} earlier", "start {ref} {amt} earlier"],
                      ["{ref} {amt} earlier please", "can we do {ref} {amt} earlier?",
                       "{ref} needs to start {amt} earlier"])
    elif kind == "day":
        amount, delta = "a day", timedelta(days=1)
        shapes = (["bump {ref} a day", "move {ref} to the day after", "push {ref} back a day"],
                  ["{ref} has to move to the next day, same time", "can we do {ref} a day later?"])
    else:
        amount, delta = "a week", timedelta(days=7)
        shapes = (["move {ref} to same time next week", "push {ref} a week", "make {ref} same time next week"],
                  ["same time next week for {ref}", "{ref}: same time next week please",
                   "{ref} needs to be a week later, same time"])
    shape, imp = _pick(rng, shapes[0], shapes[1], ctx.family)
    msg = _finish(ctx, shape, imp, ref=ref, amt=amount)
    new = shift_wall(ev.start, ev.zone, delta)
    call = _update(ev, start=new, end=new + ev.duration)
    target = Target(0, (new,), ev.duration, False, shift=delta, anchor=ev.start, phrase_zone=ev.zone)
    return ctx.scenario("shift", msg, cal, [call], [target], {ev.id}, moved=ev)


def delete(ctx: Ctx, spec: Spec | None = None) -> Scenario:
    """Delete one event ("cancel Leo's dentist")."""
    rng = ctx.rng
    spec = spec or ctx.pick_spec()
    cal = ctx.calendar([spec.key])
    ev = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    shape, imp = _pick(rng, ["cancel {ref}", "delete {ref}", "remove {ref} from the calendar", "get rid of {ref}"],
                       ["{ref} is cancelled, take it off", "{ref} isn't happening anymore, delete it",
                        "we're not doing {ref} after all"], ctx.family)
    msg = _finish(ctx, shape, imp, ref=ref)
    call = Call("delete_calendar_event", {"event_id": ev.id}, ev.zone)
    return ctx.scenario("delete", msg, cal, [call], [], {ev.id}, deleted=ev)


def relocate(ctx: Ctx) -> Scenario:
    """Change an event's place: home ("at our place") or a business with a home-word in its name."""
    rng = ctx.rng
    business = rng.random() < 0.6
    spec = ctx.pick_spec(exclude=frozenset({"book_club", "garcias", "home_depot", "grandpa"}))
    cal = ctx.calendar([spec.key])
    ev = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    if business:
        full = rng.choice(BUSINESSES)
        name = full.split(",")[0]
        value = rng.choice((full, name))
        shape, imp = _pick(rng, [f"move {{ref}} to {name}", f"change the location of {{ref}} to {name}",
                                 f"set {{ref}}'s location to {name}"],
                           [f"{{ref}} is at {name} now", f"let's do {{ref}} at {name} instead"], ctx.family)
    else:
        value = ctx.home
        word = rng.choice(("our place", "our house", "my place", "home"))
        shape, imp = _pick(rng, [f"move {{ref}} to {word}", f"change the location of {{ref}} to {word}"],
                           [f"{{ref}} is at {word} now", f"let's do {{ref}} at {word} instead"], ctx.family)
    msg = _finish(ctx, shape, imp, ref=ref)
    call = _update(ev, location=value)
    return ctx.scenario("relocate", msg, cal, [call], [], {ev.id}, business=business, moved=ev)


PLACE_TITLES = {
    "Home Depot": ("Paint pickup", "a paint pickup"), "Homewood Suites": ("Grandma's check-in", "grandma's check-in"),
    "HomeGoods": ("Return the lamp", "a lamp return"), "Home Sweet Home Bakery": ("Cake pickup", "the cake pickup"),
}
HOME_TITLES = (("Game night", "game night"), ("Dinner with the Nguyens", "dinner with the Nguyens"),
               ("Playdate with Zoe", "a playdate with Zoe"))


def create_at_place(ctx: Ctx) -> Scenario:
    """Create an event at home or at a business whose name holds a home-word."""
    rng = ctx.rng
    if rng.random() < 0.6:
        full = rng.choice(BUSINESSES)
        name = full.split(",")[0]
        title, ref = PLACE_TITLES[name]
        sc = create(ctx, place=f"at {name}", title_ref=(title, (ref,)))
        sc.calls[0].input["location"] = rng.choice((full, name))
        sc.info["business"] = True
    else:
        title, ref = rng.choice(HOME_TITLES)
        sc = create(ctx, place=rng.choice(("at our place", "at home", "at our house", "at my place")),
                    title_ref=(title, (ref,)))
        sc.calls[0].input["location"] = ctx.home
        sc.info["business"] = False
    sc.scenario = "create_at_place"
    return sc


# ---------------------------------------------------------------- series

def _occurrence_ref(ctx: Ctx, ref: str, day: date) -> str:
    ahead = (day - ctx.today).days
    monday = ctx.today - timedelta(days=ctx.today.weekday())
    week = (day - monday).days // 7
    name = WEEKDAYS[day.weekday()]
    options = [f"{ref} on {MONTHS[day.month - 1]} {day.day}"]
    owned = "'s" in ref  # no "this Saturday's Leo's swimming"
    if week == 0:
        options += [f"{ref} this week"] + ([] if owned else [f"this week's {ref}"])
    if week == 1:
        options += [f"{ref} next week"] + ([] if owned else [f"next week's {ref}"])
    if 1 <= ahead <= 6:
        options += [f"{ref} this {name}"] + ([] if owned else [f"{name}'s {ref}", f"this {name}'s {ref}"])
    return ctx.rng.choice(options)


def occurrence(ctx: Ctx) -> Scenario:
    """Change or cancel one occurrence of a weekly series ("just this week's piano")."""
    rng = ctx.rng
    spec = ctx.pick_spec(weekly=True)
    cal = ctx.calendar([spec.key])
    series = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    first = ctx.today + timedelta(days=(spec.weekly or 0) - ctx.today.weekday())
    if first <= ctx.today:
        first += timedelta(days=7)
    day = first + timedelta(days=7 * rng.choice((0, 0, 1)))
    occ_start = series.occurrence(day)
    occ_id = series.occurrence_id(day)
    occ = _occurrence_ref(ctx, ref, day)
    action = rng.choice(("time", "day", "shift", "delete"))
    only = rng.choice(("just ", "only ", ""))
    targets: list[Target] = []
    rel: list[str] = []
    if action == "delete":
        shape, imp = _pick(rng, ["skip {only}{occ}", "cancel {only}{occ}", "delete {only}{occ}, not the others"],
                           ["{occ} is off, just that one", "no {occ}, the rest stay"], ctx.family)
        msg = _finish(ctx, shape, imp, occ=occ, only=only)
        call = Call("delete_calendar_event", {"event_id": occ_id}, series.zone)
        name = "occurrence_delete"
    else:
        if action == "shift":
            amount, minutes = rng.choice(AMOUNTS)
            delta = timedelta(minutes=minutes)
            new = shift_wall(occ_start, series.zone, delta)
            targets.append(Target(0, (new,), series.duration, False, shift=delta, anchor=occ_start,
                                  phrase_zone=series.zone))
            shape, imp = _pick(rng, ["push {only}{occ} back {amt}", "move {only}{occ} {amt} later"],
                               ["{occ} starts {amt} later, just that one"], ctx.family)
            msg = _finish(ctx, shape, imp, occ=occ, only=only, amt=amount)
        else:
            # Explicit dates only: "next week's piano is on Friday" means that week's Friday to a
            # person, while the date policy reads "Friday" from today.
            dp = (day_phrase(rng, ctx.today, ctx.future_day(avoid=day), allow_relative=False)
                  if action == "day" else None)
            clock = ctx.clock((9, 19))
            tp = time_phrase(rng, clock, ctx.time_style())
            allowed = _readings(dp.allowed if dp else (day,), tp.allowed, series.zone)
            if allowed[0] == occ_start:
                return occurrence(ctx)
            if dp and dp.relative:
                rel.append(dp.prep)
            to, prep = _when(dp, tp)
            targets.append(Target(0, allowed, series.duration, tp.ampm_fixed, phrase_zone=series.zone))
            shape, imp = _pick(rng, ["move {only}{occ} to {to}", "reschedule {only}{occ} for {to}"],
                               ["{occ} is {prep} instead, just that one", "only {occ} moves to {to}"],
                               ctx.family)
            msg = _finish(ctx, shape, imp, occ=occ, only=only, to=to, prep=prep)
            new = allowed[0]
        call = Call("update_calendar_event", {"event_id": occ_id, "start": new, "end": new + series.duration},
                    series.zone)
        name = "occurrence_change"
    sc = ctx.scenario(name, msg, cal, [call], targets, {series.id, occ_id}, series=series, occ_day=day,
                      scope="occurrence")
    sc.relative_phrases += rel
    return sc


def series_change(ctx: Ctx) -> Scenario:
    """Change the time of a whole weekly series, or cancel it for good."""
    rng = ctx.rng
    spec = ctx.pick_spec(weekly=True)
    cal = ctx.calendar([spec.key])
    series = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    first = ctx.today + timedelta(days=(spec.weekly or 0) - ctx.today.weekday())
    if first <= ctx.today:
        first += timedelta(days=7)
    if rng.random() < 0.4:
        shape, imp = _pick(rng, ["cancel {ref} for good, all of them", "delete {ref} for good, every week",
                                 "remove {ref} from every week, we quit"],
                           ["we're done with {ref}, delete all of them", "{ref} is over for good, remove the series"],
                           ctx.family)
        msg = _finish(ctx, shape, imp, ref=ref)
        call = Call("delete_calendar_event", {"event_id": series.id}, series.zone)
        return ctx.scenario("series_delete", msg, cal, [call], [], {series.id}, series=series, occ_day=first,
                            scope="series")
    s_local = local(series.start, series.zone)
    clock = ctx.clock((9, 19))
    while clock == s_local.time().replace(tzinfo=None):
        clock = ctx.clock((9, 19))
    tp = time_phrase(rng, clock, ctx.time_style())
    allowed = _readings((s_local.date(),), tp.allowed, series.zone)
    shape, imp = _pick(rng, ["move {ref} to {t} from now on, every week", "change {ref} to {t} for all the weeks",
                             "make {ref} {t} from now on, all of them"],
                       ["{ref} is {tt} every week from now on", "all the {ref} sessions are {tt} now"], ctx.family)
    msg = _finish(ctx, shape, imp, ref=ref, t=tp.text.removeprefix("at "), tt=tp.text)
    new = allowed[0]
    call = Call("update_calendar_event", {"event_id": series.id, "start": new, "end": new + series.duration},
                series.zone)
    target = Target(0, allowed, series.duration, tp.ampm_fixed, phrase_zone=series.zone)
    return ctx.scenario("series_change", msg, cal, [call], [target], {series.id}, series=series, occ_day=first,
                        scope="series", no_day_mutation=True)


# ---------------------------------------------------------------- several events

def _two_specs(ctx: Ctx, n: int = 2) -> list[Spec]:
    specs = [s for s in POOL if s.weekly is None]
    return ctx.rng.sample(specs, n)


def multi(ctx: Ctx) -> Scenario:
    """Several events in one message: moves, shifts (each from its own time) or cancellations."""
    rng = ctx.rng
    kind = rng.choice(("move", "shift", "shift", "delete"))
    n = 3 if kind != "move" and rng.random() < 0.25 else 2
    specs = _two_specs(ctx, n)
    cal = ctx.calendar([s.key for s in specs])
    evs = [cal[s.key] for s in specs]
    refs = [ctx.ref(s, set(cal)) for s in specs]
    listing = ", ".join(refs[:-1]) + " and " + refs[-1]
    calls: list[Call] = []
    targets: list[Target] = []
    rel: list[str] = []
    if kind == "delete":
        shape, imp = _pick(rng, ["cancel {lst}", "delete {lst}, they're off", "remove {lst} from the calendar"],
                           ["{lst} are both cancelled", "we're skipping {lst}"], ctx.family)
        msg = _finish(ctx, shape, imp, lst=listing)
        calls = [Call("delete_calendar_event", {"event_id": e.id}, e.zone) for e in evs]
    elif kind == "shift":
        amount, minutes = rng.choice(AMOUNTS)
        later = rng.random() < 0.6
        delta = timedelta(minutes=minutes if later else -minutes)
        word = "later" if later else "earlier"
        shape, imp = _pick(rng, ["push {lst} back {amt}" if later else "move {lst} {amt} earlier",
                                 "move {lst} {amt} " + word, "make {lst} {amt} " + word],
                           ["{lst} " + ("both" if n == 2 else "all") + " need to be {amt} " + word], ctx.family)
        msg = _finish(ctx, shape, imp, lst=listing, amt=amount)
        for i, e in enumerate(evs):
            new = shift_wall(e.start, e.zone, delta)
            calls.append(_update(e, start=new, end=new + e.duration))
            targets.append(Target(i, (new,), e.duration, False, shift=delta, anchor=e.start, phrase_zone=e.zone))
    else:
        parts = []
        for i, e in enumerate(evs):
            dp = day_phrase(rng, ctx.today, ctx.future_day(avoid=local(e.start, e.zone).date()), need_bare=True)
            tp = time_phrase(rng, ctx.clock(), ctx.time_style(e.title))
            allowed = _readings(dp.allowed, tp.allowed, ctx.zone)
            if dp.relative:
                rel.append(dp.prep)
            parts.append(_when(dp, tp)[0])
            calls.append(_update(e, start=allowed[0], end=allowed[0] + e.duration))
            targets.append(Target(i, allowed, e.duration, tp.ampm_fixed, phrase_zone=ctx.zone))
        shape, imp = _pick(rng, ["move {a} to {ta} and {b} to {tb}", "reschedule {a} for {ta} and {b} for {tb}"],
                           ["{a} → {ta}, {b} → {tb}", "can you move {a} to {ta}, and {b} to {tb}?"], ctx.family)
        msg = _finish(ctx, shape, imp, a=refs[0], b=refs[1], ta=parts[0], tb=parts[1])
    sc = ctx.scenario(f"multi_{kind}", msg, cal, calls, targets, {e.id for e in evs}, multi=True, events=evs)
    sc.relative_phrases += rel
    return sc


def swap(ctx: Ctx) -> Scenario:
    """Swap two events' times."""
    rng = ctx.rng
    specs = _two_specs(ctx)
    cal = ctx.calendar([s.key for s in specs])
    a, b = cal[specs[0].key], cal[specs[1].key]
    ra, rb = ctx.ref(specs[0], set(cal)), ctx.ref(specs[1], set(cal))
    shape, imp = _pick(rng, ["swap {a} and {b}", "switch {a} and {b} around", "swap the times of {a} and {b}"],
                       ["can {a} and {b} trade places?", "{a} and {b} need to swap slots"], ctx.family)
    msg = _finish(ctx, shape, imp, a=ra, b=rb)
    calls = [_update(a, start=b.start, end=b.start + a.duration), _update(b, start=a.start, end=a.start + b.duration)]
    targets = [Target(0, (b.start,), None, False, phrase_zone=ctx.zone),
               Target(1, (a.start,), None, False, phrase_zone=ctx.zone)]
    return ctx.scenario("swap", msg, cal, calls, targets, {a.id, b.id}, multi=True, events=[a, b])


# ---------------------------------------------------------------- travel zones

def travel(ctx: Ctx) -> Scenario:
    """A time said in another city's zone ("3pm Tokyo time")."""
    rng = ctx.rng
    day = ctx.today + timedelta(days=3)
    choices = [c for c in CITIES if at(day, time(12), c[1]).utcoffset() != at(day, time(12), ctx.zone).utcoffset()]
    city = rng.choice(choices)
    if rng.random() < 0.5:
        sc = create(ctx, city=city,
                    title_ref=("Call with Grandpa", ("a call with Grandpa", "a video call with Grandpa")))
    else:
        sc = move(ctx, spec=BY_KEY["grandpa"], mode="date_time", city=city)
    return sc


# ---------------------------------------------------------------- conflicts and duplicates

def _timed_single(cal: dict[str, Event]) -> list[Event]:
    return [e for e in cal.values() if e.recurrence is None and not e.all_day]


def conflict(ctx: Ctx) -> Scenario:
    """A change that overlaps another timed event: a warning, or an error when a free time was asked."""
    rng = ctx.rng
    kind = rng.choice(("create", "create", "allday", "free"))
    if kind == "free":
        return free_time(ctx)
    title, refs = rng.choice(NEW_EVENTS)
    cal = ctx.calendar([])
    busy = rng.choice(_timed_single(cal))
    b_local = local(busy.start, busy.zone)
    if kind == "allday":
        day = ctx.future_day(1, 10)
        s = at(day, time(0), ctx.zone)
        cal["allday"] = Event(new_id(rng), rng.choice(("Grandma visiting", "School holiday", "Sam away")), s,
                              s + timedelta(days=1), ctx.zone, "allday", all_day=True)
        clock = ctx.clock((8, 19))
        for _ in range(20):
            st = at(day, clock, ctx.zone)
            if not any(not e.all_day and e.start < st + timedelta(hours=1) and st < e.end for e in cal.values()):
                break
            clock = ctx.clock((8, 19))
        else:
            return conflict(ctx)
        expect: list[str] = []
    else:
        day = b_local.date()
        clock = (b_local + timedelta(minutes=rng.choice((0, 15)))).time().replace(tzinfo=None)
        expect = ["conflict"]
    dp = day_phrase(rng, ctx.today, day)
    tp = time_phrase(rng, clock, "exact")
    allowed = _readings(dp.allowed, tp.allowed, ctx.zone)
    to, prep = _when(dp, tp)
    name = rng.choice(refs)
    shape, imp = _pick(rng, ["add {name} {prep}", "put {name} on the calendar {prep}", "schedule {name} for {to}"],
                       ["{name} {prep}, please add it"], ctx.family)
    msg = _finish(ctx, shape, imp, name=name, to=to, prep=prep)
    start = allowed[0]
    call = Call("create_calendar_event", {"title": title, "start": start, "end": start + timedelta(hours=1)}, ctx.zone)
    sc = ctx.scenario(f"conflict_{kind}", msg, cal, [call], [Target(0, allowed, None, True, phrase_zone=ctx.zone)],
                      set(), created=True)
    sc.expect_warnings = expect if len(dp.allowed) == 1 else None
    if dp.relative:
        sc.relative_phrases.append(dp.prep)
    return sc


def _on_weekday_or_day(e: Event, day: date) -> bool:
    """Whether ``e`` (a single event, or any occurrence of a series) falls on ``day``."""
    start = local(e.start, e.zone).date()
    return start.weekday() == day.weekday() if e.recurrence else start == day


def free_time(ctx: Ctx) -> Scenario:
    """"Put X somewhere Friday afternoon when I'm free": a free slot is right, a busy one is wrong."""
    rng = ctx.rng
    title, refs = rng.choice(NEW_EVENTS)
    cal = ctx.calendar([], avoid=frozenset({"dentist_maya"}))
    day = ctx.future_day(1, 6)
    busy_start = at(day, time(rng.choice((13, 14, 15))), ctx.zone)
    busy = Event(new_id(rng), "Dentist - Maya", busy_start, busy_start + timedelta(hours=1), ctx.zone, "dentist_maya",
                 description="Maya - checkup")
    cal = {k: e for k, e in cal.items() if not _on_weekday_or_day(e, day)}
    for spec in POOL:  # keep 5-10 events after clearing the day
        if len(cal) >= 5:
            break
        if spec.key in cal or spec.key == "dentist_maya" or spec.weekly is not None:
            continue
        ev = make_event(rng, ctx.setting, spec, ctx.home, list(cal.values()))
        if not _on_weekday_or_day(ev, day):
            cal[spec.key] = ev
    cal["dentist_maya"] = busy
    name = WEEKDAYS[day.weekday()]
    texts = [f"{name} afternoon", f"this {name} afternoon", f"on the afternoon of {MONTHS[day.month - 1]} {day.day}"]
    if (day - ctx.today).days == 1:
        texts.append("tomorrow afternoon")
    when = rng.choice(texts)
    shape, imp = _pick(rng, ["find me a free hour {when} for {name}", "put {name} somewhere {when} when I'm free",
                             "book {name} {when}, in a free slot", "schedule {name} {when} somewhere it doesn't clash"],
                       ["{name} {when}, wherever I'm free"], ctx.family)
    msg = _finish(ctx, shape, imp, when=when, name=rng.choice(refs))
    free = [at(day, time(h, m), ctx.zone) for h in range(12, 17) for m in (0, 30)]
    free = [s for s in free if not (s < busy.end and busy.start < s + timedelta(hours=1))]
    start = rng.choice(free)
    call = Call("create_calendar_event", {"title": title, "start": start, "end": start + timedelta(hours=1)}, ctx.zone)
    window = (at(day, time(12), ctx.zone), at(day, time(17), ctx.zone))
    # the person gave no length: the hour written is the model's choice, not something to hold it to
    sc = ctx.scenario("free_time_create", msg, cal, [call], [Target(0, tuple(free), None, False,
                                                                    phrase_zone=ctx.zone)],
                      set(), created=True, busy=busy, window=window, free_slots=free)
    sc.expect_warnings = []
    sc.relative_phrases.append(when)
    return sc


def duplicate(ctx: Ctx) -> Scenario:
    """Adding an event that already exists at that time (a warning), or a move done as a create."""
    rng = ctx.rng
    if rng.random() < 0.4:
        sc = move(ctx, mode="date_time")
        sc.info["duplicate_move"] = True
        return sc
    spec = ctx.pick_spec()
    cal = ctx.calendar([spec.key])
    ev = cal[spec.key]
    e_local = local(ev.start, ev.zone)
    dp = day_phrase(rng, ctx.today, e_local.date())
    tp = time_phrase(rng, e_local.time().replace(tzinfo=None), "exact")
    allowed = _readings(dp.allowed, tp.allowed, ctx.zone)
    ref = ctx.ref(spec, set(cal))
    to, prep = _when(dp, tp)
    shape, imp = _pick(rng, ["add {ref} {prep}", "put {ref} on the calendar {prep}", "schedule {ref} for {to}"],
                       ["{ref} is {prep}, add it"], ctx.family)
    msg = _finish(ctx, shape, imp, ref=ref, to=to, prep=prep)
    title = rng.choice((ev.title, ev.title, ev.title.lower()))
    call = Call("create_calendar_event", {"title": title, "start": allowed[0], "end": allowed[0] + ev.duration},
                ctx.zone)
    sc = ctx.scenario("duplicate_create", msg, cal, [call], [Target(0, allowed, None, True, phrase_zone=ctx.zone)],
                      set(), created=True)
    sc.expect_warnings = ["duplicate"] if len(allowed) == 1 else None
    if dp.relative:
        sc.relative_phrases.append(dp.prep)
    return sc


# ---------------------------------------------------------------- newer families: shared helpers

FAMILY_PEOPLE = ("Leo", "Maya", "Sam")
FRIENDS = ("Dana", "Priya", "Alex", "Jordan", "Noah", "Zoe", "Ava")
#: Cities for "3pm melbourne" (no "time"): each shares its offsets with a zone the cases already use.
UNREAD_CITIES = (("Melbourne", "Australia/Melbourne"), ("Tokyo", "Asia/Tokyo"), ("London", "Europe/London"),
                 ("Berlin", "Europe/Berlin"), ("Paris", "Europe/Paris"), ("Chicago", "America/Chicago"),
                 ("Mumbai", "Asia/Kolkata"), ("Sydney", "Australia/Sydney"))


_NEXT_SENTENCE = re.compile(r"([!?]|(?<!\.m)\.) ([a-z])")


def _sentence(text: str) -> str:
    """A clause as a sentence: capitalized (and so is each sentence in it), with a full stop (a
    question mark after "can", "could", "is") unless it already ends in one."""
    text = text.strip().replace("m.. ", "m. ").replace("m..", "m.").replace("m.,", "m.,")
    text = text[:1].upper() + text[1:]
    text = _NEXT_SENTENCE.sub(lambda m: f"{m[1]} {m[2].upper()}", text)
    if text[-1:] in ".?!":
        return text
    return text + ("?" if text.split(" ", 1)[0].lower() in ("can", "could", "is") else ".")


def _day_word(ctx: Ctx, day: date) -> tuple[str, tuple[date, ...], bool]:
    """A short day word for ``day`` (a name, lower-case or abbreviated, "tomorrow", "next <day>", or a
    month and day), with its readings and whether it is relative."""
    rng = ctx.rng
    ahead = (day - ctx.today).days
    name = WEEKDAYS[day.weekday()]
    options: list[tuple[str, tuple[date, ...], bool]] = [
        (rng.choice((f"{MONTHS[day.month - 1][:3]} {ordinal(day.day)}", f"{MONTHS[day.month - 1]} {day.day}")),
         (day,), False)]
    if 1 <= ahead <= 6:
        word = rng.choice((name, name.lower(), rng.choice(WEEKDAY_ABBR[day.weekday()]), f"this {name}"))
        options += [(word, (day,), True)] * 3
    if ahead == 1:
        options.append(("tomorrow", (day,), True))
    nxt = next_weekday_set(ctx.today, day.weekday())
    if day in nxt:
        options.append((f"next {name}", nxt, True))
    return rng.choice(options)


def _unique_day(ctx: Ctx, day: date) -> tuple[str, bool]:
    """A day phrase with exactly one reading (a name 1-6 days ahead, tomorrow, or a month and day)."""
    rng = ctx.rng
    ahead = (day - ctx.today).days
    name = WEEKDAYS[day.weekday()]
    options = [(rng.choice((f"{MONTHS[day.month - 1]} {day.day}", f"{name}, {MONTHS[day.month - 1]} {day.day}")),
                False)]
    if 1 <= ahead <= 6:
        options += [(rng.choice((name, f"this {name}", name.lower())), True)] * 2
    if ahead == 1:
        options.append(("tomorrow", True))
    return rng.choice(options)


def _say_move(ctx: Ctx, ref: str, to: str, prep: str) -> str:
    """A request to move ``ref``: imperatives, statements, questions, several sentences."""
    rng = ctx.rng
    shapes = ["move {ref} to {to}", "reschedule {ref} for {to}", "can you move {ref} to {to}?",
              "{ref} has to be {prep} instead. Can you change it?",
              "ugh, {ref} clashes with work. Move it to {to}?",
              "{ref} is moving to {to}. Please update the calendar.",
              "Change of plans! {ref} needs to be {prep}. Thanks!"]
    return _sentence(rng.choice(shapes).format(ref=ref, to=to, prep=prep))


def _say_create(ctx: Ctx, name: str, to: str, prep: str) -> str:
    """A request to add ``name``."""
    rng = ctx.rng
    shapes = ["add {name} {prep}", "put {name} on the calendar {prep}", "can you put {name} in {prep}?",
              "{name} {prep}. Add it please!", "we have {name} {prep}. Can you add it?",
              "Reminder to self: {name} {prep}. Put it in the calendar."]
    return _sentence(rng.choice(shapes).format(name=name, to=to, prep=prep))


# ---------------------------------------------------------------- current_state

STATE_KEYS = ("track", "dance_show", "concert", "tutoring", "soccer", "haircut", "vet", "ptc", "tennis",
              "dentist_leo", "grandpa", "pta")


def _clock_text(clock: time, exact: bool) -> str:
    """"6:10" (bare: AM or PM) or "6:10pm" (exact)."""
    h12 = clock.hour % 12 or 12
    base = f"{h12}" if clock.minute == 0 else f"{h12}:{clock.minute:02d}"
    return base + ("pm" if clock.hour >= 12 else "am") if exact else base


def current_state(ctx: Ctx) -> Scenario:
    """How things are now, then a change anchored at the event ("track practice is tues at 6:10
    right? make it half an hour later"): the stated time is not where the event goes."""
    rng = ctx.rng
    spec = BY_KEY[rng.choice(STATE_KEYS)]
    cal = ctx.calendar([spec.key])
    ev = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    loc = local(ev.start, ev.zone)
    clock = loc.time().replace(tzinfo=None)
    ahead = (loc.date() - ctx.today).days
    day_words = [f"{MONTHS[loc.month - 1][:3]} {ordinal(loc.day)}", f"{MONTHS[loc.month - 1]} {loc.day}"]
    if 1 <= ahead <= 6:
        name = WEEKDAYS[loc.weekday()]
        day_words = [name, name.lower(), *WEEKDAY_ABBR[loc.weekday()], f"this {name}"]
        if ahead == 1:
            day_words.append("tomorrow")
    day = rng.choice(day_words)
    clk = _clock_text(clock, rng.random() < 0.5)
    on = "" if day in ("tomorrow",) or day.startswith("this ") else "on "
    state = rng.choice([f"{ref} is {day} at {clk} right?", f"{ref} is {on}{day} at {clk}, right?",
                        f"{ref} is at {clk} on {day}.", f"so {ref} is currently {day} at {clk}.",
                        f"I see {ref} is {on}{day} at {clk}.", f"{ref} got moved to {day} at {clk} already.",
                        f"{ref}: it's at {clk} {day}, right?", f"{ref} is {day} at {clk}, I think?"])
    kind = rng.choice(("later", "later", "earlier", "day", "day", "day_before", "week"))
    if kind in ("later", "earlier"):
        amount, minutes = rng.choice(AMOUNTS)
        delta = timedelta(minutes=minutes if kind == "later" else -minutes)
        change = rng.choice(["make it {amt} later", "push it back {amt}", "can we do it {amt} later?",
                             "move it {amt} later please", "could you bump it {amt} later?"] if kind == "later" else
                            ["make it {amt} earlier", "can we start {amt} earlier?", "move it {amt} earlier",
                             "have it start {amt} earlier"]).format(amt=amount)
    elif kind == "day":
        delta = timedelta(days=1)
        change = rng.choice(["can we do a day later, same time", "bump it a day", "push it to the day after, same time",
                             "move it a day later, same time?"])
    elif kind == "day_before":
        delta = timedelta(days=-1)
        change = rng.choice(["can we do it the day before instead, same time?", "move it a day earlier, same time"])
    else:
        delta = timedelta(days=7)
        change = rng.choice(["make it same time next week", "push it a week, same time",
                             "can we do same time next week instead?"])
    if state.endswith("?") and rng.random() < 0.25:
        msg = f"{_sentence(state)} If so, {change}" + ("" if change.endswith("?") else ".")
    else:
        msg = f"{_sentence(state)} {_sentence(change)}"
    if rng.random() < 0.15:
        msg = "Quick one. " + msg
    new = shift_wall(ev.start, ev.zone, delta)
    call = _update(ev, start=new, end=new + ev.duration)
    target = Target(0, (new,), ev.duration, False, shift=delta, anchor=ev.start, phrase_zone=ev.zone)
    return ctx.scenario(f"state_{kind}", msg, cal, [call], [target], {ev.id}, moved=ev, stated=ev.start,
                        prefer=("stated_time", "stated_twin", "from_now"))


# ---------------------------------------------------------------- day_range

RANGE_NEW: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Garage sale", ("the garage sale", "a garage sale")), ("Yard work", ("yard work",)),
    ("Car service", ("the car service", "car service")), ("Volunteer shift", ("my volunteer shift",)),
    ("Swim meet", ("the swim meet", "Leo's swim meet")), ("Study group - Maya", ("Maya's study group",)),
)


def _plain_wall(day: date, clock: time, length: timedelta, zone: str) -> bool:
    """Whether a range starting at ``clock`` on ``day`` has one wall reading at both ends, in one offset."""
    start = at(day, clock, zone)
    end = start + length
    naive = datetime.combine(day, clock)
    tz = ZoneInfo(zone)
    return (local(start, zone).replace(tzinfo=None) == naive
            and naive.replace(tzinfo=tz, fold=1).utcoffset() == naive.replace(tzinfo=tz, fold=0).utcoffset()
            and start.utcoffset() == local(end, zone).utcoffset())


def day_range(ctx: Ctx) -> Scenario:
    """A time range after a day ("sunday 9-11", "sat 2-4", "fri 11-1"): a range, AM/PM per §4."""
    rng = ctx.rng
    rp = range_phrase(rng)
    mode = rng.choice(("create", "move"))
    cal = ctx.calendar([])
    ev: Event | None = None
    if mode == "move":
        spec = ctx.pick_spec(exclude=frozenset({"garcias", "book_club", "pta"}))
        cal = ctx.calendar([spec.key])
        ev = cal[spec.key]
    day = ctx.future_day(1, 10)
    word, days, relative = _day_word(ctx, day)
    allowed = _readings(days, rp.starts, ctx.zone)
    if (ev is not None and ev.start in allowed) or not all(
            _plain_wall(d, t, rp.length, ctx.zone) for d in days for t in rp.starts + rp.tolerated):
        return day_range(ctx)  # no range across a DST change: its end would be another question
    tolerated = _readings(days, rp.tolerated, ctx.zone)
    when = rng.choice((f"{word} {rp.text}", f"{word} {rp.text}", f"{word}, {rp.text}", f"{word} from {rp.text}"))
    prep = when if word == "tomorrow" or word.startswith(("this ", "next ")) else f"on {when}"
    if ev is not None:
        ref = ctx.ref(BY_KEY[ev.key], set(cal))
        msg = _say_move(ctx, ref, when, prep)
        call = _update(ev, start=allowed[0], end=allowed[0] + rp.length)
        info: dict[str, object] = {"moved": ev}
        referenced = {ev.id}
    else:
        title, refs = rng.choice(RANGE_NEW)
        msg = _say_create(ctx, rng.choice(refs), when, prep)
        call = Call("create_calendar_event", {"title": title, "start": allowed[0], "end": allowed[0] + rp.length},
                    ctx.zone)
        info = {"created": True}
        referenced = set()
    mday = month_day_date(ctx.today, *rp.month_day) if rp.month_day else None
    target = Target(0, allowed, rp.length, False, phrase_zone=ctx.zone)
    sc = ctx.scenario(f"range_{mode}", msg, cal, [call], [target], referenced, range_length=rp.length,
                      tolerated=tolerated, month_day_date=None if mday in days else mday, keep_end=True,
                      prefer=("month_day", "wrong_length", "day_off", "wrong_weekday"), **info)
    if relative:
        sc.relative_phrases.append(word)
    return sc


# ---------------------------------------------------------------- unread_words

def _unread_day(ctx: Ctx) -> tuple[str, tuple[date, ...], dict[str, object]]:
    """A day word the policy does not read, with its natural reading (and what a misreading gives)."""
    rng = ctx.rng
    kind = rng.choice(("misspelled", "misspelled", "tomorrow", "week_from", "fortnight_from"))
    if kind == "misspelled":
        day = ctx.today + timedelta(days=rng.randint(1, 6))
        word = rng.choice(MISSPELLED[day.weekday()])
        word = rng.choice((word, word.capitalize()))
        return word, (day,), {"unread": "misspelled_day", "prefer": ("wrong_weekday", "day_off")}
    if kind == "tomorrow":
        return rng.choice(TEXT_TOMORROW), (ctx.today + timedelta(days=1),), {"unread": "text_speak",
                                                                            "prefer": ("day_off",)}
    wd = rng.randrange(7)
    name = rng.choice((WEEKDAYS[wd], WEEKDAYS[wd].lower()))
    base = weekday_set(ctx.today, wd)
    if kind == "week_from":
        return f"a week from {name}", tuple(d + timedelta(days=7) for d in base), {
            "unread": "week_from", "base_days": base, "prefer": ("base_day",)}
    word = rng.choice((f"a fortnight from {name}", f"two weeks from {name}"))
    return word, tuple(d + timedelta(days=14) for d in base), {
        "unread": "fortnight_from", "base_days": base, "fortnight": True, "prefer": ("base_day", "week_for_fortnight")}


def unread_words(ctx: Ctx) -> Scenario:
    """Wordings the date policy does not read ("wensday", "2moro", "2nite", "3pm melbourne", "his
    time" when only the calendar names the city, "a week from tuesday"): the natural reading is
    right (valid), a write outside it is wrong (a deferral is counted apart)."""
    rng = ctx.rng
    kind = rng.choice(("day", "day", "day", "tonight", "city", "his_time"))
    if kind == "city":
        return _unread_city(ctx)
    if kind == "his_time":
        return _unread_his_time(ctx)
    mode = rng.choice(("move", "move", "move_day", "create"))
    info: dict[str, object]
    if kind == "tonight":
        hour = rng.randint(5, 10)
        minute = rng.choice((0, 0, 30))
        word = rng.choice(TEXT_TONIGHT)
        exact = rng.random() < 0.4
        clk = f"{hour}" if minute == 0 else f"{hour}:{minute:02d}"
        when = f"{word} at {clk}{'pm' if exact else ''}"
        days: tuple[date, ...] = (ctx.today,)
        times: tuple[time, ...] = (time(hour + 12, minute),)
        ampm_fixed = exact
        info = {"unread": "text_speak", "prefer": ("day_off",)}
        mode = "create" if mode == "create" else "move"
        to = prep = when
        day_only = False
    else:
        word, days, info = _unread_day(ctx)
        day_only = mode == "move_day"
        if day_only:
            to = prep = f"{word}, same time"
            times = ()
            ampm_fixed = False
        else:
            tp = time_phrase(rng, ctx.clock(), rng.choice(("exact", "exact", "part")))
            times, ampm_fixed = tp.allowed, tp.ampm_fixed
            to = f"{word} {tp.text}"
            prep = to if word.startswith(("a ", "two ")) or word.lower() in TEXT_TOMORROW else f"on {to}"
    if mode == "create":
        title, refs = rng.choice(NEW_EVENTS)
        cal = ctx.calendar([])
        if not times:
            times = (ctx.clock(),)
            tp = time_phrase(rng, times[0], "exact")
            to, prep = f"{word} {tp.text}", f"{word} {tp.text}"
            ampm_fixed = True
        allowed = _readings(days, times, ctx.zone)
        msg = _say_create(ctx, rng.choice(refs), to, prep)
        inp: dict[str, object] = {"title": title, "start": allowed[0]}
        if rng.random() < 0.7:
            inp["end"] = allowed[0] + timedelta(minutes=rng.choice((30, 60, 90)))
        calls = [Call("create_calendar_event", inp, ctx.zone)]
        target = Target(0, allowed, None, ampm_fixed, phrase_zone=ctx.zone)
        sc = ctx.scenario(f"unread_{info['unread']}_create", msg, cal, calls, [target], set(), created=True, **info)
    else:
        spec = ctx.pick_spec()
        cal = ctx.calendar([spec.key])
        ev = cal[spec.key]
        ref = ctx.ref(spec, set(cal))
        ev_clock = local(ev.start, ev.zone).time().replace(tzinfo=None)
        allowed = _readings(days, times or (ev_clock,), ctx.zone)
        if ev.start in allowed:
            return unread_words(ctx)
        msg = _say_move(ctx, ref, to, prep)
        call = _update(ev, start=allowed[0], end=allowed[0] + ev.duration)
        target = Target(0, allowed, ev.duration, ampm_fixed, phrase_zone=ctx.zone)
        sc = ctx.scenario(f"unread_{info['unread']}_move", msg, cal, [call], [target], {ev.id}, moved=ev, **info)
    return sc


def _unread_city(ctx: Ctx) -> Scenario:
    """"3pm melbourne": a city with no "time" after it (its wall clock, naturally)."""
    rng = ctx.rng
    day = ctx.future_day(1, 10)
    choices = [c for c in UNREAD_CITIES
               if at(day, time(12), c[1]).utcoffset() != at(day, time(12), ctx.zone).utcoffset()]
    city = rng.choice(choices)
    dp = day_phrase(rng, ctx.today, day, need_bare=True)
    tp = time_phrase(rng, ctx.clock((7, 20)), "exact")
    cityword = rng.choice((city[0], city[0].lower()))
    allowed = _readings(dp.allowed, tp.allowed, city[1])
    to, prep = _when(dp, tp)
    to, prep = f"{to} {cityword}", f"{prep} {cityword}"
    if rng.random() < 0.5:
        title, refs = rng.choice((("Call with Grandpa", ("a call with Grandpa",)),
                                  ("Video call with Aunt Mei", ("a video call with Aunt Mei",)),
                                  ("Call with the Hendersons", ("a call with the Hendersons",))))
        cal = ctx.calendar([])
        msg = _say_create(ctx, rng.choice(refs), to, prep)
        inp: dict[str, object] = {"title": title, "start": allowed[0], "end": allowed[0] + timedelta(minutes=30)}
        sc = ctx.scenario("unread_city_create", msg, cal, [Call("create_calendar_event", inp, city[1])],
                          [Target(0, allowed, None, tp.ampm_fixed, phrase_zone=city[1])], set(), created=True,
                          city=city, unread="city_no_time", prefer=("wrong_zone",))
    else:
        spec = BY_KEY["grandpa"]
        cal = ctx.calendar([spec.key])
        ev = cal[spec.key]
        if ev.start in allowed:
            return _unread_city(ctx)
        msg = _say_move(ctx, ctx.ref(spec, set(cal)), to, prep)
        call = _update(ev, city[1], start=allowed[0], end=allowed[0] + ev.duration)
        sc = ctx.scenario("unread_city_move", msg, cal, [call],
                          [Target(0, allowed, ev.duration, tp.ampm_fixed, phrase_zone=city[1])], {ev.id}, moved=ev,
                          city=city, unread="city_no_time", prefer=("wrong_zone",))
    if dp.relative:
        sc.relative_phrases.append(dp.prep)
    return sc


def _unread_his_time(ctx: Ctx) -> Scenario:
    """"at 10am his time" when only the calendar (the event's place or description) names the city."""
    rng = ctx.rng
    day = ctx.future_day(1, 10)
    choices = [c for c in CITIES if at(day, time(12), c[1]).utcoffset() != at(day, time(12), ctx.zone).utcoffset()]
    city = rng.choice(choices)
    person = rng.choice((("grandpa", "his"), ("mei", "her"), ("hendersons", "their")))
    cal = ctx.calendar(["grandpa"] if person[0] == "grandpa" else [])
    if person[0] == "grandpa":
        ev = cal["grandpa"]
        ref = ctx.ref(BY_KEY["grandpa"], set(cal))
        title = ev.title
    else:
        title = "Call with Aunt Mei" if person[0] == "mei" else "Call with the Hendersons"
        ref = rng.choice(("the call with Aunt Mei", "Aunt Mei's call") if person[0] == "mei" else
                         ("the call with the Hendersons", "the Henderson call"))
        start = at(ctx.future_day(1, 9), time(rng.randint(8, 20), rng.choice((0, 30))), ctx.zone)
        ev = Event(new_id(rng), title, start, start + timedelta(minutes=45), ctx.zone, person[0])
        cal[person[0]] = ev
    if rng.random() < 0.5:
        ev.location = rng.choice((f"{city[0]}", f"Video call ({city[0]})"))
    else:
        who = {"grandpa": "Grandpa Joe", "mei": "Aunt Mei", "hendersons": "The Hendersons"}[person[0]]
        ev.description = f"{who} - {'lives' if person[0] != 'hendersons' else 'live'} in {city[0]}"
    dp = day_phrase(rng, ctx.today, day, need_bare=True)
    tp = time_phrase(rng, ctx.clock((7, 20)), "exact")
    allowed = _readings(dp.allowed, tp.allowed, city[1])
    to, prep = _when(dp, tp)
    to, prep = f"{to} {person[1]} time", f"{prep} {person[1]} time"
    if rng.random() < 0.6:
        if ev.start in allowed:
            return _unread_his_time(ctx)
        msg = _say_move(ctx, ref, to, prep)
        call = _update(ev, city[1], start=allowed[0], end=allowed[0] + ev.duration)
        sc = ctx.scenario("unread_his_time_move", msg, cal, [call],
                          [Target(0, allowed, ev.duration, tp.ampm_fixed, phrase_zone=city[1])], {ev.id}, moved=ev,
                          city=city, unread="his_time", prefer=("wrong_zone",))
    else:
        name = "another " + title[0].lower() + title[1:]
        msg = _say_create(ctx, name, to, prep)
        inp: dict[str, object] = {"title": title, "start": allowed[0], "end": allowed[0] + ev.duration}
        sc = ctx.scenario("unread_his_time_create", msg, cal, [Call("create_calendar_event", inp, city[1])],
                          [Target(0, allowed, None, tp.ampm_fixed, phrase_zone=city[1])], {ev.id}, created=True,
                          city=city, unread="his_time", prefer=("wrong_zone",))
    if dp.relative:
        sc.relative_phrases.append(dp.prep)
    return sc


# ---------------------------------------------------------------- chained

CHAIN_FIRST = ("concert", "dance_show", "soccer", "ptc", "track", "tutoring")
CHAIN_NEW = (("Dinner out", ("dinner out", "dinner at Luigi's")), ("Ice cream", ("ice cream with the kids",)),
             ("Photos with Grandma", ("photos with Grandma",)))


def chained(ctx: Ctx) -> Scenario:
    """"Move the concert up 30 min and put the dinner right after it": the second event starts at
    the first one's new end."""
    rng = ctx.rng
    a_spec = BY_KEY[rng.choice(CHAIN_FIRST)]
    create_second = rng.random() < 0.35
    cal = ctx.calendar([a_spec.key] + ([] if create_second else ["family_dinner"]))
    a = cal[a_spec.key]
    ra = ctx.ref(a_spec, set(cal))
    b: Event | None = None
    if not create_second:
        b = cal["family_dinner"]
        gap = timedelta(minutes=rng.choice((45, 60, 90)))
        b.start = a.end + gap
        b.end = b.start + timedelta(minutes=90)
        rb = ctx.ref(BY_KEY["family_dinner"], set(cal))
        second = rng.choice(["put {b} right after it", "move {b} to right after it",
                             "have {b} start right when it ends", "move {b} so it starts as soon as it's over"])
        second = second.format(b=rb)
    else:
        title, refs = rng.choice(CHAIN_NEW)
        second = rng.choice(["add {n} right after it", "book {n} for right after",
                             "put {n} in right after it ends"]).format(n=rng.choice(refs))
    amount, minutes = rng.choice([x for x in AMOUNTS if x[1] <= 60])
    earlier = rng.random() < 0.6
    delta = timedelta(minutes=-minutes if earlier else minutes)
    first = rng.choice(["move {a} up {amt}", "move {a} {amt} earlier", "start {a} {amt} earlier"] if earlier else
                       ["push {a} back {amt}", "move {a} {amt} later", "make {a} start {amt} later"]).format(
        a=ra, amt=amount)
    shape = rng.choice(("{f} and {s}", "{F}. Then {s}.", "can you {f} and {s}?", "{F}, please. Oh, and {s}.",
                        "{F}? And {s}."))
    msg = _sentence(shape.format(f=first, s=second, F=_sentence(first)[:-1]))
    new_a = shift_wall(a.start, a.zone, delta)
    new_end = new_a + a.duration
    calls = [_update(a, start=new_a, end=new_end)]
    targets = [Target(0, (new_a,), a.duration, False, shift=delta, anchor=a.start, phrase_zone=a.zone)]
    if b is not None:
        calls.append(_update(b, start=new_end, end=new_end + b.duration))
        targets.append(Target(1, (new_end,), b.duration, False, phrase_zone=a.zone))
        referenced = {a.id, b.id}
    else:
        inp: dict[str, object] = {"title": title, "start": new_end,
                                  "end": new_end + timedelta(minutes=rng.choice((60, 90)))}
        calls.append(Call("create_calendar_event", inp, a.zone))
        targets.append(Target(1, (new_end,), None, False, phrase_zone=a.zone))
        referenced = {a.id}
    return ctx.scenario("chained_create" if b is None else "chained_move", msg, cal, calls, targets, referenced,
                        multi=True, events=[a] + ([b] if b else []), chain_old_end=a.end, chain_delta=delta,
                        chain_second=b, prefer=("old_end", "shift_wrong_event"))


# ---------------------------------------------------------------- free_time_words

BUSY_TITLES = (("Dentist - Maya", "Maya - checkup"), ("Team meeting", None), ("Haircut - Sam", "Sam - trim"),
               ("School assembly", "Leo - year 4"), ("Conference call", None), ("Pharmacy pickup", None))
FREE_WINDOWS = {"day": ((0, 24), (9, 17)), "morning": ((6, 12), (9, 12)), "afternoon": ((12, 17), (12, 17)),
                "evening": ((17, 21), (17, 21))}


def free_time_words(ctx: Ctx) -> Scenario:
    """Free-time asks in other words ("find us a free 20 min on thursday and book the call",
    "squeeze it in when nothing's on"): any free start in the window is right, an overlap is wrong."""
    rng = ctx.rng
    title, refs = rng.choice(NEW_EVENTS)
    name = rng.choice(refs)
    day = ctx.future_day(1, 6)
    part = rng.choice(("day", "day", "morning", "afternoon", "evening"))
    (w_lo, w_hi), (s_lo, s_hi) = FREE_WINDOWS[part]
    length_word, minutes = rng.choice((("a free 20 min", 20), ("a free half hour", 30), ("an open hour", 60),
                                       ("a free 45 minutes", 45), ("", 0), ("", 0)))
    written = timedelta(minutes=minutes or rng.choice((30, 60)))
    cal = {k: e for k, e in ctx.calendar([], size=(4, 7)).items() if not _on_weekday_or_day(e, day)}
    busy: list[Event] = []
    hours = list(range(s_lo, s_hi))
    rng.shuffle(hours)
    for h in hours[: rng.choice((2, 2, 3))]:
        title_b, desc = rng.choice(BUSY_TITLES)
        st = at(day, time(h, rng.choice((0, 15, 30))), ctx.zone)
        ln = timedelta(minutes=rng.choice((45, 60, 90)))
        if any(b.start < st + ln and st < b.end for b in busy):
            continue
        busy.append(Event(new_id(rng), title_b, st, st + ln, ctx.zone, f"busy{len(busy)}", description=desc))
    step = timedelta(minutes=15)
    slots: list[datetime] = []
    s = at(day, time(s_lo), ctx.zone)
    last = at(day, time(s_hi - 1, 59), ctx.zone) if s_hi < 24 else at(day, time(23, 59), ctx.zone)
    while s + written <= last + timedelta(minutes=1):
        if not any(b.start < s + written and s < b.end for b in busy):
            slots.append(s)
        s += step
    if not slots or not busy:
        return free_time_words(ctx)
    for spec in POOL:  # keep 5-10 events after clearing the day
        if len(cal) + len(busy) >= 5:
            break
        if spec.key in cal or spec.weekly is not None:
            continue
        ev = make_event(rng, ctx.setting, spec, ctx.home, list(cal.values()))
        if not _on_weekday_or_day(ev, day):
            cal[spec.key] = ev
    for b in busy:
        cal[b.key] = b
    if rng.random() < 0.3:
        s0 = at(day, time(0), ctx.zone)
        cal["allday"] = Event(new_id(rng), rng.choice(("Grandma visiting", "School holiday", "Sam away")), s0,
                              s0 + timedelta(days=1), ctx.zone, "allday", all_day=True)
    word, relative = _unique_day(ctx, day)
    if part == "day":
        when = word
        when_on = word if word == "tomorrow" or word.startswith("this ") else f"on {word}"
    elif word[:1].isdigit() or word.split(" ")[0].rstrip(",") in MONTHS or "," in word:
        when = when_on = f"on the {part} of {word.split(', ')[-1]}"
    else:
        when = f"{word} {part}"
        when_on = when if word == "tomorrow" or word.startswith("this ") else f"on {when}"
    if length_word:
        shape = rng.choice(["find us {len} {on} and book {name}", "can you find {len} {on} for {name}? Book it.",
                            "grab {len} {on} when we're not busy and put {name} there",
                            "{name} needs {len} {on}. Squeeze it in wherever there's a gap.",
                            "slot {name} into {len} {on}"])
    else:
        shape = rng.choice(["squeeze {name} in {on} when nothing's on",
                            "{name} has to happen {on}. Squeeze it in when nothing's on.",
                            "is there a gap {on}? Put {name} in it.",
                            "put {name} {on} wherever the calendar is empty",
                            "fit {name} in {on} around everything else, where there's room"])
    msg = _sentence(shape.format(len=length_word, on=when_on, name=name))
    start = rng.choice(slots)
    call = Call("create_calendar_event", {"title": title, "start": start, "end": start + written}, ctx.zone)
    hi = at(day, time(w_hi), ctx.zone) if w_hi < 24 else at(day + timedelta(days=1), time(0), ctx.zone)
    target = Target(0, tuple(slots), timedelta(minutes=minutes) if minutes else None, False, phrase_zone=ctx.zone)
    sc = ctx.scenario(f"free_words_{part}", msg, cal, [call], [target], set(), created=True, busy=rng.choice(busy),
                      busy_all=list(busy), free_window=(at(day, time(w_lo), ctx.zone), hi), free_len=written,
                      keep_end=True, prefer=("overlaps_busy", "runs_into_busy"))
    sc.expect_warnings = []
    if relative:
        sc.relative_phrases.append(when)
    return sc


# ---------------------------------------------------------------- pinned

PIN_AMOUNTS = (("10 minutes", 10), ("15 min", 15), ("20 minutes", 20), ("half an hour", 30))
LENGTH_AMOUNTS = (("15 minutes", 15), ("half an hour", 30), ("30 min", 30), ("45 minutes", 45), ("an hour", 60))


def pinned(ctx: Ctx) -> Scenario:
    """One end kept, the other moved ("start 10 minutes sooner, same end time", "keep the start,
    end at 5", "make it an hour longer"): the pinned part must not move."""
    rng = ctx.rng
    spec = ctx.pick_spec()
    cal = ctx.calendar([spec.key])
    ev = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    loc = local(ev.start, ev.zone)
    kind = rng.choice(("start_keep_end", "keep_start_end_at", "longer", "shorter"))
    tolerated: tuple[datetime, ...] = ()
    start: datetime = ev.start
    amount = ""
    if kind == "start_keep_end":
        amount, minutes = rng.choice(PIN_AMOUNTS)
        d = timedelta(minutes=minutes)
        sooner = rng.random() < 0.7 or ev.duration - d < timedelta(minutes=15)
        start = ev.start - d if sooner else ev.start + d
        end = ev.end
        shape = rng.choice(["start {ref} {amt} sooner, same end time",
                            "have {ref} start {amt} earlier but keep the end",
                            "can {ref} begin {amt} earlier? It should still end at the same time.",
                            "{ref}: start {amt} earlier, the end time stays"] if sooner else
                           ["start {ref} {amt} later but keep the end time",
                            "push the start of {ref} back {amt}, same end time",
                            "{ref} can't start on time. Start it {amt} later, same end."])
        wrong = [(start, start + ev.duration)]
        write_start = True
        end_only_ok = False
    elif kind == "keep_start_end_at":
        for _ in range(20):
            end_clock = (loc + timedelta(minutes=15 * rng.randint(2, 12))).time().replace(tzinfo=None)
            end = at(loc.date(), end_clock, ev.zone)
            if end > ev.start + timedelta(minutes=15) and end != ev.end and end_clock.hour >= 1:
                break
        else:
            return pinned(ctx)
        bare = rng.random() < 0.3 and 1 <= end_clock.hour % 12 <= 11
        if bare:
            h12 = end_clock.hour % 12
            t = f"{h12}" if end_clock.minute == 0 else f"{h12}:{end_clock.minute:02d}"
            twin = at(loc.date(), time((end_clock.hour + 12) % 24, end_clock.minute), ev.zone)
            tolerated = (twin if twin > ev.start else twin + timedelta(days=1),)
        else:
            t = _clock_text(end_clock, True)
        shape = rng.choice(["keep the start of {ref}, end at {t}", "{ref} should end at {t} instead, same start",
                            "can {ref} finish at {t}? Don't change the start.",
                            "same start for {ref}, but make it end at {t}"])
        shape = shape.replace("{t}", t)
        wrong = [(end - ev.duration, end)]
        write_start = rng.random() < 0.5
        end_only_ok = True
    else:
        amount, minutes = rng.choice(LENGTH_AMOUNTS)
        d = timedelta(minutes=minutes)
        if kind == "shorter" and ev.duration - d < timedelta(minutes=15):
            kind = "longer"
        if kind == "longer":
            end = ev.end + d
            shape = rng.choice(["make {ref} {amt} longer", "add {amt} to the end of {ref}",
                                "can {ref} run {amt} longer?", "{ref} needs {amt} more at the end. Extend it please."])
            wrong = [(ev.start + d, ev.end + d), (ev.start - d, ev.end)]
        else:
            end = ev.end - d
            shape = rng.choice(["make {ref} {amt} shorter", "cut {ref} short by {amt}",
                                "end {ref} {amt} early, same start", "{ref} only needs to go {amt} less. Shorten it?"])
            wrong = [(ev.start - d, ev.end - d), (ev.start + d, ev.end)]
        write_start = rng.random() < 0.5
        end_only_ok = True
    msg = _sentence(shape.format(ref=ref, amt=amount))
    fields: dict[str, object] = {}
    if write_start or not end_only_ok:
        fields["start"] = start
    if not (kind == "start_keep_end" and rng.random() < 0.35):
        fields["end"] = end
    call = Call("update_calendar_event", {"event_id": ev.id, **fields}, ev.zone)
    targets = [Target(0, (start,), end - start, False, phrase_zone=ev.zone)] if "start" in fields else []
    info: dict[str, object] = {"moved": ev, "pinned_wrong": wrong, "prefer": ("pinned_moved", "end_wrong")}
    if "end" in fields:
        info.update(end_allowed=(end,), end_tolerated=tolerated)
    return ctx.scenario(f"pinned_{kind}", msg, cal, [call], targets, {ev.id}, **info)


# ---------------------------------------------------------------- created_values

TITLED = (
    (FAMILY_PEOPLE, ("Dentist - {p}", "{p}'s dentist appointment", "Dentist ({p})"),
     ("{p}'s dentist appointment", "a dentist appointment for {p}")),
    (FAMILY_PEOPLE, ("Eye exam - {p}", "{p} eye exam"), ("{p}'s eye exam", "an eye exam for {p}")),
    (FAMILY_PEOPLE, ("Haircut - {p}", "{p}'s haircut"), ("a haircut for {p}", "{p}'s haircut")),
    (FRIENDS, ("Coffee with {p}",), ("coffee with {p}",)),
    (FRIENDS, ("Playdate with {p}",), ("a playdate with {p}",)),
    (FRIENDS, ("Call with {p}",), ("a call with {p}",)),
)
SPANS = (("Grandma visiting", "Grandma's staying with us"), ("Sam away - conference", "Sam's away at a conference"),
         ("Beach trip", "we're at the beach"), ("Leo - school camp", "Leo's at school camp"))


def created_values(ctx: Ctx) -> Scenario:
    """A created event's own values: the title names the person the message names; an all-day
    span covers exactly the days asked ("block off thursday and friday", "through monday")."""
    rng = ctx.rng
    if rng.random() < 0.5:
        people, titles, phrases = rng.choice(TITLED)
        p = rng.choice(people)
        fmt = rng.choice(titles)
        title = fmt.format(p=p)
        others = [o for o in people if o != p]
        must = ["dentist_maya"] if "Dentist" in fmt and p == "Leo" and rng.random() < 0.5 else []
        cal = ctx.calendar(must)
        dp = day_phrase(rng, ctx.today, ctx.future_day(1, 12))
        tp = time_phrase(rng, ctx.clock(), ctx.time_style(title))
        allowed = _readings(dp.allowed, tp.allowed, ctx.zone)
        to, prep = _when(dp, tp)
        msg = _say_create(ctx, rng.choice(phrases).format(p=p), to, prep)
        inp: dict[str, object] = {"title": title, "start": allowed[0]}
        if rng.random() < 0.6:
            inp["end"] = allowed[0] + timedelta(minutes=rng.choice((30, 45, 60)))
        sc = ctx.scenario("created_title", msg, cal, [Call("create_calendar_event", inp, ctx.zone)],
                          [Target(0, allowed, None, tp.ampm_fixed, phrase_zone=ctx.zone)], set(), created=True,
                          title_wrong=[fmt.format(p=o) for o in others], person=p, prefer=("title_other_person",))
        if dp.relative:
            sc.relative_phrases.append(dp.prep)
        return sc
    kind = rng.choice(("and", "and", "through", "through", "until", "single"))
    first = ctx.today + timedelta(days=rng.randint(1, 5))
    last = first + timedelta(days={"and": 1, "single": 0}.get(kind, rng.randint(2, 3)))
    a, rel_a = _unique_day(ctx, first)
    b, rel_b = _unique_day(ctx, last)
    if a == "tomorrow" and b.startswith("this "):
        b = b.removeprefix("this ")
    span_title, reason = rng.choice(SPANS)
    block = rng.random() < 0.5
    title = rng.choice(("Blocked", "Busy", "Out")) if block else span_title
    if kind == "and":
        shape = rng.choice(["block off {a} and {b}", "block {a} and {b} on the calendar. {R}.",
                            "can you block off {a} and {b}? {R}."]) if block else \
            rng.choice(["{R} {a} and {b}. Add it as an all-day event.", "{R} on {a} and {b}, put that in all day"])
    elif kind == "through":
        shape = rng.choice(["block off {a} through {b}", "block off {a} through {b}, {r}"]) if block else \
            rng.choice(["{R} from {a} through {b}, put it in as all-day", "{R} {a} through {b}. Can you add it?"])
    elif kind == "until":
        shape = rng.choice(["block off {a} until {b}"]) if block else \
            rng.choice(["{R} from {a} until {b}. Add it as an all-day event please."])
    else:
        shape = rng.choice(["block off {a}", "block off all of {a}, {r}"]) if block else \
            rng.choice(["{R} on {a}, all day. Please add it."])
    msg = _sentence(shape.format(a=a, b=b, r=reason, R=_sentence(reason)[:-1]))
    end = last + timedelta(days=1)
    inp = {"title": title, "start": first.isoformat(), "end": end.isoformat(), "all_day": True}
    cal = ctx.calendar([])
    sc = ctx.scenario(f"created_span_{kind}", msg, cal, [Call("create_calendar_event", inp, ctx.zone)], [], set(),
                      created=True, span=(first, end), forms=("date", "date_tz"),
                      prefer=("span_shorter", "span_longer"))
    sc.relative_phrases += [x for x, r in ((a, rel_a), (b, rel_b)) if r]
    return sc


# ---------------------------------------------------------------- no_start

def _end_clock(ctx: Ctx, start: datetime, old_end: datetime, zone: str) -> tuple[datetime, str, tuple[datetime, ...]]:
    """A new end on the event's day after its start: (instant, phrase, tolerated other reading)."""
    rng = ctx.rng
    loc = local(start, zone)
    for _ in range(30):
        end_clock = (loc + timedelta(minutes=15 * rng.randint(2, 12))).time().replace(tzinfo=None)
        end = at(loc.date(), end_clock, zone)
        if end > start + timedelta(minutes=15) and end != old_end and end_clock.hour >= 1:
            break
    else:
        end_clock = (loc + timedelta(hours=2)).time().replace(tzinfo=None)
        end = at(loc.date(), end_clock, zone)
    if rng.random() < 0.3 and 1 <= end_clock.hour % 12 <= 11:
        h12 = end_clock.hour % 12
        text = f"{h12}" if end_clock.minute == 0 else f"{h12}:{end_clock.minute:02d}"
        twin = at(loc.date(), time((end_clock.hour + 12) % 24, end_clock.minute), zone)
        return end, text, (twin if twin > start else twin + timedelta(days=1),)
    return end, _clock_text(end_clock, True), ()


def no_start(ctx: Ctx) -> Scenario:
    """Calls with no start: end-only edits (of an event or one occurrence) and occurrence deletes
    (``<series>_<YYYYMMDDTHHMMSSZ>``)."""
    rng = ctx.rng
    kind = rng.choice(("end_only", "end_only", "end_relative", "occ_end", "occ_delete", "occ_delete"))
    if kind in ("end_only", "end_relative"):
        spec = ctx.pick_spec()
        cal = ctx.calendar([spec.key])
        ev = cal[spec.key]
        ref = ctx.ref(spec, set(cal))
        tolerated: tuple[datetime, ...] = ()
        if kind == "end_only":
            end, t, tolerated = _end_clock(ctx, ev.start, ev.end, ev.zone)
            shape = rng.choice(["end {ref} at {t}", "can {ref} end at {t} instead?",
                                "{ref} has to finish at {t}. Change the end time please.",
                                "{ref} runs until {t} now. Update it?", "make {ref} end at {t}"])
            msg = _sentence(shape.format(ref=ref, t=t))
        else:
            amount, minutes = rng.choice(LENGTH_AMOUNTS)
            d = timedelta(minutes=minutes)
            if ev.duration - d >= timedelta(minutes=15) and rng.random() < 0.5:
                end = ev.end - d
                shape = rng.choice(["end {ref} {amt} early", "{ref} will wrap up {amt} early. Move the end."])
            else:
                end = ev.end + d
                shape = rng.choice(["let {ref} run {amt} over", "{ref} will go {amt} over. Can you extend the end?"])
            msg = _sentence(shape.format(ref=ref, amt=amount))
        call = _update(ev, end=end)
        return ctx.scenario(f"no_start_{kind}", msg, cal, [call], [], {ev.id}, moved=ev, end_allowed=(end,),
                            end_tolerated=tolerated, prefer=("end_wrong",))
    spec = ctx.pick_spec(weekly=True)
    cal = ctx.calendar([spec.key])
    series = cal[spec.key]
    ref = ctx.ref(spec, set(cal))
    first = ctx.today + timedelta(days=(spec.weekly or 0) - ctx.today.weekday())
    if first <= ctx.today:
        first += timedelta(days=7)
    day = first + timedelta(days=7 * rng.choice((0, 0, 1)))
    occ_start = series.occurrence(day)
    occ_id = series.occurrence_id(day)
    occ = _occurrence_ref(ctx, ref, day)
    if kind == "occ_end":
        end, t, tolerated = _end_clock(ctx, occ_start, occ_start + series.duration, series.zone)
        shape = rng.choice(["{occ} ends at {t}, just this once", "make {occ} end at {t}, only that one",
                            "can {occ} finish at {t}? Only that one, just this once.",
                            "just this once, {occ} has to end at {t}"])
        msg = _sentence(shape.format(occ=occ, t=t))
        call = Call("update_calendar_event", {"event_id": occ_id, "end": end}, series.zone)
        return ctx.scenario("no_start_occ_end", msg, cal, [call], [], {series.id, occ_id}, series=series,
                            occ_day=day, scope="occurrence", end_allowed=(end,), end_tolerated=tolerated,
                            stamp_mutation=True, prefer=("end_wrong", "wrong_occurrence", "whole_series"))
    shape = rng.choice(["skip {occ}", "cancel {occ}, just that one", "{occ} is off, the rest stay.",
                        "can you take {occ} off the calendar? Just that one.", "no {occ}, just this once.",
                        "we're away, so skip {occ}. Only that one!"])
    msg = _sentence(shape.format(occ=occ))
    call = Call("delete_calendar_event", {"event_id": occ_id}, series.zone)
    return ctx.scenario("no_start_occ_delete", msg, cal, [call], [], {series.id, occ_id}, series=series,
                        occ_day=day, scope="occurrence", stamp_mutation=True,
                        prefer=("wrong_occurrence", "occurrence_stamp_local", "bad_occurrence_id"))


# ---------------------------------------------------------------- duplicate_once

BULK_FORMS = ("bulk", "bulk_utc", "bulk_naive_tz")
MULTI_CREATE = (("Soccer practice", "soccer practice"), ("Swim lesson - Maya", "Maya's swim lesson"),
                ("Carpool - Leo", "Leo's carpool"), ("Grocery run", "a grocery run"), ("Gym", "the gym"))


def duplicate_once(ctx: Ctx) -> Scenario:
    """Several writes at once (one bulk update, or several creates) where one problem could be
    reported twice: the verdict should hold it once, with one type."""
    rng = ctx.rng
    kind = rng.choice(("bulk_move", "bulk_shift", "multi_create"))
    calls: list[Call] = []
    targets: list[Target] = []
    if kind == "multi_create":
        title, ref = rng.choice(MULTI_CREATE)
        cal = ctx.calendar([])
        d1 = ctx.future_day(1, 5)
        d2 = d1 + timedelta(days=rng.randint(1, 3))
        a, rel_a = _unique_day(ctx, d1)
        b, rel_b = _unique_day(ctx, d2)
        tp = time_phrase(rng, ctx.clock((8, 19)), "exact")
        shape = rng.choice(["add {n} on {a} and {b} {t}", "put {n} in {t} on {a} and on {b}",
                            "we have {n} {t} on {a} and {b}. Add both please.",
                            "can you add {n} on {a} and {b}, {t} both days?"])
        msg = _sentence(shape.format(n=ref, a=a, b=b, t=tp.text))
        for i, d in enumerate((d1, d2)):
            allowed = _readings((d,), tp.allowed, ctx.zone)
            calls.append(Call("create_calendar_event",
                              {"title": title, "start": allowed[0], "end": allowed[0] + timedelta(hours=1)}, ctx.zone))
            targets.append(Target(i, allowed, None, tp.ampm_fixed, phrase_zone=ctx.zone))
        sc = ctx.scenario("once_multi_create", msg, cal, calls, targets, set(), multi=True, multi_create=True,
                          once=True, keep_end=True, prefer=("created_twice", "one_wrong_day"))
        sc.relative_phrases += [x for x, r in ((a, rel_a), (b, rel_b)) if r]
        return sc
    n = 3 if rng.random() < 0.3 else 2
    specs = _two_specs(ctx, n)
    cal = ctx.calendar([s.key for s in specs])
    evs = [cal[s.key] for s in specs]
    refs = [ctx.ref(s, set(cal)) for s in specs]
    listing = ", ".join(refs[:-1]) + " and " + refs[-1]
    rel: list[str] = []
    if kind == "bulk_shift":
        amount, minutes = rng.choice(AMOUNTS)
        later = rng.random() < 0.6
        delta = timedelta(minutes=minutes if later else -minutes)
        word = "later" if later else "earlier"
        shape = rng.choice(["push {lst} back {amt}" if later else "move {lst} {amt} earlier",
                            "move {lst} {amt} " + word, "busy day. Can you make {lst} {amt} " + word + "?",
                            "{lst} all need to be {amt} " + word + ". Each from its own time, please."])
        msg = _sentence(shape.format(lst=listing, amt=amount))
        for i, e in enumerate(evs):
            new = shift_wall(e.start, e.zone, delta)
            calls.append(_update(e, start=new, end=new + e.duration))
            targets.append(Target(i, (new,), e.duration, False, shift=delta, anchor=e.start, phrase_zone=e.zone))
    else:
        parts = []
        for i, e in enumerate(evs):
            day = ctx.future_day(avoid=local(e.start, e.zone).date())
            word, rel_w = _unique_day(ctx, day)
            tp = time_phrase(rng, ctx.clock(), "exact" if "dinner" in e.title.lower() else ctx.time_style(e.title))
            allowed = _readings((day,), tp.allowed, ctx.zone)
            if rel_w:
                rel.append(word)
            parts.append(f"{word} {tp.text}")
            calls.append(_update(e, start=allowed[0], end=allowed[0] + e.duration))
            targets.append(Target(i, allowed, e.duration, tp.ampm_fixed, phrase_zone=ctx.zone))
        moves = [f"{r} to {p}" for r, p in zip(refs, parts, strict=True)]
        joined = ", ".join(moves[:-1]) + " and " + moves[-1]
        shape = rng.choice(["move {j}", "can you move {j}?", "Busy week. Please move {j}.",
                            "move {m0}. And {rest}, too."])
        msg = _sentence(shape.format(j=joined, m0=moves[0], rest=" and ".join(moves[1:])))
    sc = ctx.scenario(f"once_{kind}", msg, cal, calls, targets, {e.id for e in evs}, multi=True, events=evs,
                      once=True, forms=BULK_FORMS, prefer=("one_wrong_day", "copy_created"))
    sc.relative_phrases += rel
    return sc


# ---------------------------------------------------------------- ordinal_day

def ordinal_day(ctx: Ctx) -> Scenario:
    """Ordinal days ("the first monday of december", "the last friday of the month", "monday the 3rd")."""
    rng = ctx.rng
    op = ordinal_phrase(rng, ctx.today)
    mode = rng.choice(("create", "move", "move_day"))
    if mode == "create":
        title, refs = rng.choice(NEW_EVENTS)
        cal = ctx.calendar([])
        tp = time_phrase(rng, ctx.clock(), ctx.time_style(title))
        allowed = _readings((op.day,), tp.allowed, ctx.zone)
        msg = _say_create(ctx, rng.choice(refs), f"{op.text} {tp.text}", f"on {op.text} {tp.text}")
        inp: dict[str, object] = {"title": title, "start": allowed[0]}
        if rng.random() < 0.7:
            inp["end"] = allowed[0] + timedelta(minutes=rng.choice((30, 60, 90)))
        sc = ctx.scenario("ordinal_create", msg, cal, [Call("create_calendar_event", inp, ctx.zone)],
                          [Target(0, allowed, None, tp.ampm_fixed, phrase_zone=ctx.zone)], set(), created=True,
                          ordinal_wrong=op.wrong, prefer=("ordinal_week_off", "ordinal_other_month", "ordinal_nearest"))
    else:
        spec = ctx.pick_spec()
        cal = ctx.calendar([spec.key])
        ev = cal[spec.key]
        ref = ctx.ref(spec, set(cal))
        if mode == "move":
            tp = time_phrase(rng, ctx.clock(), ctx.time_style(spec.title))
            times, fixed = tp.allowed, tp.ampm_fixed
            to = f"{op.text} {tp.text}"
            prep = f"on {to}"
        else:
            times, fixed = (local(ev.start, ev.zone).time().replace(tzinfo=None),), False
            to = f"{op.text}, same time"
            prep = f"on {to}"
        allowed = _readings((op.day,), times, ctx.zone)
        if ev.start in allowed:
            return ordinal_day(ctx)
        msg = _say_move(ctx, ref, to, prep)
        call = _update(ev, start=allowed[0], end=allowed[0] + ev.duration)
        sc = ctx.scenario(f"ordinal_{mode}", msg, cal, [call], [Target(0, allowed, ev.duration, fixed,
                                                                        phrase_zone=ctx.zone)],
                          {ev.id}, moved=ev, ordinal_wrong=op.wrong,
                          prefer=("ordinal_week_off", "ordinal_other_month", "ordinal_nearest"))
    sc.relative_phrases.append(op.text)
    return sc


Builder = Callable[[Ctx], Scenario]
FAMILIES: dict[str, tuple[Builder, ...]] = {
    "plain": (create, move, shift, delete, relocate),
    "nickname": (move, shift, delete),
    "possessive": (move, delete, shift),
    "typo": (move, delete, shift),
    "casing_emoji": (move, create, delete),
    "politeness": (move, create, delete, shift),
    "multi_event": (multi, multi, swap),
    "relative_shift": (shift,),
    "occurrence": (occurrence, occurrence, series_change),
    "places": (relocate, create_at_place),
    "travel_zone": (travel,),
    "clock_words": (create, move),
    "conflict": (conflict,),
    "duplicate": (duplicate,),
    "current_state": (current_state,),
    "day_range": (day_range,),
    "unread_words": (unread_words,),
    "chained": (chained,),
    "free_time_words": (free_time_words,),
    "pinned": (pinned,),
    "created_values": (created_values,),
    "no_start": (no_start,),
    "duplicate_once": (duplicate_once,),
    "ordinal_day": (ordinal_day,),
}


def build(rng: random.Random, family: str) -> Scenario:
    """One scenario of ``family``."""
    ctx = Ctx(rng, family)
    return rng.choice(FAMILIES[family])(ctx)
