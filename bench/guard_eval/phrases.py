"""Day and time phrases with the set of readings CONTRACT §4 allows for each.

A phrase is rendered from the generator's intent (a date, a clock time) and carries every reading
the date policy allows, so a correct case may use any of them and a mutation is kept only when it
falls outside all of them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, time, timedelta

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December")
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


@dataclass(frozen=True)
class DayPhrase:
    """A day phrase: ``bare`` fits after "to"/"for" (None when it cannot), ``prep`` stands alone."""

    bare: str | None
    prep: str
    allowed: tuple[date, ...]
    relative: bool


@dataclass(frozen=True)
class TimePhrase:
    """A time phrase ("at 3pm"); ``ampm_fixed`` is true when it excludes the 12-hour twin."""

    text: str
    allowed: tuple[time, ...]
    ampm_fixed: bool


def ordinal(n: int) -> str:
    """1 -> 1st, 22 -> 22nd."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def next_weekday_set(today: date, weekday: int) -> tuple[date, ...]:
    """``next <weekday>``: the first one after today, ambiguous with a week later inside this week."""
    first = today + timedelta(days=(weekday - today.weekday() - 1) % 7 + 1)
    sunday = today + timedelta(days=6 - today.weekday())
    return (first, first + timedelta(days=7)) if first <= sunday else (first,)


def day_phrase(rng: random.Random, today: date, target: date, allow_relative: bool = True,
               need_bare: bool = False) -> DayPhrase:
    """One phrase for ``target`` (after today), chosen among the shapes whose readings include it."""
    name = WEEKDAYS[target.weekday()]
    month = MONTHS[target.month - 1]
    explicit = [
        f"{month} {target.day}", f"{month[:3]} {ordinal(target.day)}", f"{target.day} {month}",
        f"{name}, {month} {target.day}", f"{target.month}/{target.day}",
    ]
    text = rng.choice(explicit)
    options: list[DayPhrase] = [DayPhrase(text, f"on {text}", (target,), False)]
    ahead = (target - today).days
    if allow_relative:
        if ahead == 1:
            options += [DayPhrase("tomorrow", "tomorrow", (target,), True)] * 2
        if ahead == 2:
            options.append(DayPhrase("the day after tomorrow", "the day after tomorrow", (target,), True))
        if 1 <= ahead <= 6:
            word = rng.choice((name, f"this {name}"))
            options += [DayPhrase(word, rng.choice((f"on {name}", f"this {name}")), (target,), True)] * 2
        nxt = next_weekday_set(today, target.weekday())
        if target in nxt:
            options.append(DayPhrase(f"next {name}", f"next {name}", nxt, True))
        if 3 <= ahead <= 10 and not need_bare:
            options.append(DayPhrase(None, f"in {ahead} days", (target,), True))
    return rng.choice(options)


def _h12(hour: int) -> int:
    return hour % 12 or 12


def _part_of_day(hour: int) -> str | None:
    """A part of the day whose range holds ``hour`` (CONTRACT §4 ranges)."""
    if 6 <= hour < 12:
        return "in the morning"
    if 12 <= hour < 17:
        return "in the afternoon"
    if 17 <= hour < 21:
        return "in the evening"
    return None


def _clock(hour12: int, minute: int) -> str:
    return f"{hour12}" if minute == 0 else f"{hour12}:{minute:02d}"


def _clock_words(hour12: int, minute: int) -> str | None:
    """"half past 3", "quarter past 3", "quarter to 4" for a 12-hour reading 1-11."""
    if minute == 30 and 1 <= hour12 <= 11:
        return f"half past {hour12}"
    if minute == 15 and 1 <= hour12 <= 11:
        return f"quarter past {hour12}"
    if minute == 45 and 1 <= hour12 + 1 <= 11:
        return f"quarter to {hour12 + 1}"
    return None


