"""Time rules: clock times (3pm, 15:00, 3:15, 9.30), bare hours ("at 3"), hour words ("seven
thirty"), clock words ("half past 3", "quarter to 5", "noon", "midnight"), time ranges ("3-5pm"),
parts of the day, and zones or cities after a time ("3pm Eastern", "3pm Tokyo time", "9 her time"
when the message names the city)."""
from __future__ import annotations

import re
from dataclasses import replace
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reflection.dates.lexicon import (
    AP_RE,
    HOURW,
    MONTH_RE,
    NAMED_NIGHT_BEFORE_RE,
    NUMW,
    PARTS_OF_DAY,
    WEEKDAY_RE,
    ZONE_ALONE,
    ZONE_CITY,
    ZONE_TIME_ONLY,
    ZONES,
    in_greeting,
    words_to_int,
)
from reflection.dates.rule import I, Rule, ap_of, rx
from reflection.dates.values import (
    Atom,
    BadZone,
    ClockTime,
    Ctx,
    PartOfDay,
    TimeSpan,
    Zone,
)

P_POD = rx(r"\b(?P<pre>this\s+|in\s+the\s+|to\s+the\s+|at\s+|last\s+|early\s+|late\s+|(?:the\s+)?same\s+)?"
           r"(?P<pod>tonight|tonite|morning|afternoon|evening|night|lunch\s*time|lunch)\b")
P_T_AP = rx(rf"(?<![\d:.])(?P<h>\d{{1,2}})(?:[:.](?P<m>[0-5]\d)(?:[:.](?P<s>[0-5]\d))?)?\s*(?P<ap>{AP_RE})")
P_T_24 = rx(rf"(?<![\d:.])(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)(?::(?P<s>[0-5]\d))?(?!\d)(?!\s*{AP_RE})")
P_T_DOT = rx(rf"(?:\b(?P<pre>at|around|about|by|@)\s+)?"
             rf"(?<![\d:.])(?P<h>[01]?\d|2[0-3])\.(?P<m>[0-5]\d)(?![\d.])(?!\s*{AP_RE})")
_NOT_HOUR_AFTER = (rf"(?!\s*(?:[:.]\d|\d|%|/|-\d|{AP_RE}"
                   rf"|(?:st|nd|rd|th|hours?|hrs?|minutes?|mins?|days?|weeks?|months?|years?"
                   rf"|people|persons|guests|of|percent|o'?\s?clock|{MONTH_RE})\b))")
P_T_BARE = rx(r"(?:\b(?P<pre>at|around|about|by|from|until|till|before|after|between|to|make\s+it|make\s+that)\s+|@\s*)"
              r"(?P<h>\d{1,2})(?![\d])"
              + _NOT_HOUR_AFTER)
P_T_BARE_POD = rx(r"(?<![\d:.])(?P<h>\d{1,2})(?=,?\s+(?:tonight|tonite|this\s+(?:morning|afternoon|evening)|"
                  r"in\s+the\s+(?:morning|afternoon|evening)|at\s+night|tomorrow\s+(?:morning|afternoon|evening|night)))")
P_T_OCLOCK = rx(rf"\b(?P<h>\d{{1,2}}|{HOURW})\s*o'?\s?clock\b(?:\s*(?P<ap>{AP_RE}))?")
P_T_WORD = rx(rf"(?:\b(?P<pre>at|around|about|@)\s+)?\b(?P<h>{HOURW})"
              rf"(?:[\s-]+(?P<m>(?:o[\s-](?:one|two|three|four|five|six|seven|eight|nine)\b)|{NUMW})"
              rf"(?:\s+minutes)?)?"
              rf"(?:\s*(?P<ap>{AP_RE}))?"
              rf"(?!\s*(?:of|point|another|more|other|day|days|week|weeks|hours?|minutes?|people|years?)\b)(?![-'])")
P_T_PAST = rx(rf"\b(?P<q>half|quarter|\d{{1,2}}|{NUMW})(?:\s+minutes?)?\s+(?P<dir>past|to|till)\s+"
              rf"(?P<h>\d{{1,2}}|{HOURW})(?:\s*(?P<ap>{AP_RE}))?")
P_T_NOON = rx(r"\b(?:12\s+)?(?P<w>noon|midday|mid-day|midnight)\b")
P_TRANGE = rx(rf"(?<![\d:.])(?P<h1>\d{{1,2}})(?::(?P<m1>[0-5]\d))?\s*(?P<ap1>{AP_RE})?"
              rf"\s*(?:-|–|to)\s*"
              rf"(?P<h2>\d{{1,2}})(?::(?P<m2>[0-5]\d))?\s*(?P<ap2>{AP_RE})")
