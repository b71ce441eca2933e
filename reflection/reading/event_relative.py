"""Phrases anchored at an event rather than at now (CONTRACT section 4, "Relative to an event").

"push it back 30 min", "an hour earlier", "bump it a day", "the day after", "same time next week":
each means something only once we know which event it moves, so this module reads the words and
the amount, and `apply_*` computes the readings from that event's own start. The amount of a
shift is the shift, never the event's length; a length is only what the person says it is
("make it 2 hours", "for 90 minutes").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Literal

from reflection.dates.lexicon import WEEKDAY_FULL_RE
from reflection.reading.reminders import reminder_spans

_NUM_WORDS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20,
    "thirty": 30, "forty": 40, "forty-five": 45, "forty five": 45, "sixty": 60, "ninety": 90,
    "couple": 2, "a couple": 2, "a couple of": 2, "couple of": 2, "few": 3, "a few": 3,
}
_UNITS = {"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1, "h": 60, "hr": 60, "hrs": 60,
          "hour": 60, "hours": 60, "day": 1440, "days": 1440, "week": 10080, "weeks": 10080}

_WORDNUM = (r"an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|"
            r"thirty|forty[\s-]five|forty|sixty|ninety|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few")
_UNIT_LONG = r"minutes?|mins?|hours?|hrs?|days?|weeks?"
_AMOUNT = (r"(?<![\w.:])(?P<amount>half\s+(?:an?\s+)?hour|an?\s+hour\s+and\s+a\s+half|"
           r"(?:an?|one)\s+hour\s+and\s+\d{1,2}(?:\s*(?:min|mins|minutes))?\b(?!\s*(?:am|pm|hours?|days?))|"
           r"\d+(?:\.\d+)?\s*h(?:rs?|ours?)?\s*\d+\s*m(?:in(?:ute)?s?)?\b|"
           rf"(?:(?P<d>\d+(?:\.\d+)?)\s*-?\s*(?P<du>{_UNIT_LONG}|m|h)|(?P<w>{_WORDNUM})[\s-]+(?P<wu>{_UNIT_LONG}))"
           r"\b(?:\s+and\s+a\s+half)?)")
_AMOUNT_RE = re.compile(_AMOUNT, re.I)

LATER_RE = re.compile(r"\b(later|delay(?:ed)?|postpone[d]?|push(?:ed)?\b[^.,;!?]{0,60}?\bback"
                      r"|push(?:ed)?\s+(?:it|them|that)?\s*out|back\s+by|push(?:ed)?\b(?![^.,;!?]{0,60}?"
                      r"\b(?:up|forward|earlier|in)\b)|bump(?:ed)?\b(?![^.,;!?]{0,60}?\b(?:up|forward|"
                      r"earlier)\b))", re.I)
EARLIER_RE = re.compile(r"\b(earlier|early|sooner|move[ds]?\b[^.,;!?]{0,60}?\bup|bump(?:ed)?\b[^.,;!?]{0,60}?"
                        r"\bup|bring\s+(?:it\s+|them\s+|\w+\s+)?forward|"
                        r"pull(?:ed)?\s+(?:it\s+|them\s+|\w+\s+)?(?:in|forward|up))\b", re.I)
SHIFT_VERB_RE = re.compile(r"\b(push|pushed|bump|bumped|shift|shifted|move|moved|slide|nudge|delay|"
                           r"delayed|postpone|postponed|back|forward|later|earlier|sooner|up)\b", re.I)
EXTEND_RE = re.compile(r"\b(extend|longer|add)\b", re.I)
SHORTEN_RE = re.compile(r"\b(shorten|shorter|cut)\b", re.I)


ShiftPart = Literal["both", "start", "end"]


@dataclass(frozen=True)
class Shift:
    """Move start and end together by `amount`, in one of `directions` (+1 later, -1 earlier);
    `part` is "end" for "make it end half an hour earlier" (the start stays) and "start" for
    "start 10 minutes sooner" (whether the end follows is another question: a pin or a length)."""

    span: str
    start_index: int
    end_index: int
    amount: timedelta
    directions: frozenset[int]
    part: ShiftPart = "both"

    def readings(self, start: datetime | date) -> list[datetime | date]:
        return [start + self.amount * d for d in sorted(self.directions)]


@dataclass(frozen=True)
class Length:
    """The event's new length ("make it 2 hours"), or a change of length ("extend it by 30 min")."""

    span: str
    start_index: int
    end_index: int
    amount: timedelta
    relative: int  # 0: the new length; +1 longer by; -1 shorter by


