"""The date grammar's pipeline behind reflection.resolver: scan (every rule over the text,
reflection.dates_scan) -> select (overlaps settled) -> group (adjacent atoms joined by connectors,
reflection.dates_group) -> combine (each group into one Expression, reflection.dates_combine).

The rules themselves, one handler per phrase family, live in dates_rules_date (dates),
dates_rules_time (times, parts of the day, zones) and dates_rules_span (offsets, durations,
recurrences); their calendar arithmetic in dates_calendar.
"""
from __future__ import annotations

from reflection.dates_combine import combine
from reflection.dates_group import group_atoms
from reflection.dates_result import Expression
from reflection.dates_scan import context, scan, select
from reflection.dates_types import Ctx


def find_expressions(text: str, ctx: Ctx) -> list[Expression]:
    """Every date/time expression of `text`, in text order."""
    ctx = context(text, ctx)
    out = []
    for g in group_atoms(select(scan(text, ctx)), text, ctx.move):
        e = combine(g, text, ctx)
        if e is not None:
            out.append(e)
    return out
