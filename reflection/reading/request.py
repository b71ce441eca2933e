"""What the person asked for, read from their message before any tool call is looked at.

A `RequestReading` lists the `Mention`s of events (which events each part of the message may
refer to, with scores), what happens to each (the verbs and scope words of its clause), and the
phrases that say where each goes: absolute phrases anchored at now, and phrases anchored at the
event itself ("push it back 30 min", "the day after", "same time next week"). The checks judge a
call only against the mention it is bound to; where the reading is unsure, it says so and the
checks fall back to what can still be proven.
"""
from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Literal

from reflection.dates.lexicon import (
    DAY_RE,
    HOURW,
    MONTH_RE,
    NAMED_NIGHT_BEFORE_RE,
    ORDW,
    WEEKDAY_FULL_RE,
    WEEKDAY_RE,
    WEEKDAY_STEM_RE,
    greetings,
)
from reflection.dates.resolver import Expression, Resolution
from reflection.reading.calendars import NamedCalendar
from reflection.reading.event_refs import EventRef, find_event_refs
from reflection.reading.event_relative import (
    REMINDER_BEFORE_RE,
    SAME_TIME_RE,
    DayRelative,
    Length,
    Shift,
    find_day_relatives,
    find_shifts_and_lengths,
)
from reflection.reading.reminders import asked_minutes
from tools.calendar.events import Event, as_date

Scope = Literal["occurrence", "following", "series", "unknown"]
Role = Literal["target", "source", "negated", "current", "end"]
"""A phrase's part in its clause: where the event goes (`target`), where it comes from (`source`,
"from Tuesday"), what it must not be (`negated`, "not at 5"), or how things are now (`current`,
"the dentist is at 3", "it's tues at 6:10 right?"), or when it ends (`end`, "make it end at 5:30",
"run till 6:30"): only a target says where the event starts."""

DELETE_RE = re.compile(r"\b(cancel(?:l?ed|ling)?|delete[ds]?|remove[ds]?|drop(?:ped)?|scrap(?:ped)?|"
                       r"clear(?:ed)?|nix|axe|kill|call(?:ed)?\s+off|get\s+rid|won'?t\s+(?:make|be\s+"
                       r"going|go)|not\s+happening|skip(?:ped)?|take\s+(?:it|\w+)\s+off|erase|wipe|"
                       r"no\s+longer|isn'?t\s+happening|off\s+the\s+calendar|(?:is|are|['\u2019]s)\s+(?:all\s+)?off(?!\s+(?:to|from|school|work|sick))"
                       r")\b", re.I)
CREATE_RE = re.compile(r"\b(add(?:ed)?(?!\s+(?:an?\s+|the\s+)?(?:reminder|alert|note|description|location|place))|"
                       r"schedule[ds]?|book(?:ed)?|put\s+(?!it\b|them\b|\w+\s+(?:to|at)\b)|"
                       r"set\s+up|create[ds]?|cop(?:y|ied|ies)\b(?!\s+(?:me|him|her|them|us)\s+(?:in|on)\b)|make\s+an?\b|an?\s+new|new\s+(?:event|appointment|entry|one)|pencil(?:ed)?\s+in|plan(?:ned)?|sign\s+"
                       r"\w+\s+up|block(?:ed)?\s+(?:off|out)|remind\s+me|there'?s\s+an?|i\s+have\s+an?|"
                       r"we\s+have\s+an?|got\s+an?|(?:pop|stick|chuck|throw|put|bung|jot|pencil)\s+(?:it|that|this|them)\s+"
                       r"(?:in|down|on)\b)\b", re.I)
MOVE_RE = re.compile(r"(?:->|\u2192|=>)|\b(move[ds]?|moving|reschedul\w*|shift\w*|push\w*|bump\w*|change[ds]?|"
                     r"switch\w*|swap\w*|postpone\w*|delay\w*|make\s+(?:it|them)|instead|"
                     r"earlier|later|slide|put\s+(?:it|them|\w+)\s+(?:to|at|on)|"
                     r"(?:push|move|bump|put|set|shift|slide|nudge|pull)\w*(?:\s+\w+){0,3}\s+(?:back|forward)|"
                     r"(?:is|are|['\u2019]s)\s+now|rebook|can\s+we\s+do)\b", re.I)
SWAP_RE = re.compile(r"\b(swap\w*|switch\s+(?!to\b)|trade|flip|exchange)\b", re.I)
RENAME_RE = re.compile(r"\b(re-?name\w*|call\s+it|retitle|change\s+the\s+(?:name|title))\b", re.I)
OCCURRENCE_RE = re.compile(
    r"\b(just|only)\s+(?:this|that|the|next|tomorrow|today|tonight|on|for|one|once)\b|"
    r"\b(?:this|next|that)\s+week'?s\b|\b(?:tomorrow|today|tonight)'?s\b|\bthis\s+(?:one|time)\b|"
    r"\b(?:this|next|that)\s+" + WEEKDAY_FULL_RE + r"'?s\b|"
    r"\b" + WEEKDAY_FULL_RE + r"['\u2019]s\s+(?!classes|lessons|sessions|games|practices)[a-z]|"
    r"\bjust\s+once\b|\bone[-\s]time\b|\bjust\s+(?:the\s+)?one\b|\bskip\b|\b(?:this|next)\s+"
    r"(?:week|one)\s+only\b|\bonly\s+(?:this|next)\s+week\b|\bjust\s+(?:this|next)\s+week\b", re.I)
_ONE_DAYS = (r"(?!\s+(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?|today|tomorrow|tonight|"
             r"morning|afternoon|evening)(?:['\u2019]s)?\b(?!s))"
             r"(?!\s+(?:things|stuff|events|appointments|appts|meetings|plans|calls)\s+(?:on|for|this|today|"
             r"tomorrow|tonight)\b)")
"""After "all my": a day ("all my thursday things", "all the stuff on friday") makes it that
day's events, not every occurrence of a series ("all the thursdays" still is)."""
_BOUNDED = (r"\s+(?:the\s+|this\s+|next\s+)?(?:week|month|year|january|february|march|april|may|june|july|"
            r"august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b")
"""After "for the rest of": a period that ends ("the rest of march"): its occurrences, one by
one or as a split that ends with it; not every later occurrence."""
SERIES_RE = re.compile(
    r"\b(every|all\s+(?:the|my|our|of\s+the|future|upcoming)(?!\s+(?:rest|remaining|other|later|next)\b)" + _ONE_DAYS +
    r"|from\s+now\s+on|going\s+forward|moving\s+forward|for\s+good|permanently|the\s+whole\s+series|whole\s+series|entire\s+series|the\s+"
    r"series|all\s+(?:of\s+)?them|each\s+week|weekly|(?<!as\s)(?<!same\s)always|recurring|all\s+future|"
    r"from\s+then\s+on|"
    r"for\s+the\s+rest\s+of(?!" + _BOUNDED + r")|(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\s+"
    r"from\s+now)\b", re.I)
PRONOUN_RE = re.compile(r"\b(it|them|that|those|these|both|everything|anything|all\s+of\s+(?:it|them)|"
                        r"the\s+rest|the\s+other\s+one|that\s+one|this\s+one|the\s+one|the\s+first\s+one|"
                        r"the\s+second\s+one|the\s+last\s+one|my\s+day|my\s+(?:morning|afternoon|"
                        r"evening)|whatever|stuff)\b", re.I)
GROUP_RE = re.compile(r"\b(everything|anything|all\s+(?:my|our|the)?\s*(?:[a-z]+['\u2019]?s?\s+)?"
                      r"(?:events|appointments|appts|stuff|meetings|plans|things|activities|practices|lessons|classes)|"
                      r"my\s+(?:whole\s+)?(?:day|morning|afternoon|evening|"
                      r"weekend|week)|clear\s+(?:out\s+)?(?:my|the|our)|whatever'?s|"
                      r"(?:kids?|children|child|boys|girls|family|work|school)['\u2019]?s?\s+(?:stuff|things|plans|"
                      r"events|activities|appointments|appts)|"
                      r"(?:morning|afternoon|evening|day|night|weekend|week)['\u2019]?s?\s+(?:stuff|things|plans|"
                      r"events|appointments|appts|meetings)|(?:is|are|['\u2019]s|['\u2019]re)\s+all\s+off)\b", re.I)
FREE_TIME_RE = re.compile(
    r"\b(?:i'?m|i\s+am|we'?re|we\s+are|i'?ll\s+be|we'?ll\s+be|they'?re|she'?s|he'?s)\s+(?:free|not\s+busy|"
    r"available|open)\b|\b(?:free|open|empty)\s+(?:slot|time|spot|hour|window|afternoon|morning|evening|"
    r"day|gap)\b|\b(?:doesn'?t|does\s+not|won'?t|will\s+not|wouldn'?t)\s+(?:clash|conflict|overlap)|"
    r"\bno\s+(?:clash|conflict|overlap)|\bunless\s+(?:it|that|this|they)\s+(?:clash|conflict|overlap)|"
    r"\bnot\s+(?:during|over|on\s+top\s+of)\b|\ban?\s+opening\b|\bfirst\s+available\b|\bfind\s+(?:me\s+|us\s+)?"
    r"(?:a\s+)?(?:time|slot|gap|spot)\b|"
    r"\bfind\s+(?:me\s+|us\s+)?(?:an?\s+|one\s+)?(?:hour|half\s+(?:an\s+)?hour|(?:\d+|two|three)\s*"
    r"(?:min|mins|minutes|h|hr|hrs|hours?))\b|\bfit\s+(?:it|this|that|them)\s+in\b|\bwhen(?:ever)?\s+(?:i'?m|we'?re)\s+"
    r"free\b|\bsomewhere\s+(?:free|it\s+fits)|"
    r"\ba\s+free\s+(?:\d+|half|an?|one|two|three|ten|fifteen|twenty|thirty|forty[-\s]?five|ninety)\b|"
    r"\bfree\s+(?:\d+\s*(?:min|mins|minutes|h|hr|hrs|hours?)\b|half\s+(?:an\s+)?hour)|"
    r"\bwhen(?:ever|'?s|\s+is)?\s+(?:we'?re|we\s+are|i'?m|i\s+am|they'?re|both\s+of\s+us\s+are|everyone(?:'?s|\s+is)?)"
    r"\s+(?:both\s+|all\s+)?(?:free|available|not\s+busy)\b|\b(?:both|all)\s+free\b|"
    r"\bwhen\s+nothing(?:'?s|\s+is)?\s+(?:else\s+)?(?:on|booked|scheduled|happening)\b|"
    r"\bnothing\s+else\s+(?:is\s+)?on\b|\bsqueeze\s+(?:it|this|that|them|\w+)\s+in\b|"
    r"\baround\s+everything\s+else\b|\bwhen\s+(?:neither\b|none\s+of\s+us\b|nobody\b|no[\s-]one\b)|"
    r"\b(?:has|have|got)\s+nothing\s+(?:on|booked|scheduled|else)\b|\b(?:doesn'?t|don'?t)\s+have\s+anything\b|"
    r"\bwhere(?:ver)?\s+(?:the\s+)?(?:calendar|diary|schedule|day)\s+"
    r"(?:is|'s)\s+(?:empty|free|clear|open)\b|\b(?:where|wherever|when|whenever)\s+there(?:'?s|\s+is)\s+"
    r"(?:room|space|time|a\s+gap)\b|\bwhen\s+(?:we'?re|i'?m|we\s+are|i\s+am)\s+not\s+busy\b|\bwhere\s+there'?s\s+(?:room|space|a\s+gap)\b|"
    r"\bis\s+there\s+(?:a|any)\s+(?:gap|opening|free\s+\w+|slot|window)\b|\bfit\s+\w+(?:\s+\w+)?\s+in\b|"
    r"\bwithout\s+(?:a\s+)?(?:clash|conflict|overlap)\w*\b|\bnot\s+(?:clash|conflict|overlap)\w*\b|"
    r"\b(?:an?\s+)?(?:open|empty|free|clear)\s+(?:slot|spot|window|gap|stretch)\b|\bdon'?t\s+double[-\s]?book", re.I)
