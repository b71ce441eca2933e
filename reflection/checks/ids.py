"""Ids: each changed or deleted event exists (or is an occurrence of a series), follows the
backend's id rules, and is named by the message. An id that does not exist is an error unless a
later call of the same tool succeeded on an existing event (the model recovered)."""
from __future__ import annotations

from reflection.checks.context import CheckContext, WriteCall
from reflection.findings import Fact
from reflection.wording import describe_day
from tools.calendar.events import as_date
from tools.calendar.occurrences import is_google_id

GOOGLE_ID_RULE = ("Google event ids use only the letters a-v and digits 0-9 (5 to 1024 characters), "
                  "or '<series id>_<YYYYMMDD[THHMMSSZ]>' for one occurrence")


def exists(ctx: CheckContext, event_id: str) -> bool:
    if not event_id:
        return False
    if ctx.case.backend == "google" and not is_google_id(event_id):
        return False
    return ctx.event(event_id) is not None or event_id in ctx.created_ids()


def _recovered_later(ctx: CheckContext, write: WriteCall) -> bool:
    for later in ctx.writes:
        if later.index > write.index and later.kind == write.kind and not later.failed \
                and exists(ctx, later.event_id):
            return True
    return False


def check_ids(ctx: CheckContext) -> None:
    for write in ctx.writes:
        if write.kind == "create":
            continue
        event_id = write.event_id
        if exists(ctx, event_id):
            event = ctx.event(event_id)
            if event is not None:
                ctx.facts.append(Fact("event", event_id, f"{event_id} is '{event.title}' on "
                                      f"{describe_day(as_date(ctx.local(event.start)))}"))
            continue
        rule = GOOGLE_ID_RULE if ctx.case.backend == "google" and not is_google_id(event_id) else None
        what = rule or f"event id {event_id!r} does not exist in the calendar"
        if _recovered_later(ctx, write):
            ctx.warning(write.index, "process", f"{what}; a later call used an existing event",
                        "look the id up with list_events before using it")
            ctx.flagged.add((write.index, write.sub))
        else:
            ctx.error(write, "event_id", what,
                      "call list_events and use the id of the event the person named")
