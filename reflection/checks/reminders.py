"""Reminders against what the person asked (CONTRACT 4 and 5): "remind me 30 min before", "an
hour before", "the day before" (1440 minutes), "no reminder".

A reminder asked is minutes before the start. A written list that lacks an asked reminder, adds
one nobody asked for, or a create (or an update that leaves the event's own reminders) with none
when one was asked, is a `reminder` error. Only the one write of the turn that can carry it is
judged; with several, which one the reminder belongs to is for judgement.
"""
from __future__ import annotations

from reflection.checks.context import CheckContext, WriteCall
from reflection.reading.reminders import SOME_RE


def check_reminders(ctx: CheckContext) -> None:
    asked = ctx.reading.reminders
    if asked is None:
        unread = bool(SOME_RE.search(ctx.reading.text))
        for write in _carriers(ctx):
            sets = bool(write.input.get("reminders"))
            if sets or changes_reminders(ctx, write):  # set, or cleared: an alert the person had is gone
                ctx.unsure(write, "the reminder asked is in words the policy does not read" if unread
                           else "it sets a reminder nobody asked for" if sets
                           else "it takes off a reminder nobody asked to remove")
        return
    carriers = _carriers(ctx)
    if len(carriers) != 1:
        for write in carriers:
            ctx.unsure(write, "which event the reminder is for is not certain")
        return
    write = carriers[0]
    written = _written(ctx, write)
    if written is None:
        ctx.unsure(write, "the event's own reminders are not known")
        return
    if not asked and _left_default(ctx, write):
        # absent is the calendar's default (CONTRACT 2): none on some calendars, a phone's
        # default alert on others; only [] says "no reminder" for sure
        ctx.unsure(write, "'no reminder' was asked and the call leaves the calendar's default reminders")
        return
    if sorted(set(written)) == asked:
        return
    said = "no reminder" if not asked else " and ".join(_words(m) for m in asked) + " before"
    got = "no reminder" if not written else " and ".join(_words(m) for m in sorted(set(written))) + " before"
    ctx.error(write, "reminder", f"the person asked for {said}; the call sets {got}",
              "set the reminders to " + (", ".join(str(m) for m in asked) or "none") + " minutes before",
              None, proof={"reminders_asked": asked, "reminders_written": sorted(set(written))})


def changes_reminders(ctx: CheckContext, write: WriteCall) -> bool:
    """Whether the write gives the event other reminders than it had: a create that names some
    (an empty list included: "none", not the calendar's default), an update whose list differs
    from the event's own (one with none of its own, the calendar's default, counts as having
    some only if the write names a list)."""
    if write.kind not in ("create", "update") or write.failed:
        return False
    given = write.input.get("reminders")
    if not isinstance(given, list):
        return False
    if write.kind == "create":
        return True
    event = ctx.event(write.event_id)
    before = getattr(event, "reminders", None) if event is not None else None
    return before is None or sorted(set(before)) != sorted({m for m in given if isinstance(m, int)})


def _carriers(ctx: CheckContext) -> list[WriteCall]:
    return [w for w in ctx.writes if w.kind in ("create", "update") and not w.failed]


def _left_default(ctx: CheckContext, write: WriteCall) -> bool:
    """Whether the event is left with the calendar's default reminders (no list of its own)."""
    if write.written("reminders") is not None:
        return False
    if write.kind == "create":
        return True
    event = ctx.event(write.event_id)
    return event is not None and getattr(event, "reminders", None) is None


def _written(ctx: CheckContext, write: WriteCall) -> list[int] | None:
    """The reminders the event has after the write; None when that cannot be known."""
    value = write.written("reminders")
    if value is None and write.kind == "update":
        event = ctx.event(write.event_id)
        value = getattr(event, "reminders", None) if event is not None else None
        if value is None:
            return None
        value = list(value)  # the event model keeps them as a tuple
    if value is None:
        return []  # a create with no reminders field: none asked of the calendar
    if not isinstance(value, list) or not all(isinstance(m, int) and not isinstance(m, bool) for m in value):
        return None
    return list(value)


def _words(minutes: int) -> str:
    if minutes and minutes % 1440 == 0:
        days = minutes // 1440
        return "a day" if days == 1 else f"{days} days"
    if minutes and minutes % 60 == 0:
        hours = minutes // 60
        return "an hour" if hours == 1 else f"{hours} hours"
    return f"{minutes} minutes"
