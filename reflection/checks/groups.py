"""A delete of a group the message bounds by one day or part of a day ("cancel everything on
friday", "clear my afternoon on friday"): an event deleted that lies wholly outside every
reading of that span is one the message did not ask for. Which events inside it were meant is
for judgement (the group names none of them), so this check only ever proves the outside ones."""
from __future__ import annotations

from datetime import date, datetime, time, timedelta

from reflection.checks.context import CheckContext
from reflection.checks.dates import unread_date_words
from reflection.reading.request import DELETE_RE, Phrase
from reflection.wording import describe_when
from tools.calendar.events import Event

Span = tuple[datetime, datetime]
EDGE = timedelta(minutes=30)
"""How far past a part of the day's edge an event may start and still be in it ("clear my
afternoon": the 17:15 pickup may be meant; the 17:30 evening class is not)."""


def _spans(ctx: CheckContext, phrase: Phrase) -> list[Span] | None:
    """Every reading of the phrase as a stretch of time in the person's zone: a day is the whole
    day, a range its start to its end. None when a reading is a moment (no stretch to be in)."""
    expr = phrase.expression
    if expr is None or expr.kind not in ("date", "range") or not expr.candidates:
        return None
    out: list[Span] = []
    for cand in expr.candidates:
        start, end = cand.start, cand.end
        if isinstance(start, datetime) and isinstance(end, datetime):  # a part of a day: its edges loosely
            out.append((start.astimezone(ctx.tz) - EDGE, end.astimezone(ctx.tz) + EDGE))
        elif isinstance(start, date) and not isinstance(start, datetime):
            last = end if isinstance(end, date) and not isinstance(end, datetime) else start
            out.append((datetime.combine(start, time(0), ctx.tz),
                        datetime.combine(last + timedelta(days=1), time(0), ctx.tz)))
        else:
            return None
    return out


def _event_span(ctx: CheckContext, event: Event) -> Span:
    start, end = event.start, event.end
    if not isinstance(start, datetime):
        return (datetime.combine(start, time(0), ctx.tz), datetime.combine(end, time(0), ctx.tz))
    return (start.astimezone(ctx.tz), end.astimezone(ctx.tz) if isinstance(end, datetime) else start)


def check_group_span(ctx: CheckContext) -> None:
    reading = ctx.reading
    if not reading.group or not DELETE_RE.search(reading.text) or unread_date_words(ctx):
        return
    said = [p for p in reading.phrases if p.role != "negated"]
    if len(said) != 1 or said[0].shift is not None or said[0].day_relative is not None:
        return
    spans = _spans(ctx, said[0])
    if not spans:
        return
    for write in ctx.writes:
        if write.kind != "delete" or write.failed or ctx.is_flagged(write):
            continue
        event = ctx.event(write.event_id)
        if event is None or (event.recurrence and write.event_id == ctx.series_key(write.event_id)):
            continue  # a whole series: which of its days were meant is the scope check's
        lo, hi = _event_span(ctx, event)
        if any(lo < b and a < max(hi, lo + timedelta(minutes=1)) for a, b in spans):
            continue
        ctx.error(write, "event_id", f"'{said[0].text}' is {_describe(spans)}; the call deletes '{event.title}' "
                  f"({describe_when(event.start)}), which is outside it",
                  f"leave '{event.title}' as it was", said[0].text,
                  proof={"phrase": said[0].text,
                         "readings": [f"{a:%Y-%m-%d %H:%M}-{b:%Y-%m-%d %H:%M}" for a, b in spans],
                         "written": f"{lo:%Y-%m-%d %H:%M}-{hi:%Y-%m-%d %H:%M}"})


def _describe(spans: list[Span]) -> str:
    return " or ".join(f"{a:%A %Y-%m-%d}" if (b - a) == timedelta(days=1) and a.time() == time(0)
                       else f"{a + EDGE:%A %Y-%m-%d %H:%M} to {b - EDGE:%H:%M}" for a, b in spans)


__all__ = ["check_group_span"]
