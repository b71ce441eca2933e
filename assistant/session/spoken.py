"""Dates, times and zones as people say them, wherever the guard's own text reaches a person.

Why: the guard writes its findings and facts for code and for a second model ("Friday 2026-11-27
17:00", "start 2026-11-27T17:00:00-08:00", "in America/Los_Angeles"), and those sentences are
the same in `check`'s verdicts, which other programs read, so they stay as they are there. A
person reads them under a card that says "Friday, November 27, 5:00 PM": one date style
everywhere. So every sentence shown (the badge, the why screen, `ask`) is rewritten here, with
the card's own wording functions (`tools.calendar.wording`), and zones read "UTC" or "Los Angeles
time", never "Etc/UTC".
"""
from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta, timezone

from tools.calendar.events import EventFieldError, zone
from tools.calendar.wording import WEEKDAYS, clock_label, day_label

UTC_NAMES = frozenset({"UTC", "Etc/UTC", "Etc/Universal", "Etc/Zulu", "Etc/GMT", "GMT", "Universal",
                       "Zulu", "Z"})


def zone_words(tz_name: str) -> str:
    """`UTC`, or the zone's city with "time": `Los Angeles time`, `Argentina/Buenos Aires` read
    as `Buenos Aires time` (the last part is the place people name)."""
    if tz_name in UTC_NAMES:
        return "UTC"
    if "/" not in tz_name:
        return tz_name
    return tz_name.rsplit("/", 1)[1].replace("_", " ") + " time"


_ZONE = r"(?:Etc/[A-Za-z]+|UTC|[A-Z][A-Za-z]+(?:/[A-Z][A-Za-z_\-]+)+)"
_WEEKDAY = "(?:" + "|".join(WEEKDAYS) + ")"
_ISO_INSTANT = re.compile(r"\b(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?"
                          r"(Z|[+-]\d{2}:?\d{2})?\b")
_DAY_AND_CLOCK = re.compile(rf"(?:\b{_WEEKDAY} )?\b(\d{{4}}-\d{{2}}-\d{{2}})\b"
                            r"(?: (\d{2}):(\d{2})\b(?! ?[AP]M))?(?:( to |-|–)(\d{2}):(\d{2})\b)?")
_ZONE_AFTER_CLOCK = re.compile(rf"\((\d{{2}}):(\d{{2}}) ({_ZONE})\)")
_CLOCK_IN_ZONE = re.compile(rf"(\d [AP]M) in ({_ZONE})\b")
_IN_ZONE = re.compile(rf"\bin ({_ZONE})\b")
_WEEKDAY_OF = re.compile(rf"\b(start|end) ({_WEEKDAY}, [A-Z][a-z]+ \d{{1,2}}(?:, \d{{1,2}}:\d{{2}} [AP]M)?)"
                         rf" is an? {_WEEKDAY} \(([^)]*)\)")
_DAY_IS_A = re.compile(rf"\b{_WEEKDAY}, ([A-Z][a-z]+ \d{{1,2}}) is an? ({_WEEKDAY})\b")
"""`Friday, October 24 is a Friday`: said as `October 24 is a Friday`."""
"""`start Friday, November 27, 5:00 PM is a Friday (2 days after today)`: the weekday twice."""
_BARE_ZONE = re.compile(r"\bEtc/(?:UTC|Universal|Zulu|GMT)\b")


def _clock(hours: str, minutes: str) -> str:
    return clock_label(datetime(2000, 1, 1, int(hours), int(minutes)))


def _instant(match: re.Match[str], tz_name: str | None) -> str:
    """`2026-11-27T17:00:00-08:00` as `Friday, November 27, 5:00 PM`, in the person's zone when
    it carries an offset (the card shows times there)."""
    day = date.fromisoformat(match.group(1))
    moment = datetime(day.year, day.month, day.day, int(match.group(2)), int(match.group(3)))
    offset = match.group(4)
    if offset and tz_name:
        try:
            person = zone(tz_name)
        except EventFieldError:
            person = None
        if person is not None:
            moment = moment.replace(tzinfo=_offset(offset)).astimezone(person)
    return f"{day_label(moment.date())}, {clock_label(moment)}"


def _offset(text: str) -> timezone:
    if text == "Z":
        return UTC
    sign = -1 if text[0] == "-" else 1
    digits = text[1:].replace(":", "")
    return timezone(sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:])))


def _after_clock(tz_name: str) -> str:
    """What follows a clock time to name its zone: `5:00 PM UTC`, `5:00 PM, Los Angeles time`."""
    said = zone_words(tz_name)
    return f" {said}" if said == "UTC" else f", {said}"


def _day_and_clock(match: re.Match[str]) -> str:
    """`Friday 2026-11-27 17:00 to 18:00` as `Friday, November 27, 5:00 PM to 6:00 PM`."""
    said = day_label(date.fromisoformat(match.group(1)))
    if match.group(2):
        said += f", {_clock(match.group(2), match.group(3))}"
    if match.group(4):
        joint = " to " if match.group(4) == " to " else " – "
        said += f"{joint}{_clock(match.group(5), match.group(6))}"
    return said


def dates_in_words(text: str, tz_name: str | None = None) -> str:
    """`text` with every ISO date, time and zone name said the way the cards say them."""
    text = _ISO_INSTANT.sub(lambda m: _instant(m, tz_name), text)
    text = _ZONE_AFTER_CLOCK.sub(lambda m: f"({_clock(m.group(1), m.group(2))} "
                                           f"{zone_words(m.group(3))})", text)
    text = _DAY_AND_CLOCK.sub(_day_and_clock, text)
    text = _CLOCK_IN_ZONE.sub(lambda m: f"{m.group(1)}{_after_clock(m.group(2))}", text)
    text = _IN_ZONE.sub(lambda m: f"in {zone_words(m.group(1))}", text)
    text = _WEEKDAY_OF.sub(r"the \1 is \2 (\3)", text)
    text = _DAY_IS_A.sub(r"\1 is a \2", text)
    return _BARE_ZONE.sub("UTC", text)


_COUNTED = re.compile(r"\b(\d[\d,]*) ([a-z]+)\((s|es)\)")


def counted_words(text: str) -> str:
    """`1 event(s)` as `1 event`, `3 event(s)` as `3 events`: a guard's doubt counts for code."""
    return _COUNTED.sub(lambda m: f"{m.group(1)} {m.group(2)}"
                        + ("" if m.group(1) == "1" else m.group(3)), text)


def without_tautology(text: str) -> str:
    """`'Swim lesson' is 'Swim lesson' on Monday, ...` (a fact naming an event by its id, once the
    id is read as its title) as `'Swim lesson' was on Monday, ...`."""
    return re.sub(r"('[^']+') is \1( on\b)?", lambda m: f"{m.group(1)} was" + (m.group(2) or ""),
                  text)