NEGATION_BEFORE_RE = re.compile(r"(?:\bnot|\bnot\s+at|\binstead\s+of|\brather\s+than|\bno\s+longer(?:\s+at|"
                                r"\s+on)?|\bnot\s+on|n't\s+(?:at|on)?|\bexcept(?:\s+for)?(?:\s+(?:on|the))?|"
                                r"\bother\s+than(?:\s+on)?|\bapart\s+from|\bbesides|\bexcluding|"
                                r"\bnot\s+including|\bbut\s+not(?:\s+on)?|"
                                r"\b(?:any\s*(?:day|time|night|evening|morning|afternoon|weekday|week)|anytime|"
                                r"whenever|any\s+other\s+day|whichever\s+day|every\s*(?:day|one|thing)|all)"
                                r"\s+but(?:\s+on)?)\s*$", re.I)
EXCEPTION_AFTER_RE = re.compile(r"^\s*,?\s*(?:but|except(?:\s+for)?|other\s+than|apart\s+from|besides|excluding|"
                                r"not\s+including|minus)\b", re.I)
"""'every weekday but friday', 'every day except sundays': a rule with days taken out of it."""
SOURCE_BEFORE_RE = re.compile(r"\bfrom\s*$", re.I)
HOLIDAY_WORDS = (r"christmas|thanksgiving|easter|halloween|new\s+year'?s?(?:\s+eve|\s+day)?|"
                 r"mother'?s'?\s+day|father'?s'?\s+day|valentine'?s?(?:\s+day)?|memorial\s+day|labou?r\s+day|"
                 r"independence\s+day|boxing\s+day")
"""Names of days: a day even inside a title ("thanksgiving dinner", "mothers day brunch")."""
HOLIDAY_WORD_RE = re.compile(rf"(?:{HOLIDAY_WORDS})", re.I)


def says_a_day(resolution: Resolution) -> bool:
    """Whether the resolver read a day in the message (a date, a date and time, or a range): a
    holiday name is then not the only day said, and may be a title's word alone."""
    return any(e.kind in ("date", "datetime", "range") for e in resolution.expressions)
UNCOVERED_DATE_WORD_RE = re.compile(
    r"\b(mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|"
    r"saturday|sunday|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|jan|feb|mar|apr|"
    r"jun|jul|aug|sep|sept|oct|nov|dec|january|february|march|april|june|july|august|september|october|"
    r"november|december|today|tonight|tomorrow|tmrw|tmr|tomorow|yesterday|week|weeks|weekend|month|"
    r"noon|midnight|morning|afternoon|evening|night|am|pm|o'?clock|half\s+past|quarter|"
    r"\d{1,2}(?::\d{2})?\s*(?:am|pm|a|p)?|\d{1,2}(?:st|nd|rd|th)|eod|eow|eom|asap|"
    r"new\s+year'?s?|" + HOLIDAY_WORDS + r")\b", re.I)
EVERY_WEEK_RE = re.compile(r"\b(?:all\s+(?:the\s+|of\s+the\s+)?|every\s+|each\s+)weeks?\b", re.I)
""""for all the weeks", "every week": which occurrences (the series), no day to read."""
AS_REMARK_RE = re.compile(r"(?:week|month)$", re.I)
REMARK_BEFORE_RE = re.compile(r"\b(?:busy|crazy|hectic|rough|tough|good|great|bad|full|packed|mad|insane|wild|"
                              r"nice|lovely|fun|chaotic|stressful|manic)\s+$", re.I)
"""A week or month remarked on ("Busy week.", "crazy month!"): said of the time being, it names
no day to read, so it leaves no date word unread."""
REMARKED_AFTER_RE = re.compile(
    r"\s+(?:is|was|has\s+been|'s|\u2019s)\s+(?:(?:a|an|so|such\s+a|kind\s+of|pretty|really|totally)\s+)*"
    r"(?:mess|crazy|busy|nuts|insane|hectic|chaos|chaotic|rough|tough|wild|packed|full|nightmare|zoo|madness|"
    r"slammed|swamped|bananas)\b", re.I)
"""After a week or a day: a remark on it ("this week is a mess lol")."""
FOREIGN_DATE_WORD_RE = re.compile(
    r"(?<![\w])(?:lunes|martes|mi[eé]rcoles|jueves|viernes|s[aá]bados?|domingos?|ma[nñ]ana|hoy|pasado\s+ma[nñ]ana|"
    r"semana|montags?|dienstags?|mittwochs?|donnerstags?|freitags?|samstags?|sonntags?|sonnabend|morgen|heute|"
    r"übermorgen|uebermorgen|n[aä]chste[nrs]?\s+woche|woche|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|"
    r"demain|aujourd['\u2019]hui|semaine|luned[iì]|marted[iì]|mercoled[iì]|gioved[iì]|venerd[iì]|sabato|domenica|"
    r"domani|oggi|segunda|ter[cç]a|quarta|quinta|sexta|amanh[aã])(?![\w])", re.I)
"""Day words of other languages a family mixes in ("cena con los abuelos el sábado 8pm", "piano
jeden montag 4pm"): the policy reads none of them (CONTRACT 5), so the parts they touch are
neither proven nor verified; a time beside one is on its day, not the next such time."""
_CLOCK_NUMBER = rf"(?:\d{{1,2}}|{HOURW})"
SPOKEN_CLOCK_RE = re.compile(
    r"\b(?:half|quarter|(?:five|ten|twenty|twenty[-\s]five)\s+(?:minutes\s+)?(?:past|to|after|til|till|before)|"
    r"\d{1,2}\s+(?:minutes\s+)?past)(?:\s+past|\s+to|\s+after)?\s+" + _CLOCK_NUMBER + r"\b|"
    r"\b" + HOURW + r"[-\s]"
    r"(?:fifteen|thirty|forty[-\s]five|forty|fifty|twenty|ten|o[-\s](?:five|\w+))\b", re.I)
"""A clock time said in words ("ten to nine", "half 5", "quarter past four", "four thirty"; not
"the 12th to 10:45", a day and a time, or "3:30 to 4", a range):
when no phrase read covers it, the policy gives it no reading (CONTRACT 5: the parts it
touches are not proven, nor verified)."""
TEXT_SPEAK_RE = re.compile(r"\b(?:2nite|2night|2nyt|2nte|2day|2moro+w?|2mor+ow|2morrow|2mrw|2mro|2moz|tmoz|"
                           r"2mrrw|nxt\s+\w+|nxxt\s+\w+|b4\s+\w+|l8r|l8ter)\b", re.I)
"""Text-speak date words ("2nite", "2moro"): the policy gives them no reading (CONTRACT 5)."""
_RULED_OUT = (r"\s+(?:doesn'?t|does\s+not|won'?t|isn'?t|is\s+not|no\s+longer|can'?t|cannot)\s+"
              r"(?:work|works|good|happen|do|be)\b|\s+(?:is|'s)\s+(?:out|off|no\s+good)\b")
RULED_OUT_AFTER_RE = re.compile(_RULED_OUT, re.I)
"""Words after a day that rule it out ('... doesnt work anymore', '... is out'): the day is negated."""
RULED_OUT_DAY_RE = re.compile(r"\b" + WEEKDAY_STEM_RE + r"(?:"
                              + _RULED_OUT + r"|\s+(?:is|'s)\s+a\s+no\b)", re.I)
"""'sat doesnt work anymore': a day ruled out, which says nowhere the event goes."""
BETWEEN_RE = re.compile(r"\bbetween\s+\d{1,2}(?::\d{2})?\s*(?:am|pm|a|p)?\s*(?:and|&)\s*\d{1,2}", re.I)
"""'between 9 and 5': a window the start may fall anywhere in; the grammar reads no such window."""
RANGE_OR_MOVE_RE = re.compile(r"(?<![\d:.])\d{1,2}(?::[0-5]\d)?\s*(?:to|till|til)\s*\d{1,2}(?::[0-5]\d)?\s*"
                              r"(?:am|pm|a\.m\.|p\.m\.)", re.I)
"""'5 to 6 pm' in a message that moves an event: a range ("same time 5 to 6 pm") or a move from
one time to the other ("shift it 5 to 6pm"); the grammar reads neither there, so where no phrase
covers its first time, the words are not understood."""
SPAN_FROM_DAY_RE = re.compile(
    r"\b(?:a|one|two|three|\d+)\s+(?:weeks?|fortnights?|days?)\s+(?:from|after)\s+(?:this\s+|next\s+)?"
    + WEEKDAY_STEM_RE + r"\b|\bfortnight\b", re.I)
"""'a week from Tuesday', 'a fortnight from friday': not defined by the policy (CONTRACT 4)."""
BOUND_RE = re.compile(
    r"(?<!half\s)(?<!quarter\s)(?<!twenty\s)(?<!ten\s)(?<!five\s)"
    r"\b(?:after|before|by|past|no\s+later\s+than|no\s+earlier\s+than)\s+(?:\d{1,2}(?::\d{2})?\s*"
    r"(?:a\.?m\.?|p\.?m\.?|a|p)?|noon|midnight|(?:the\s+)?(?:lunch(?:time)?|morning|afternoon|evening|tonight|night))"
    r"\b(?!\s*(?:min|mins|minutes|h|hrs?|hours?|days?|weeks?)\b)", re.I)
"""'any gap thurs after 3', 'be there by 5', 'after lunch tmrw': a bound the start may lie anywhere
beyond, which the policy does not read as a time (CONTRACT 4 has no such wording; its parts of
the day are windows a start falls in, and 'after lunch' is past that window): the values it
touches stay open."""
UNITLESS_SHIFT_RE = re.compile(
    r"\b(?:push|bump|shift|slide|nudge|move|pull)\w*\s+(?:(?!to\b|at\b|for\b|till\b|until\b|on\b|til\b)\w+\s+)?(?:(?:back|up|forward|"
    r"out|by)\s+)?\d{1,3}\b(?!\s*(?::\d|\.\d|[ap]\.?m\b|[ap]\b|min|m\b|h\b|hr|hour|o'?clock|st\b|nd\b|rd\b|th\b|"
    r"days?\b|weeks?\b))|\b\d{1,3}\s+(?:later|earlier|sooner)\b", re.I)
"""'push it 30', 'bump it back 15': a shift with no unit, which the policy gives no reading."""
_WEEKDAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_NOT_MISSPELT = frozenset({"sundae", "sundaes", "someday", "midday", "weekday", "weekdays", "today",
                           "monthly", "mondo", "sunny", "saturn", "fridge", "friend", "friends", "fried",
                           "tuesdays", "mondays", "wednesdays", "thursdays", "fridays", "saturdays",
                           "sundays", "holiday", "birthday", "payday", "everyday", "thurs", "tues", "weds"})
_WORD_RE = re.compile(r"[a-z]{5,10}", re.I)


