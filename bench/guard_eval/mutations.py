"""Wrong calls made from correct ones, each kept only when the contract proves it wrong.

A time or date mutation is kept only when the mutated start falls outside every reading the message
allows (CONTRACT §4, §5 "Certainty"); a structural mutation (wrong event, wrong occurrence, the whole
series, a duplicate create, a create for a move, the home address for a business, a list half done)
is wrong by construction.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, timedelta

from .model import Call, Literal, Scenario, Target, set_start, start_of
from .zones import UTC, at, local, localize, shift_wall

Mutation = Callable[[Scenario, random.Random], list[Call] | None]


def _clone(sc: Scenario) -> list[Call]:
    return [c.clone() for c in sc.calls]


def _timed(sc: Scenario, rng: random.Random, ok: Callable[[Target], bool] = lambda t: True) -> Target | None:
    targets = [t for t in sc.targets if ok(t) and "start" in sc.calls[t.call].input]
    return rng.choice(targets) if targets else None


def _move_to(sc: Scenario, target: Target, new: datetime) -> list[Call] | None:
    """The calls with ``target``'s start at ``new``, or None when some reading allows ``new``."""
    if new in target.allowed or _in_window(sc, new):
        return None
    calls = _clone(sc)
    set_start(calls[target.call], new)
    return calls


def _in_window(sc: Scenario, new: datetime) -> bool:
    """Whether ``new`` is a start the message also allows beyond the targets' own readings: a free
    slot, a tolerated reading, or any free start inside a free-time window."""
    slots: list[datetime] = sc.info.get("free_slots") or []
    if new in slots or new in (sc.info.get("tolerated") or ()):
        return True
    window = sc.info.get("free_window")
    if window is None:
        return False
    length: timedelta = sc.info["free_len"]
    busy = sc.info["busy_all"]
    return window[0] <= new < window[1] and not any(b.start < new + length and new < b.end for b in busy)


def day_off(sc: Scenario, rng: random.Random) -> list[Call] | None:
    t = _timed(sc, rng)
    if t is None or sc.info.get("no_day_mutation"):
        return None
    return _move_to(sc, t, shift_wall(start_of(sc.calls[t.call]), t.phrase_zone, timedelta(days=rng.choice((-1, 1)))))


def wrong_weekday(sc: Scenario, rng: random.Random) -> list[Call] | None:
    t = _timed(sc, rng)
    if t is None or sc.info.get("no_day_mutation"):
        return None
    days = rng.choice((-3, -2, 2, 3))
    return _move_to(sc, t, shift_wall(start_of(sc.calls[t.call]), t.phrase_zone, timedelta(days=days)))


