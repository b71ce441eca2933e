"""Reminders the person asks for, read from the message (CONTRACT 4): "remind me 30 min before",
"an hour before", "the day before" (1440 minutes), "no reminder", and "a reminder for soccer
tmrw 1 hr before". Minutes before the start; the check that holds a write to them is
`reflection.checks.reminders`."""
from __future__ import annotations

import re
from datetime import timedelta

_UNITS = {"m": 1, "min": 1, "mins": 1, "minute": 1, "minutes": 1, "h": 60, "hr": 60, "hrs": 60, "hour": 60,
          "hours": 60, "day": 1440, "days": 1440, "week": 10080, "weeks": 10080}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "ten": 10, "fifteen": 15,
            "twenty": 20, "thirty": 30, "forty-five": 45, "forty five": 45, "half an": 0.5, "half a": 0.5}
_AMOUNT = r"(?P<n>\d+(?:\.\d+)?|an?|one|two|three|four|five|ten|fifteen|twenty|thirty|forty[-\s]five|half\s+an?)" \
          r"\s*(?P<unit>minutes?|mins?|m|hours?|hrs?|h|days?|weeks?)"
ASKED_RE = re.compile(
    r"\b(?:remind\w*(?:\s+(?:me|us|them|him|her|everyone))?|(?:set\s+|add\s+|with\s+)?an?\s+(?:reminder|alert)|"
    r"reminders?|alerts?)(?:\s+(?:for|about|of|on)\s+[^,.;!?\d]{0,40}?)?\s+(?:(?:of|at|for)\s+)?"
    r"(?:" + _AMOUNT + r"|(?P<day>the\s+day))\s+(?:before|ahead|prior|earlier|beforehand)\b", re.I)
NONE_RE = re.compile(r"\b(?:no|without|turn\s+off\s+the|remove\s+the|don'?t\s+(?:need|want)\s+a|drop\s+the)\s+"
                     r"(?:reminders?|alerts?|notifications?)\b", re.I)
SOME_RE = re.compile(r"\bremind|\breminder|\balert|\bnotif", re.I)


def asked_minutes(text: str) -> list[int] | None:
    """The reminders the message asks for, in minutes before the start; [] for "no reminder";
    None when it asks for none in words the policy reads."""
    if NONE_RE.search(text):
        return []
    found: list[int] = []
    for match in ASKED_RE.finditer(text):
        if match["day"]:
            found.append(1440)
            continue
        raw = re.sub(r"[\s-]+", " ", match["n"].casefold())
        n = _NUMBERS.get(raw) or _NUMBERS.get(raw.replace(" ", "-")) or float(raw)
        unit = match["unit"].casefold()
        found.append(int(timedelta(minutes=n * _UNITS[unit]).total_seconds() // 60))
    return sorted(set(found)) or None
