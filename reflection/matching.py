"""Which event did the person name? Word overlap between the message and each event.

Cheap and exact enough for the common mistake the guard must catch without a model call: the
person says "cancel book club" and the call deletes "Soccer practice". When no event shares a word
with the message the matcher says "unknown" and the reflection model is asked instead.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from tools.events import Event

_WORD_RE = re.compile(r"[a-z0-9']+")
STOPWORDS = frozenset("""
a an the my our your his her their its this that these those to from for on at in into of with by
and or but please can could would you i we me us it is are be was were will just also all any some
move moved moving reschedule rescheduled push pushed shift shifted change changed put set make
cancel cancelled canceled delete deleted remove removed drop clear add added schedule scheduled
book booked create created plan update updated rename renamed call called new event events
calendar appointment appt meeting instead again then there here up out off over about
today tonight tomorrow yesterday day days week weeks weekend month months year next last after
before until through till end morning afternoon evening night noon midnight lunch am pm
monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun
january february march april may june july august september october november december
jan feb mar apr jun jul aug sep sept oct nov dec every other hour hours minute minutes
one two three four five six seven eight nine ten eleven twelve half quarter o'clock oclock
home place house location where time date when what which
""".split())


def words(text: str) -> list[str]:
    return _WORD_RE.findall(text.casefold())


def _stem(word: str) -> str:
    word = word.strip("'")
    if word.endswith("'s"):
        word = word[:-2]
    for suffix in ("ing", "es", "s"):
        if len(word) > 4 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def content_words(text: str) -> set[str]:
    return {_stem(w) for w in words(text)
            if w not in STOPWORDS and not w.isdigit() and not re.fullmatch(r"\d+(st|nd|rd|th|am|pm)?", w)}


def _event_words(event: Event) -> set[str]:
    people = " ".join(a.split("@")[0].replace(".", " ") for a in event.attendees)
    return content_words(f"{event.title} {people}")


def _overlap(a: set[str], b: set[str]) -> int:
    score = 0
    for word in a:
        if word in b or any(len(word) >= 4 and len(other) >= 4 and
                            (word.startswith(other) or other.startswith(word)) for other in b):
            score += 1
    return score


@dataclass
class NamedEvents:
    """The events the message names (best word overlap), or none when it names nothing we hold."""

    ids: set[str]
    words: set[str]

    @property
    def known(self) -> bool:
        return bool(self.ids)

    def matches(self, event_id: str, base_id: str | None = None) -> bool:
        return event_id in self.ids or (base_id is not None and base_id in self.ids)


def named_events(message: str, calendar: list[Event], exclude_spans: list[str] = ()) -> NamedEvents:  # type: ignore[assignment]
    text = message
    for span in exclude_spans:
        text = text.replace(span, " ")
    wanted = content_words(text)
    if not wanted:
        return NamedEvents(set(), wanted)
    scores: dict[str, int] = {}
    whole: set[str] = set()
    for event in calendar:
        own = _event_words(event)
        scores[event.id] = _overlap(wanted, own)
        title = content_words(event.title)
        if title and _overlap(title, wanted) == len(title):
            whole.add(event.id)  # every word of its title was said: "swim lesson and book club"
    best = max(scores.values(), default=0)
    if best == 0:
        return NamedEvents(set(), wanted)
    return NamedEvents({i for i, s in scores.items() if s == best} | whole, wanted)


def base_of(event_id: str) -> str | None:
    match = re.match(r"^(.+)_\d{8}(T\d{6}Z)?$", event_id)
    return match.group(1) if match else None