def time_phrase(rng: random.Random, clock: time, style: str) -> TimePhrase:
    """A phrase for ``clock``: ``exact`` (3pm, 15:00, noon), ``bare`` (at 3:15), ``words`` or ``part``.

    Falls back to ``exact`` when the style cannot express the clock time.
    """
    hour, minute = clock.hour, clock.minute
    h12 = _h12(hour)
    twin = time((hour + 12) % 24, minute)
    part = _part_of_day(hour)
    if style == "words":
        words = _clock_words(h12, minute)
        if words is not None and 1 <= h12 <= 11:
            if part is not None and rng.random() < 0.4:
                return TimePhrase(f"at {words} {part}", (clock,), True)
            return TimePhrase(rng.choice((f"at {words}", words)), (clock, twin), False)
    if style == "bare" and 1 <= h12 <= 11:
        return TimePhrase(f"at {_clock(h12, minute)}", (clock, twin), False)
    if style == "part" and part is not None and h12 != 12:
        return TimePhrase(f"at {_clock(h12, minute)} {part}", (clock,), True)
    if hour == 12 and minute == 0:
        return TimePhrase(rng.choice(("at noon", "at 12pm", "at 12:00")), (clock,), True)
    suffix = "pm" if hour >= 12 else "am"
    shapes = [f"at {_clock(h12, minute)}{suffix}", f"at {_clock(h12, minute)} {suffix}",
              f"at {h12}:{minute:02d}{suffix}", f"at {_clock(h12, minute)} {suffix[0]}.m."]
    if hour >= 13:
        shapes.append(f"at {hour}:{minute:02d}")
    return TimePhrase(rng.choice(shapes), (clock,), True)


# ---------------------------------------------------------------- newer families' phrases

WEEKDAY_ABBR = (("mon",), ("tue", "tues"), ("wed",), ("thu", "thurs"), ("fri",), ("sat",), ("sun",))
#: Misspelled day names people type; the date policy does not read them (CONTRACT §4).
MISSPELLED = (("mondy", "monady", "mnoday"), ("tuesdy", "teusday", "tusday"), ("wensday", "wednsday", "wendsday"),
              ("thrusday", "thursdy", "thurday"), ("fridy", "firday", "friady"), ("saterday", "satruday", "sautrday"),
              ("sundy", "snuday", "suday"))
TEXT_TOMORROW = ("2moro", "2morrow", "2morow", "tmrw")
TEXT_TONIGHT = ("2nite", "2night")
ORDINAL_WORDS = ("first", "second", "third", "fourth")


def weekday_set(today: date, weekday: int) -> tuple[date, ...]:
    """``Friday``: the first one on or after today; said on that day, today or a week later."""
    first = today + timedelta(days=(weekday - today.weekday()) % 7)
    return (first, first + timedelta(days=7)) if first == today else (first,)


@dataclass(frozen=True)
class RangePhrase:
    """A time range after a day ("9-11", "2 to 4:30"): its starts, its length, and a tolerated start.

    CONTRACT §4: start and end in the same half of the day unless the end would then come before
    the start ("11-1" is 11:00-13:00), so "2-4" is {02:00-04:00, 14:00-16:00}. For a range that
    crosses noon only 11:00-13:00 is generated as right; its evening twin is never made a wrong form.
    """

    text: str
    starts: tuple[time, ...]
    length: timedelta
    tolerated: tuple[time, ...]
    month_day: tuple[int, int] | None  # "9-11" also reads as a month/day (September 11)


