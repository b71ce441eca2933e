"""Conflicts and duplicates against the calendar as it was (CONTRACT section 5, computed, no model).

`conflict`: a written timed event overlaps another timed event of the same calendar, or of
another calendar of the same person, or of a person the message asks a free time with
(transparent, cancelled and all-day events do not count): a warning, or an error when the person
asked for a free time. `duplicate`: a created event that already exists at that time with the same or a
near-same title: an error when the person asked to move it, else a warning.
"""
from __future__ import annotations

from datetime import datetime, timedelta

from rapidfuzz import fuzz

from reflection.checks.calendars import UNKNOWN_CALENDAR, Whose
from reflection.checks.context import CheckContext, WriteCall
from reflection.reading.event_refs import tokenize
from reflection.wording import describe_when
from tools.calendar.events import Event
from tools.calendar.occurrences import occurrences

NEAR_SAME_TITLE = 85.0


def _span(ctx: CheckContext, write: WriteCall) -> tuple[datetime, datetime] | None:
    current = ctx.event(write.event_id) if write.kind == "update" else None
    tz_name = write.input.get("timezone") or (current.timezone if current else None)
    if write.kind == "update" and "start" not in write.input and "end" not in write.input:
        return None
    start = ctx.read_when(write.written("start"), tz_name) if write.written("start") else (
        ctx.local(current.start) if current else None)
    end = ctx.read_when(write.written("end"), write.end_zone(tz_name, current)) if write.written("end") else None
    if end is None and isinstance(start, datetime):
        # a new event with no end lasts an hour (the tools' default, as event_from_contract)
        end = start + (current.duration if current is not None else timedelta(hours=1))
    if not isinstance(start, datetime) or not isinstance(end, datetime) or end <= start:
        return None
    return start, end


def _title_key(text: str) -> str:
    return " ".join(t.text for t in tokenize(text))


def _expanded(event: Event, start: datetime, end: datetime) -> list[Event]:
    """A series' occurrences inside [start, end); any other event as it is."""
    if not event.recurrence:
        return [event]
    out: list[Event] = []
    for original in occurrences(event, start, end):
        if isinstance(original, datetime):
            out.append(event.with_changes(start=original, end=original + event.duration, recurrence=None))
    return out


def _after_writes(ctx: CheckContext, write: WriteCall, whose: Whose) -> list[Event]:
    """The attempt's other writes as they left their events, each on its calendar: moved events
    at their new times, other new events (so a copy made beside a move is seen)."""
    out: list[Event] = []
    for other in ctx.writes:
        if other is write or other.failed or other.kind == "delete":
            continue
        span = _span(ctx, other)
        if span is None:
            continue
        current = ctx.event(other.event_id) if other.kind == "update" else None
        title = str(other.written("title") or (current.title if current is not None else ""))
        key = (ctx.series_key(other.event_id) if other.kind == "update" else "") or f"__new_{other.index}"
        out.append(Event(id=key, title=title, start=span[0], end=span[1], timezone=ctx.case.timezone,
                         calendar_id=whose.written_on(other) or UNKNOWN_CALENDAR))
    return out


def _counts(whose: Whose, write: WriteCall, written: str | None, other: str) -> bool | None:
    """Whether an event on calendar `other` can conflict with this write: on the same person's
    calendars, or on a calendar of someone the person asked a free time with ("when Maya and I
    are both free"); a family's other calendars overlap all the time, and that is no conflict.
    Where the calendars are not known by name, the write's own calendar, as before; and None
    (cannot tell) for another calendar when a free time was asked: it may be a person's asked."""
    book = whose.book
    if written is None or (other == UNKNOWN_CALENDAR and other not in book.calendars):
        calendar_id = write.input.get("calendar_id")
        return not calendar_id or other == calendar_id
    if book.same_person(written, other):
        return True
    if not whose.ctx.reading.free_time_asked:
        return False
    if other in whose.free_with:
        return True
    return None if not (book.knows(other) and book.knows(written)) else False