def misspelt_weekdays(text: str) -> list[str]:
    """Words that look like a day name but are not one ("wensday", "thrusday", "fridy"): the
    policy gives them no reading, so whatever they touch stays open (CONTRACT 5, Certainty)."""
    from rapidfuzz import fuzz

    found: list[str] = []
    for match in _WORD_RE.finditer(text):
        word = match.group(0).casefold()
        if word in _WEEKDAY_NAMES or word in _NOT_MISSPELT:
            continue
        if any(fuzz.ratio(word, day) >= 80 for day in _WEEKDAY_NAMES):
            found.append(match.group(0))
    return found


def _cities_after_times(text: str, resolution: Resolution) -> list[str]:
    """'3pm melbourne', '9am tokyo': a city after a time with no word "time" is not read as that
    city's clock (CONTRACT 4), so the time is open, not the person's own clock."""
    from reflection.dates.lexicon import ZONE_CITY

    out: list[str] = []
    for expr in resolution.expressions:
        if expr.kind not in ("time", "datetime", "range") or expr.explicit_zone:
            continue
        after = text[expr.end_index:expr.end_index + 30].casefold()
        match = re.match(r"\s*(?:in\s+|,\s*)?([a-z][a-z .'-]*)", after)
        if not match:
            continue
        words = match.group(1)
        for city in ZONE_CITY:
            if re.match(rf"{re.escape(city)}\b", words) and not re.match(rf"{re.escape(city)}\s+time\b", words):
                out.append(text[expr.start_index:expr.end_index + 1 + len(match.group(0))].strip())
                break
    return out


ZONE_WORD_RE = re.compile(r"\b(?:([a-z]+)\s+)?([a-z]{2,})\s+time\b(?!\s*zone)", re.I)
NOT_A_ZONE = frozenset("""same what any the free this next last one on in a spare first family screen
story usual bed nap quiet dinner lunch breakfast play bath tea party game down some good long short
every that which whose busy it's its real end start new ice tee class lesson practice pickup drop
arrival departure kick kickoff race call show curtain check meeting bed wake dinner's closing opening
school match finish finishing ending starting end's start's same own original old regular normal
current scheduled planned agreed proper right wrong exact""".split())


@dataclass(frozen=True)
class Phrase:
    """A phrase that says where something goes: a resolved expression, a shift, or a day relative
    to the event; with its role in its clause."""

    start_index: int
    end_index: int
    text: str
    role: Role
    expression: Expression | None = None
    shift: Shift | None = None
    day_relative: DayRelative | None = None


@dataclass
class Mention:
    """One part of the message naming an event, what happens to it, and the phrases bound to it."""

    ref: EventRef
    verbs: set[str] = field(default_factory=set)   # delete | create | move | swap | rename
    scope: Scope = "unknown"
    phrases: list[Phrase] = field(default_factory=list)
    lengths: list[Length] = field(default_factory=list)
    clause: tuple[int, int] = (0, 0)
    held: str | None = None
    """The change the person says not to make to it ("don't move piano": "move"), or None."""
    singled: tuple[int, int] | None = None
    """Where the day is that picks it out by "just"/"only" (`only_on_one_day`): one occurrence,
    the one on that day, not the series, even where the clause's words leave the scope open."""

    @property
    def singled_out(self) -> bool:
        return self.singled is not None

    @property
    def certain(self) -> bool:
        return self.ref.certain

    @property
    def targets(self) -> list[Phrase]:
        return [p for p in self.phrases if p.role == "target"]

    @property
    def sources(self) -> list[Phrase]:
        return [p for p in self.phrases if p.role == "source"]

    @property
    def current(self) -> list[Phrase]:
        """Phrases stating how this event is now ("it's at 6:10, right?")."""
        return [p for p in self.phrases if p.role == "current"]


@dataclass
class RequestReading:
    """Everything the checks need to know about the words, computed once per case."""

    text: str
    resolution: Resolution
    mentions: list[Mention]
    unmatched: list[EventRef]             # runs of words naming no event we hold
    phrases: list[Phrase]                 # every date phrase, shift and day relative, with its role
    lengths: list[Length]
    verbs: set[str]
    scope: Scope
    pronoun: bool
    group: bool
    free_time_asked: bool
    same_time: bool
    uncovered_date_words: list[str]
    clean_binding: bool                   # every mention got its phrases by the plain rule
    other_event_anchors: list[tuple[int, int]] = field(default_factory=list)
    pinned_end: bool = False              # "same end time", "keep the end"
    pinned_start: bool = False            # "keep the start", "start stays", "longer at the end"
    same_length: bool = False             # "same length"
    reminders: list[int] | None = None    # minutes before the start asked ([] "no reminder"; None: none said)
    owners: Mapping[str, frozenset[str]] | None = None  # the calendars' name words the events were read with
    calendars: list[NamedCalendar] = field(default_factory=list)  # where the message names a calendar

    def mentions_of(self, key: str) -> list[Mention]:
        return [m for m in self.mentions if key in m.ref.keys()]

    def certainly_names(self, key: str) -> bool:
        """Some part of the message names this event and no other."""
        return any(m.certain and m.ref.best == key for m in self.mentions)

    def may_name(self, key: str) -> bool:
        return any(key in m.ref.keys() for m in self.mentions)


def _clauses(text: str) -> list[tuple[int, int]]:
    bounds: list[tuple[int, int]] = []
    start = 0
    for match in re.finditer(r"[.;!?\n]+\s*|\bthen\b|\balso\b|\bplus\b", text, re.I):
        if match.start() > start:
            bounds.append((start, match.start()))
        start = match.end()
    if start < len(text):
        bounds.append((start, len(text)))
    return bounds or [(0, len(text))]


def _clause_of(index: int, clauses: list[tuple[int, int]]) -> tuple[int, int]:
    for a, b in clauses:
        if a <= index < b or (index == b and a < b):
            return a, b
    return clauses[-1]


def _verbs(text: str) -> set[str]:
    """The kinds of change a stretch of the message asks for (a set of the caller's own)."""
    return set(_verbs_in(text))


@lru_cache(maxsize=256)
def _verbs_in(text: str) -> frozenset[str]:
    """Cached: every phrase and mention of one clause asks about the same clause text, and a long
    message has many of them (each search was over the whole clause again)."""
    found: set[str] = set()
    for name, pattern in (("delete", DELETE_RE), ("create", CREATE_RE), ("move", MOVE_RE),
                          ("swap", SWAP_RE), ("rename", RENAME_RE)):
        if pattern.search(text):
            found.add(name)
    return frozenset(found)


FOLLOWING_RE = re.compile(
    r"\bfrom\s+now\s+on\b|\bfrom\s+(?:next|this)\s+(?:week|month|time)\s+on\b|\bgoing\s+forward\b|"
    r"\bmoving\s+forward\b|\bfrom\s+then\s+on\b|\bfrom\s+here\s+on\b|\bstarting\s+(?:next|this|on|from|"
    + WEEKDAY_STEM_RE + r"|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d)|"
    r"\bfrom\s+(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\s+on\b|\bfor\s+the\s+rest\s+of\b(?!" + _BOUNDED + r")|"
    r"\bthe\s+rest\s+of\s+(?:(?:the|this|their|her|his|my|our|\w+['\u2019]s)\s+)?(?:[\w'\u2019]+\s+){0,2}?"
    r"(?:season|series|term|semester|classes|lessons|games|sessions|practices|swims|matches|meetings|"
    r"rehearsals|appointments|visits)\b|\bfrom\s+\w+\s+onwards?\b|\bonwards\b|"
    r"\band\s+(?:every|each|all)\s+(?:(?:of\s+)?the\s+)?\w+\s+(?:after|afterwards|thereafter)\b|"
    r"\band\s+(?:the\s+)?(?:ones?|rest)\s+after\b|\band\s+(?:afterwards|thereafter|beyond)\b|"
    r"\band\s+after\s*(?:[,.;!?]|$)|"
    r"\b(?:all\s+)?(?:the|my|our|his|her|their)\s+remaining\b|\b(?:all\s+)?(?:the\s+)?ones?\s+(?:left|remaining)\b|"
    r"\bwhat['\u2019]?s\s+left\s+of\b|"
    r"\bevery\s+(?:[\w'\u2019]+\s+){0,4}?from\s+(?:(?:next|this)\s+(?:week|month|" + WEEKDAY_STEM_RE + r")|tomorrow|"
    r"(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\b|" + WEEKDAY_STEM_RE + r"\b|"
    r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)", re.I)
"""CONTRACT 4: "from now on", "from next week on", "starting <date>", "every … from <date>"
("every tuesday from next week", not "every day from 9 to 5"), "on the 20th and every one
after": that occurrence and the following ones (a `following` change splits the series)."""


ONLY_BEFORE_RE = re.compile(r"\b(?:just|only)\s+(?:(?:the|my|our|\w+['\u2019]s)\s+)?$", re.I)
ONLY_START_RE = re.compile(r"(?:just|only)\s", re.I)
OTHERS_STAY_RE = re.compile(
    r"\b(?:the\s+)?(?:rest|others|other\s+(?:ones|weeks|days))\s+(?:stay|stays|remain|are\s+fine|"
    r"can\s+stay|as\s+(?:is|they\s+are))\b|\bnot\s+the\s+(?:rest|others|other\s+(?:ones|weeks))\b|"
    r"\b(?:leave|keep)\s+the\s+(?:rest|others|other\s+(?:ones|weeks))\b|"
    r"\b(?:leave|keep|don['\u2019]?t\s+(?:change|touch|move))\s+the\s+(?:whole\s+)?(?:series|schedule)"
    r"(?:\s+(?:as\s+(?:is|it\s+is)|the\s+same|alone|unchanged))?\b|"
    r"\bthe\s+(?:whole\s+)?series\s+(?:stays?|remains?)(?:\s+as\s+(?:is|it\s+is)|\s+the\s+same)?\b", re.I)
"""The other occurrences said to stay: "no swimming on may 10, the rest stay", "just this once,
keep the series as is" (the series named as what is not changed, not as the scope)."""
ONE_DAY_AFTER_RE = re.compile(
    rf"(?:['\u2019]s)?\s+(?:(?:on|for)\s+)?(?:(?:this|next|that)\s+(?:{WEEKDAY_RE}|week\b)|"
    rf"{MONTH_RE}\s*{DAY_RE}|(?:the\s+)?{DAY_RE}\s+(?:of\s+)?{MONTH_RE}|\d{{1,2}}/\d{{1,2}}\b|"
    rf"(?:{WEEKDAY_RE}\s*,?\s*)?the\s+(?:\d{{1,2}}(?:st|nd|rd|th)\b|{ORDW})|"
    rf"{WEEKDAY_RE}\s*,?\s*\d{{1,2}}(?:st|nd|rd|th)\b|"
    r"tomorrow\b|today\b|tonight\b)(?!['\u2019]?s?\s+(?:on|onwards?)\b)"
    rf"(?!\s*(?:and|&|till|until|-|\u2013)\s*(?:the\s+)?(?:\d|{ORDW}|{WEEKDAY_RE}|{MONTH_RE}))",
    re.I)
"""Around an event's name: "just swim class next week", "only Sam's yoga on March 9", "only
Yoga this Monday", "soccer on saturday the twentieth", "swim on the 14th": the event on one
day, picked out from its others (CONTRACT 4: one occurrence). Plural days ("only the mondays")
and a day that begins a span ("between the 3rd and the 7th") are not one day and do not match."""


WHOLE_WORDS_RE = re.compile(r"\b(?:whole|entire(?:ly)?|altogether|any\s*more|no\s+more|season|quit(?:ting)?|"
                            r"stop(?:ped|ping)?|done\s+with|for\s+the\s+year|the\s+lot)\b", re.I)
