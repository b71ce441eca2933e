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