# CONTRACT 4: "2-4", "10-12" or "2 to 4:30" after a day is a time range, never a date (not
# September 11 in "sunday 9-11"); the atom is the range alone, the day is its own atom.
P_DAY_TRANGE = rx(rf"(?:\b{WEEKDAY_RE}|\b(?:today|tomorrow|tmrw|tmr|tonight|tonite)"
                  rf"|\b{MONTH_RE}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?|\b\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH_RE})"
                  rf"\s*,?\s+(?:(?:morning|afternoon|evening|night|arvo)\s+)?(?:from\s+|between\s+|at\s+)?"
                  rf"(?P<h1>\d{{1,2}})(?::(?P<m1>[0-5]\d))?\s*(?P<sep>-|–|to|until|till)\s*"
                  rf"(?P<h2>\d{{1,2}})(?::(?P<m2>[0-5]\d))?(?![\d:/]|[.]\d)(?!\s*(?:{AP_RE}))")
_FROM_BEFORE = rx(r"\bfrom\s+(?:\w+\s+){0,2}$")

_Z_ALONE = "|".join(sorted(ZONE_ALONE, key=len, reverse=True))
_Z_CITY = "|".join(re.escape(c) for c in ZONE_CITY)
P_ZONE = rx(rf"\b(?:(?P<a>{_Z_ALONE})\b(?:\s+time\b)?|(?P<c>{_Z_CITY})\s+time\b|(?P<poss>her|his|their)\s+time\b"
            rf"|(?P<iana>(?-i:[A-Z][A-Za-z_]+/[A-Z][A-Za-z_]+(?:/[A-Za-z_]+)?)))")
P_BADZONE = rx(r"\b(?P<w>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?\s+time|[A-Z]{2,4}T)\b", 0)
_CITIES = "|".join(re.escape(c) for c in sorted(ZONES, key=len, reverse=True)
                   if c not in ZONE_ALONE and c not in ZONE_TIME_ONLY)
P_CITY = rx(rf"\b(?P<c>{_CITIES})\b")
_MINUTES_WORD = rx(r"minutes?")
_O_PREFIX = rx(r"^o[\s-]")


@lru_cache(maxsize=8)
def city_zone(text: str) -> tuple[str, str] | None:
    """The first well-known city the text names, with its zone ('call mom in London' -> London)."""
    m = P_CITY.search(text)
    if m is None:
        return None
    name = " ".join(m.group("c").lower().split())
    return m.group("c"), ZONES[name]


def clock(h: int, m: str | int | None = None, s: str | None = None, ap: str | None = None,
          exact: bool = False, word: str | None = None, is_clock: bool = False) -> ClockTime | None:
    """A ClockTime, or None when the hour cannot carry the AM/PM written after it."""
    if ap and not 1 <= h <= 12 and not (h == 0 and ap == "am"):
        return None
    mi = int(m) if m not in (None, "") else 0
    se = int(s) if s not in (None, "") else 0
    return ClockTime(h, mi, se, ap, exact, word, is_clock)


def time_span(t1: ClockTime, t2: ClockTime) -> TimeSpan:
    """'3-5pm': the start borrows the end's AM/PM unless that would put it after the end."""
    if t1.ap is None and t2.ap:
        pm = 12 if t2.ap == "pm" else 0
        h1, h2 = t1.h % 12 + pm, t2.h % 12 + pm
        ap = "am" if h1 * 60 + t1.m > h2 * 60 + t2.m and t2.ap == "pm" else t2.ap
        t1 = replace(t1, ap=ap)
    return TimeSpan(t1, t2)


def _exact_hour(hs: str) -> bool:
    """24-hour notation: 0, 12-23, or a leading zero (08:30)."""
    h = int(hs)
    return h == 0 or h >= 12 or (len(hs) == 2 and hs[0] == "0")


def _time_atom(start: int, end: int, t: ClockTime | None, prio: int, weak: bool = False) -> Atom | None:
    return None if t is None else Atom(start, end, t, weak=weak, prio=prio)


# ---------------------------------------------------------------- handlers

