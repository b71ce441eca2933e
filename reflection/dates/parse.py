"""The date grammar's pipeline behind reflection.dates.resolver: scan (every rule over the text,
reflection.dates.scan) -> select (overlaps settled) -> group (adjacent atoms joined by connectors,
reflection.dates.group) -> combine (each group into one Expression, reflection.dates.combine).

The rules themselves, one handler per phrase family, live in dates.rules_date (dates),
dates.rules_time (times, parts of the day, zones) and dates.rules_span (offsets, durations,
recurrences); their calendar arithmetic in dates.arithmetic.
"""
from __future__ import annotations

from reflection.dates.combine import combine
from reflection.dates.group import group_atoms
from reflection.dates.result import Expression
from reflection.dates.scan import context, scan, select
from reflection.dates.values import Ctx


def find_expressions(text: str, ctx: Ctx) -> list[Expression]:
    """Every date/time expression of `text`, in text order."""
    ctx = context(text, ctx)
    out = []
    for g in group_atoms(select(scan(text, ctx)), text, ctx.move):
        e = combine(g, text, ctx)
        if e is not None:
            out.append(e)
    return out