@dataclass(frozen=True)
class DayRelative:
    """"the day after", "same time next week": days added to the event's own date."""

    span: str
    start_index: int
    end_index: int
    days: tuple[int, ...]
    keeps_time: bool


def _amount(match: re.Match[str]) -> timedelta | None:
    text = match.group("amount").casefold()
    if re.match(r"half\s+(?:an?\s+)?hour", text):
        return timedelta(minutes=30)
    if re.search(r"hour\s+and\s+a\s+half", text):
        return timedelta(minutes=90)
    plus = re.match(r"(?:an?|one)\s+hour\s+and\s+(\d{1,2})", text)
    if plus:  # "an hour and 15": the minutes are said without their unit
        return timedelta(minutes=60 + int(plus.group(1)))
    hm = re.match(r"(\d+(?:\.\d+)?)\s*h(?:rs?|ours?)?\s*(\d+)", text)
    if hm:
        return timedelta(hours=float(hm.group(1)), minutes=int(hm.group(2)))
    if match.group("d"):
        n, unit = float(match.group("d")), match.group("du").casefold()
    else:
        n_text = re.sub(r"[\s-]+", " ", (match.group("w") or "").casefold()).strip()
        unit = (match.group("wu") or "").casefold()
        if n_text not in _NUM_WORDS:
            return None
        n = float(_NUM_WORDS[n_text])
    if unit not in _UNITS or n <= 0 or n > 10_000:
        return None
    minutes = n * _UNITS[unit]
    if text.rstrip().endswith("and a half"):
        minutes += _UNITS[unit] / 2
    return timedelta(minutes=minutes)


def _clause(text: str, start: int, end: int) -> tuple[str, str]:
    """The words before and after a phrase, within its clause (up to a comma, "and", a full stop)."""
    before = re.split(r"[.;!?]|\bthen\b", text[:start])[-1]
    after = re.split(r"[.;!?,]|\band\b|\bthen\b", text[end:])[0]
    return before, after


_ALONE_AFTER_RE = re.compile(r"\s*(?:(?:pls|please|plz|tops|max|maximum|min|minimum|or\s+so|ish|each|long|total|"
                             r"(?:is|should\s+be|will\s+be|'?s)\s+(?:enough|plenty|fine|ok|okay)|should\s+do|will\s+do|"
                             r"lol|thx|thanks|ty|in|aside|down|for\s+it|for\s+that)\b\s*)*[)!.]*\s*$", re.I)
_AFTER_A_TIME_RE = re.compile(r"(?:\d\s*(?:am|pm|a\.m\.|p\.m\.)|\d:\d\d|\bnoon)\s*[-\u2013(]?\s*$", re.I)
_STATED_LENGTH_BEFORE_RE = re.compile(
    r"\b(?:it['\u2019]?s|it\s+is|it['\u2019]?ll\s+be|it\s+will\s+be|(?:it|they|that|this)\s+(?:takes?|lasts?|runs?)|"
    r"(?:should|will|would|might)\s+take|takes?|(?:he|she|they|we|it|i)\s+needs?|needs?|allow|give\s+it|"
    r"plan\s+(?:for|on)|budget|put|pencil|set\s+aside)\s*(?:about|around|roughly|like|maybe|just|only)?\s*$",
    re.I)


def _said_alone(text: str, part: str, after: str) -> bool:
    """"wednesday at 11am, 30 min", "vet tues 4pm. half an hour", "11am - 45 mins", "its 90
    mins", "he needs 2 hours", "30 min is enough": an amount said on its own (nothing before it
    in its part of the sentence but a clock time, a dash or words that say how long it takes;
    nothing after it but "pls", "tops" or "is enough") is how long the event lasts, in a message
    that asks for no shift anywhere (there, "push the dentist. 30 min" is by how much). Not "it's
    30 min away" or "it takes 20 min to get there": what follows is a way there."""
    if SHIFT_VERB_RE.search(text) or LATER_RE.search(text) or EARLIER_RE.search(text):
        return False
    return bool(re.fullmatch(r"[\s\-\u2013(]*", part) or _AFTER_A_TIME_RE.search(part)
                or _STATED_LENGTH_BEFORE_RE.search(part)) and bool(_ALONE_AFTER_RE.match(after))


REPEATS_RE = re.compile(r"\b(?:every|each|weekly|monthly|" + WEEKDAY_FULL_RE + r"s)\b", re.I)
"""A message that asks for a repeating event: an amount of weeks in it counts the occurrences."""


def unit_of(match: re.Match[str]) -> str:
    """The unit an amount was said in ("10 weeks": "weeks")."""
    return (match.group("du") or match.group("wu") or "").casefold()


