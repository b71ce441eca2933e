"""Scanning: run every rule of the grammar over the text, then settle overlapping atoms (longest
first, then by priority). Both steps are near-linear in the text's length: each rule is one
regex pass, and overlaps are checked against a sorted list of the spans already taken."""
from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Iterator

from reflection.dates.arithmetic import impossible
from reflection.dates.rule import Rule, rx
from reflection.dates.rules_date import DATE_RULES
from reflection.dates.rules_span import SPAN_RULES
from reflection.dates.rules_time import TIME_RULES
from reflection.dates.values import OUT_OF_RANGE, Atom, Ctx, OutOfRange

RULES: tuple[Rule, ...] = DATE_RULES + TIME_RULES + SPAN_RULES
MOVE_VERB = rx(r"\b(?:move|moving|moved|reschedul\w*|chang\w*|push\w*|shift\w*|bump\w*|switch\w*)\b")


def _apply(rule: Rule, m: re.Match[str], ctx: Ctx) -> Atom | None:
    """The rule's atom; date arithmetic past the calendar's range becomes a contradiction."""
    try:
        return rule.handler(m, ctx)
    except (OverflowError, OutOfRange, ValueError):
        return Atom(m.start(), m.end(), impossible(OUT_OF_RANGE), prio=0)


def _atoms_of(rule: Rule, text: str, ctx: Ctx) -> Iterator[Atom]:
    if not rule.retry:
        for m in rule.pattern.finditer(text):
            a = _apply(rule, m, ctx)
            if a is not None:
                yield a
        return
    pos = 0          # a rejected match does not hide a later overlapping one
    while True:
        found = rule.pattern.search(text, pos)
        if found is None:
            return
        a = _apply(rule, found, ctx)
        if a is None:
            pos = found.start() + 1
            continue
        yield a
        pos = max(found.end(), found.start() + 1)


def scan(text: str, ctx: Ctx) -> list[Atom]:
    """Every atom every rule finds, overlapping ones included."""
    return [a for rule in RULES for a in _atoms_of(rule, text, ctx)]


def select(atoms: list[Atom]) -> list[Atom]:
    """Non-overlapping atoms in text order: the longest wins, then the lower `prio`, then the
    earlier one."""
    starts: list[int] = []       # sorted starts of the taken (disjoint) spans
    ends: dict[int, int] = {}
    taken: list[Atom] = []
    for a in sorted(atoms, key=lambda a: (-(a.end - a.start), a.prio, a.start)):
        i = bisect_left(starts, a.start)
        if i < len(starts) and starts[i] < a.end:
            continue                     # a taken span starts inside this one
        if i > 0 and ends[starts[i - 1]] > a.start:
            continue                     # the taken span before reaches into this one
        insort(starts, a.start)
        ends[a.start] = a.end
        taken.append(a)
    taken.sort(key=lambda a: a.start)
    return taken


def context(text: str, ctx: Ctx) -> Ctx:
    """The scanning context: facts about the whole text computed once, not per rule."""
    return Ctx(now=ctx.now, tz=ctx.tz, today=ctx.today, text=text, move=MOVE_VERB.search(text) is not None)