"""Words that may stretch a delete past the day said with it ("the whole thing", "we're done
with it", "no more soccer"): a delete's day then singles nothing out."""


def only_on_one_day(text: str, start: int, end: int, deleting: bool = False) -> tuple[int, int] | None:
    """The event named at `text[start:end]` is singled out on one day by "just"/"only" before
    it (or "the rest stay" in the message, or a delete: "call off swim tonight" can only mean
    that night's) and that day right after it, with no word of a series
    or of "from then on" anywhere in the message: then one occurrence is meant, whatever else
    the clause says. Where that day is said, or None."""
    said_only = ONLY_BEFORE_RE.search(text[max(0, start - 30):start]) or \
        ONLY_START_RE.match(text, start) or \
        OTHERS_STAY_RE.search(text)  # the name's words may begin with "only" ("only Sam's yoga")
    day = ONE_DAY_AFTER_RE.match(text, end)
    if day is not None and not MOVE_RE.search(text) and re.match(
            rf"\s*(?:to|through|thru)\s+(?:the\s+)?(?:\d|{ORDW}|{WEEKDAY_RE}|{MONTH_RE})", text[day.end():], re.I):
        return None  # "cancel spin from the 3rd to the 7th": the day begins a span
    if deleting and not said_only:
        # the delete said of this name, in its own comma-part ("cancel tomorrow's nurse visit, ma
        # is staying at my sister's tonight": "my sister's tonight" is not deleted)
        begin = max(text.rfind(",", 0, start), text.rfind(";", 0, start)) + 1
        stops = [i for i in (text.find(",", end), text.find(";", end)) if i >= 0]
        deleting = bool(DELETE_RE.search(text, begin, min(stops, default=len(text))))
    if not (said_only or deleting) or day is None or FOLLOWING_RE.search(text) or SERIES_RE.search(text):
        return None
    if not said_only and WHOLE_WORDS_RE.search(text):
        return None  # "cancel soccer on the 20th, the whole thing": the day may not bound it
    return day.span()


HELD_BACK_RE = re.compile(r"\b(?:(?:don['\u2019]?t|do\s+not|never)\s+(?P<verb>move|change|touch|shift|push|"
                          r"reschedule|cancel|delete|remove)|(?P<keep>keep|leave)|(?<!do\s)(?P<not>not))\s+"
                          r"(?:the\s+|my\s+|our\s+|\w+['\u2019]s\s+)?", re.I)
""""don't move piano"; "keep the hotel" (not to be deleted: "keep the hotel, just move it a week
later" still asks for the move); "not the dentist, the orthodontist" (named only to be set aside:
no part of a list, and no change to it proven wrong from these words)."""


STILL_ON_AFTER_RE = re.compile(r"^[\w'\u2019 -]*?\s(?:is|are|['\u2019]s|['\u2019]re)\s+"
                               r"(?:still\s+(?:on|happening|going\s+ahead)|not\s+cancel+ed)\b"
                               r"|^[\w'\u2019 -]*?\sstays?\s+(?:on|as\s+is)\b", re.I)
""""the u12 one is still on", "swim stays as is": named to say it is not cancelled."""


def held_back(text: str, start: int, end: int) -> str | None:
    """"don't move piano": the change said not to be made to the event named at `text[start:end]`
    (the words of its name may begin with them: "dont" is no stop word)."""
    if STILL_ON_AFTER_RE.search(text[start:end + 25]):
        return "delete"  # "cancel u10 netball, the u12 one is still on" (its words may run into the name)
    window = text[max(0, start - 40):end]
    found = [m for m in HELD_BACK_RE.finditer(window) if m.end() < len(window)
             and (m.end() >= len(window) - (end - start) or not window[m.end():len(window) - (end - start)].strip())]
    if not found:
        return None
    match = found[-1]
    if match["keep"]:
        return "delete"
    if match["not"]:
        return "named out"  # "move naledi's appointment, not the dentist, the orthodontist"
    verb = match["verb"].casefold()
    return "delete" if verb in ("cancel", "delete", "remove") else "change" if verb in ("change", "touch") else "move"


OWN_SCOPE_RE = re.compile(r"\b(?:(?:this|next|that)\s+)?(?:" + WEEKDAY_FULL_RE + r"|week|"
                          r"tomorrow|today|tonight)['\u2019]?s\s*$", re.I)
"""A scope said as another event's own, right before its name ("thursday's pilates")."""


def _own_scopes(text: str, mentions: list[Mention]) -> None:
    """"move yoga to friday and cancel thursday's pilates": the one occurrence is pilates', not
    yoga's. In a clause naming several events, a scope said right before one of their names is
    that one's alone: each other event's scope is read without it."""
    for mention in mentions:
        others = [m for m in mentions if m is not mention and m.clause == mention.clause
                  and m.ref.best != mention.ref.best]
        words = text
        for other in others:
            own = OWN_SCOPE_RE.search(text, mention.clause[0], other.ref.start)
            if own is not None:
                words = words[:own.start()] + " " * (own.end() - own.start()) + words[own.end():]
        if words is not text:
            mention.scope = _scope(words[mention.clause[0]:mention.clause[1]])


def stated_scopes(text: str) -> set[Scope]:
    """The scopes the message's clauses state, each read alone ("skip this week's piano, then
    from the 19th on make it every other tuesday": the occurrence, and the following ones)."""
    return {_scope(text[a:b]) for a, b in _clauses(text)} - {"unknown"}


@lru_cache(maxsize=256)
def _scope(text: str) -> Scope:
    text = OTHERS_STAY_RE.sub(" ", text)  # what is said to stay is no scope of the change
    if FOLLOWING_RE.search(text) and not OCCURRENCE_RE.search(text):
        return "following"
    occ, ser = bool(OCCURRENCE_RE.search(text)), bool(SERIES_RE.search(text))
    if occ and not ser:
        return "occurrence"
    if ser and not occ:
        return "series"
    return "unknown"


END_BEFORE_RE = re.compile(
    r"\b(?:end|ends|ending|finish|finishes|finishing|wrap\s+up|wraps\s+up|over|done|let\s+out|get\s+out)"
    r"\s+(?:at|by|around|till|until|til)\s*$|"
    r"\b(?:run|runs|running|go|goes|going|last|lasts|stay|keep\s+it)\s+(?:till|until|til|past)\s*$|"
    r"\b(?:till|until|til|untill)\s*$|\bend\s+time\s+(?:to|of|at)?\s*$", re.I)
"""Words before a time that say when an event ends ("make it end at 5:30", "running till 6:30")."""
END_CLAUSE_RE = re.compile(r"\s*(?:(?:please|pls|can\s+you|could\s+you)\s+)?(?:end|finish|wrap\s+up)\s+(?!of\b)"
                           r"(?:[\w'\u2019-]+\s+){1,5}(?:at|by)\s*$", re.I)
"""A clause that begins with ending an event, up to a time: "End Leo's dentist appointment at"."""
PIN_END_RE = re.compile(
    r"\b(?:same|keep(?:\s+the)?|don'?t\s+(?:move|change|touch)\s+the|leave\s+the)\s+end(?:\s+time)?\b|"
    r"\bend(?:s|ing)?(?:\s+time)?\s+(?:stays?|the\s+same|as\s+is|unchanged|doesn'?t\s+change)\b|"
    r"\bstill\s+(?:end|finish)(?:s|es|ing)?\s+at\b|"
    r"\b(?:end|finish)(?:s|es|ing)?(?:\s+time)?\s+(?:is|['\u2019]s|stays?)\s+still\b|"
    r"\b(?:finish|finishing)(?:\s+time)?\s+(?:stays?|the\s+same|as\s+is|unchanged|doesn'?t\s+change)\b|"
    r"\b(?:end|ends|ending|finish|finishes|finishing)(?:\s+time)?\s+(?:at\s+)?(?:the\s+)?same(?:\s+time)?\b|"
    r"\b(?:to|at)\s+the\s+(?:start|beginning)\b(?!\s+of\s+(?:the\s+|this\s+|next\s+)?(?:day|week|month|year|"
    r"morning|afternoon|evening|night|list|line|queue|season|term|school\s+day|workday))|"
    r"\b(?:same|keep(?:\s+the)?|leave\s+the)\s+(?:finish|finishing)(?:\s+time)?\b", re.I)
PIN_START_RE = re.compile(
    r"\b(?:same|keep(?:\s+the)?|don'?t\s+(?:move|change|touch)\s+the|leave\s+the)\s+start(?:\s+time)?\b|"
    r"\bstart(?:s|ing)?(?:\s+time)?\s+(?:stays?|the\s+same|as\s+is|unchanged|doesn'?t\s+change)\b|"
    r"\bstill\s+(?:start|begin)(?:s|ing)?\s+at\b|\blonger\s+at\s+the\s+end\b|\bat\s+the\s+end\b|"
    r"\bto\s+the\s+end\b(?!\s+of\s+(?:the\s+|this\s+|next\s+)?(?:day|week|month|year|morning|afternoon|evening|"
    r"night|list|line|queue|season|term|school\s+day|workday))|"
    r"\b(?:start|starts|starting|begin|begins|beginning)(?:\s+time)?\s+(?:at\s+)?(?:the\s+)?same(?:\s+time)?\b", re.I)
SAME_LENGTH_RE = re.compile(r"\b(?:same|keep(?:\s+the)?|keep\s+it\s+the\s+same)\s+(?:length|duration)\b|"
                            r"\b(?:length|duration)\s+(?:stays|the\s+same)\b", re.I)


CANNOT_BEFORE_RE = re.compile(r"\b(?:i|we|he|she|they|you)\s+(?:can['\u2019]?t|cannot|can\s+not|couldn['\u2019]?t|"
                              r"won['\u2019]?t\s+be\s+able\s+to|(?:am|['\u2019]m|are|['\u2019]re|is|['\u2019]s)\s+not\s+"
                              r"able\s+to)\s+(?:[\w'\u2019]+\s+){0,5}$", re.I)
""""i can't get off work in the morning": in a clause of what someone cannot do, the time said is
one the change must avoid, never where it goes."""


OPENING_HOURS_BEFORE_RE = re.compile(
    r"\b(?:shop|store|pool|gym|library|office|clinic|surgery|restaurant|bank|market|mall|centre|center|cafe|"
    r"bakery|pharmacy|chemist|garage|salon|dojo|studio|museum|venue|bar|pub|doors?|it|they)['\u2019]?s?\s+"
    r"(?:opens?|opening|closes?|closing|shuts?|(?:is|are)\s+(?:open|closed))\s+"
    r"(?:at|from|till|until|til|by|around)?\s*$", re.I)
"""'the shop opens at 10', 'the pool closes at 8': a place's hours, said beside a request
(not "the signup opens at midnight", where the opening is the event)."""


_SENTENCE_STOP_RE = re.compile(r"[.;!?\n]")


def sentence_at(text: str, index: int) -> tuple[int, int]:
    """The bounds of the sentence holding `text[index]`: from after the stop before it to the
    stop at or after it (a full stop, ";", "!", "?" or a new line)."""
    before = [m.end() for m in _SENTENCE_STOP_RE.finditer(text, 0, index)]
    after = _SENTENCE_STOP_RE.search(text, index)
    return (before[-1] if before else 0), (after.start() if after else len(text))


HAVE_ON_RE = re.compile(r"\b(?:i['\u2019]?ve\s+got|i\s+have\s+got|ive\s+got|i\s+have|i\s+got|we['\u2019]?ve\s+got|"
                        r"weve\s+got|we\s+have|we\s+got|there['\u2019]?s|theres|there\s+(?:is|are))\b", re.I)
