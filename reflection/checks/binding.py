"""Which of the person's phrases a write answers to, and whether that binding is certain.

An update answers to the phrases of the mention that names its event ("move soccer to Thursday
and the dentist to Friday": soccer to Thursday). A create answers to the phrases no changed event
claimed. When the words do not settle it (several mentions share phrases in a tangled way, the
event is named by no part of the message), the binding is uncertain: the write is then judged
against every phrase of the message together, which can still prove a date wrong but never verify
it.
"""
from __future__ import annotations

from dataclasses import dataclass

from reflection.checks.context import CheckContext, WriteCall
from reflection.reading.request import Phrase, one_group


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
        free = [p for p in all_targets if p.start_index not in claimed]
        creates = [w for w in ctx.writes if w.kind == "create"]
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
    speaking = [m for m in mentions if m.targets]
    certain = (reading.clean_binding and len(speaking) == 1 and one_group(targets))
    return Binding(targets, certain)


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