def range_phrase(rng: random.Random) -> RangePhrase:
    """A bare range of 1-3 hours starting between 1 and 11 o'clock, never touching 12."""
    while True:
        hour = rng.choice((1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 9, 10, 10, 11, 11))
        minute = rng.choice((0, 0, 0, 0, 30))
        length = rng.choice((60, 90, 120, 120, 120, 180))
        start = hour * 60 + minute
        end = start + length
        end12 = end % 720
        if end12 // 60 == 0:  # an end at 12:xx: noon or midnight, not generated
            continue
        break
    crossing = end >= 720
    joiner = rng.choice(("-", "-", "-", " to "))
    text = f"{_clock(hour, minute)}{joiner}{_clock(end12 // 60, end12 % 60)}"
    am = time(hour, minute)
    pm = time(hour + 12, minute)
    month_day = (hour, end12 // 60) if joiner == "-" and minute == 0 and end12 % 60 == 0 else None
    if crossing:
        return RangePhrase(text, (am,), timedelta(minutes=length), (pm,), month_day)
    return RangePhrase(text, (am, pm), timedelta(minutes=length), (), month_day)


def month_day_date(today: date, month: int, day: int) -> date | None:
    """``11/5``: the first such date on or after today (None when no month has that day)."""
    for year in (today.year, today.year + 1):
        try:
            d = date(year, month, day)
        except ValueError:
            return None
        if d >= today:
            return d
    return None


def nth_weekday(year: int, month: int, weekday: int, n: int) -> date:
    """The n-th (1-4) weekday of a month, or the last one for n == -1."""
    if n == -1:
        nxt = date(year + (month == 12), month % 12 + 1, 1)
        last = nxt - timedelta(days=1)
        return last - timedelta(days=(last.weekday() - weekday) % 7)
    first = date(year, month, 1)
    return first + timedelta(days=(weekday - first.weekday()) % 7 + 7 * (n - 1))


def _add_months(year: int, month: int, k: int) -> tuple[int, int]:
    m = month - 1 + k
    return year + m // 12, m % 12 + 1


@dataclass(frozen=True)
class OrdinalPhrase:
    """An ordinal day ("the first Monday of December") and its one reading, with misreadings."""

    text: str
    day: date
    wrong: dict[str, tuple[date, ...]]  # mutation name -> dates a misreading would give


def ordinal_phrase(rng: random.Random, today: date) -> OrdinalPhrase:
    """One of: the n-th weekday of a month, the last weekday of the month, weekday the n-th, the n-th."""
    kind = rng.choice(("nth_of_month", "nth_of_month", "last_of_month", "weekday_dom", "weekday_dom", "dom"))
    wd = rng.randrange(7)
    name = WEEKDAYS[wd]
    if kind == "nth_of_month":
        n = rng.choice((1, 1, 2, 3, 4))
        month = _add_months(today.year, today.month, rng.choice((0, 1, 1, 2, 3, 5)))[1]
        d = nth_weekday(today.year, month, wd, n)
        if d < today:
            d = nth_weekday(today.year + 1, month, wd, n)
        py, pm = _add_months(d.year, d.month, -1)
        ny, nm = _add_months(d.year, d.month, 1)
        this_month = nth_weekday(today.year, today.month, wd, n)
        text = f"the {ORDINAL_WORDS[n - 1]} {name} of {MONTHS[month - 1]}"
        wrong = {"ordinal_week_off": (d - timedelta(days=7), d + timedelta(days=7)),
                 "ordinal_other_month": (nth_weekday(py, pm, wd, n), nth_weekday(ny, nm, wd, n)),
                 "ordinal_nearest": tuple(x for x in (this_month, today + timedelta(days=(wd - today.weekday()) % 7))
                                          if x >= today)}
        return OrdinalPhrase(text, d, wrong)
    if kind == "last_of_month":
        d = nth_weekday(today.year, today.month, wd, -1)
        ny, nm = _add_months(today.year, today.month, 1)
        other = nth_weekday(ny, nm, wd, -1)
        if d < today:
            d, other = other, d
        text = f"the last {name} of the month"
        wrong = {"ordinal_week_off": (d - timedelta(days=7),),
                 "ordinal_other_month": (other,),
                 "ordinal_nearest": (today + timedelta(days=(wd - today.weekday()) % 7 or 7),)}
        return OrdinalPhrase(text, d, wrong)
    if kind == "weekday_dom":
        # a real date 10-300 days ahead names the pair; the reading is the first date that is both
        ahead = today + timedelta(days=rng.randint(10, 300))
        while ahead.day > 28:
            ahead += timedelta(days=1)
        dom, wd, name = ahead.day, ahead.weekday(), WEEKDAYS[ahead.weekday()]
        d = today
        while not (d.day == dom and d.weekday() == wd):
            d += timedelta(days=1)
        nearest_dom = today
        while nearest_dom.day != dom:
            nearest_dom += timedelta(days=1)
        nearest_wd = today + timedelta(days=(wd - today.weekday()) % 7)
        text = rng.choice((f"{name} the {ordinal(dom)}", f"{name.lower()} the {ordinal(dom)}"))
        wrong = {"ordinal_week_off": (d - timedelta(days=7), d + timedelta(days=7)),
                 "ordinal_nearest": (nearest_dom, nearest_wd)}
        return OrdinalPhrase(text, d, wrong)
    dom = rng.randint(1, 28)
    d = today
    while d.day != dom:
        d += timedelta(days=1)
    ny, nm = _add_months(d.year, d.month, 1)
    text = f"the {ordinal(dom)}"
    wrong = {"ordinal_other_month": (date(ny, nm, dom),), "ordinal_week_off": (d + timedelta(days=7),)}
    return OrdinalPhrase(text, d, wrong)