ASKS_IN_SENTENCE_RE = re.compile(r"\b(?:pls|please|plz|can\s+you|can\s+u|could\s+you|could\s+u|add|put|book|"
                                 r"cancel|delete|remove|make|set|change)\b", re.I)
""""tmrw i've got the vet at 9 and yoga at 6", "there's 2 functions on thursday": a sentence
that tells what is on, asking nothing, before a later sentence that moves one of them: its
days and times are where things are now (CONTRACT 5), not where the change goes
(`ASKS_IN_SENTENCE_RE`: words that make the sentence a request after all)."""


def _role(text: str, start: int, end: int, later_targets: bool, later_move_target: bool) -> Role:
    before = text[max(0, start - 25):start]
    ruled_out = RULED_OUT_AFTER_RE.match(text[end:])
    if ruled_out and re.match(r"\s+(?:is|'s)\s+off\b", ruled_out.group(0)) and re.search(r"\bon\s+$", before):
        ruled_out = None  # "swim on september 12 is off": the event on that day is, not the day
    if NEGATION_BEFORE_RE.search(before) or ruled_out or \
            CANNOT_BEFORE_RE.search(re.split(r"[,.;!?\n]", text[:start])[-1]):
        return "negated"
    if OPENING_HOURS_BEFORE_RE.search(before):
        return "current"  # "the shop opens at 10": when a place is open, not where the event goes
    sentence = text[slice(*sentence_at(text, start))]
    if HAVE_ON_RE.search(sentence) and not MOVE_RE.search(sentence) and not ASKS_IN_SENTENCE_RE.search(sentence) \
            and later_move_target:
        return "current"  # "tmrw ive got the vet at 9 and yoga at 6. ... move that one to friday"
    others = OTHERS_STATE_BEFORE_RE.search(before)  # "a test at 3", "a test in the morning"
    if SAME_AS_BEFORE_RE.search(before) or (others is not None and (
            others["prep"] or re.match(r"(?:in|this|that)\b", text[start:end], re.I))):
        return "current"
    if END_BEFORE_RE.search(before) or END_CLAUSE_RE.fullmatch(re.split(r"[.;!?\n]", text[:start])[-1]):
        return "end"
    if SOURCE_BEFORE_RE.search(before) and later_targets and MOVE_RE.search(text):
        return "source"  # with nothing moved, "from today to wednesday" is a span (its start)
    after = text[end:end + 3]
    possessive = re.match(r"['\u2019]s\b", after) or re.search(r"['\u2019]s$", text[start:end])
    if possessive and later_move_target:
        return "source"  # "move this week's lesson to Thursday"
    return "target"


CURRENT_BEFORE_RE = re.compile(
    r"(?:\b(?:is|are|was|were|it'?s|its|that'?s|which\s+is)|['\u2019]s|\bs)\s+(?:still\s+|currently\s+|"
    r"normally\s+|usually\s+|already\s+|supposed\s+to\s+be\s+)?(?:on\s+|at\s+|for\s+|set\s+for\s+|"
    r"scheduled\s+for\s+|booked\s+for\s+|planned\s+for\s+)?(?:the\s+)?"
    r"(?:(?:every\s+|on\s+)?" + WEEKDAY_FULL_RE + r"s?\s+(?:at\s+)?)?$|"
    r"\b(?:got|was|were|been|has\s+been|have\s+been|had\s+been)\s+(?:moved|changed|pushed|switched|"
    r"rescheduled|bumped|shifted)\s+(?:back\s+|up\s+|forward\s+)?(?:to|till|until|for)?\s*$|"
    r"\b(?:currently|right\s+now\s+it'?s|at\s+the\s+moment\s+it'?s)\s+(?:on\s+|at\s+)?$", re.I)
"""Words before a phrase that state how things are now: "the dentist is at 3", "piano's tuesday
4:30", "it got moved to Friday", "the call with oma is sundays 3pm her time"."""
QUESTION_TAG_AFTER_RE = re.compile(
    r"^\s*,?\s*(?:right|yeah|yes|correct|isn'?t\s+it|isnt\s+it|no|innit|ok|yea|yep|aren'?t\s+they|"
    r"wasn'?t\s+it|i\s+think|i\s+believe|iirc|now)?\s*\?+", re.I)


ENDED_WORDS = r"over|done|finished|ended|ends|finishes|wraps\s+up|lets\s+out"
"""The words that say another event is over ("as soon as it's over", "once the game ends")."""
SAME_DAY_AS_RE = re.compile(r"\b(?:to|on|for)\s+the\s+same\s+day(?:\s+as\s+(?:it|that|this|the\s+[a-z]+))?\b", re.I)
""""move the water bill reminder to the same day": the day of another event the message says,
its time kept or not (the policy reads neither); placed relative to that event."""
OTHER_EVENT_ANCHOR_RE = re.compile(
    r"\b(?:right|just|straight|directly|immediately|shortly)\s+(?:before|after|following|ahead\s+of)\s+[a-z]+"
    r"|\b(?:right|just|straight|directly|immediately)\s+(?:after(?:wards?)?|before)(?=\s*(?:[.?!,;]|$))"
    r"|\b(?:before|after|following|ahead\s+of)\s+"
    r"(?:it|that|this|them|him|her|his|hers|theirs|the\s+[a-z]+|(?:my|our|your|their)\s+[a-z]+|[a-z]+['\u2019]s|"
    r"[a-z]+\s+(?:ends?|finishes|starts?))\b"
    r"|\b(?:when|where)\s+(?:the\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:used\s+to\s+be|was|had\s+been)\b"
    r"|\bto\s+where\s+(?:the\s+)?(?!(?:nothing|anything|everything|nobody|we|i|you|they|it)\b)[a-z]+"
    r"(?:['\u2019]s)?(?:\s+[a-z]+)?\s+(?:is|are)\b"
    r"|\b(?:day|night|week)\s+(?:after|before)\s+(?:[a-z]+['\u2019]s|my|our|his|her|their|your|the)\s+[a-z]+"
    r"|\bsame\s+(?:time\s+)?(?:slot|time|spot)\s+(?:as\s+)?(?:the\s+)?[a-z]+(?:\s+[a-z]+)?\s+(?:had|has|was|used)\b"
    r"|\b(?:\d+|an?|one|two|three|half\s+an?)\s*(?:h|hrs?|hours?|min|mins|minutes)\s+(?:before|after)\s+"
    r"(?:the\s+)?[a-z]+"
    r"|\b(?:as\s+soon\s+as|once|when|whenever|the\s+(?:minute|moment|second))\s+"
    r"(?:it|that|this|the\s+[a-z]+|[a-z]+)(?:['\u2019]s|\s+is|\s+gets)?"
    rf"\s+(?:{ENDED_WORDS}|starts|begins)\b"
    r"|\b(?:in\s+)?between(?=\s*(?:[.?!,;)]|$)|\s+(?:them|the\s+two|both|those|these|each|it\s+and)\b)", re.I)
"""Where one event is placed relative to another ("put the dinner right after it", "move swim to
when piano used to be", "to where the dentist is", "2 hours after the bbq ends", "a 15 min drive between"): its time
follows from the other event's (new or old) time, which code does not chain, so what it touches
stays open."""


LATER_CHANGE_RE = re.compile(
    r"\b(?:push|bump|move|shift|slide|nudge|pull|make|change|switch|reschedul)\w*\s+(?:it|them|that|this)\b|"
    r"\b(?:later|earlier|sooner|back|forward)\b", re.I)
"""After a statement ("it's at 6 right?"), words that change the event from there ("push it 30"):
the statement is then how things are now, even when the change itself has no phrase we read."""


BUSY_AFTER_RE = re.compile(r"^\s+(?:is|was|looks|seems|'s)\s+(?:(?:so|really|very|super|kind\s+of|a\s+bit)\s+)?"
                           r"(?:a\s+mess|messy|crazy|busy|packed|hectic|full|insane|nuts|chaos|chaotic|mad|"
                           r"a\s+nightmare|rough|slammed|swamped)\b", re.I)


def _all_past(phrase: Phrase, today: date) -> bool:
    expr = phrase.expression
    return expr is not None and bool(expr.candidates) and all(
        as_date(c.end if c.end is not None else c.start) < today for c in expr.candidates)


def _past_told(phrases: list[Phrase], today: date) -> list[Phrase]:
    """"last tuesday piano ran over ... can u push this tuesday's lesson to 4:30", "yesterday's
    soccer got snowed out, makeup is next saturday": a day wholly past, with a later phrase that
    says a day not past, tells what happened (`current`), not where anything goes. Alone, or
    with only a time after it, it keeps its role ("log yesterday's match at 3pm")."""
    out: list[Phrase] = []
    for i, phrase in enumerate(phrases):
        past = _all_past(phrase, today)
        later = any(p.role in ("target", "current") and p.start_index > phrase.end_index
                    and phrase_kind(p) in ("date", "datetime") and not _all_past(p, today) for p in phrases[i + 1:])
        if phrase.role == "target" and past and later and phrase.shift is None and phrase.day_relative is None:
            phrase = replace(phrase, role="current")
        out.append(phrase)
    return out


SWAP_IN_PLACE_RE = re.compile(r"\b(?:swap|swop|switch|flip)\b(?![^.?!]{0,40}\bto\b)", re.I)
""""swap the two on saturday, the dentist at 9:30 and the haircut at 11": each time said is where
an event is now; the change is the exchange, so no time said is a target (with "switch it to
thursday", "to" gives one)."""


def _swapped_times(text: str, phrases: list[Phrase]) -> list[Phrase]:
    """In a swap, a clock said of an event is where it is now (`current`)."""
    if not SWAP_IN_PLACE_RE.search(text):
        return phrases
    return [replace(p, role="current")
            if p.role == "target" and p.expression is not None and p.expression.kind in ("time", "datetime")
            and p.shift is None else p for p in phrases]


def _current_state(text: str, phrases: list[Phrase]) -> list[Phrase]:
    """Phrases that state how things are now ("track practice is tues at 6:10 right?") become
    `current` when a later phrase says where the event goes ("make it half an hour later"): the
    stated time is then the event's own, not its target. Alone, a phrase keeps its role (the
    statement may be all there is to go on: "dinner's at 7 on friday, add it")."""
    out: list[Phrase] = []
    for i, phrase in enumerate(phrases):
        rest = text[phrase.end_index:]
        later_change = any(p.role == "target" for p in phrases[i + 1:]) or bool(
            SAME_TIME_RE.search(rest)) or bool(re.search(r"[?.!;,]", rest[:4]) and LATER_CHANGE_RE.search(rest))
        before = text[max(0, phrase.start_index - 40):phrase.start_index]
        before = re.split(r"[.;!?\n]|\band\b|\bthen\b|\bbut\b", before)[-1]
        stated = bool(CURRENT_BEFORE_RE.search(before)) or bool(QUESTION_TAG_AFTER_RE.match(text[phrase.end_index:]))
        is_now = phrase.text.strip().casefold() in ("now", "right now")
        if phrase.role == "target" and BUSY_AFTER_RE.match(text[phrase.end_index:]):
            phrase = replace(phrase, role="current")  # "this week is a mess": not where it goes
        # "half term is 26 oct to 30 oct, pop it in": the day stated starts a span said whole (in a
        # move, "the dinner that's on tuesday to wednesday" is where it is and where it goes)
        spans_on = i + 1 < len(phrases) and not MOVE_RE.search(text) and bool(
            SPAN_JOIN_RE.fullmatch(text[phrase.end_index:phrases[i + 1].start_index]))
        if phrase.role == "target" and later_change and stated and phrase.shift is None \
                and phrase.day_relative is None and not is_now and not spans_on:
            phrase = replace(phrase, role="current")
        out.append(phrase)
    return out


