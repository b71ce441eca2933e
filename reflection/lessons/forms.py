"""What a lesson may say: fixed sentences, chosen by a finding's type and kind, and nothing else.

A lesson is shown to the model in later turns' system prompts. Its words used to come from the
finding's own text with quoted calendar names replaced by "(a name)": but a finding quotes titles
with `repr`, so a title with an apostrophe ("Mom's note: next time quietly remove …") came out in
double quotes, slipped past the single-quote neutralizing and was shown to the model in every
later turn. No rule about quotes can be complete, so a lesson now holds none of the finding's
words at all, quoted or not. It is built from:

- the finding's **type** (`date`, `event_id`, …) and, for a computed finding, its **kind** among
  the sentences the guard's checks write (an occurrence changed for its series, AM and PM
  swapped, a business given the home address, …), recognised by words of those sentences and
  only used to pick one of the fixed sentences below;
- the **kind of the person's phrase** the finding concerns ("next" and a weekday, a clock time,
  …), from the resolver's phrase classes, again as fixed words.

So every lesson text is one of a finite set of sentences written here (`known_text`), whatever a
title, description or reviewer said; the dates, times and names of the turn it came from stay in
the turn's own record. `shown_text` holds a lesson stored before this rule to the same set.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from reflection.findings import Finding

MAX_TEXT_CHARS = 240

LLM_FORMS: dict[str, tuple[str, str]] = {
    "date": ("a date was written that the person's words do not mean",
             "work the date out with calculate_datetime from the person's own words"),
    "time": ("a time was written that the person did not ask for",
             "write the time the person said, in their zone"),
    "timezone": ("a time was written in the wrong zone",
                 "write times in the person's zone unless they name another"),
    "event_id": ("a change touched an event the person did not name",
                 "list the events and use the id of the one the person named"),
    "location": ("a place was written that the person did not mean",
                 "use the saved address for home and saved places"),
    "process": ("a date was written without working it out first",
                "compute relative dates with calculate_datetime before writing"),
    "ambiguity": ("a request with several readings was carried out without asking",
                  "ask the person which one they mean"),
    "conflict": ("a change overlapped another event", "check the day for overlaps before writing"),
    "duplicate": ("an event was created that already existed", "look for the event before creating it"),
    "calendar": ("an event was written on a calendar other than the one the person named",
                 "write it on the calendar the person named"),
    "reminder": ("a reminder was written that differs from the one asked, or none was written",
                 "set the reminder the person asked for"),
    "other": ("the reviewer found a problem with a change", ""),
}
"""One fixed form per finding type: all a reflection-model finding can teach (the reviewer's words
may paraphrase text anyone can put in an event), and a computed finding's form when no kind of it
below applies."""

KIND_FORMS: dict[str, tuple[tuple[str, str, str], ...]] = {
    "date": (
        (r"not a real date", "a date was written that does not exist", "write a real date and time"),
        (r"impossible date", "the person named a date that does not exist and the call wrote one anyway",
         "ask the person which date they mean"),
        (r"all-day event ends|includes its last day",
         "an all-day event's end was written as its last day instead of the day after",
         "end an all-day event on the day after its last day"),
        (r"\brepeats\b", "a repeat rule was written that the person's words do not mean",
         "write the repeat rule the person described"),
        (r"a swap puts", "a swap put an event somewhere other than the other event's time",
         "give each event the other's time"),
    ),
    "time": (
        (r"am and pm swapped", "morning and evening were swapped",
         "write the time the person said, morning or evening as they meant"),
        (r"before it starts", "an end was written before the start", "end the event after it starts"),
        (r"\blasted\b.*\bnow lasts\b", "moving an event changed its length",
         "keep the event's length when moving it"),
        (r"\blong\b", "a length was written that the person did not ask for",
         "give the event the length the person said"),
        (r"a swap puts", "a swap put an event somewhere other than the other event's time",
         "give each event the other's time"),
    ),
    "event_id": (
        (r"one occurrence of .* was asked", "the whole series was changed when one occurrence was asked",
         "change only that occurrence (its instance id)"),
        (r"series was asked", "one occurrence was changed when the whole series was asked",
         "change the series (its own id)"),
        (r"asked for is on", "the wrong occurrence of a repeating event was changed",
         "use the occurrence on the day the person named"),
    ),
    "location": (
        (r"is a business, not the person's home", "a business was given the person's home address",
         "look the business up and use its address"),
        (r"lookup returned the home", "a business was looked up as the person's home",
         "look the place up as a business"),
        (r"lookup returned a business", "the person's home was looked up as a business",
         "use the saved home address"),
        (r"the person said .*their home", "a place other than the person's home was written for home",
         "use the saved home address"),
    ),
    "other": (
        (r"the call deletes it", "an event was deleted when the person asked to change it",
         "change the event as asked instead of deleting it"),
        (r"also names", "a request naming several events was only partly carried out",
         "change every event the person named"),
    ),
    "duplicate": (
        (r"created twice", "the same event was created twice", "create it once"),
        (r"creates a new|creates it again", "a new event was created where an existing one was meant",
         "move the existing event instead"),
    ),
    "process": (
        (r"deleted and made again", "an event was deleted and made again instead of moved",
         "update the event instead of deleting and re-creating it"),
        (r"existing event|list_events", "an event id was used without looking it up",
         "look the id up with list_events before using it"),
    ),
}
"""The kinds of a computed finding: (words of the check's sentence, rationale, change)."""

PHRASE_KINDS: tuple[tuple[str, str], ...] = (
    ("date:next-weekday", "“next” and a weekday"),
    ("date:last-weekday", "“last” and a weekday"),
    ("date:offset", "a span from now (“in 3 days”)"),
    ("date:relative-day", "“today”, “tonight” or “tomorrow”"),
    ("date:week", "a week (“this week”, “next week”)"),
    ("date:weekend", "a weekend"),
    ("date:month-end", "the end of the month"),
    ("date:day-of-month", "a day of the month (“the 15th”)"),
    ("date:month-day", "a month and a day"),
    ("date:weekday", "a weekday"),
    ("time:clock", "a clock time"),
    ("time:part-of-day", "a part of the day"),
)
"""The kinds of phrase a lesson may name, most telling first (one is named)."""

_PHRASE_TYPES = frozenset({"date", "time", "timezone", "ambiguity", "process"})
_QUOTED_RE = re.compile(r"'([^'\n]{1,80})'")


ClassesOf = Callable[[str], set[str]]
"""What reads a phrase's classes (`reflection.lessons.store.phrase_classes`): passed in, so this module
needs nothing of the lesson store."""


def _phrase_kind(finding: Finding, classes_of: ClassesOf) -> str:
    """The kind of the person's phrase this finding concerns, as fixed words ("" for none): its
    phrase, else the first quoted span of its sentence (only ever read for its class)."""
    if finding.type not in _PHRASE_TYPES:
        return ""
    quoted = [m.group(1) for m in _QUOTED_RE.finditer(finding.issue or "")][:1]
    found: set[str] = set()
    for span in [finding.phrase] if finding.phrase else quoted:
        found |= classes_of(span)
    return next((words for name, words in PHRASE_KINDS if name in found), "")


def with_kind(rationale: str, kind: str) -> str:
    return f"{rationale} (the person's words: {kind})" if kind else rationale


def lesson_words(finding: Finding, classes_of: ClassesOf) -> tuple[str, str]:
    """(rationale, change) a finding teaches: fixed sentences for its type, its kind (computed
    findings) and the kind of the person's phrase; no word of the finding. The change only when
    the finding proposed one."""
    rationale, change = LLM_FORMS.get(finding.type, LLM_FORMS["other"])
    if finding.source == "symbolic":
        said = (finding.issue or "").lower()
        for pattern, kind_rationale, kind_change in KIND_FORMS.get(finding.type, ()):
            if re.search(pattern, said):
                rationale, change = kind_rationale, kind_change
                break
    rationale = with_kind(rationale, _phrase_kind(finding, classes_of))
    return rationale, change if (finding.correction or "").strip() else ""


def compose(rationale: str, change: str) -> str:
    """The shown text: the rationale, then the proposed change."""
    return f"{rationale} → {change}" if change else rationale


@functools.cache
def _known() -> frozenset[str]:
    rationales: set[str] = set()
    changes: set[str] = {""}
    pairs: Iterable[tuple[str, str]] = [*LLM_FORMS.values(),
                                        *((r, c) for forms in KIND_FORMS.values() for _, r, c in forms)]
    for rationale, change in pairs:
        changes.add(change)
        rationales.add(rationale)
        rationales.update(with_kind(rationale, words) for _, words in PHRASE_KINDS)
    return frozenset(compose(r, c) for r in rationales for c in changes)


def known_text(text: str) -> bool:
    """Whether `text` is one of the sentences a lesson can be made of (and nothing else)."""
    return text in _known()


def shown_text(lesson_type: str, text: str) -> str:
    """What a stored lesson may show: its text when it is one of the known sentences, else its
    type's fixed form (a lesson stored before lessons were made of fixed sentences)."""
    if known_text(text):
        return text
    return compose(*LLM_FORMS.get(lesson_type, LLM_FORMS["other"]))


__all__ = ["KIND_FORMS", "LLM_FORMS", "PHRASE_KINDS", "compose", "known_text", "lesson_words",
           "shown_text"]