def _others(ctx: CheckContext, write: WriteCall, start: datetime, end: datetime,
            whose: Whose, unsure: list[Event] | None = None) -> list[Event]:
    """The events this write can conflict with; those on a calendar it cannot tell about go to
    `unsure`."""
    own = ctx.series_key(write.event_id) if write.event_id else None
    moved = {ctx.series_key(w.event_id) for w in ctx.writes if w.kind != "create" and not w.failed}
    written = whose.written_on(write)
    out = []
    around = ctx.case.around  # a bounded case: only the window's events near the span
    for event in ctx.case.calendar if around is None else around.near(start, end):
        key = event.recurring_event_id or event.id
        if key == own or key in moved or event.all_day or event.status == "cancelled":
            continue
        counts = _counts(whose, write, written, event.calendar_id)
        if counts is None and unsure is not None:
            unsure.extend(_expanded(event, start, end))
        if not counts:
            continue
        out.extend(_expanded(event, start, end))
    # "put date night on the family calendar and on Dan's": the same event on two people's
    # calendars is asked for, not a duplicate; the attempt's writes count as the calendar's do
    return out + [e for e in _after_writes(ctx, write, whose) if e.id != own
                  and _counts(whose, write, written, e.calendar_id)]


def check_overlaps(ctx: CheckContext) -> None:
    """Each overlap once (CONTRACT 5: the same problem is never reported twice): two events of
    one bulk update that now overlap each other are one conflict, and a duplicate is reported as
    a duplicate only, not also as a conflict."""
    seen: set[frozenset[str]] = set()
    whose = Whose(ctx)
    for write in ctx.writes:
        if write.failed or write.kind == "delete" or ctx.is_flagged(write):
            continue
        span = _span(ctx, write)
        if span is None or write.written("all_day"):
            continue
        start, end = span
        current = ctx.event(write.event_id)
        title = str(write.written("title") or (current.title if current is not None else ""))
        unknown: list[Event] = []
        for other in _others(ctx, write, start, end, whose, unknown):
            if not isinstance(other.start, datetime):
                continue
            o_start, o_end = other.start_instant, other.end_instant
            if not (start < o_end and o_start < end):
                continue
            pair = frozenset({ctx.series_key(write.event_id) if write.event_id else f"new:{title}:{start}",
                              other.recurring_event_id or other.id})
            if pair in seen:
                continue
            seen.add(pair)
            same = write.kind == "create" and abs(start - o_start).total_seconds() < 60 \
                and fuzz.token_set_ratio(_title_key(title), _title_key(other.title)) >= NEAR_SAME_TITLE
            when = describe_when(o_start.astimezone(ctx.tz))
            if same:
                key = other.recurring_event_id or other.id
                moved = any(w.kind == "update" and ctx.series_key(w.event_id) == key for w in ctx.writes)
                asked_move = moved or any("move" in m.verbs and "create" not in m.verbs
                                          for m in ctx.reading.mentions_of(key))
                ctx.add(write.index, "duplicate", "error" if asked_move else "warning",
                        f"'{other.title}' is already on the calendar at {when}; the call creates it again",
                        f"move the existing '{other.title}' instead" if asked_move else
                        "check whether it is the same event before adding it")
                continue  # reported once, as a duplicate (CONTRACT 5)
            ctx.add(write.index, "conflict", "error" if ctx.reading.free_time_asked and not same else "warning",
                    f"'{title}' overlaps '{other.title}' ({when})",
                    "find a free time with find_free_time" if ctx.reading.free_time_asked else
                    "mention the overlap to the person")
        if any(start < o.end_instant and o.start_instant < end for o in unknown
               if isinstance(o.start, datetime)):
            ctx.unsure(write, "a free time was asked, and it overlaps an event on a calendar not "
                              "known by name")