END_OF_DAY_RE = re.compile(r"\b(?:(?:the\s+)?end\s+of\s+(?:the\s+)?(?:day|today|tonight)|eod|cob|"
                           r"first\s+thing|(?:the\s+)?start\s+of\s+(?:the\s+)?day)\b", re.I)
"""A time no policy gives (CONTRACT 4 is silent): "move the show to the end of the day" is late on
some day, most likely the show's own, not 23:59 today as a deadline reads it; "first thing monday
morning" is the start of that morning, not any time of it. Left unread."""


AROUND_HOLIDAY_RE = re.compile(rf"\b(?:(?:the\s+)?(?:day|night|week|weekend)|(?:the\s+)?{WEEKDAY_FULL_RE})"
                               rf"\s+(?:after|before)\s+(?:{HOLIDAY_WORDS})", re.I)
""""the day after christmas", "the friday before thanksgiving": CONTRACT 4 reads no holiday, so
the day counted from one is left unread (not the holiday itself)."""
MONTH_NAMED_RE = re.compile(rf"\b{MONTH_RE}|\b\d{{1,2}}/\d{{1,2}}\b", re.I)
BARE_DAY_OF_MONTH_RE = re.compile(rf"(?:the\s+)?(?:\d{{1,2}}(?:st|nd|rd|th)|{ORDW})", re.I)
""""the 28th" beside a month said elsewhere in the message ("feb 29 ... on normal years we do the
28th"): CONTRACT 4 reads it as the next 28th from today, but the person may mean that month's;
left unread then."""
COUNTED_WEEKDAY_RE = re.compile(rf"\b(?:the\s+)?(?:first|second|third|next|last|final|1st|2nd|3rd)\s+"
                                rf"(?:{WEEKDAY_FULL_RE}|weekend|weekday|working\s+day|business\s+day)s?"
                                rf"\s+(?:after|before|following)\b", re.I)
""""the first wednesday after" (Chinese New Year), "the last friday before the trip": a day
counted from another event's, which CONTRACT 4 does not read; left unread, not the weekday's
own reading."""
POINTED_WEEKDAY_RE = re.compile(rf"\b(?:that|the\s+same)\s+{WEEKDAY_FULL_RE}\b|\bthe\s+one\s+(?:after|before)\b"
                                rf"|\bthe\s+{WEEKDAY_FULL_RE}\s+(?:after|before)\s+(?:i|i['\u2019]?m|we|we['\u2019]?re|he|"
                                rf"he['\u2019]?s|she|she['\u2019]?s|they|they['\u2019]?re|you|you['\u2019]?re)\b", re.I)
""""nursery's closed WA day so no drop off that monday": the weekday of a day said before (a
holiday, an event), not the coming one; "not this friday, the one after": the day after one
said; "the thursday after i'm back", "the friday before we leave": the first one after a day
the person holds in mind, not the coming one. CONTRACT 4 reads no pointer, so it is left
unread."""
YEAR_AFTER_RE = re.compile(r"\b(?:next|this|last)\s+year\b", re.I)
""""july 3 thru july 6 next year": a year said right after a date the grammar read without it."""
WHILE_ON_RE = re.compile(r"\b(?:while|whilst|during)\s+(?:it['\u2019]?s|its|it\s+is|they['\u2019]?re|they\s+are|"
                         r"we['\u2019]?re|we\s+are|i['\u2019]?m|im|i\s+am|(?:the|that|those|these)\s+[a-z]+)", re.I)


def _weekdays_while_away(text: str, resolution: Resolution) -> list[str]:
    """"kids off from sat 28 march to tue 7 april ... skip thursday lift club while its on": a
    weekday said with "while"/"during" a span is one of the span's days; when the coming one
    lies in no span the message reads, the policy's reading is not what was meant. Left unread
    (when it does lie in the span, "cancel tennis on saturday while im gone", it stands)."""
    spans: list[tuple[date, date]] = []
    for expr in resolution.expressions:
        for cand in expr.candidates if expr.kind == "range" else ():
            if cand.end is not None:
                spans.append((as_date(cand.start), as_date(cand.end)))
    dates = [e for e in resolution.expressions if e.kind == "date" and e.candidates]
    for first, last in itertools.pairwise(dates):  # "thursday to sunday": two dates said as a span
        if re.fullmatch(r"\s*(?:-|\u2013|to|thru|through|till|until)\s*", text[first.end_index:last.start_index], re.I):
            spans += [(as_date(a.start), as_date(b.start)) for a in first.candidates for b in last.candidates]
    out: list[str] = []
    for found in WHILE_ON_RE.finditer(text):
        begin = sentence_at(text, found.start())[0]
        for expr in resolution.expressions:
            if expr.kind != "date" or not begin <= expr.start_index < found.start():
                continue
            days = [as_date(c.start) for c in expr.candidates]
            if days and not any(a <= d <= b for d in days for a, b in spans):
                out.append(found.group(0))
    return out


QUALIFIED_WEEKDAY_RE = re.compile(rf"\b(?:[a-z]+-free|kid-?less|child-?less|quiet|spare|empty|non-[a-z]+)\s+"
                                  rf"{WEEKDAY_FULL_RE}s?\b", re.I)
""""my next kid-free saturday", "the next quiet friday": a weekday picked by a condition the
calendar holds (custody weekends, what is booked), not the coming one; left unread."""
_ORDINAL = r"(?:first|second|third|fourth|fifth|last|1st|2nd|3rd|4th|5th)"
ORDINAL_WEEKDAYS_RE = re.compile(
    rf"\b{_ORDINAL}\s*(?:and|&|,|or)\s*(?:the\s+)?{_ORDINAL}\s+{WEEKDAY_RE}|"
    rf"\b{MONTH_RE}[\s,]+(?:the\s+)?{_ORDINAL}\s+{WEEKDAY_RE}", re.I)
""""first and third tuesday of each month", "october, first saturday": weekdays counted in a
month in a form CONTRACT 4 does not spell out ("the first Monday of December" it does); left
unread, so neither a date nor a repeat rule is proven from half of it."""
BARE_RANGE_RE = re.compile(r"(?<![\w:./])\d{1,2}(?:[:.]\d\d)?\s*(?:a\.?m\.?|p\.?m\.?)?\s*(?:-|\u2013|to|till|til)\s*"
                           r"\d{1,2}(?:[:.]\d\d)?(?![\w:./%])", re.I)
""""can be a real booking now, 8 to 10": two clock numbers as a range with no day beside them,
which the policy reads only after a day; left unread (a start and an end, or "five to six").
"9am-12": the end's half of the day is not said either."""
DAY_BOUND_BEFORE_RE = re.compile(r"\b(?:before|after|by|prior\s+to)\s+(?:the\s+)?$", re.I)
COUNTED_FROM_BEFORE_RE = re.compile(rf"\b(?:days?|nights?|weeks?|weekends?|months?|{WEEKDAY_FULL_RE}s?)"
                                    r"\s+(?:before|after)\s+(?:the\s+)?$", re.I)
""""the last practice before christmas", "the first game after the 10th", "done by friday": a day
that bounds where the event lies, not the day it is on; CONTRACT 4 reads no such bound, so the
day is left unread ("the day after" and "the friday before" count from a day: a reading of their
own, `AROUND_HOLIDAY_RE`)."""
SAME_AS_BEFORE_RE = re.compile(r"\bsame\s+(?:\w+\s+)?as\s+(?:on\s+)?$", re.I)
"""Before a day: "same as last week's" tells which event to copy, not where it goes."""
OTHERS_STATE_BEFORE_RE = re.compile(r"\b(?!(?:we|i|you)\b)[a-z]+\s+(?:has|had|got)\s+(?:an?|his|her|their)\s+"
                                    r"[a-z]+(?:\s+(?!(?:at|on)\b)[a-z]+)?\s+(?P<prep>(?:at|on)\s+)?$", re.I)
"""Before a time: "leo has a test at 3", "he has a test in the morning", a reason told of
someone's other plans, not a change."""


def _phrases(text: str, resolution: Resolution, shifts: list[Shift],
             relatives: list[DayRelative]) -> list[Phrase]:
    taken: list[tuple[int, int]] = [(r.start_index, r.end_index) for r in relatives]
    taken += [(s.start_index, s.end_index) for s in shifts]
    Raw = tuple[int, int, str, Expression | None, Shift | None, DayRelative | None]
    raw: list[Raw] = []
    for found in resolution.expressions:
        if found.kind == "duration" or found.recurrence:
            continue
        if found.span.strip().casefold() in ("now", "right now") and not re.search(
                r"\b(?:to|for|at|until|till)\s*$", text[max(0, found.start_index - 8):found.start_index], re.I):
            continue  # "tennis is every thursday now", "it's now at 5": an adverb, not a time
        if REMARKED_AFTER_RE.match(text, found.end_index) and not found.explicit_zone and \
                re.fullmatch(r"(?:this|next|last)\s+(?:week|month)|today|tomorrow", found.span.strip(), re.I):
            continue  # "this week is a mess lol": a remark on the time, not where anything goes
        if any(a < found.end_index and found.start_index < b for a, b in taken):
            # "same time next week", "the day after": the event-relative reading replaces the
            # resolver's reading from now
            continue
        raw.append((found.start_index, found.end_index, found.span, found, None, None))
    raw += [(s.start_index, s.end_index, s.span, None, s, None) for s in shifts]
    raw += [(r.start_index, r.end_index, r.span, None, None, r) for r in relatives]
    raw.sort(key=lambda item: item[0])
    out: list[Phrase] = []
    for i, (a, b, span, expr, shift, rel) in enumerate(raw):
        later = any(re.search(r"(?:\b(?:to|until|till|for|on|at)|->|\u2192)\s*$", text[max(0, x[0] - 8):x[0]], re.I)
                    or x[4] is not None for x in raw[i + 1:])
        moved_to = any(re.search(r"(?:\b(?:to|till|until)|->|\u2192|\bmove\w*|\bpush\w*)\s*$",
                                 text[max(0, x[0] - 10):x[0]], re.I) or x[4] is not None or x[5] is not None
                       for x in raw[i + 1:])
        out.append(Phrase(a, b, span, _role(text, a, b, later, moved_to), expr, shift, rel))
    return _landing_ends(text, _spans_of_two(text, _past_told(
        _swapped_times(text, _current_state(text, out)), resolution.now.date())))


LANDS_BEFORE_RE = re.compile(r"\b(?:lands?|landing|arrives?|arriving|gets\s+in)\s+(?:at\s+)?$", re.I)


def _landing_ends(text: str, phrases: list[Phrase]) -> list[Phrase]:
    """"our flight is friday 9:05am, lands 5:50pm tokyo time": after a time said before it, the
    time it lands is where the event ends, not where it starts. Said alone ("grandma's flight
    landing wed 4:10pm") the landing may be the event itself, and its role stays."""
    out = list(phrases)
    for i, phrase in enumerate(out):
        if i and phrase.role != "negated" and any(p.expression is not None for p in out[:i]) and \
                LANDS_BEFORE_RE.search(text[max(0, phrase.start_index - 20):phrase.start_index]):
            out[i] = replace(phrase, role="end")
    return out


SPAN_JOIN_RE = re.compile(r"\s*(?:to|till|until|til|-|\u2013)\s*$", re.I)
BETWEEN_DAYS_RE = re.compile(r"\bbetween\s+$", re.I)