def ampm_swap(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """Only where the phrase fixes AM or PM ("3pm", "in the evening"), never for bare "3:15"."""
    t = _timed(sc, rng, lambda t: t.ampm_fixed)
    if t is None:
        return None
    s = start_of(sc.calls[t.call])
    hours = -12 if local(s, t.phrase_zone).hour >= 12 else 12
    return _move_to(sc, t, shift_wall(s, t.phrase_zone, timedelta(hours=hours)))


def utc_as_local(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The UTC wall time written as if it were local time."""
    t = _timed(sc, rng)
    if t is None:
        return None
    call = sc.calls[t.call]
    s = start_of(call)
    return _move_to(sc, t, localize(s.astimezone(UTC).replace(tzinfo=None), call.zone))


def _fmt_offset(off: timedelta) -> str:
    minutes = int(off.total_seconds() // 60)
    sign = "+" if minutes >= 0 else "-"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def wrong_offset(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The right local wall time with an offset the zone does not have at that instant."""
    t = _timed(sc, rng)
    if t is None:
        return None
    calls = _clone(sc)
    call = calls[t.call]
    s = start_of(call)
    loc = local(s, call.zone)
    real = loc.utcoffset()
    assert real is not None
    other = (loc + timedelta(days=rng.choice((-120, 120)))).utcoffset()  # the other season's offset
    bad = other if other is not None and other != real else real + timedelta(hours=rng.choice((-1, 1)))
    wall = loc.replace(tzinfo=None)
    inst = (wall - bad).replace(tzinfo=UTC)
    if inst in t.allowed or _in_window(sc, inst):
        return None
    call.input["start"] = Literal(wall.isoformat(timespec="seconds") + _fmt_offset(bad), inst)
    end = call.input.get("end")
    if isinstance(end, datetime):
        ewall = local(end, call.zone).replace(tzinfo=None)
        call.input["end"] = Literal(ewall.isoformat(timespec="seconds") + _fmt_offset(bad),
                                    (ewall - bad).replace(tzinfo=UTC))
    return calls


def from_now(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """A shift applied from now instead of from the event's own start."""
    t = _timed(sc, rng, lambda t: t.shift is not None)
    if t is None or t.shift is None:
        return None
    return _move_to(sc, t, shift_wall(sc.setting.now, t.phrase_zone, t.shift))


def wrong_direction(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """Earlier for later, or the reverse."""
    t = _timed(sc, rng, lambda t: t.shift is not None and t.anchor is not None)
    if t is None or t.shift is None or t.anchor is None:
        return None
    return _move_to(sc, t, shift_wall(t.anchor, t.phrase_zone, -t.shift))


def length_changed(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The start is right but the length changed although the message kept it."""
    t = _timed(sc, rng, lambda t: t.duration is not None)
    if t is None or t.duration is None:
        return None
    calls = _clone(sc)
    call = calls[t.call]
    s = start_of(call)
    end = s + t.duration + timedelta(minutes=rng.choice((15, 30, 60)))
    if t.anchor is not None and t.anchor + t.duration > s and t.anchor + t.duration != s + t.duration:
        end = t.anchor + t.duration  # the end left where it was
    call.input["end"] = end
    return calls


def wrong_event(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """A call on an event no part of the message refers to (a look-alike when there is one)."""
    idx = [i for i, c in enumerate(sc.calls) if c.input.get("event_id") in sc.referenced]
    others = [e for e in sc.calendar if e.id not in sc.referenced and not e.all_day]
    if not idx or not others:
        return None
    named = {e.key for e in sc.calendar if e.id in sc.referenced}
    groups = {e.key.split("_")[0] for e in sc.calendar if e.id in sc.referenced}
    lookalikes = [e for e in others if e.key.split("_")[0] in groups and e.key not in named]
    pick = rng.choice(lookalikes or others)
    calls = _clone(sc)
    calls[rng.choice(idx)].input["event_id"] = pick.id
    return calls


def duplicate_create(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The same event created twice."""
    if not sc.info.get("created"):
        return None
    calls = _clone(sc)
    return calls + [calls[0].clone()]


def _as_create(sc: Scenario, call: Call) -> Call | None:
    ev = sc.info.get("moved")
    if ev is None or "start" not in call.input:
        return None
    inp = {"title": ev.title, "start": call.input["start"], "end": call.input.get("end")}
    if ev.location:
        inp["location"] = ev.location
    return Call("create_calendar_event", inp, call.zone)


def create_instead_of_move(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The event created at its new time and the old one left behind."""
    created = _as_create(sc, sc.calls[0])
    return None if created is None or len(sc.calls) != 1 else [created]


def moved_and_created(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """Moved, and a copy created at the new time as well."""
    created = _as_create(sc, sc.calls[0])
    return None if created is None or len(sc.calls) != 1 else _clone(sc) + [created]


def wrong_occurrence(sc: Scenario, rng: random.Random) -> list[Call] | None:
    if sc.info.get("scope") != "occurrence":
        return None
    series, day = sc.info["series"], sc.info["occ_day"]
    calls = _clone(sc)
    calls[0].input["event_id"] = series.occurrence_id(day + timedelta(days=rng.choice((-7, 7, 14))))
    return calls


def whole_series(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The whole series changed when one occurrence was asked."""
    if sc.info.get("scope") != "occurrence":
        return None
    calls = _clone(sc)
    calls[0].input["event_id"] = sc.info["series"].id
    return calls


def occurrence_only(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """One occurrence changed when the whole series was asked."""
    if sc.info.get("scope") != "series":
        return None
    series, day = sc.info["series"], sc.info["occ_day"]
    calls = _clone(sc)
    call = calls[0]
    call.input["event_id"] = series.occurrence_id(day)
    if "start" in call.input:
        clock = local(start_of(call), series.zone).time().replace(tzinfo=None)
        set_start(call, at(day, clock, series.zone))
    return calls


def bad_occurrence_id(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """An instance id whose date is not an occurrence of the series."""
    if sc.info.get("scope") != "occurrence":
        return None
    series, day = sc.info["series"], sc.info["occ_day"]
    calls = _clone(sc)
    calls[0].input["event_id"] = series.occurrence_id(day + timedelta(days=rng.choice((-1, 1))))
    return calls


def home_for_business(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The home address written for a business whose name holds a home-word."""
    if not sc.info.get("business"):
        return None
    calls = _clone(sc)
    calls[0].input["location"] = sc.home
    return calls


def half_done(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """One of several events (or one side of a swap) left out."""
    if not sc.info.get("multi") or len(sc.calls) < 2:
        return None
    calls = _clone(sc)
    del calls[rng.randrange(len(calls))]
    return calls


def relative_to_other(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """The second event shifted from the first event's time instead of its own."""
    if sc.scenario != "multi_shift":
        return None
    t0, t1 = sc.targets[0], sc.targets[1]
    assert t0.anchor is not None and t0.shift is not None
    return _move_to(sc, t1, shift_wall(t0.anchor, t1.phrase_zone, t0.shift))


def wrong_zone(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """A time said in another city's zone written in the user's own zone."""
    city = sc.info.get("city")
    t = _timed(sc, rng)
    if not city or t is None:
        return None
    loc = local(start_of(sc.calls[t.call]), city[1])
    return _move_to(sc, t, at(loc.date(), loc.time().replace(tzinfo=None), sc.setting.zone))


def overlaps_busy(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """A free time was asked, and the call overlaps a busy event."""
    busy = sc.info.get("busy")
    if busy is None:
        return None
    calls = _clone(sc)
    set_start(calls[0], busy.start + timedelta(minutes=rng.choice((0, 30))))
    return calls


# ---------------------------------------------------------------- the newer families' wrong forms

def _on_day(call: Call, zone: str, day: date) -> datetime:
    """The call's start clock (in ``zone``) on another day."""
    return at(day, local(start_of(call), zone).time().replace(tzinfo=None), zone)


def stated_time(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """current_state: the write is the time the message states the event is at now."""
    stated = sc.info.get("stated")
    if stated is None:
        return None
    return _move_to(sc, sc.targets[0], stated)


def stated_twin(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """current_state: the stated time's other half of the day (with the change applied, or not)."""
    stated = sc.info.get("stated")
    if stated is None:
        return None
    t = sc.targets[0]
    hours = -12 if local(stated, t.phrase_zone).hour >= 12 else 12
    twin = shift_wall(stated, t.phrase_zone, timedelta(hours=hours))
    if t.shift is not None and rng.random() < 0.5:
        twin = shift_wall(twin, t.phrase_zone, t.shift)
    return _move_to(sc, t, twin)


def old_end(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """chained: the second event starts at the first one's old end, not its new one."""
    end = sc.info.get("chain_old_end")
    if end is None:
        return None
    return _move_to(sc, sc.targets[1], end)


def shift_wrong_event(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """chained: the shift applied to the second event (from its own time), the first left alone."""
    delta = sc.info.get("chain_delta")
    if delta is None:
        return None
    calls = _clone(sc)
    second = calls[1]
    if second.name == "update_calendar_event":
        ev = sc.info["chain_second"]
        set_start(second, shift_wall(ev.start, ev.zone, delta))
    else:
        set_start(second, shift_wall(sc.info["chain_old_end"], second.zone, delta))
    return [second]


def month_day(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """day_range: "9-11" read as a month and day (September 11)."""
    day: date | None = sc.info.get("month_day_date")
    if day is None:
        return None
    calls = _clone(sc)
    call = calls[0]
    ev = sc.info.get("moved")
    if ev is not None:
        start = at(day, local(ev.start, ev.zone).time().replace(tzinfo=None), ev.zone)
        call.input["start"], call.input["end"] = start, start + ev.duration
        if start in sc.targets[0].allowed:
            return None
        return calls
    call.input = {"title": call.input["title"], "start": day.isoformat(),
                  "end": (day + timedelta(days=1)).isoformat(), "all_day": True}
    return calls


def wrong_length(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """day_range: the start is right but the end is not the range's (the old length kept, or an hour)."""
    length: timedelta | None = sc.info.get("range_length")
    if length is None:
        return None
    calls = _clone(sc)
    call = calls[0]
    ev = sc.info.get("moved")
    new = ev.duration if ev is not None and ev.duration != length else None
    if new is None:
        new = timedelta(hours=1) if length != timedelta(hours=1) else timedelta(hours=2)
    call.input["end"] = start_of(call) + new
    return calls


def runs_into_busy(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """free_time_words: starts in a free gap but runs into a busy event."""
    busy = sc.info.get("busy")
    length: timedelta | None = sc.info.get("free_len")
    if busy is None or length is None or sc.info.get("free_window") is None:
        return None
    calls = _clone(sc)
    start = busy.start - timedelta(minutes=max(5, int(length.total_seconds() // 120) // 5 * 5))
    calls[0].input["start"] = start
    calls[0].input["end"] = start + length
    return calls


def pinned_moved(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """pinned: the part the message keeps (start or end) moved as well."""
    options: list[tuple[datetime, datetime]] = sc.info.get("pinned_wrong") or []
    if not options:
        return None
    start, end = rng.choice(options)
    calls = _clone(sc)
    calls[0].input["start"], calls[0].input["end"] = start, end
    return calls


def end_wrong(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """pinned / no_start: an end the message does not allow (minutes off, the other half, a day off)."""
    allowed: tuple[datetime, ...] = sc.info.get("end_allowed") or ()
    if not allowed:
        return None
    tolerated = tuple(sc.info.get("end_tolerated") or ())
    calls = _clone(sc)
    call = calls[0]
    end = call.input["end"]
    zone = call.zone
    delta = rng.choice((timedelta(minutes=15), timedelta(minutes=30), timedelta(hours=1), timedelta(hours=12),
                        timedelta(days=1)))
    new = shift_wall(end, zone, delta if rng.random() < 0.5 else -delta)
    if new in allowed or new in tolerated:
        return None
    call.input["end"] = new
    return calls


def title_other_person(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """created_values: the created title names another person than the message does."""
    titles: list[str] = sc.info.get("title_wrong") or []
    if not titles:
        return None
    calls = _clone(sc)
    calls[0].input["title"] = rng.choice(titles)
    return calls


def _span(sc: Scenario, days: int) -> list[Call] | None:
    span: tuple[date, date] | None = sc.info.get("span")
    if span is None:
        return None
    end = span[1] + timedelta(days=days)
    if end <= span[0]:
        return None
    calls = _clone(sc)
    calls[0].input["end"] = end.isoformat()
    return calls


def span_shorter(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """created_values: an all-day span one day short (the last day taken as the exclusive end)."""
    return _span(sc, -1)


def span_longer(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """created_values: an all-day span one day longer than asked."""
    return _span(sc, 1)


def occurrence_stamp_local(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """no_start: the occurrence id stamped with the local wall time marked Z (not an occurrence)."""
    if not sc.info.get("stamp_mutation"):
        return None
    series, day = sc.info["series"], sc.info["occ_day"]
    orig = series.occurrence(day)
    loc = local(orig, series.zone)
    if loc.utcoffset() == timedelta(0):
        return None
    calls = _clone(sc)
    calls[0].input["event_id"] = f"{series.id}_{loc.strftime('%Y%m%dT%H%M%S')}Z"
    return calls


def one_wrong_day(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """duplicate_once: one of several writes a day or two off (one problem, to be reported once)."""
    if not sc.info.get("once"):
        return None
    t = _timed(sc, rng)
    if t is None:
        return None
    days = rng.choice((-2, -1, 1, 2))
    new = shift_wall(start_of(sc.calls[t.call]), t.phrase_zone, timedelta(days=days))
    if any(new in o.allowed for o in sc.targets):  # onto another write: a second problem
        return None
    return _move_to(sc, t, new)


def copy_created(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """duplicate_once: one moved event also created anew at its new time (a duplicate, not also a conflict)."""
    if not sc.info.get("once"):
        return None
    idx = [i for i, c in enumerate(sc.calls) if c.name == "update_calendar_event" and "start" in c.input]
    if not idx:
        return None
    by_id = {e.id: e for e in sc.calendar}
    calls = _clone(sc)
    src = calls[rng.choice(idx)]
    ev = by_id[src.input["event_id"]]
    inp: dict[str, object] = {"title": ev.title, "start": src.input["start"], "end": src.input.get("end")}
    if ev.location:
        inp["location"] = ev.location
    return calls + [Call("create_calendar_event", inp, src.zone)]


def created_twice(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """duplicate_once: one of several created events created twice."""
    if not sc.info.get("multi_create"):
        return None
    calls = _clone(sc)
    i = rng.randrange(len(calls))
    return calls[: i + 1] + [calls[i].clone()] + calls[i + 1:]


def base_day(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """unread_words: "a week from Tuesday" written on that Tuesday itself."""
    days: tuple[date, ...] = sc.info.get("base_days") or ()
    t = _timed(sc, rng)
    if not days or t is None:
        return None
    return _move_to(sc, t, _on_day(sc.calls[t.call], t.phrase_zone, rng.choice(days)))


def week_for_fortnight(sc: Scenario, rng: random.Random) -> list[Call] | None:
    """unread_words: "a fortnight from Friday" written one week from it."""
    days: tuple[date, ...] = sc.info.get("base_days") or ()
    t = _timed(sc, rng)
    if not days or t is None or not sc.info.get("fortnight"):
        return None
    return _move_to(sc, t, _on_day(sc.calls[t.call], t.phrase_zone, rng.choice(days) + timedelta(days=7)))


def _ordinal(name: str) -> Mutation:
    def mutate(sc: Scenario, rng: random.Random) -> list[Call] | None:
        days: tuple[date, ...] = (sc.info.get("ordinal_wrong") or {}).get(name, ())
        t = _timed(sc, rng)
        if not days or t is None:
            return None
        return _move_to(sc, t, _on_day(sc.calls[t.call], t.phrase_zone, rng.choice(days)))
    mutate.__doc__ = f"ordinal_day: the day a misreading gives ({name})."
    return mutate


MUTATIONS: dict[str, Mutation] = {
    "day_off": day_off, "wrong_weekday": wrong_weekday, "ampm_swap": ampm_swap, "utc_as_local": utc_as_local,
    "wrong_offset": wrong_offset, "from_now": from_now, "wrong_direction": wrong_direction,
    "length_changed": length_changed, "wrong_event": wrong_event, "duplicate_create": duplicate_create,
    "create_instead_of_move": create_instead_of_move, "moved_and_created": moved_and_created,
    "wrong_occurrence": wrong_occurrence, "whole_series": whole_series, "occurrence_only": occurrence_only,
    "bad_occurrence_id": bad_occurrence_id, "home_for_business": home_for_business, "half_done": half_done,
    "relative_to_other": relative_to_other, "wrong_zone": wrong_zone, "overlaps_busy": overlaps_busy,
    "stated_time": stated_time, "stated_twin": stated_twin, "old_end": old_end,
    "shift_wrong_event": shift_wrong_event, "month_day": month_day, "wrong_length": wrong_length,
    "runs_into_busy": runs_into_busy, "pinned_moved": pinned_moved, "end_wrong": end_wrong,
    "title_other_person": title_other_person, "span_shorter": span_shorter, "span_longer": span_longer,
    "occurrence_stamp_local": occurrence_stamp_local, "one_wrong_day": one_wrong_day, "copy_created": copy_created,
    "created_twice": created_twice, "base_day": base_day, "week_for_fortnight": week_for_fortnight,
    "ordinal_week_off": _ordinal("ordinal_week_off"), "ordinal_other_month": _ordinal("ordinal_other_month"),
    "ordinal_nearest": _ordinal("ordinal_nearest"),
}
#: Mutations whose wrongness lives in the written text: rendered with an offset or naive local time.
LOCAL_FORMS_ONLY = {"utc_as_local", "wrong_offset"}
#: The forms those mutations are rendered in (a bulk of naive local times counts).
LOCAL_FORMS = ("offset", "naive_tz", "bulk_naive_tz")


