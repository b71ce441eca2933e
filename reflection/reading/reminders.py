"""Reminders the person asks for, read from the message (CONTRACT 4): "remind me 30 min before",
"an hour before", "the day before" (1440 minutes), "no reminder", "a reminder for soccer
tmrw 1 hr before", and "a 30 min reminder". Minutes before the start; the check that holds a write to them is
`reflection.checks.reminders`."""
from __future__ import annotations

import re
from datetime import timedelta

_UNITS = {"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1, "h": 60, "hr": 60, "hrs": 60, "hour": 60,
          "hours": 60, "day": 1440, "days": 1440, "week": 10080, "weeks": 10080}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "fifteen": 15,
            "twenty": 20, "thirty": 30, "forty-five": 45, "forty five": 45, "half an": 0.5, "half a": 0.5}
_N = r"\d+(?:\.\d+)?|an?|one|two|three|four|five|ten|fifteen|twenty|thirty|forty[-\s]five|half\s+an?"
_UNIT = r"minutes?|mins?|m|hours?|hrs?|h|days?|weeks?"
_AMOUNT = rf"(?:{_N})[\s-]*(?:{_UNIT})\b"
_ONE_AMOUNT = re.compile(rf"\b(?P<n>{_N})[\s-]*(?P<unit>{_UNIT})\b|\b(?P<day>the\s+day)\b", re.I)
_BEFORE = r"(?:before|ahead|prior|earlier|beforehand)"
_ITEM = rf"(?:{_AMOUNT}|the\s+day)(?:\s+{_BEFORE})?"
_SEP = r"\s*(?:,\s*(?:and\s+|&\s*|plus\s+)?|\s(?:and|&|plus|as\s+well\s+as)\s+(?:also\s+|again\s+)?)\s*"
ASKED_RE = re.compile(
    r"\b(?:remind\w*(?:\s+(?:me|us|them|him|her|everyone))?|(?:set\s+|add\s+|with\s+)?an?\s+(?:reminder|alert)|"
    r"(?:\w+\s+)?reminders?|alerts?)(?:\s+(?:for|about|of|on)\s+[^,.;!?\d]{0,40}?)?[\s,:]+(?:(?:of|at|for)\s+)?"
    rf"(?P<list>{_ITEM}(?:{_SEP}{_ITEM})*)", re.I)
AMOUNT_REMINDER_RE = re.compile(rf"\b(?P<list>{_AMOUNT})\s+(?:reminder|alert)s?\b", re.I)
"""An amount said as the kind of reminder: "add a 30 min reminder", "a 1-day alert" (before the
start, as every reminder is)."""
LOOSE_BEFORE_RE = re.compile(rf"\b(?:{_AMOUNT}|the\s+day)\s+{_BEFORE}\b", re.I)
CORRECTED_AMOUNT_RE = re.compile(
    r"\b(?:actually|no\s+wait|wait|sorry|i\s+mean|make\s+(?:it|that)|change\s+(?:it|that)(?:\s+to)?|rather|"
    r"scratch\s+that|on\s+second\s+thought|or\s+maybe|no,?)\b[^.?!\d]{0,25}?"
    rf"(?P<amount>{_AMOUNT})", re.I)
"""An amount said again after a correction ("actually make it 2 hrs", "no wait, 30 mins"): the
reminder asked first may be the one taken back."""
NONE_RE = re.compile(r"\b(?:no|without|turn\s+off\s+the|remove\s+the|don'?t\s+(?:need|want)\s+a|drop\s+the)\s+"
                     r"(?:reminders?|alerts?|notifications?)\b", re.I)
SOME_RE = re.compile(r"\bremind|\breminder|\balert|\bnotif", re.I)
AS_AN_EVENT_RE = re.compile(r"\b(?:make|put|add|set)\s+(?:it|that|this|one)\s+(?:in\s+|up\s+)?(?:as\s+)?an?\s+"
                            r"(?:event|appointment|entry|calendar\s+(?:event|entry))\b|\bas\s+an?\s+(?:event|"
                            r"calendar\s+(?:event|entry))\b", re.I)
""""remind me the day before the ski trip to renew the insurance - just make it an event at
6pm": the reminder is an event of its own on that day, not minutes before another's start."""


def reminder_spans(text: str) -> list[tuple[int, int]]:
    """Where the message asks for reminders: each request's list of amounts ("remind me the day
    before and an hour before", "two reminders, a day and an hour before"), as character
    spans. An amount inside one is a reminder, never a shift of the event."""
    spans = [match.span("list") for match in ASKED_RE.finditer(text)
             if re.search(rf"\b{_BEFORE}\b", match["list"], re.I)]
    return spans + [match.span("list") for match in AMOUNT_REMINDER_RE.finditer(text)
                    if not any(a <= match.start() < b for a, b in spans)]


def asked_minutes(text: str) -> list[int] | None:
    """The reminders the message asks for, in minutes before the start; [] for "no reminder";
    None when it asks for none in words the policy reads, when the reminder is to be an event of
    its own (`AS_AN_EVENT_RE`), or when an amount "before" stands
    outside every request read (which event or reminder it belongs to is then not certain:
    a reading that missed one reminder must not prove the others wrong)."""
    if NONE_RE.search(text):
        return []
    if AS_AN_EVENT_RE.search(text):
        return None
    spans = reminder_spans(text)
    found: list[int] = []
    for begin, end in spans:
        for item in _ONE_AMOUNT.finditer(text, begin, end):
            if item["day"]:
                found.append(1440)
                continue
            raw = re.sub(r"[\s-]+", " ", item["n"].casefold())
            n = _NUMBERS.get(raw) or _NUMBERS.get(raw.replace(" ", "-")) or float(raw)
            unit = item["unit"].casefold()
            found.append(int(timedelta(minutes=n * _UNITS[unit]).total_seconds() // 60))
    if found and any(not any(b <= m.start() < e for b, e in spans) for m in LOOSE_BEFORE_RE.finditer(text)):
        return None
    if found and any(not any(b <= m.start("amount") < e for b, e in spans) for m in CORRECTED_AMOUNT_RE.finditer(text)):
        return None  # "remind me an hour before ..., actually make it 2 hrs": which one stands is for judgement
    return sorted(set(found)) or None