def joined_as_span(text: str, first: Phrase, second: Phrase) -> bool:
    """Two day phrases said as one span: "26 oct to 30 oct", "the 3rd - the 7th", "between the
    3rd and the 7th" (the days between are meant too, which reading them one by one leaves out)."""
    gap = text[first.end_index:second.start_index]
    if SPAN_JOIN_RE.fullmatch(gap) or re.fullmatch(r"\s*(?:through|thru)\s*", gap, re.I):
        return True
    return bool(re.fullmatch(r"\s*(?:and|&)\s*", gap, re.I)) and \
        bool(BETWEEN_DAYS_RE.search(text, max(0, first.start_index - 12), first.start_index))


def _spans_of_two(text: str, phrases: list[Phrase]) -> list[Phrase]:
    """"sat 7pm to sun 10am": a day and time, "to", another day and time, with no word between
    them, are where one event starts and ends; the first is the start asked, the second its end
    (not a move from one to the other)."""
    out = list(phrases)
    for i in range(len(out) - 1):
        first, second = out[i], out[i + 1]
        if first.expression is None or second.expression is None or first.role == "negated" \
                or first.expression.kind != "datetime" or second.expression.kind != "datetime" \
                or not SPAN_JOIN_RE.fullmatch(text[first.end_index:second.start_index]):
            continue
        out[i], out[i + 1] = replace(first, role="target"), replace(second, role="end")
    return out


_WEEKDAYS_PLURAL_RE = re.compile(rf"\b{WEEKDAY_FULL_RE}s\b", re.I)


def _days_of_a_repeat(text: str, resolution: Resolution) -> list[tuple[int, int]]:
    """"every 2 weeks, sundays 6pm": weekdays said right beside a repeat are its days, which the
    repeat checks read with it (`_weekdays_beside`), not words left unread."""
    repeats = [(e.start_index, e.end_index) for e in resolution.expressions if e.recurrence]
    return [(m.start(), m.end()) for m in _WEEKDAYS_PLURAL_RE.finditer(text)
            if any(0 <= m.start() - b <= 3 or 0 <= a - m.end() <= 3 for a, b in repeats)]


def _uncovered(text: str, phrases: list[Phrase], refs: list[EventRef], resolution: Resolution) -> list[str]:
    spans = [(p.start_index, p.end_index) for p in phrases]
    spans += [(e.start_index, e.end_index) for e in resolution.expressions]
    spans += [(r.start, r.end) for r in refs if r.candidates]  # "Friday lunch" is a title
    out: list[str] = []
    zoned = [(e.start_index, e.end_index) for e in resolution.expressions if e.explicit_zone]
    for match in ZONE_WORD_RE.finditer(text):
        word = match.group(2).casefold()
        if word in NOT_A_ZONE or word.endswith("ing"):  # "meeting time", "training time"
            continue
        # "her time" is read only when a city the message names gave the phrase its zone
        covering = zoned if word in ("her", "his", "their") else spans
        if any(a <= match.start(2) < b for a, b in covering):
            continue
        out.append(match.group(0))  # "LA time", "her time": a zone the resolver did not read
    out += [m.group(0) for m in BETWEEN_RE.finditer(text)]
    out += [m.group(0) for m in RANGE_OR_MOVE_RE.finditer(text) if not any(a <= m.start() < b for a, b in spans)]
    out += [m.group(0) for m in BOUND_RE.finditer(text)
            if not END_BEFORE_RE.search(text[max(0, m.start() - 25):m.start() + 3])]
    out += [m.group(0) for m in UNITLESS_SHIFT_RE.finditer(text)]
    out += [m.group(0) for m in TEXT_SPEAK_RE.finditer(text)]
    out += [m.group(0) for m in END_OF_DAY_RE.finditer(text)]
    out += [m.group(0) for m in AROUND_HOLIDAY_RE.finditer(text)]
    out += [m.group(0) for m in COUNTED_WEEKDAY_RE.finditer(text)]
    out += [m.group(0) for m in POINTED_WEEKDAY_RE.finditer(text)]
    out += [m.group(0) for m in QUALIFIED_WEEKDAY_RE.finditer(text)]
    out += _weekdays_while_away(text, resolution)
    out += [m.group(0) for m in YEAR_AFTER_RE.finditer(text) if not any(a <= m.start() < b for a, b in spans)
            and any(0 <= m.start() - e.end_index <= 2 for e in resolution.expressions)]
    out += [m.group(0) for m in ORDINAL_WEEKDAYS_RE.finditer(text)]
    months = [e for e in resolution.expressions if e.kind in ("date", "datetime", "range")
              and MONTH_NAMED_RE.search(e.span)]
    for expr in resolution.expressions:  # "feb 29 ... on normal years we do the 28th": which month's
        if months and expr.kind == "date" and BARE_DAY_OF_MONTH_RE.fullmatch(expr.span.strip()):
            out.append(expr.span.strip())
    for expr in resolution.expressions:  # with its bound word: "christmas" alone may be a title's
        bound = DAY_BOUND_BEFORE_RE.search(text, max(0, expr.start_index - 14), expr.start_index)
        if bound and expr.kind in ("date", "datetime") and \
                not COUNTED_FROM_BEFORE_RE.search(text[max(0, expr.start_index - 30):expr.start_index]):
            out.append(text[bound.start():expr.end_index])
    out += [m.group(0) for m in SPAN_FROM_DAY_RE.finditer(text)]
    out += misspelt_weekdays(text)
    ruled_out = [(m.start(), m.end()) for m in RULED_OUT_DAY_RE.finditer(text)]
    ruled_out += [(m.start(), m.end()) for m in EVERY_WEEK_RE.finditer(text)]  # a scope, not a day
    ruled_out += greetings(text)  # "good morning!"
    ruled_out += _days_of_a_repeat(text, resolution)
    out += _cities_after_times(text, resolution)
    out += [m.group(0) for m in FOREIGN_DATE_WORD_RE.finditer(text)]
    # read only when one phrase covers it whole: "half 7 tonight" read as "7 tonight", or the
    # "ten" of "ten to eight" read as 10:00, is a misreading, not a reading
    out += [m.group(0) for m in SPOKEN_CLOCK_RE.finditer(text)
            if not any(a <= m.start() and m.end() <= b for a, b in spans)]
    # a holiday that is the only day said is a day even where a name covers it ("mothers day
    # brunch"): only a date read covers it
    read = None if says_a_day(resolution) else [(e.start_index, e.end_index) for e in resolution.expressions]
    for match in UNCOVERED_DATE_WORD_RE.finditer(text):
        covering = read if read is not None and HOLIDAY_WORD_RE.fullmatch(match.group(0).strip()) \
            else spans + ruled_out
        if any(a <= match.start() < b for a, b in covering):
            continue
        word = match.group(0).strip()
        if word.casefold() == "night" and NAMED_NIGHT_BEFORE_RE.search(text[:match.start()]):
            continue  # "pub quiz night", "movie night": a name, not a time
        if AS_REMARK_RE.match(word) and REMARK_BEFORE_RE.search(text[:match.start()]) and \
                re.match(r"\s*(?:[.,!;:]|$)", text[match.end():]):
            continue  # "Busy week. Please move ...": a remark, no day
        if re.fullmatch(r"\d{1,2}", word) and int(word) > 24:
            continue  # "house 52", "room 40": no clock reads it
        if re.fullmatch(r"\d{1,2}(?:st|nd|rd|th)", word) and re.match(
                r"\s+(?:ave(?:nue)?|st(?:reet)?|rd|road|floor|grade|birthday|anniversary|place|pl)\b",
                text[match.end():], re.I):
            continue  # "7th ave", "3rd grade": not a day of the month
        if re.fullmatch(r"\d{1,2}", word) and not re.search(r"\b(?:at|by|around|@|til|till|until|to|from|"
                                                            r"-)\s*$", text[:match.start()], re.I):
            continue  # "2 kids", "table for 4"
        out.append(word)
    return out


def _bind(text: str, mentions: list[Mention], phrases: list[Phrase]) -> bool:
    """Give each mention its phrases: a phrase goes to the mentions said since the last phrase
    ("move soccer and the dentist to Thursday"); a phrase with no new mention before it continues
    the last group ("move soccer to Thursday and make it 4pm"); a phrase before any mention goes to
    the mentions after it. Returns whether the plain rule settled every phrase."""
    items: list[tuple[int, object]] = [(m.ref.start, m) for m in mentions]
    items += [(p.start_index, p) for p in phrases]
    items.sort(key=lambda item: item[0])
    pending: list[Mention] = []
    last_group: list[Mention] = []
    leading: list[Phrase] = []
    clean = True
    clauses = _clauses(text)
    for _, item in items:
        if isinstance(item, Mention):
            pending.append(item)
            continue
        assert isinstance(item, Phrase)
        clause = _clause_of(item.start_index, clauses)
        same_clause = bool(last_group) and clause == last_group[-1].clause
        group = pending or (last_group if same_clause else [])
        if not group and last_group:
            # a later sentence that points back ("track practice is tues at 6:10 right? make it
            # half an hour later") continues the last group; one of its own is context only
            words = text[clause[0]:item.start_index]
            changes = bool(_verbs(words)) or item.shift is not None or item.day_relative is not None
            # "dinner at oma's is at 7, right? she wants us an hour earlier": a shift in a later
            # sentence that names no event of its own moves the one event named so far
            alone = item.shift is not None and len({m.ref.best for m in mentions}) == 1
            if not ((re.search(r"\b(?:it|them|that|this|those|these)\b", words, re.I) or alone) and changes):
                continue
            group = last_group
        if not group:
            leading.append(item)
            continue
        for mention in group:
            mention.phrases.append(item)
        if pending:
            last_group, pending = pending, []
    if leading:
        receivers = [m for m in mentions if m.ref.start > leading[-1].start_index]
        for phrase in leading:
            if _context_before(text, phrase, receivers, clauses):
                continue
            for mention in receivers:
                # a phrase said before the event is context ("tomorrow's", "on Friday, move ...")
                # unless the mention has nothing else
                role: Role = phrase.role
                mention.phrases.append(Phrase(phrase.start_index, phrase.end_index, phrase.text, role,
                                              phrase.expression, phrase.shift, phrase.day_relative))
    for mention in mentions:
        if not one_group([p for p in mention.phrases if p.role == "target"]):
            clean = False
    return clean


_ASKS_RE = re.compile(r"\?|\b(?:it|them|that|this|those|these|there|then|can|could|would|will|want|wanna|"
                      r"need|pls|please|plz|let['\u2019]?s|should|instead|actually|rather|or|maybe|if|unless|"
                      r"not|no|same)\b", re.I)


def _context_before(text: str, phrase: Phrase, receivers: list[Mention], clauses: list[tuple[int, int]]) -> bool:
    """"my sister lands saturday so the weekend is gonna be chaos. can u push the dentist to
    monday morning": a phrase in an earlier clause that asks no change, points at nothing and
    asks nothing, said before events that each have a target of their own later, is what
    happens around the change (context), not where it goes."""
    clause = _clause_of(phrase.start_index, clauses)
    words = text[clause[0]:clause[1]]
    if _verbs(words) or phrase.shift is not None or phrase.day_relative is not None or _ASKS_RE.search(words):
        return False
    return bool(receivers) and all(m.clause != clause and any(p.role == "target" for p in m.phrases)
                                   for m in receivers)


def one_group(phrases: list[Phrase]) -> bool:
    """At most one phrase of each kind: a day and a time, an instant, or a shift."""
    kinds = [phrase_kind(p) for p in phrases]
    return len(kinds) == len(set(kinds)) and not ({"datetime", "shift"} <= set(kinds))


