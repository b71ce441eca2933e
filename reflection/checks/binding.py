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
    certain = (reading.clean_binding and len(mentions) == 1 and bool(targets) and one_group(targets))
    return Binding(targets or all_targets, certain and bool(targets))