def _part_of_day(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'this morning', 'tonight', 'in the evening', 'last night'; not a greeting ('good morning!',
    'good night'), which says when the person writes, not when anything happens."""
    pre = " ".join((m.group("pre") or "").lower().split())
    if not pre and in_greeting(m.string, m.start("pod")):
        return None
    pod = m.group("pod").lower().replace(" ", "")
    pod = {"tonite": "tonight", "lunchtime": "lunch"}.get(pod, pod)
    if pod == "night" and not pre and NAMED_NIGHT_BEFORE_RE.search(m.string[:m.start("pod")]):
        return None  # "family pizza night at 6pm", "movie night": an event's name, not tonight
    if pre == "last" and pod not in ("night", "evening"):
        return None
    day = 0 if (pod == "tonight" or pre == "this") else (-1 if pre == "last" else None)
    # "move it to the afternoon": where it goes, on its own day (CONTRACT 4: a time with no date);
    # "to the morning crew" is a thing, not a time
    if pre == "to the" and re.match(r"\s+(?!(?:on|of|this|next|tomorrow|today|then|instead|pls|please|if|so|"
                                    r"and|but|or|as)\b)[a-z]", m.string[m.end():], re.I):
        return None
    strong = pod == "tonight" or pre in ("this", "in the", "last", "to the") or (pre == "at" and pod == "night")
    # after "at" and "to the" the atom begins at the last word before the part of the day
    # ("the afternoon"), so "to" stays free for the rest of the reading
    raw_pre = (m.group("pre") or "").rstrip()
    start = m.start() if pre not in ("at", "to the") else \
        m.start("pre") + raw_pre.lower().rfind(pre.split()[-1])
    return Atom(start, m.end(), PartOfDay(pod, day), weak=not strong, prio=5)


def _am_pm(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'3pm', '3:30 p.m.', '15:00pm' (read as 24-hour)."""
    h = int(m.group("h"))
    if not 0 <= h <= 12:
        if h <= 23 and m.group("m"):
            return _time_atom(m.start(), m.end(), clock(h, m.group("m"), m.group("s"), None, True), prio=1)
        return None
    t = clock(h, m.group("m"), m.group("s"), ap_of(m.group("ap")))
    return _time_atom(m.start(), m.end(), t, prio=1)


def _colon(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'15:00' (exact), '3:15' (a bare clock time: AM or PM), '2025-10-25T10:30' (ISO: exact)."""
    iso = m.start() >= 2 and ctx.text[m.start() - 1] in "Tt" and ctx.text[m.start() - 2].isdigit()
    exact = iso or _exact_hour(m.group("h"))
    t = clock(int(m.group("h")), m.group("m"), m.group("s"), None, exact, is_clock=True)
    return _time_atom(m.start(), m.end(), t, prio=2)


def _dotted(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'9.30' (weak unless 'at 9.30')."""
    t = clock(int(m.group("h")), m.group("m"), None, None, _exact_hour(m.group("h")), is_clock=True)
    start = m.start() if m.group("pre") else m.start("h")
    return _time_atom(start, m.end(), t, prio=4, weak=not m.group("pre"))


_NAMED_BY_TIME_BEFORE_RE = re.compile(r"\b(?:the|my|our|his|her|their)\s+\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?\s*$",
                                      re.I)
_SAID_AS_GOAL_AFTER_RE = re.compile(r"\s*(?:$|[,.;!?)]|(?:pls|please|plz|instead|today|tomorrow|tmrw|tonight|"
                                    r"then|and|if|on|this|same)\b)", re.I)
""""move the 3:30 to 4": "the 3:30" names an event by its time, and "to 4" said after it, with
nothing but the end of the clause (or a day) following, is where it goes, not the end of a range
("my 5 to 6 meeting" is one)."""


def _bare_hour(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'at 3', '8 tonight', and 'move it to 4' (with a change verb: 'to' alone is too common)."""
    h = int(m.group("h"))
    if h > 23:
        return None
    pre = (m.groupdict().get("pre") or "").casefold()
    if pre == "to" and not ctx.move:
        return None
    if pre == "to" and re.search(r"\d\s*$", ctx.text[:m.start()]) and not (
            _NAMED_BY_TIME_BEFORE_RE.search(ctx.text[:m.start()]) and _SAID_AS_GOAL_AFTER_RE.match(ctx.text, m.end())):
        return None  # "5 to 6": a range (or "five to six", 5:55), never a time to move to
    return _time_atom(m.start("h"), m.end(), clock(h, exact=h == 0 or h >= 12), prio=5)


def _oclock(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'3 o'clock', 'seven o'clock pm'."""
    h = words_to_int(m.group("h"))
    if h is None or h > 23:
        return None
    t = clock(h, None, None, ap_of(m.group("ap")), h == 0 or h >= 12)
    return _time_atom(m.start(), m.end(), t, prio=2)


def _hour_words(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'seven thirty', 'at seven', 'eleven pm'."""
    h = words_to_int(m.group("h"))
    mins, ap = m.group("m"), m.group("ap")
    mm = None
    if mins:
        mm = words_to_int(_O_PREFIX.sub("", mins))
        if mm is None or mm > 59:
            return None
    if h is None or (not ap and not mins and not m.group("pre")) or (ap and not ap[0].isalpha()):
        return None
    t = clock(h, mm, None, ap_of(ap), False)
    return _time_atom(m.start("h"), m.end(), t, prio=6, weak=not ap and not m.group("pre"))


def _clock_words(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'half past 3', 'quarter to 5', 'ten minutes past 7', '20 minutes to 6'."""
    q = m.group("q").lower()
    mins = 30 if q == "half" else 15 if q == "quarter" else words_to_int(q)
    h = words_to_int(m.group("h"))
    if mins is None or h is None or mins > 59 or not 1 <= h <= 12:
        return None
    if m.group("dir").lower() in ("to", "till"):
        if q != "quarter" and not _MINUTES_WORD.search(m.group(0)):
            return None
        h, mins = (h - 1) or 12, 60 - mins
    return _time_atom(m.start(), m.end(), clock(h, mins, None, ap_of(m.group("ap"))), prio=1)


def _noon(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'noon', 'midday', 'midnight'."""
    w = m.group("w").lower()
    return _time_atom(m.start(), m.end(), clock(0 if w == "midnight" else 12, exact=True, word=w), prio=1)


def _time_range(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'3-5pm', '10 to 11:30am' (not 'move it from 3 to 5pm', which is two times)."""
    if ctx.move and re.search(r"\bto\b", m.group(0), I):
        return None
    t1 = clock(int(m.group("h1")), m.group("m1"), None, ap_of(m.group("ap1")))
    t2 = clock(int(m.group("h2")), m.group("m2"), None, ap_of(m.group("ap2")))
    if t1 is None or t2 is None or t1.h > 12 or t2.h > 12:
        return None
    return Atom(m.start(), m.end(), time_span(t1, t2), prio=0)


def _day_time_range(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'sunday 9-11', 'sat 2 to 4:30' (CONTRACT 4: a range after a day is a time range). With a
    move verb, 'from sunday 9 to 11' is two times, not a range."""
    if m.group("sep").isalpha() and ctx.move and _FROM_BEFORE.search(ctx.text[max(0, m.start() - 30):m.start()]):
        return None
    h1, h2 = int(m.group("h1")), int(m.group("h2"))
    if h1 > 23 or h2 > 23 or (h1 > 12 and not m.group("m1")) or (h2 > 12 and not m.group("m2")):
        return None
    t1 = clock(h1, m.group("m1"))
    t2 = clock(h2, m.group("m2"))
    if t1 is None or t2 is None:
        return None
    return Atom(m.start("h1"), m.end(), time_span(t1, t2), prio=0)


def _zone(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'Eastern', 'PT', 'London time', 'Europe/Paris', 'her time' (the city the text names)."""
    if m.group("iana"):
        try:
            ZoneInfo(m.group("iana"))
        except (ZoneInfoNotFoundError, ValueError, OSError):
            return Atom(m.start(), m.end(), BadZone(m.group("iana")), weak=True, prio=2)
        return Atom(m.start(), m.end(), Zone(m.group("iana")), weak=True, prio=1)
    if m.group("poss"):
        found = city_zone(ctx.text)
        if found is None:
            return None
        return Atom(m.start(), m.end(), Zone(found[1], found[0]), weak=True, prio=1)
    key = " ".join((m.group("a") or m.group("c")).lower().split())
    return Atom(m.start(), m.end(), Zone(ZONES[key], m.group("c")), weak=True, prio=1)


def _unknown_zone(m: re.Match[str], ctx: Ctx) -> Atom | None:
    """'Martian time', 'XYZT': reported as an unknown zone rather than silently dropped."""
    w = m.group("w")
    low = w.lower()
    bare = low.replace(" time", "")
    if low in ZONES or bare in ZONES or bare in PARTS_OF_DAY or low in ("her time", "his time", "their time"):
        return None
    return Atom(m.start(), m.end(), BadZone(w), weak=True, prio=3)


TIME_RULES: tuple[Rule, ...] = (
    Rule("part-of-day", P_POD, _part_of_day),
    Rule("am-pm", P_T_AP, _am_pm),
    Rule("colon-time", P_T_24, _colon),
    Rule("dotted-time", P_T_DOT, _dotted),
    Rule("bare-hour", P_T_BARE, _bare_hour),
    Rule("bare-hour-before-part-of-day", P_T_BARE_POD, _bare_hour),
    Rule("oclock", P_T_OCLOCK, _oclock),
    Rule("hour-words", P_T_WORD, _hour_words),
    Rule("clock-words", P_T_PAST, _clock_words),
    Rule("noon-midnight", P_T_NOON, _noon),
    Rule("time-range", P_TRANGE, _time_range),
    Rule("day-time-range", P_DAY_TRANGE, _day_time_range),
    Rule("zone", P_ZONE, _zone),
    Rule("unknown-zone", P_BADZONE, _unknown_zone),
)