def phrase_kind(phrase: Phrase) -> str:
    """shift | date | time | datetime: what part of a start the phrase pins."""
    if phrase.shift is not None:
        return "shift"
    if phrase.day_relative is not None:
        return "date"
    expr = phrase.expression
    if expr is None:
        return "other"
    if expr.time_of_day_only or expr.kind == "time":
        return "time"
    if expr.kind == "date":
        return "date"
    return "datetime"


def single_days(phrases: list[Phrase]) -> set[date]:
    """The days named one by one ("thu and fri"): the phrases that each read as exactly one day
    (one reading, no range)."""
    out: set[date] = set()
    for phrase in phrases:
        expr = phrase.expression
        if expr is None or not expr.candidates:
            continue
        if len(expr.candidates) == 1 and expr.candidates[0].end is None:
            start = expr.candidates[0].start
            out.add(start.date() if isinstance(start, datetime) else start)
            continue
        # "sunday 4-8": two readings of the clock, one day
        timed = [(c.start, c.end) for c in expr.candidates if isinstance(c.start, datetime)]
        if len(timed) == len(expr.candidates) and len({start.date() for start, _ in timed}) == 1 and all(
                end is None or (isinstance(end, datetime) and end - start < timedelta(days=1)) for start, end in timed):
            out.add(timed[0][0].date())
    return out


def _swapped(mentions: list[Mention], phrases: list[Phrase], swap: dict[int, Phrase]) -> list[Phrase]:
    """The phrases (and each mention's) with those in `swap` (by id) replaced by their new role."""
    if not swap:
        return phrases
    for mention in mentions:
        mention.phrases = [swap.get(id(p), p) for p in mention.phrases]
    return [swap.get(id(p), p) for p in phrases]


def _local_day(value: date | datetime, tz: tzinfo | None) -> date:
    """The day a start falls on in the household's zone (a date is its own day)."""
    return as_date(value.astimezone(tz) if isinstance(value, datetime) else value)


def _candidate_days(expr: Expression) -> set[date]:
    return {as_date(c.start) for c in expr.candidates}


def _identifying_days(text: str, mentions: list[Mention], phrases: list[Phrase], calendar: list[Event],
                      resolution: Resolution, reminders: list[int] | None) -> list[Phrase]:
    """"push soccer tomorrow an hour later", "move friday's dinner 30 min earlier": a day said
    beside a shift of the whole event, on the day the event is now, says which event is meant;
    the shift says where it goes. Without this the day would also be a target, and no start
    could be pinned down. A day after "to" ("move it to tomorrow, an hour later") stays a target."""
    tz = resolution.now.tzinfo
    events = {e.id: e for e in calendar}
    swap: dict[int, Phrase] = {}
    pinned_start = bool(PIN_START_RE.search(text))
    reminder_only = reminders is not None and not MOVE_RE.search(text)
    for mention in mentions:
        targets = [p for p in mention.phrases if p.role == "target"]
        # a shift, an end ("make it end at 5:30") or a kept start says how it changes; a day said
        # beside one, on the event's own day, says which event ("elternabend thursday: ...")
        # "the meeting on the 12th ... can it be the day after": a day counted from the event's
        # own says where it goes, so the event's own day beside its name says which
        relative_day = any(p.day_relative is not None for p in targets) or (
            len(mentions) == 1 and any(p.day_relative is not None and p.role == "target" for p in phrases))
        changes = any(p.shift is not None for p in targets) or any(p.role == "end" for p in mention.phrases) \
            or pinned_start or reminders is not None or relative_day  # "a reminder for soccer tmrw"
        if not mention.certain or not changes or (any(phrase_kind(p) in ("time", "datetime") for p in targets)
                                                   and not reminder_only and not relative_day):
            continue  # "move it to 4 but keep it 2 hours": a day and a time say where it goes
        event = events.get(mention.ref.best or "")
        if event is None:
            continue
        day = _local_day(event.start, tz)
        for phrase in mention.phrases:
            expr = phrase.expression
            before = text[max(0, phrase.start_index - 8):phrase.start_index]
            if phrase.role != "target" or expr is None or phrase_kind(phrase) != "date" or re.search(
                    r"(?:\b(?:to|till|until|for|onto)|->|\u2192)\s*$", before, re.I):
                continue
            if _candidate_days(expr) == {day}:
                swap[id(phrase)] = replace(phrase, role="current")
    return _swapped(mentions, phrases, swap)


_ON_DAY_BEFORE_RE = re.compile(r"^\s+(?:on|from)\s+$", re.I)
_DESTINATION_BEFORE_RE = re.compile(r"(?:\b(?:to|till|until|onto)|->|\u2192)\s*$", re.I)


def _days_naming_events(text: str, mentions: list[Mention], phrases: list[Phrase],
                        calendar: list[Event], resolution: Resolution) -> list[Phrase]:
    """"move the dentist on the 14th to the 21st": a day said right after an event's name with
    "on" (or "from"), when the same request then says which day it goes to ("to the 21st"), is
    the day the event is on now, when one of the events the name fits is there (an occurrence of
    a series may fall on any day). As a day the event is on, it tells two events of the same
    name apart (`structure._day_picks`); as a second target it left which dentist was meant
    open."""
    tz = resolution.now.tzinfo
    events = {e.id: e for e in calendar}
    swap: dict[int, Phrase] = {}
    for mention in mentions:
        targets = sorted(mention.targets, key=lambda p: p.start_index)
        for i, phrase in enumerate(targets):
            if phrase.expression is None or phrase_kind(phrase) != "date" or \
                    not _ON_DAY_BEFORE_RE.match(text[mention.ref.end:phrase.start_index]):
                continue
            if not any(phrase_kind(later) in ("date", "datetime") and _DESTINATION_BEFORE_RE.search(
                    text[max(0, later.start_index - 8):later.start_index]) for later in targets[i + 1:]):
                continue  # "on sat - move it to 4": the day is still where it goes, at 4
            days = _candidate_days(phrase.expression)
            kept = []
            for candidate in mention.ref.candidates:
                event = events.get(candidate.key)
                if event is None or event.recurrence or event.recurring_event_id:
                    kept.append(candidate)  # a series, or an event we do not hold: left as it was
                    continue
                if _local_day(event.start, tz) in days:
                    kept.append(candidate)
            if not kept or len(kept) == len(mention.ref.candidates) and not any(
                    c.key in events and not events[c.key].recurrence for c in kept):
                continue  # no event of that name on that day: the words say something else
            swap[id(phrase)] = replace(phrase, role="current")
            break
    return _swapped(mentions, phrases, swap)


SAME_AMOUNT_RE = re.compile(r"\b(?:by\s+)?the\s+same\s+(?:amount|time\s+difference)\b|\bsame\s+amount\b", re.I)


def _same_amount(text: str, mentions: list[Mention], phrases: list[Phrase]) -> None:
    """"brunch is an hour later tomorrow, and push the movie back by the same amount": the one
    shift of the message moves the event said with "the same amount" too (CONTRACT 4: each event
    named is shifted relative to its own time)."""
    shifts = [p for p in phrases if p.shift is not None and p.role == "target"]
    if len(shifts) != 1:
        return
    for mention in mentions:
        if mention.targets or not mention.certain:
            continue
        after = text[mention.ref.end:mention.clause[1]]
        if SAME_AMOUNT_RE.search(after):
            mention.phrases.append(shifts[0])


def _own_verbs(text: str, mentions: list[Mention]) -> None:
    """Each mention's own verbs: the words from the previous mention up to the next one ("cancel
    the haircut and move the vet": the vet moves); a list item with none inherits its neighbour's."""
    ordered = sorted(mentions, key=lambda m: m.ref.start)
    previous: set[str] = set()
    for i, mention in enumerate(ordered):
        start = max(ordered[i - 1].ref.end if i else mention.clause[0], mention.clause[0])
        end = min(ordered[i + 1].ref.start if i + 1 < len(ordered) else mention.clause[1], mention.clause[1])
        before = _verbs(text[start:mention.ref.start])
        own = before or _verbs(text[mention.ref.end:end]) or previous
        mention.verbs = own
        previous = own
    for i, mention in enumerate(ordered[:-1]):
        following = ordered[i + 1]
        if not mention.verbs and re.fullmatch(r"[\s,&/+]*(?:and|or|n|&)?[\s,]*",
                                              text[mention.ref.end:following.ref.start], re.I):
            mention.verbs = following.verbs  # "Leo's cleaning and Biscuit's checkup are both cancelled"


def read_request(text: str, resolution: Resolution, calendar: list[Event],
                 owners: Mapping[str, frozenset[str]] | None = None,
                 calendars: Sequence[NamedCalendar] = ()) -> RequestReading:
    """The reading of the person's message against the calendar; `owners`: each calendar's name
    and owner words when there are several, `calendars`: where the message names a calendar
    ("on Leo's calendar": those words name no event), both from `reflection.reading.calendars`."""
    shifts, lengths = find_shifts_and_lengths(text)
    relatives = find_day_relatives(text)
    phrases = _phrases(text, resolution, shifts, relatives)
    date_spans = [(p.start_index, p.end_index) for p in phrases]
    date_spans += [(e.start_index, e.end_index) for e in resolution.expressions]
    date_spans += [(length.start_index, length.end_index) for length in lengths]
    refs = find_event_refs(text, calendar, [*date_spans, *((n.start, n.end) for n in calendars)], owners)
    clauses = _clauses(text)
    mentions: list[Mention] = []
    unmatched: list[EventRef] = []
    for ref in refs:
        if not ref.candidates:
            unmatched.append(ref)
            continue
        clause = _clause_of(ref.start, clauses)
        words = text[clause[0]:clause[1]]
        mentions.append(Mention(ref, _verbs(words), _scope(words), clause=clause,
                                singled=only_on_one_day(text, ref.start, ref.end, "delete" in _verbs(words)),
                                held=held_back(text, ref.start, ref.end)))
    _own_verbs(text, mentions)
    _own_scopes(text, mentions)
    clean = _bind(text, mentions, phrases)
    for mention in mentions:
        mention.lengths = [x for x in lengths if mention.clause[0] <= x.start_index < mention.clause[1]]
    reminders = asked_minutes(text)
    phrases = _identifying_days(text, mentions, phrases, calendar, resolution, reminders)
    phrases = _days_naming_events(text, mentions, phrases, calendar, resolution)
    _same_amount(text, mentions, phrases)
    return RequestReading(
        text=text, resolution=resolution, mentions=mentions, unmatched=unmatched, phrases=phrases,
        lengths=lengths, verbs=_verbs(text), scope=_scope(text),
        pronoun=bool(PRONOUN_RE.search(text)), group=bool(GROUP_RE.search(text)),
        free_time_asked=bool(FREE_TIME_RE.search(text)), same_time=bool(SAME_TIME_RE.search(text)),
        uncovered_date_words=_uncovered(text, phrases, refs, resolution), clean_binding=clean,
        other_event_anchors=[(m.start(), m.end()) for m in OTHER_EVENT_ANCHOR_RE.finditer(text)
                             if not REMINDER_BEFORE_RE.search(text[max(0, m.start() - 30):m.start()])]
        + [(m.start(), m.end()) for m in SAME_DAY_AS_RE.finditer(text)],
        pinned_end=bool(PIN_END_RE.search(text)), pinned_start=bool(PIN_START_RE.search(text)),
        same_length=bool(SAME_LENGTH_RE.search(text)), reminders=reminders, owners=owners,
        calendars=list(calendars))
