"""What the person took back in the same message: "move swim to wed, no wait, thursday", "cancel
the 3pm, sorry i mean the 4pm", "9:30 just this once, actually no, from now on".

The withdrawn words are blanked (each character a space, so every index into the message still
points at the same word) before anything else reads the message: they neither bind a date, nor
name an event, nor set a scope, and the words that replaced them are read in their place. Only
a withdrawal whose replacement is of a kind code reads is undone: a date or time (the last one
said before the correction), or a scope ("just this once" for "from now on"). Anything else is
left as said, so the message keeps its ambiguity and the checks stay unsure rather than read
the wrong half.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from reflection.dates.lexicon import MONTH_RE, WEEKDAY_RE
from reflection.dates.resolver import Resolution
from reflection.reading.request import FOLLOWING_RE, MOVE_RE, OCCURRENCE_RE, SERIES_RE

CORRECTION_RE = re.compile(
    r"\s*(?:,|\.\.\.|\u2026|\s-\s|\s\u2013\s|\s\u2014\s|\u2014|(?<=\d)(?=\s+sorry\s*,?\s*\d))\s*"
    r"(?:actually\s*,?\s*)?(?:no+\s*,?\s*wait|wait\s*,?\s*no+|actually\s*,?\s*no+|no+\s*,?\s*actually|no+\s*,?\s*sorry|"
    r"sorry\s*,?\s*(?:no+|i\s+mean[t]?)|oops\s*,?\s*(?:i\s+mean[t]?)?|i\s+mean[t]?|scratch\s+that|"
    r"make\s+that|or\s+rather|correction|"
    rf"sorry(?=\s*,?\s*(?:\d|(?:at|on)\s|{WEEKDAY_RE}|tomorrow|today|tonight|the\s+\d)))\b\s*[,:\u2014\u2013-]?\s*",
    re.I)
"""A correction after a stop: ", no wait,", ", sorry i mean", " - actually no,", ", make that",
", sorry 4" (a bare "sorry" only right before the new day or time)."""
_UNTIL_STOP_RE = re.compile(r"[^,.;!?\n]*")
_SENTENCE_START_RE = re.compile(r"[.;!?\n][^.;!?\n]*$")
_SCOPE_RES = (OCCURRENCE_RE, FOLLOWING_RE, SERIES_RE)
_WHEN_KINDS = frozenset({"date", "datetime", "time", "range"})
_LAST_DAY_WORD_RE = re.compile(rf"\b({WEEKDAY_RE}|{MONTH_RE})\s*$", re.I)
"""A day or month name just before the correction, which the resolver may not read alone."""

BARE_CLOCK_RE = re.compile(r"\s*(?P<lead>(?:make\s+(?:it|that)|change\s+(?:it|that)\s+to)\s+)?"
                           r"(?P<clock>(?:1[0-2]|[1-9])(?::[0-5]\d)?)\s*(?=[,.;!?]|$)", re.I)
"""A replacement that is a clock number alone ("make it 4", "4:30"): the resolver reads no
time in it, but after a time taken back it is the new one (read as "at 4", both halves of the
day, CONTRACT 4)."""
_TRAILING_CLOCK_RE = re.compile(r"(?:\b(?:at|@)\s*)?\b\d{1,2}(?::\d{2})?\s*(?:[ap]\.?m\.?)?$", re.I)
Resolve = Callable[[str], Resolution]
"""The resolver at the case's now and zone: the message's date and time expressions."""


def without_withdrawn(text: str, resolve: Resolve) -> str:
    """`text` with every withdrawn date, time or scope (and the correction's own words) blanked."""
    out = text
    for marker in CORRECTION_RE.finditer(text):
        until_stop = _UNTIL_STOP_RE.match(text, marker.end())
        replacement = until_stop.group(0) if until_stop else ""
        sentence = _sentence_start(text, marker.start())
        withdrawn = _withdrawn_scope(text, sentence, marker.start(), replacement) or \
            _withdrawn_when(text, sentence, marker.start(), replacement, resolve)
        if withdrawn is None:
            spans = _withdrawn_change(text, sentence, marker.start(), replacement, resolve)
            for span in spans:
                out = _blank(out, *span)
            if spans:
                out = _blank(out, marker.start(), marker.end())
            continue
        out = _blank(_blank(out, *withdrawn), marker.start(), marker.end())
        bare = BARE_CLOCK_RE.match(text, marker.end())
        if bare is not None:  # "make it 4", "i mean 4": read as "at 4", in the blanked words before it
            clock = bare.start("clock")
            out = _blank(out, marker.start(), clock)
            out = out[:clock - 3] + "at" + out[clock - 1:]
    return out


def _sentence_start(text: str, index: int) -> int:
    found = _SENTENCE_START_RE.search(text, 0, index)
    return found.start() + 1 if found else 0


def _withdrawn_scope(text: str, start: int, end: int, replacement: str) -> tuple[int, int] | None:
    """"just this once, actually no, from now on": the last scope said before the correction,
    when the replacement states a scope too."""
    if not any(pattern.search(replacement) for pattern in _SCOPE_RES):
        return None
    said = [m.span() for pattern in _SCOPE_RES for m in pattern.finditer(text, start, end)]
    if not said:
        return None
    first = max(said, key=lambda span: span[1])[0]
    return first, end  # "just this once": the scope's words up to the correction


def _withdrawn_when(text: str, start: int, end: int, replacement: str,
                    resolve: Resolve) -> tuple[int, int] | None:
    """"to wed, no wait, thursday": the last date or time said before the correction, when the
    replacement is one too. A bare clock number ("at 5, no wait make it 4") replaces only a
    time said before it."""
    before = [e for e in resolve(text[:end]).expressions if e.start_index >= start and e.kind in _WHEN_KINDS]
    if BARE_CLOCK_RE.match(replacement):
        timed = [e for e in before if e.kind in ("time", "datetime")]
        if not timed:
            return None
        last = max(timed, key=lambda e: e.end_index)
        clock = _TRAILING_CLOCK_RE.search(text, last.start_index, last.end_index)
        return (clock.start(), end) if clock is not None else None  # "tuesday at 5": its time
    replaced = [e for e in resolve(replacement).expressions if e.kind in _WHEN_KINDS]
    if not replaced:
        return None  # "at 7, make that 2 hours": a length, not another time
    first = min(replaced, key=lambda e: e.start_index)
    if first.kind == "time" and not replacement[:first.start_index].strip() and before:
        last = max(before, key=lambda e: e.end_index)  # "monday at 3 sorry 4pm": its time alone
        clock = _TRAILING_CLOCK_RE.search(text, last.start_index, last.end_index) \
            if last.kind == "datetime" else None
        if clock is not None:
            return clock.start(), end
    word = _LAST_DAY_WORD_RE.search(text, start, end)  # "wed", "sat": read only beside a date
    if word is not None and (not before or word.start() >= max(e.end_index for e in before)):
        return word.start(1), end
    if not before:
        return None
    last = max(before, key=lambda e: e.end_index)
    return last.start_index, end


_DELETE_INSTEAD_RE = re.compile(r"\s*(?:just\s+|pls\s+|please\s+)?(?:cancel|delete|remove|scrap|drop)\s+"
                                r"(?:it|that|them)\b", re.I)


def _withdrawn_change(text: str, start: int, end: int, replacement: str,
                      resolve: Resolve) -> list[tuple[int, int]]:
    """"move the playdate to saturday 3pm... actually scratch that, just cancel it": a move taken
    back for a delete. Its verb and the days and times it went to are blanked; the event's name
    stays, for "it" to name."""
    if not _DELETE_INSTEAD_RE.match(replacement):
        return []
    verbs = [m.span() for m in MOVE_RE.finditer(text, start, end)]
    if not verbs:
        return []
    return verbs + [(e.start_index, e.end_index) for e in resolve(text[:end]).expressions
                    if e.start_index >= start and e.kind in _WHEN_KINDS]


def _blank(text: str, start: int, end: int) -> str:
    return text[:start] + " " * (end - start) + text[end:]
