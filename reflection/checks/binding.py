"""Which of the person's phrases a write answers to, and whether that binding is certain.

An update answers to the phrases of the mention that names its event ("move soccer to Thursday
and the dentist to Friday": soccer to Thursday). A create answers to the phrases no changed event
claimed. When the words do not settle it (several mentions share phrases in a tangled way, the
event is named by no part of the message), the binding is uncertain: the write is then judged
against every phrase of the message together, which can still prove a date wrong but never verify
it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from reflection.checks.context import CheckContext, WriteCall
from reflection.reading.event_refs import is_content
from reflection.reading.request import Phrase, one_group, phrase_kind
from tools.calendar.events import as_date


@dataclass
class Binding:
    phrases: list[Phrase]
    certain: bool


def _dedupe(phrases: list[Phrase]) -> list[Phrase]:
    seen: dict[int, Phrase] = {}
    for phrase in phrases:
        seen.setdefault(phrase.start_index, phrase)
    return sorted(seen.values(), key=lambda p: p.start_index)


def written_keys(ctx: CheckContext) -> set[str]:
    return {ctx.series_key(w.event_id) for w in ctx.writes if w.kind != "create"}


def bind(ctx: CheckContext, write: WriteCall) -> Binding:
    reading = ctx.reading
    all_targets = [p for p in reading.phrases if p.role == "target"]
    if write.kind == "create":
        touched = written_keys(ctx)
        claimed = {p.start_index for m in reading.mentions if m.ref.keys() & touched for p in m.phrases}
        claimed |= _stating_others(ctx, touched, str(write.written("title") or ""))
        free = [p for p in all_targets if p.start_index not in claimed]
        creates = [w for w in ctx.writes if w.kind == "create"]
        if len(creates) > 1 and free:
            own = _own_phrase(ctx, write, creates, free)
            if own is not None:
                return Binding([own], True)
        certain = reading.clean_binding and len(creates) == 1 and bool(free) and one_group(free)
        return Binding(_dedupe(free or all_targets), certain)
    mentions = ctx.mentions_for(write.event_id)
    if not mentions:
        certain = not reading.mentions and bool(all_targets) and one_group(all_targets)
        return Binding(all_targets, certain)
    targets = _dedupe([p for m in mentions for p in m.targets])
    if not targets:
        # the message names this event but gives it no phrase of its own ("... and put the dinner
        # right after it"): another event's phrase proves nothing about it
        return Binding([], False)
    # a second mention of the same event with no phrase of its own ("track practice ... maya has
    # a thing", where Maya's name is in the title) adds no other place for it to go
    speaking = {tuple(p.start_index for p in m.targets) for m in mentions if m.targets}
    # two names of one event sharing one phrase ("doctor for dadi pushed 2 hrs") are one mention
    certain = (reading.clean_binding and len(speaking) == 1 and one_group(targets))
    return Binding(targets, certain)


def _stating_others(ctx: CheckContext, touched: set[str], title: str) -> set[int]:
    """"swim carnival is fri 28th, athletics mon 31st and the excursion is wed 2nd sept. only the
    excursion needs adding": a day said right after the name of an event the calls leave alone,
    on which that event already is, states that event's day; it is no day for a new one."""
    out: set[int] = set()
    for mention in ctx.reading.mentions:
        best = mention.ref.best
        event = ctx.case.event(best) if mention.certain and best and best not in touched else None
        if event is None or _shares_a_word(event.title, title) or _shares_a_word(mention.ref.text, title) \
                or re.search(r"['\u2019]s$", mention.ref.text.strip()):  # "dinner at ah ma's on 14 nov": a place
            continue  # "book club is next sunday at 18:30, add it": the new one's own day
        if re.search(r"\b(?:before|after|between|and|around|near|following|during|until|till|since)\s+"
                     r"(?:(?:the|my|our|his|her|their|\w+['\u2019]s)\s+)?$",
                     ctx.reading.text[max(0, mention.ref.start - 30):mention.ref.start], re.I):
            continue  # "a car 2 hours before my flight friday": the new one is placed by it, on its day
        day = as_date(ctx.local(event.start))
        for phrase in mention.phrases:
            expr = phrase.expression
            if expr is None or not 0 <= phrase.start_index - mention.ref.end <= 4:
                continue
            if any(as_date(c.start) == day for c in expr.candidates):
                out.add(phrase.start_index)
    return out


def _shares_a_word(one: str, other: str) -> bool:
    words = {w for w in re.findall(r"[a-z]{3,}", one.casefold()) if is_content(w)}
    return bool(words & set(re.findall(r"[a-z]{3,}", other.casefold())))


def _title_at(text: str, title: str) -> int | None:
    """Where the message says a word of the created title ("plumber" in "mon 4-6 for the plumber")."""
    words = [w for w in re.findall(r"[a-z]{3,}", title.casefold()) if is_content(w)]
    found = [m.start() for w in words for m in re.finditer(rf"\b{re.escape(w)}", text, re.I)]
    return min(found) if found else None


def _own_phrase(ctx: CheckContext, write: WriteCall, creates: list[WriteCall], free: list[Phrase]) -> Phrase | None:
    """"mon 4-6 for the plumber, and tues 10-11 for the cable guy": with several creates, each
    create's phrase is the one nearest to where the message names it; settled only when every
    create has its own phrase, each phrase one day and time, and no two creates share one."""
    if len(free) != len(creates) or any(phrase_kind(p) != "datetime" for p in free):
        return None
    picks: dict[int, Phrase] = {}
    for create in creates:
        at = _title_at(ctx.reading.text, str(create.written("title") or ""))
        if at is None:
            return None
        picks[id(create)] = min(free, key=lambda p: min(abs(p.start_index - at), abs(p.end_index - at)))
    if len({id(p) for p in picks.values()}) != len(creates):
        return None
    return picks[id(write)]


def anchored_elsewhere(ctx: CheckContext, write: WriteCall) -> bool:
    """The write's time is said relative to another event ("put the dinner right after it"). A
    reference places the event named last before it (with no phrase of its own in between); one
    that follows no such mention places a new event (a create) or one the message does not name."""
    reading = ctx.reading
    placed: set[str] = set()
    unplaced = False
    for start, _end in reading.other_event_anchors:
        before = [m for m in reading.mentions if m.ref.start < start]
        last = max(before, key=lambda m: m.ref.start, default=None)
        between = [p for p in reading.phrases if last is not None and last.ref.end <= p.start_index < start]
        if last is None or between:
            unplaced = True
        else:  # an uncertain mention places every event it may name
            placed |= {last.ref.best} if last.certain and last.ref.best else set(last.ref.keys())
    if write.kind == "create" or not ctx.mentions_for(write.event_id):
        return unplaced
    return ctx.series_key(write.event_id) in placed
