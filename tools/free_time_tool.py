"""The `find_free_time` tool (CONTRACT section 3): free slots across the chosen calendars.

The arithmetic is `tools.calendar.free_time`; the busy times come from `CalendarBackend.free_busy`. What
this adds is reading the input and saying the answer: slots in the person's zone, and every
calendar that could not be read named, with the instruction to tell the person those were not
checked, so a failed read is never passed off as free time.
"""
from __future__ import annotations

from datetime import datetime, time, timedelta
from typing import Any

from tools.calendar.events import EventFieldError, format_when, local_start_of, parse_when, zone
from tools.calendar.free_time import DailyHours, Interval, free_slots
from tools.context import ToolContext, ToolResult
from tools.definitions import FREE_TIME_MAX_DAYS as MAX_DAYS
from tools.fence import clean_text

MAX_SLOTS = 30
"""Slots reported at most; the model is told to narrow the range for more."""


def _bound(ctx: ToolContext, args: dict[str, Any], field: str) -> datetime:
    tz = zone(ctx.timezone)
    return local_start_of(parse_when(args[field], tz, field), tz)


def _calendar_names(ctx: ToolContext, calendar_ids: list[str]) -> dict[str, str]:
    """What the family calls each calendar (its id when the backend cannot say)."""
    try:
        infos = ctx.backend.calendars()
    except Exception:  # noqa: BLE001 - names are a courtesy; the ids still identify them
        infos = []
    names = {c.id: c.name for c in infos}
    primary = next((c.name for c in infos if c.primary), None)
    if primary:
        names.setdefault(ctx.backend.primary_calendar_id(), primary)
        names.setdefault("primary", primary)
    return {c: clean_text(names.get(c) or c, 80) for c in calendar_ids}


def _row(slot: Interval, tz_name: str) -> str:
    """`Fri 2025-10-24 09:00-12:00 (3 h)` in the person's zone; midnight closing a day is 24:00."""
    tz = zone(tz_name)
    start, end = slot[0].astimezone(tz), slot[1].astimezone(tz)
    hours, minutes = divmod(int((slot[1] - slot[0]).total_seconds() // 60), 60)
    length = " ".join(p for p in (f"{hours} h" if hours else "",
                                  f"{minutes} min" if minutes else "") if p)
    if start.date() == end.date():
        until = f"{end:%H:%M}"
    elif end.time() == time(0) and end.date() == start.date() + timedelta(days=1):
        until = "24:00"
    else:
        return f"{start:%a %Y-%m-%d %H:%M} to {end:%a %Y-%m-%d %H:%M} ({length})"
    return f"{start:%a %Y-%m-%d %H:%M}-{until} ({length})"


def find_free_time(ctx: ToolContext, args: dict[str, Any]) -> ToolResult:
    start, end = _bound(ctx, args, "start"), _bound(ctx, args, "end")
    if end <= start:
        raise EventFieldError("end", "the range ends before it starts")
    if end - start > timedelta(days=MAX_DAYS):
        raise EventFieldError("end", f"search at most {MAX_DAYS} days at a time")
    duration = timedelta(minutes=int(args["duration_minutes"]))
    hours = None
    if args.get("between"):
        try:
            hours = DailyHours.parse(str(args["between"]))
        except ValueError as exc:
            raise EventFieldError("between", str(exc)) from None
    calendar_ids = list(dict.fromkeys(args.get("calendar_ids") or [ctx.calendar_id]))
    names = _calendar_names(ctx, calendar_ids)
    answer = ctx.backend.free_busy(calendar_ids, start, end)
    unreadable = [names[c] for c in calendar_ids if c in answer.unreadable]
    checked = [names[c] for c in calendar_ids if c in answer.busy]
    slots = free_slots(start, end, answer.all_busy(), duration, zone(ctx.timezone), hours) \
        if checked else []
    shown = slots[:MAX_SLOTS]
    data: dict[str, Any] = {
        "slots": [{"start": format_when(s.astimezone(zone(ctx.timezone))),
                   "end": format_when(e.astimezone(zone(ctx.timezone)))} for s, e in shown],
        "total": len(slots), "checked": checked, "unreadable": unreadable,
        "reasons": {names[c]: clean_text(r, 200) for c, r in answer.unreadable.items()}}
    within = f" within {hours.label()} each day" if hours else ""
    span = f"from {format_when(start)} to {format_when(end)}{within} (times in {ctx.timezone})"
    lines: list[str] = []
    if not checked:
        lines.append(f"No calendar could be read {span}, so no time can be called free. Tell "
                     "the person their calendar could not be checked; do not offer a time.")
    elif not slots:
        lines.append(f"No free stretch of {args['duration_minutes']} min {span} on "
                     f"{', '.join(checked)}.")
    else:
        lines.append(f"{len(slots)} free {'stretch' if len(slots) == 1 else 'stretches'} "
                     f"of at least {args['duration_minutes']} min "
                     f"{span} on {', '.join(checked)}:")
        lines += [_row(s, ctx.timezone) for s in shown]
        if len(slots) > len(shown):
            lines.append(f"{len(slots) - len(shown)} more: narrow the range to see them.")
    if unreadable and checked:
        lines.append("NOT CHECKED (could not be read): " + ", ".join(
            f"{names[c]} ({clean_text(answer.unreadable[c], 120)})" for c in calendar_ids
            if c in answer.unreadable)
            + ". These times are free only on the calendars checked: tell the person the "
            "others were not checked, never that the time is free for them.")
    elif unreadable:
        lines.append("Not read: " + ", ".join(
            f"{names[c]} ({clean_text(answer.unreadable[c], 120)})" for c in calendar_ids
            if c in answer.unreadable) + ".")
    return ToolResult(text="\n".join(lines), data=data)