LENGTH_NOUN_AFTER_RE = re.compile(r"\s*(?:long|-?long|total|meeting|session|slot|call|chat|catch[\s-]?up|"
                                  r"appointment|appt|workout|class|lesson|block|nap|check[\s-]?in|sync|"
                                  r"stand[\s-]?up|interview)\b", re.I)
"""After an amount, what lasts that long ("a quick 15 min call", "a 45 minute lesson"); not a
way there ("a 20 min drive", "a 10 minute walk"), which is travel beside the event."""
MAKE_NAMED_RE = re.compile(r"\bmake(?:\s+(?!(?:instead|rather|than|not|of|from|to|it)\b)[a-z'\u2019]+){2,5}\s*$", re.I)
"""Before an amount, "make" and the event's name: "make the rehearsal an hour and a half"."""
NOT_A_LENGTH_AFTER_RE = re.compile(r"\s*(?:after|before|past|from|into|ahead|early|late|of|on|at|in)\b", re.I)
"""After such an amount, words that make it a place in time ("make soccer 30 min after school")."""
REMINDER_BEFORE_RE = re.compile(r"\b(?:remind\w*(?:\s+(?:me|us|them|him|her|everyone))?|reminders?|alerts?|"
                                r"notif\w*|ping\s+(?:me|us))(?:\s+(?:of|at|for|about\s+it))?\s*$", re.I)
FREE_HOUR_RE = re.compile(r"\b(?:a|an|one)\s+(?:free|open|spare|clear|empty)\s+hour\b", re.I)


def find_shifts_and_lengths(text: str) -> tuple[list[Shift], list[Length]]:
    """Every amount of time in the message, read as a shift of an event or as its length."""
    shifts: list[Shift] = []
    lengths: list[Length] = []
    asked = reminder_spans(text)
    for match in _AMOUNT_RE.finditer(text):
        amount = _amount(match)
        if amount is None:
            continue
        if any(begin <= match.start() < end for begin, end in asked):
            continue  # "remind me the day before and an hour before": reminders, not shifts
        before, after = _clause(text, match.start(), match.end())
        near = before + " " + after[:30]
        if re.search(r"\bin\s*$", before, re.I):
            continue  # "in 3 days", "in an hour": counted from now, the resolver's phrase
        if REMINDER_BEFORE_RE.search(before):
            continue  # "remind me an hour before": a reminder (reflection.checks.reminders), not a shift
        if re.search(r"\b(ago|from\s+now|from\s+today|from\s+tomorrow)\b", after[:15], re.I):
            continue
        if re.match(r"\s*(?:from|after)\s+(?:this\s+|next\s+)?(?:mon|tue|wed|thu|fri|sat|sun)", after, re.I):
            continue  # "a week from Friday": a date wording (unread by the policy), not a length
        part = re.split(r",|\band\b", before)[-1]  # the words of this part of the sentence
        longer = re.match(r"\s*(?:longer|more|extra|over)\b", after, re.I) or \
            re.search(r"\b(?:add|extra|another)\s*$", part, re.I)
        shorter = re.match(r"\s*(?:shorter|less|fewer)\b", after, re.I) or \
            re.search(r"\b(?:cut|trim|shave|take)\s+(?:\w+\s+)?(?:off\s+)?$", part, re.I)
        if longer or shorter:
            lengths.append(Length(match.group(0), match.start(), match.end(), amount, 1 if longer else -1))
            continue
        is_length = _said_alone(text, part, after) or bool(re.search(
            r"(?:\bfor|\blasting|\b(?:free|open|spare|clear|empty)|\bbook|\breserve|"
            r"\bblock(?:\s+off|\s+out)?|"
            r"\bmake\s+\w+|\bmake\s+it|\bextend\w*(?:\s+[\w:'\u2019]+){0,5}\s+to|"
            r"\bshorten\w*(?:\s+[\w:'\u2019]+){0,5}\s+to|\b(?:cut|trim|reduce|bring)\w*(?:\s+[\w:'\u2019]+){0,6}?"
            r"\s+(?:down\s+)?to|\bto\s+be|\bbe|\bonly|\bjust)\s*$",
            part, re.I)) or bool(LENGTH_NOUN_AFTER_RE.match(after)) \
            or bool(re.match(r"-(?:minute|min|hour|hr)\b", text[match.end():match.end() + 8], re.I)) \
            or bool(MAKE_NAMED_RE.search(part) and not NOT_A_LENGTH_AFTER_RE.match(after))
        if is_length and unit_of(match) in ("week", "weeks", "month", "months") and REPEATS_RE.search(text):
            continue  # "futsal wednesdays 5:30pm for 10 weeks": how many times, not how long each
        local_near = part + " " + after[:30]
        by_amount = re.search(r"\bby\s*$", before, re.I)
        if is_length and not (LATER_RE.search(local_near) or EARLIER_RE.search(local_near)):
            lengths.append(Length(match.group(0), match.start(), match.end(), amount, 0))
            continue
        if by_amount and (EXTEND_RE.search(before) or SHORTEN_RE.search(before)):
            lengths.append(Length(match.group(0), match.start(), match.end(), amount,
                                  1 if EXTEND_RE.search(before) else -1))
            continue
        later, earlier = LATER_RE.search(near), EARLIER_RE.search(near)
        if not (later or earlier or SHIFT_VERB_RE.search(near)):
            continue
        if not (later or earlier) and re.search(r"(?:\b(?:to|at|until|till|til)|@)\s*$", before, re.I):
            continue  # "move it to 17h": where it goes (a clock wording the policy does not read)
        directions: set[int] = set()
        if later:
            directions.add(1)
        if earlier:
            directions.add(-1)
        if not directions:
            directions = {1, -1}
        ends = re.search(r"\b(?:end|ends|ending|finish\w*|wrap\w*\s+up|get\s+out|let\s+out|over)\b", part, re.I)
        starts = re.search(r"\b(?:start|starts|starting|begin\w*|kick\s+off)\b", part, re.I)
        shift_part: ShiftPart = "end" if ends and not starts else "start" if starts and not ends else "both"
        shifts.append(Shift(match.group(0), match.start(), match.end(), amount, frozenset(directions),
                            shift_part))
    for match in FREE_HOUR_RE.finditer(text):  # "a free hour": the length asked, said around "free"
        lengths.append(Length(match.group(0), match.start(), match.end(), timedelta(hours=1), 0))
    return shifts, lengths


