"""Scenario templates: one request on one calendar, with its correct calls and its readings.

Each builder writes the message from the generator's intent, so the truth (which event, which
instants the date policy allows) is known without parsing anything.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, time, timedelta

from . import text
from .model import Call, Scenario, Target
from .phrases import MONTHS, WEEKDAYS, DayPhrase, TimePhrase, day_phrase, time_phrase
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

    def calendar(self, must: list[str], avoid: frozenset[str] = frozenset()) -> dict[str, Event]:
        return build_calendar(self.rng, self.setting, must, self.home, avoid)

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
}


def build(rng: random.Random, family: str) -> Scenario:
    """One scenario of ``family``."""
    ctx = Ctx(rng, family)
    return rng.choice(FAMILIES[family])(ctx)