_DAY_REL = [
    (re.compile(r"\bsame\s+time\s+(?:the\s+)?(?:following|next)\s+week\b", re.I), (7,), True),
    (re.compile(r"\bsame\s+time\s+(?:the\s+)?(?:previous|last|prior)\s+week\b", re.I), (-7,), True),
    (re.compile(r"\bsame\s+time\s+(?:the\s+)?(?:next|following)\s+day\b", re.I), (1,), True),
    (re.compile(r"\b(?:the\s+)?(?:day|night)\s+after(?!\s+(?:tomorrow|tomorow|tmrw|tmr|next|that|the|this|\w+day|"
                r"christmas|thanksgiving|new|[a-z]+['\u2019]s|my|our|his|her|their|your))\b", re.I), (1,), True),
    (re.compile(r"\b(?:the\s+)?next\s+day\b", re.I), (1,), True),
    (re.compile(r"\b(?:the\s+)?day\s+before(?!\s+(?:yesterday|the|this|\w+day|christmas|thanksgiving|new|"
                r"[a-z]+['\u2019]s|my|our|his|her|their|your))\b", re.I), (-1,), True),
    (re.compile(r"\b(?:the\s+)?week\s+after(?!\s+(?:next|that|the|this|christmas|thanksgiving))\b", re.I),
     (7,), True),
    (re.compile(r"\b(?:the\s+)?following\s+week\b", re.I), (7,), True),
    (re.compile(r"\b(?:the\s+)?week\s+before(?!\s+(?:the|this|christmas|thanksgiving))\b", re.I), (-7,), True),
]
SAME_TIME_RE = re.compile(r"\b(?:same\s+time|same\s+hour|usual\s+time|at\s+the\s+same\s+time)\b", re.I)


def find_day_relatives(text: str) -> list[DayRelative]:
    out: list[DayRelative] = []
    taken: list[tuple[int, int]] = []
    for pattern, days, keeps in _DAY_REL:
        for match in pattern.finditer(text):
            if any(a < match.end() and match.start() < b for a, b in taken):
                continue
            taken.append((match.start(), match.end()))
            # "the day after at half past three": a time said with it is the new time, not the
            # event's own
            timed = keeps and _A_TIME_AFTER_RE.match(text, match.end()) is not None
            out.append(DayRelative(match.group(0), match.start(), match.end(), days, keeps and not timed))
    return out


_A_TIME_AFTER_RE = re.compile(r"\s*,?\s*(?:at|@|from)\s+(?:\d|half|quarter|noon|midday|one|two|three|four|five|six|"
                              r"seven|eight|nine|ten|eleven|twelve)", re.I)
